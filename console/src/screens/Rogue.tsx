import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { Empty, Loading, PageHeader, ProblemView } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { clean } from '../lib/search';
import { formatTime, isoToLocalInput, localInputToIso, zoneLabel } from '../lib/time';

export function Rogue({ search }: { search: Record<string, string | undefined> }) {
  const { zone } = usePrefs();
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: ['rogue', search],
    queryFn: () =>
      call(
        api.GET('/api/v1/rogue-events', {
          params: { query: clean({ ...search, limit: 50 as unknown as string }) as never },
        }),
      ),
  });
  const set = (p: Record<string, string | undefined>) =>
    void navigate({ to: '/rogue', search: clean({ ...search, ...p }) as never });
  const [f, setF] = useState(search);
  useEffect(() => setF(search), [search]);
  const items = q.data?.items ?? [];
  return (
    <div>
      <PageHeader title="Rogue events" />
      <form
        aria-label="Filters"
        className="flex flex-wrap items-end gap-3 border-b border-line px-4 py-3"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          set({
            agent_key: f.agent_key || undefined,
            event_type: f.event_type || undefined,
            since: f.since,
            until: f.until,
            cursor: undefined,
          });
        }}
      >
        <div>
          <label className="label" htmlFor="rg-agent">
            Agent
          </label>
          <input
            id="rg-agent"
            className="input"
            value={f.agent_key ?? ''}
            onChange={(e) => setF({ ...f, agent_key: e.target.value })}
          />
        </div>
        <div>
          <label className="label" htmlFor="rg-type">
            Event type
          </label>
          <input
            id="rg-type"
            className="input"
            value={f.event_type ?? ''}
            onChange={(e) => setF({ ...f, event_type: e.target.value })}
          />
        </div>
        <div>
          <label className="label" htmlFor="rg-since">
            From ({zoneLabel(zone)}, inclusive)
          </label>
          <input
            id="rg-since"
            type="datetime-local"
            className="input"
            value={isoToLocalInput(f.since, zone)}
            onChange={(e) => setF({ ...f, since: localInputToIso(e.target.value, zone) })}
          />
        </div>
        <div>
          <label className="label" htmlFor="rg-until">
            To (exclusive)
          </label>
          <input
            id="rg-until"
            type="datetime-local"
            className="input"
            value={isoToLocalInput(f.until, zone)}
            onChange={(e) => setF({ ...f, until: localInputToIso(e.target.value, zone) })}
          />
        </div>
        <button className="btn btn-primary">Apply filters</button>
      </form>
      {q.error ? (
        <ProblemView error={q.error} retry={() => void q.refetch()} />
      ) : q.isLoading ? (
        <Loading />
      ) : items.length === 0 ? (
        <Empty title="No rogue events">
          Out-of-scope actions reported by agents or detected at ingest appear here.
        </Empty>
      ) : (
        <div className="overflow-x-auto" role="region" aria-label="Rogue events table" tabIndex={0}>
          <table className="data">
            <caption className="sr-only">Rogue events, newest first</caption>
            <thead>
              <tr>
                <th scope="col" aria-sort="descending">
                  Time ({zoneLabel(zone)})
                </th>
                <th scope="col">Type</th>
                <th scope="col">Agent</th>
                <th scope="col">Tool</th>
                <th scope="col">Severity</th>
                <th scope="col">Invocation</th>
                <th scope="col">Evidence</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.rogue_event_id}>
                  <td className="whitespace-nowrap tabular-nums">{formatTime(r.created_at, zone)}</td>
                  <td className="mono">{r.event_type}</td>
                  <td className="mono">{r.agent_key}</td>
                  <td className="mono">{r.tool ?? '—'}</td>
                  <td>{r.severity ?? '—'}</td>
                  <td>
                    {r.invocation_id ? (
                      <a
                        className="mono text-accent underline"
                        href={`/console/invocations?selected=${r.invocation_id}`}
                      >
                        #{r.invocation_id}
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="mono">{r.evidence_id}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Pages" className="flex gap-2 px-4 py-3">
            <button
              type="button"
              className="btn btn-sm"
              disabled={!search.cursor}
              onClick={() => set({ cursor: undefined })}
            >
              ⇤ Newest
            </button>
            <button
              type="button"
              className="btn btn-sm"
              disabled={!q.data?.next_cursor}
              onClick={() => set({ cursor: q.data!.next_cursor! })}
            >
              Older →
            </button>
          </nav>
        </div>
      )}
    </div>
  );
}
