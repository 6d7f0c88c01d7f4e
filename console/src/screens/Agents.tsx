import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, call } from '../api/client';
import { Empty, Loading, PageHeader, ProblemView, useAnnounce } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { can } from '../lib/roles';
import { clean } from '../lib/search';
import { useSession } from '../lib/session';
import { formatNumber, formatTime, zoneLabel } from '../lib/time';
import { FirstSteps } from './FirstSteps';

export function Agents({ search }: { search: Record<string, string | undefined> }) {
  const { zone } = usePrefs();
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: ['agents', search.cursor],
    queryFn: () =>
      call(
        api.GET('/api/v1/agents', {
          params: { query: clean({ cursor: search.cursor, limit: 50 as unknown as string }) as never },
        }),
      ),
  });
  const set = (p: Record<string, string | undefined>) =>
    void navigate({ to: '/agents', search: clean({ ...search, ...p }) as never });
  const items = q.data?.items ?? [];
  return (
    <div className="flex">
      <div className="min-w-0 flex-1">
        <PageHeader title="Agents" />
        {q.error ? (
          <ProblemView error={q.error} retry={() => void q.refetch()} />
        ) : q.isLoading ? (
          <Loading />
        ) : items.length === 0 ? (
          <FirstSteps />
        ) : (
          <div className="overflow-x-auto" role="region" aria-label="Agents table" tabIndex={0}>
            <table className="data">
              <caption className="sr-only">Agents in agent key order</caption>
              <thead>
                <tr>
                  <th scope="col" aria-sort="ascending">
                    Agent
                  </th>
                  <th scope="col" className="text-right">
                    Risk (0-100)
                  </th>
                  <th scope="col" className="text-right">
                    Invocations
                  </th>
                  <th scope="col" className="text-right">
                    Rogue events
                  </th>
                  <th scope="col">First seen ({zoneLabel(zone)})</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <tr key={a.agent_key} aria-selected={search.selected === a.agent_key}>
                    <td>
                      <button
                        type="button"
                        className="mono text-accent underline-offset-2 hover:underline"
                        onClick={() => set({ selected: a.agent_key })}
                      >
                        {a.agent_key}
                      </button>
                    </td>
                    <td className="num">{a.risk_score}</td>
                    <td className="num">{formatNumber(a.invocations)}</td>
                    <td className="num">{formatNumber(a.rogue_events)}</td>
                    <td className="tabular-nums">{formatTime(a.first_seen_at, zone)}</td>
                    <td className="tabular-nums">{formatTime(a.last_seen_at, zone)}</td>
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
                ⇤ First
              </button>
              <button
                type="button"
                className="btn btn-sm"
                disabled={!q.data?.next_cursor}
                onClick={() => set({ cursor: q.data!.next_cursor! })}
              >
                Next →
              </button>
            </nav>
          </div>
        )}
      </div>
      {search.selected && (
        <aside aria-label={`Agent ${search.selected}`} className="w-[40%] min-w-[340px] border-l border-line bg-raised">
          <AgentDetail agentKey={search.selected} onClose={() => set({ selected: undefined })} />
        </aside>
      )}
    </div>
  );
}

function AgentDetail({ agentKey, onClose }: { agentKey: string; onClose: () => void }) {
  const s = useSession();
  const { zone } = usePrefs();
  const qc = useQueryClient();
  const announce = useAnnounce();
  const q = useQuery({
    queryKey: ['agent', agentKey],
    queryFn: () => call(api.GET('/api/v1/agents/{agent_key}', { params: { path: { agent_key: agentKey } } })),
  });
  const [tools, setTools] = useState('');
  const [unrestricted, setUnrestricted] = useState(true);
  useEffect(() => {
    if (q.data) {
      setUnrestricted(q.data.allowed_tools === null);
      setTools((q.data.allowed_tools ?? []).join('\n'));
    }
  }, [q.data]);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/api/v1/agents/{agent_key}/scope', {
          params: { path: { agent_key: agentKey } },
          body: {
            allowed_tools: unrestricted
              ? null
              : tools
                  .split('\n')
                  .map((t) => t.trim())
                  .filter(Boolean),
          } as never,
        }),
      ),
    onSuccess: () => {
      announce('Scope saved.');
      void qc.invalidateQueries({ queryKey: ['agent', agentKey] });
    },
  });
  if (q.isLoading) return <Loading />;
  if (q.error) return <ProblemView error={q.error} />;
  const a = q.data!;
  return (
    <div className="space-y-4 p-4">
      <div className="flex items-start justify-between">
        <h2 className="font-mono text-lg font-semibold break-all">{a.agent_key}</h2>
        <button type="button" className="btn btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted">Risk</dt>
        <dd>{a.risk.score} of 100</dd>
        <dt className="text-muted">Invocations</dt>
        <dd>
          {formatNumber(a.invocations)} ({formatNumber(a.by_verdict.allow)} allowed,{' '}
          {formatNumber(a.by_verdict.flag_for_review)} flagged, {formatNumber(a.by_verdict.deny)} denied)
        </dd>
        <dt className="text-muted">PII findings</dt>
        <dd>{formatNumber(a.pii_findings)}</dd>
        <dt className="text-muted">Rogue events</dt>
        <dd>{formatNumber(a.rogue_events.total)}</dd>
        <dt className="text-muted">First seen</dt>
        <dd>{formatTime(a.first_seen_at, zone)}</dd>
        <dt className="text-muted">Last seen</dt>
        <dd>{formatTime(a.last_seen_at, zone)}</dd>
      </dl>
      <section aria-labelledby="scope-h" className="space-y-2">
        <h3 id="scope-h" className="font-semibold">
          Scope
        </h3>
        {can.scope(s.account.role) ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
            className="space-y-2"
          >
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={unrestricted} onChange={(e) => setUnrestricted(e.target.checked)} /> Any
              tool (unrestricted)
            </label>
            {!unrestricted && (
              <div>
                <label className="label" htmlFor="scope-tools">
                  Allowed tools, one per line (globs: * and ?)
                </label>
                <textarea
                  id="scope-tools"
                  className="textarea"
                  value={tools}
                  onChange={(e) => setTools(e.target.value)}
                />
              </div>
            )}
            {save.error && <ProblemView error={save.error} />}
            <button className="btn btn-primary" disabled={save.isPending}>
              Save scope
            </button>
          </form>
        ) : (
          <p>
            {a.allowed_tools === null ? 'Any tool (unrestricted).' : a.allowed_tools.join(', ') || 'No tool.'}{' '}
            <span className="text-muted">Admins and operators edit scopes.</span>
          </p>
        )}
      </section>
    </div>
  );
}
