import { useState, type FormEvent } from 'react';
import { fetchRaw } from '../api/client';
import { CopyButton, NotAllowed, PageHeader, ProblemView, useAnnounce } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { can, roleNames } from '../lib/roles';
import { useSession } from '../lib/session';
import { localInputToIso, zoneLabel } from '../lib/time';

function defaultRange(): { from: string; to: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const d = (x: Date) => x.toISOString().slice(0, 16);
  return { from: d(first), to: d(next) };
}

/** Compliance reports for a period, as JSON, CSV or PDF, with the command that verifies the JSON. */
export function Reports() {
  const s = useSession();
  const { zone } = usePrefs();
  const announce = useAnnounce();
  const [range, setRange] = useState(defaultRange);
  const [format, setFormat] = useState<'json' | 'csv' | 'pdf'>('json');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  if (!can.reports(s.account.role))
    return (
      <div>
        <PageHeader title="Reports" />
        <NotAllowed role={roleNames[s.account.role]} what="download compliance reports (admins and auditors can)" />
      </div>
    );

  async function download(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const from = localInputToIso(range.from, zone)!;
      const to = localInputToIso(range.to, zone)!;
      const res = await fetchRaw(`/api/v1/reports/compliance?${new URLSearchParams({ from, to, format })}`);
      const blob = await res.blob();
      const name = `compliance-${from.slice(0, 10)}-${to.slice(0, 10)}.${format}`;
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setSaved(name);
      announce(`Report ${name} downloaded.`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const verifyCmd = `npx agent-ledger verify --url ${window.location.origin} --token $TOKEN --key "$KEY" --report ${saved && saved.endsWith('.json') ? saved : 'report.json'}`;
  return (
    <div>
      <PageHeader title="Reports" />
      <form onSubmit={download} className="card m-4 max-w-2xl space-y-4 p-4" aria-label="Compliance report">
        <p className="text-muted">
          Counts of invocations, verdicts, reviews and rogue events for a period, signed into the audit trail so the
          numbers can be recounted.
        </p>
        <div className="flex flex-wrap gap-3">
          <div>
            <label className="label" htmlFor="rep-from">
              From ({zoneLabel(zone)}, inclusive)
            </label>
            <input
              id="rep-from"
              type="datetime-local"
              className="input"
              value={range.from}
              onChange={(e) => setRange({ ...range, from: e.target.value })}
              required
            />
          </div>
          <div>
            <label className="label" htmlFor="rep-to">
              To (exclusive)
            </label>
            <input
              id="rep-to"
              type="datetime-local"
              className="input"
              value={range.to}
              onChange={(e) => setRange({ ...range, to: e.target.value })}
              required
            />
          </div>
          <fieldset>
            <legend className="label">Format</legend>
            <div className="flex gap-3">
              {(['json', 'csv', 'pdf'] as const).map((f) => (
                <label key={f} className="flex items-center gap-1">
                  <input type="radio" name="format" value={f} checked={format === f} onChange={() => setFormat(f)} />{' '}
                  {f.toUpperCase()}
                </label>
              ))}
            </div>
          </fieldset>
        </div>
        {error !== null && <ProblemView error={error} />}
        <button className="btn btn-primary" disabled={busy}>
          {busy ? 'Preparing…' : 'Download report'}
        </button>
        {saved && <p role="status">Saved {saved}.</p>}
        <div>
          <p className="label">Verify a JSON report against the audit trail</p>
          <pre tabIndex={0} className="mono overflow-x-auto rounded border border-line bg-surface p-2">
            {verifyCmd}
          </pre>
          <CopyButton text={verifyCmd} label="Copy command" />
        </div>
      </form>
    </div>
  );
}
