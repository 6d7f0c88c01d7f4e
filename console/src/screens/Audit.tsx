import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call, fetchRaw } from '../api/client';
import { CopyButton, Hash, Loading, PageHeader, ProblemView, useAnnounce } from '../components/ui';
import { useLogIdentity } from '../lib/logkeys';
import { usePrefs } from '../lib/prefs';
import { formatTime, zoneLabel } from '../lib/time';
import {
  b64decode,
  b64encode,
  leafHash,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
  type Checkpoint,
} from '../lib/verify';

const SEEN_KEY = (origin: string) => `al.checkpoint.${origin}`;

interface CheckState {
  cp: Checkpoint;
  text: string;
  consistency: { status: 'first' | 'ok' | 'fail'; from?: number; why?: string };
}

/** Log identity, the latest checkpoint verified here, consistency with the last one this browser saw, and an entry browser. */
export function Audit({ search }: { search: Record<string, string | undefined> }) {
  const ident = useLogIdentity();
  const announce = useAnnounce();
  const { zone } = usePrefs();
  const check = useQuery({
    queryKey: ['audit-check'],
    enabled: !!ident.data,
    queryFn: async (): Promise<CheckState> => {
      const id = ident.data!;
      const text = await (await fetchRaw('/api/v1/audit/checkpoint')).text();
      const cp = await verifyCheckpoint(text, id.all, id.origin);
      const seenRaw = localStorage.getItem(SEEN_KEY(id.origin));
      let consistency: CheckState['consistency'] = { status: 'first' };
      if (seenRaw) {
        const seen = JSON.parse(seenRaw) as { size: number; root: string };
        try {
          const proof =
            seen.size > 0 && seen.size < cp.size
              ? (
                  await call(
                    api.GET('/api/v1/audit/proof/consistency', {
                      params: { query: { first: seen.size, second: cp.size } },
                    }),
                  )
                ).hashes
              : [];
          await verifyConsistency(seen.size, cp.size, b64decode(seen.root), cp.root, proof);
          consistency = { status: 'ok', from: seen.size };
        } catch (e) {
          consistency = { status: 'fail', from: seen.size, why: e instanceof Error ? e.message : String(e) };
        }
      }
      // Remember only a checkpoint that verified and extends the one seen before.
      if (consistency.status !== 'fail')
        localStorage.setItem(SEEN_KEY(id.origin), JSON.stringify({ size: cp.size, root: b64encode(cp.root) }));
      announce(
        consistency.status === 'fail'
          ? 'Warning: the log is not an extension of the checkpoint this browser saw before.'
          : `Checkpoint of size ${cp.size} verified in this browser.`,
      );
      return { cp, text, consistency };
    },
    retry: false,
  });

  return (
    <div>
      <PageHeader title="Audit trail" />
      <div className="grid gap-4 p-4 xl:grid-cols-2">
        <section className="card p-4" aria-labelledby="ident-h">
          <h2 id="ident-h" className="font-semibold">
            Log identity
          </h2>
          {ident.isLoading ? (
            <Loading rows={3} />
          ) : ident.error ? (
            <ProblemView error={ident.error} />
          ) : (
            <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
              <dt className="text-muted">Origin</dt>
              <dd className="mono break-all">{ident.data!.origin}</dd>
              <dt className="text-muted">Verifier key</dt>
              <dd className="mono break-all">
                {ident.data!.key.text} <CopyButton text={ident.data!.key.text} />
              </dd>
              <dt className="text-muted">Key fingerprint (SHA-256)</dt>
              <dd>
                <Hash value={ident.data!.fingerprint} keep={12} />
              </dd>
              <dt className="text-muted">Rotated-out keys</dt>
              <dd>
                {ident.data!.previous.length
                  ? ident.data!.previous.map((k) => (
                      <div key={k.text} className="mono break-all">
                        {k.text}
                      </div>
                    ))
                  : 'none'}
              </dd>
            </dl>
          )}
        </section>
        <section className="card p-4" aria-labelledby="cp-h">
          <h2 id="cp-h" className="font-semibold">
            Latest checkpoint
          </h2>
          {check.isLoading || ident.isLoading ? (
            <Loading rows={3} label="Verifying the checkpoint" />
          ) : check.error ? (
            <div
              role="alert"
              className="mt-2 rounded border border-deny bg-deny-bg p-2"
              data-testid="checkpoint-failed"
            >
              <p className="font-semibold text-deny">✕ The checkpoint did not verify</p>
              <p>{check.error instanceof Error ? check.error.message : String(check.error)}</p>
            </div>
          ) : (
            <div className="mt-2 space-y-2">
              <p className="font-semibold text-allow" data-testid="checkpoint-verified">
                <span aria-hidden="true">✓ </span>Signature verified in this browser (Ed25519, WebCrypto)
              </p>
              <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
                <dt className="text-muted">Entries</dt>
                <dd className="tabular-nums">{check.data!.cp.size}</dd>
                <dt className="text-muted">Root hash</dt>
                <dd>
                  <Hash value={b64encode(check.data!.cp.root)} />
                </dd>
                <dt className="text-muted">Fetched</dt>
                <dd>{formatTime(new Date(check.dataUpdatedAt), zone)}</dd>
              </dl>
              {check.data!.consistency.status === 'first' && (
                <p className="text-muted">
                  This browser had not seen this log before; it keeps this checkpoint to check the next one against.
                </p>
              )}
              {check.data!.consistency.status === 'ok' && (
                <p className="text-allow" data-testid="consistency-ok">
                  <span aria-hidden="true">✓ </span>Consistent with the checkpoint of size{' '}
                  {check.data!.consistency.from} this browser saw before (the log only grew).
                </p>
              )}
              {check.data!.consistency.status === 'fail' && (
                <div
                  role="alert"
                  className="rounded border border-deny bg-deny-bg p-2"
                  data-testid="consistency-failed"
                >
                  <p className="font-semibold text-deny">
                    ✕ The log is not an extension of the checkpoint this browser saw (size{' '}
                    {check.data!.consistency.from})
                  </p>
                  <p>
                    {check.data!.consistency.why} Entries may have been removed or rewritten. Keep the old checkpoint
                    and verify with the CLI.
                  </p>
                </div>
              )}
              <details>
                <summary className="cursor-pointer text-sm">Signed note</summary>
                <pre tabIndex={0} className="mono mt-1 overflow-x-auto rounded bg-surface p-2">
                  {check.data!.text}
                </pre>
              </details>
            </div>
          )}
        </section>
      </div>
      <section className="mx-4 rounded-lg border border-line-strong bg-surface p-4" aria-labelledby="honest-h">
        <h2 id="honest-h" className="font-semibold">
          What this check proves
        </h2>
        <p className="mt-1">
          These checks run code served by this service: a service that lies could also serve code that lies. For an
          independent check, pin the verifier key above and verify with the CLI, or download a bundle and verify it
          offline:
        </p>
        <pre
          tabIndex={0}
          className="mono mt-2 overflow-x-auto rounded border border-line bg-raised p-2"
        >{`npx agent-ledger verify --url ${window.location.origin} --token $TOKEN --key "${ident.data?.key.text ?? '$KEY'}" --since cp.txt
npx agent-ledger verify --url ${window.location.origin} --token $TOKEN --key "$KEY" --export bundle.json`}</pre>
      </section>
      <Entries size={check.data?.cp.size ?? null} root={check.data?.cp.root ?? null} start={search.start} />
    </div>
  );
}

