import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
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
const SAMPLE_PAGES = 5;

/** The last 24 hours: recent events by verdict, what awaits review, rogue events, risky agents, quota use. */
export function Overview() {
  const { zone } = usePrefs();
  const me = useMe();
  const since = useMemo(() => new Date(Math.floor(Date.now() / HOUR) * HOUR - 23 * HOUR).toISOString(), []);
  const recent = useQuery({
    queryKey: ['overview-recent', since],
    queryFn: async () => {
      const items: Array<{ created_at: string; verdict: string }> = [];
      let cursor: string | undefined;
      for (let i = 0; i < SAMPLE_PAGES; i++) {
        const p = await call(api.GET('/api/v1/invocations', { params: { query: { since, limit: 200, ...(cursor ? { cursor } : {}) } as never } }));
        items.push(...p.items);
        cursor = p.next_cursor ?? undefined;
        if (!cursor) return { items, complete: true };
      }
      return { items, complete: false };
    },
  });
  const pending = useQuery({ queryKey: ['overview-pending'], queryFn: () => call(api.GET('/api/v1/reviews', { params: { query: { status: 'pending', limit: 100 } as never } })) });
  const rogue = useQuery({ queryKey: ['overview-rogue'], queryFn: () => call(api.GET('/api/v1/rogue-events', { params: { query: { since, limit: 100 } as never } })) });
  const agents = useQuery({ queryKey: ['overview-agents'], queryFn: () => call(api.GET('/api/v1/agents', { params: { query: { limit: 200 } } })) });

  const chart = useMemo(() => {
    const start = Date.parse(since);
    const xs = Array.from({ length: 24 }, (_, i) => start + i * HOUR);
    const by = { allow: new Array(24).fill(0), flag_for_review: new Array(24).fill(0), deny: new Array(24).fill(0) } as Record<string, number[]>;
    for (const it of recent.data?.items ?? []) {
      const b = Math.floor((Date.parse(it.created_at) - start) / HOUR);
      if (b >= 0 && b < 24) by[it.verdict]![b]!++;
    }
    return { xs, by };
  }, [recent.data, since]);
  const xLabel = useMemo(() => (t: number) => formatTime(new Date(t), zone).slice(11, 16), [zone]);
  const series = useMemo(
    () => [
      { label: 'Allowed', values: chart.by.allow!, colorVar: '--allow' },
      { label: 'Flagged', values: chart.by.flag_for_review!, colorVar: '--flag', dash: [6, 3] },
      { label: 'Denied', values: chart.by.deny!, colorVar: '--deny', dash: [2, 2] },
    ],
    [chart],
  );
  const top = [...(agents.data?.items ?? [])].sort((a, b) => b.risk_score - a.risk_score).slice(0, 5);
  const empty = recent.data && recent.data.items.length === 0 && (agents.data?.items.length ?? 0) === 0;
  return (
    <div>
      <PageHeader title="Overview" />
      {empty ? <FirstSteps /> : (
        <div className="grid gap-4 p-4 xl:grid-cols-3">
          <section className="card p-4 xl:col-span-2" aria-label="Events by verdict">
            {recent.isLoading ? <Loading /> : recent.error ? <ProblemView error={recent.error} /> : (
              <>
                <TimeChart title={`Events per hour by verdict, last 24 hours (${zoneLabel(zone)})`} xs={chart.xs} series={series} xLabel={xLabel} />
                {!recent.data!.complete && <p className="text-sm text-muted">Showing the latest {formatNumber(recent.data!.items.length)} events of the period.</p>}
              </>
            )}
          </section>
          <section className="card space-y-3 p-4" aria-label="Needs attention">
            <Stat label="Flagged, awaiting review" value={pending.data ? `${pending.data.items.length}${pending.data.next_cursor ? '+' : ''}` : '…'} to="/reviews" />
            <Stat label="Rogue events, last 24 hours" value={rogue.data ? `${rogue.data.items.length}${rogue.data.next_cursor ? '+' : ''}` : '…'} to="/rogue" />
            <div>
              <h2 className="font-semibold">Quota use</h2>
              {me.data ? <Quotas q={me.data.quotas} /> : <Loading rows={2} />}
            </div>
          </section>
          <section className="card p-4 xl:col-span-3" aria-labelledby="risk-h">
            <h2 id="risk-h" className="font-semibold">Top agents by risk</h2>
            {agents.isLoading ? <Loading /> : agents.error ? <ProblemView error={agents.error} /> : (
              <table className="data mt-2">
                <caption className="sr-only">Agents with the highest risk score</caption>
                <thead><tr><th scope="col">Agent</th><th scope="col" aria-sort="descending" className="num">Risk (0-100)</th><th scope="col" className="text-right">Invocations</th><th scope="col" className="text-right">Rogue events</th><th scope="col">Last seen ({zoneLabel(zone)})</th></tr></thead>
                <tbody>
                  {top.map((a) => (
                    <tr key={a.agent_key}>
                      <td><Link to="/agents" search={{ selected: a.agent_key } as never} className="mono text-accent underline">{a.agent_key}</Link></td>
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
