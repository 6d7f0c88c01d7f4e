import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { api, call } from '../api/client';
import { TimeChart } from '../components/Chart';
import { Loading, PageHeader, ProblemView } from '../components/ui';
import { usePrefs } from '../lib/prefs';
import { useMe } from '../lib/session';
import { formatNumber, formatTime, zoneLabel } from '../lib/time';
import { FirstSteps } from './FirstSteps';
import { Quotas } from './Settings';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Events by verdict per hour (last 24 hours) or per day (last 30 days), counted by the server. */
export function Overview({ search }: { search: Record<string, string | undefined> }) {
  const { zone } = usePrefs();
  const navigate = useNavigate();
  const me = useMe();
  const range = search.range === '30d' ? '30d' : '24h';
  const bucket = range === '30d' ? 'day' : 'hour';
  const { since, until } = useMemo(() => {
    const step = bucket === 'day' ? DAY : HOUR;
    const end = Math.floor(Date.now() / step) * step + step;
    return {
      since: new Date(end - (bucket === 'day' ? 30 : 24) * step).toISOString(),
      until: new Date(end).toISOString(),
    };
  }, [bucket]);
  const stats = useQuery({
    queryKey: ['overview-stats', since, until, bucket],
    queryFn: () => call(api.GET('/api/v1/invocations/stats', { params: { query: { since, until, bucket } } })),
  });
  const pending = useQuery({
    queryKey: ['overview-pending'],
    queryFn: () => call(api.GET('/api/v1/reviews', { params: { query: { status: 'pending', limit: 100 } as never } })),
  });
  const rogue = useQuery({
    queryKey: ['overview-rogue'],
    queryFn: () => call(api.GET('/api/v1/rogue-events', { params: { query: { since, limit: 100 } as never } })),
  });
  const agents = useQuery({
    queryKey: ['overview-agents'],
    queryFn: () => call(api.GET('/api/v1/agents', { params: { query: { limit: 200 } } })),
  });

  const buckets = stats.data?.buckets ?? [];
  const chart = useMemo(
    () => ({
      xs: buckets.map((b) => Date.parse(String(b.start))),
      by: {
        allow: buckets.map((b) => b.allow),
        flag_for_review: buckets.map((b) => b.flag_for_review),
        deny: buckets.map((b) => b.deny),
      },
    }),
    [buckets],
  );
  const total = buckets.reduce((a, b) => a + b.allow + b.flag_for_review + b.deny, 0);
  const xLabel = useMemo(
    () => (t: number) =>
      bucket === 'hour' ? formatTime(new Date(t), zone).slice(11, 16) : new Date(t).toISOString().slice(5, 10),
    [zone, bucket],
  );
  const series = useMemo(
    () => [
      { label: 'Allowed', values: chart.by.allow!, colorVar: '--allow' },
      { label: 'Flagged', values: chart.by.flag_for_review!, colorVar: '--flag', dash: [6, 3] },
      { label: 'Denied', values: chart.by.deny!, colorVar: '--deny', dash: [2, 2] },
    ],
    [chart],
  );
  const top = [...(agents.data?.items ?? [])].sort((a, b) => b.risk_score - a.risk_score).slice(0, 5);
  const empty = agents.data && agents.data.items.length === 0;
  return (
    <div>
      <PageHeader title="Overview" />
      {empty ? (
        <FirstSteps />
      ) : (
        <div className="grid gap-4 p-4 xl:grid-cols-3">
          <section className="card p-4 xl:col-span-2" aria-label="Events by verdict">
            <div role="group" aria-label="Period" className="mb-2 flex gap-1">
              {(['24h', '30d'] as const).map((r) => (
                <button
                  key={r}
                  type="button"
                  className={`btn btn-sm ${range === r ? 'btn-primary' : ''}`}
                  aria-pressed={range === r}
                  onClick={() => void navigate({ to: '/', search: (r === '24h' ? {} : { range: r }) as never })}
                >
                  {r === '24h' ? 'Last 24 hours, by hour' : 'Last 30 days, by day'}
                </button>
              ))}
            </div>
            {stats.isLoading ? (
              <Loading />
            ) : stats.error ? (
              <ProblemView error={stats.error} retry={() => void stats.refetch()} />
            ) : (
              <>
                <TimeChart
                  title={`Events per ${bucket} by verdict (${bucket === 'day' ? 'days in UTC' : zoneLabel(zone)}): ${formatNumber(total)} in all`}
                  firstColumn={bucket === 'hour' ? 'Hour' : 'Day'}
                  xs={chart.xs}
                  series={series}
                  xLabel={xLabel}
                />
                <p className="text-sm text-muted">The last {bucket} is still running.</p>
              </>
            )}
          </section>
          <section className="card space-y-3 p-4" aria-label="Needs attention">
            <Stat
              label="Flagged, awaiting review"
              value={pending.data ? `${pending.data.items.length}${pending.data.next_cursor ? '+' : ''}` : '…'}
              to="/reviews"
            />
            <Stat
              label={`Rogue events, ${range === '30d' ? 'last 30 days' : 'last 24 hours'}`}
              value={rogue.data ? `${rogue.data.items.length}${rogue.data.next_cursor ? '+' : ''}` : '…'}
              to="/rogue"
            />
            <div>
              <h2 className="font-semibold">Quota use</h2>
              {me.data ? <Quotas q={me.data.quotas} /> : <Loading rows={2} />}
            </div>
          </section>
          <section className="card p-4 xl:col-span-3" aria-labelledby="risk-h">
            <h2 id="risk-h" className="font-semibold">
              Top agents by risk
            </h2>
            {agents.isLoading ? (
              <Loading />
            ) : agents.error ? (
              <ProblemView error={agents.error} />
            ) : (
              <table className="data mt-2">
                <caption className="sr-only">Agents with the highest risk score</caption>
                <thead>
                  <tr>
                    <th scope="col">Agent</th>
                    <th scope="col" aria-sort="descending" className="num">
                      Risk (0-100)
                    </th>
                    <th scope="col" className="text-right">
                      Invocations
                    </th>
                    <th scope="col" className="text-right">
                      Rogue events
                    </th>
                    <th scope="col">Last seen ({zoneLabel(zone)})</th>
                  </tr>
                </thead>
                <tbody>
                  {top.map((a) => (
                    <tr key={a.agent_key}>
                      <td>
                        <Link
                          to="/agents"
                          search={{ selected: a.agent_key } as never}
                          className="mono text-accent underline"
                        >
                          {a.agent_key}
                        </Link>
                      </td>
                      <td className="num">{a.risk_score}</td>
                      <td className="num">{formatNumber(a.invocations)}</td>
                      <td className="num">{formatNumber(a.rogue_events)}</td>
                      <td className="tabular-nums">{formatTime(a.last_seen_at, zone)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      )}
    </div>
  );
}

function Stat({ label, value, to }: { label: string; value: string; to: '/reviews' | '/rogue' }) {
  return (
    <Link to={to} className="block rounded border border-line p-3 hover:bg-surface">
      <span className="block text-sm text-muted">{label}</span>
      <span className="block text-2xl font-semibold tabular-nums">{value}</span>
    </Link>
  );
}