function Entries({ size, root, start }: { size: number | null; root: Uint8Array | null; start: string | undefined }) {
  const prefs = usePrefs();
  const navigate = useNavigate();
  const announce = useAnnounce();
  const PAGE = 25;
  const end = size === null ? 0 : start !== undefined ? Math.min(size, Number(start) + PAGE) : size;
  const from = Math.max(0, end - PAGE);
  const q = useQuery({
    queryKey: ['audit-entries', from, end],
    enabled: size !== null && end > from,
    queryFn: () => call(api.GET('/api/v1/audit/entries', { params: { query: { start: from, end } } })),
  });
  const [verified, setVerified] = useState<Record<number, string>>({});
  async function verify(index: number, leaf: string) {
    try {
      const proof = await call(
        api.GET('/api/v1/audit/proof/inclusion', { params: { query: { index, tree_size: size! } } }),
      );
      await verifyInclusion(index, size!, await leafHash(leaf), proof.hashes, root!);
      setVerified((v) => ({ ...v, [index]: 'ok' }));
      announce(`Entry ${index} is included in the verified checkpoint.`);
    } catch (e) {
      setVerified((v) => ({ ...v, [index]: e instanceof Error ? e.message : String(e) }));
      announce(`Entry ${index} did not verify.`);
    }
  }
  if (size === null) return null;
  const rows = [...(q.data?.entries ?? [])].reverse();
  return (
    <section className="p-4" aria-labelledby="entries-h">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="entries-h" className="font-semibold">
          Entries {from}–{Math.max(from, end - 1)} of {size}
        </h2>
        <nav aria-label="Entry pages" className="flex gap-2">
          <button
            type="button"
            className="btn btn-sm"
            disabled={end >= size}
            onClick={() => void navigate({ to: '/audit', search: {} })}
          >
            ⇤ Latest
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={end >= size}
            onClick={() =>
              void navigate({ to: '/audit', search: { start: String(Math.min(size - PAGE, from + PAGE)) } as never })
            }
          >
            Newer
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={from === 0}
            onClick={() =>
              void navigate({ to: '/audit', search: { start: String(Math.max(0, from - PAGE)) } as never })
            }
          >
            Older
          </button>
        </nav>
      </div>
      {q.isLoading ? (
        <Loading />
      ) : q.error ? (
        <ProblemView error={q.error} />
      ) : (
        <div className="mt-2 overflow-x-auto" role="region" aria-label="Audit entries" tabIndex={0}>
          <table className="data nowrap">
            <caption className="sr-only">Audit-trail entries, newest first</caption>
            <thead>
              <tr>
                <th scope="col" aria-sort="descending" className="num">
                  Index
                </th>
                <th scope="col">Kind</th>
                <th scope="col">Time ({zoneLabel(prefs.zone)})</th>
                <th scope="col">Leaf hash</th>
                <th scope="col">Inclusion</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => {
                let parsed: { kind?: string; time?: string } = {};
                try {
                  parsed = JSON.parse(e.leaf);
                } catch {
                  /* shown raw */
                }
                const v = verified[e.index];
                return (
                  <tr key={e.index}>
                    <td className="num mono">{e.index}</td>
                    <td className="mono">{parsed.kind ?? '?'}</td>
                    <td className="whitespace-nowrap tabular-nums">{formatTime(parsed.time ?? null, prefs.zone)}</td>
                    <td>
                      <Hash value={e.leaf_hash} />
                    </td>
                    <td>
                      {v === 'ok' ? (
                        <span className="text-allow" data-testid={`included-${e.index}`}>
                          ✓ Verified in this browser
                        </span>
                      ) : v ? (
                        <span className="text-deny" role="alert">
                          ✕ {v}
                        </span>
                      ) : (
                        <button
                          type="button"
                          className="btn btn-sm"
                          onClick={() => void verify(e.index, e.leaf)}
                          aria-label={`Verify the inclusion of entry ${e.index}`}
                        >
                          Verify
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
