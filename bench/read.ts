// Read-side benchmark: median latency of the list endpoints with each filter,
// of the invocation record and of the agent views, over real HTTP against a
// server process on a seeded PostgreSQL database (scripts/seed.ts); then the
// plan PostgreSQL chose for each list query (EXPLAIN ANALYZE of the exact SQL
// the queries module runs, inside the workspace's row-level-security scope).
//
//   ./node_modules/.bin/node scripts/seed.ts --database-url URL --invocations 1000000
//   ./node_modules/.bin/node bench/read.ts --database-url URL [--tenant ID] [--runs 41] [--no-plans]
//
// Target: every median under 50 ms.

import { parseArgs } from 'node:util';
import { issueApiToken, revokeApiToken } from '../src/accounts/api-tokens.ts';
import type { Queryable } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { agentListQuery, agentTotalsQuery } from '../src/review/agent-queries.ts';
import { encodeTimeKey } from '../src/review/cursor.ts';
import { invocationListQuery } from '../src/review/invocation-queries.ts';
import { reviewListQuery } from '../src/review/review-store.ts';
import { rogueListQuery } from '../src/review/rogue-queries.ts';
import { startServerProcess } from '../src/testing/server-process.ts';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    tenant: { type: 'string' },
    runs: { type: 'string', default: '41' },
    'no-plans': { type: 'boolean', default: false },
  },
  // bench/run.ts passes its arguments to every script.
  strict: false,
});
const url = stringArg('database-url') ?? process.env.DATABASE_URL;
if (!url) {
  // Under `npm run bench` without a seeded database: say how, and skip.
  console.log('skipped: bench/read.ts needs a PostgreSQL database seeded by scripts/seed.ts:');
  console.log('  ./node_modules/.bin/node scripts/seed.ts --database-url URL --invocations 1000000');
  console.log('  ./node_modules/.bin/node bench/read.ts --database-url URL [--tenant ID] [--runs N] [--no-plans]');
  process.exit(0);
}
const RUNS = Math.max(5, Number(stringArg('runs')) || 41);

function stringArg(name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
const TARGET_MS = 50;
/** scripts/seed.ts names its workspaces so. */
const SEED_DOMAIN_SUFFIX = '.seed.agent-ledger.invalid';

const db = await openPostgres(url, { max: 2 });
const server = await startServerProcess({ databaseUrl: url, env: { LOG_LEVEL: 'warn' } });
try {
  const tenantArg = stringArg('tenant');
  const [ws] = tenantArg
    ? await db.query<{ tenant_id: string }>('SELECT tenant_id FROM workspaces WHERE tenant_id = $1', [tenantArg])
    : await db.query<{ tenant_id: string }>(
        `SELECT tenant_id FROM workspaces WHERE domain LIKE '%' || $1 ORDER BY created_at DESC LIMIT 1`,
        [SEED_DOMAIN_SUFFIX],
      );
  if (!ws) throw new Error('no seeded workspace: run scripts/seed.ts first (or pass --tenant)');
  const tenant = ws.tenant_id;
  const [admin] = await db.query<{ account_id: string }>(
    "SELECT account_id FROM accounts WHERE tenant_id = $1 AND role = 'admin' ORDER BY created_at LIMIT 1",
    [tenant],
  );
  const issued = await db.transaction((tx) =>
    issueApiToken(tx, tenant, admin!.account_id, 'bench/read.ts', new Date()),
  );

  // Values to filter by, picked from the data.
  const facts = await db.withTenant(tenant, async (tx) => {
    const one = async <T>(sql: string, params: unknown[] = []) =>
      (await tx.query<T & Record<string, unknown>>(sql, [tenant, ...params]))[0]!;
    const size = await one<{ n: number; newest: Date; oldest: Date }>(
      'SELECT count(*)::bigint AS n, max(created_at) AS newest, min(created_at) AS oldest FROM invocations WHERE tenant_id = $1',
    );
    const busiest = await one<{ agent_key: string; n: number }>(
      'SELECT agent_key, sum(invocations)::bigint AS n FROM agent_activity WHERE tenant_id = $1 GROUP BY agent_key ORDER BY n DESC LIMIT 1',
    );
    const rarest = await one<{ agent_key: string; n: number }>(
      'SELECT agent_key, sum(invocations)::bigint AS n FROM agent_activity WHERE tenant_id = $1 GROUP BY agent_key ORDER BY n ASC LIMIT 1',
    );
    const middle = await one<{ correlation_id: string; invocation_id: number }>(
      `SELECT correlation_id, invocation_id FROM invocations WHERE tenant_id = $1 AND correlation_id IS NOT NULL
         AND created_at < $2 ORDER BY created_at DESC LIMIT 1`,
      [new Date((size.newest.getTime() + size.oldest.getTime()) / 2)],
    );
    const traced = await one<{ invocation_id: number }>(
      `SELECT parent_invocation_id AS invocation_id FROM invocations WHERE tenant_id = $1 AND parent_invocation_id IS NOT NULL
         AND created_at < $2 ORDER BY created_at DESC LIMIT 1`,
      [new Date((size.newest.getTime() + size.oldest.getTime()) / 2)],
    );
    // The key of an invocation half-way through the history: a cursor deep in it (as paging back through months leaves one).
    const deep = await one<{ us: number; id: number }>(
      `SELECT (extract(epoch FROM created_at) * 1000000)::bigint AS us, invocation_id AS id FROM invocations
        WHERE tenant_id = $1 AND created_at < $2 ORDER BY created_at DESC, invocation_id DESC LIMIT 1`,
      [new Date((size.newest.getTime() + size.oldest.getTime()) / 2)],
    );
    return { size, busiest, rarest, middle, traced, deep: { us: Number(deep.us), id: Number(deep.id) } };
  });
  const { size } = facts;
  const day = 86_400_000;
  const mid = new Date((size.newest.getTime() + size.oldest.getTime()) / 2);
  const iso = (d: Date) => d.toISOString();
  console.log(
    `workspace ${tenant}: ${size.n} invocations from ${iso(size.oldest)} to ${iso(size.newest)}; ` +
      `busiest agent ${facts.busiest.agent_key} (${facts.busiest.n}), rarest ${facts.rarest.agent_key} (${facts.rarest.n})`,
  );

  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${issued.token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
    return JSON.parse(body) as { items?: unknown[]; next_cursor?: string | null };
  };
  const secondPage = async (path: string) => {
    const first = await get(path);
    return `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(first.next_cursor ?? '')}`;
  };

  interface Case {
    name: string;
    path: string;
    plan?: { sql: string; params: unknown[] };
  }
  const inv = (name: string, query: string, f: Parameters<typeof invocationListQuery>[1], limit = 50): Case => ({
    name,
    path: `/api/v1/invocations${query}`,
    plan: invocationListQuery(tenant, f, null, limit),
  });
  // The key of the 50th newest invocation: where page 2 starts.
  const page2 = await db.withTenant(tenant, async (tx) => {
    const q = invocationListQuery(tenant, {}, null, 49);
    const rows = await tx.query<{ created_us: number; invocation_id: number }>(q.sql, q.params);
    const last = rows[49]!;
    return { us: last.created_us, id: last.invocation_id };
  });
  const rogue = (name: string, query: string, f: Parameters<typeof rogueListQuery>[1]): Case => ({
    name,
    path: `/api/v1/rogue-events${query}`,
    plan: rogueListQuery(tenant, f, null, 50),
  });
  const since = iso(new Date(size.newest.getTime() - day));
  const winFrom = iso(new Date(mid.getTime() - day));
  const winTo = iso(mid);
  const old = iso(new Date(size.oldest.getTime() + 7 * day));
  const cases: Case[] = [
    inv('invocations, no filter', '', {}),
    {
      name: 'invocations, no filter, page 2',
      path: await secondPage('/api/v1/invocations'),
      plan: invocationListQuery(tenant, {}, page2, 50),
    },
    {
      name: 'invocations, no filter, a page half-way back (cursor)',
      path: `/api/v1/invocations?cursor=${encodeURIComponent(encodeTimeKey(facts.deep))}`,
      plan: invocationListQuery(tenant, {}, facts.deep, 50),
    },
    {
      name: 'invocations, agent_key (busiest), a page half-way back',
      path: `/api/v1/invocations?agent_key=${facts.busiest.agent_key}&cursor=${encodeURIComponent(encodeTimeKey(facts.deep))}`,
      plan: invocationListQuery(tenant, { agent_key: facts.busiest.agent_key }, facts.deep, 50),
    },
    inv('invocations, limit=500', '?limit=500', {}, 500),
    inv('invocations, agent_key (busiest)', `?agent_key=${facts.busiest.agent_key}`, {
      agent_key: facts.busiest.agent_key,
    }),
    inv('invocations, agent_key (rarest)', `?agent_key=${facts.rarest.agent_key}`, {
      agent_key: facts.rarest.agent_key,
    }),
    inv('invocations, verdict=deny', '?verdict=deny', { verdict: 'deny' }),
    inv('invocations, verdict=flag_for_review', '?verdict=flag_for_review', { verdict: 'flag_for_review' }),
    inv('invocations, mode=shadow', '?mode=shadow', { mode: 'shadow' }),
    inv('invocations, since (last day)', `?since=${since}`, { since }),
    inv('invocations, until (first week)', `?until=${old}`, { until: old }),
    inv('invocations, since+until (one day mid-way)', `?since=${winFrom}&until=${winTo}`, {
      since: winFrom,
      until: winTo,
    }),
    inv('invocations, correlation_id', `?correlation_id=${facts.middle.correlation_id}`, {
      correlation_id: facts.middle.correlation_id,
    }),
    inv('invocations, agent_key+verdict=deny (rarest)', `?agent_key=${facts.rarest.agent_key}&verdict=deny`, {
      agent_key: facts.rarest.agent_key,
      verdict: 'deny',
    }),
    inv('invocations, verdict=deny+until (first week)', `?verdict=deny&until=${old}`, { verdict: 'deny', until: old }),
    // The worst case we know: a combination no single index serves, rare in the busiest agent's history.
    inv('invocations, busiest agent+shadow+deny', `?agent_key=${facts.busiest.agent_key}&mode=shadow&verdict=deny`, {
      agent_key: facts.busiest.agent_key,
      mode: 'shadow',
      verdict: 'deny',
    }),
    { name: 'invocation record (with trace)', path: `/api/v1/invocations/${facts.traced.invocation_id}` },
    rogue('rogue-events, no filter', '', {}),
    rogue('rogue-events, agent_key (busiest)', `?agent_key=${facts.busiest.agent_key}`, {
      agent_key: facts.busiest.agent_key,
    }),
    rogue('rogue-events, event_type', '?event_type=privilege_escalation', { event_type: 'privilege_escalation' }),
    rogue('rogue-events, since+until', `?since=${winFrom}&until=${winTo}`, { since: winFrom, until: winTo }),
    { name: 'agents, first page', path: '/api/v1/agents', plan: agentListQuery(tenant, null, 50) },
    { name: 'agents, page 2', path: await secondPage('/api/v1/agents') },
    {
      name: 'agent view (busiest)',
      path: `/api/v1/agents/${facts.busiest.agent_key}`,
      plan: agentTotalsQuery(tenant, facts.busiest.agent_key),
    },
    { name: 'agent view (rarest)', path: `/api/v1/agents/${facts.rarest.agent_key}` },
    {
      name: 'reviews, pending',
      path: '/api/v1/reviews?status=pending',
      plan: reviewListQuery(tenant, 'pending', null, 50),
    },
    {
      name: 'reviews, approved',
      path: '/api/v1/reviews?status=approved',
      plan: reviewListQuery(tenant, 'approved', null, 50),
    },
  ];

  // Warm the server (JIT, connection pool, caches) once.
  for (let i = 0; i < 20; i++) await get('/api/v1/invocations');

  const results: Array<{ name: string; median: number; p90: number; items: number }> = [];
  for (const c of cases) {
    const times: number[] = [];
    let items = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      const body = await get(c.path);
      const ms = performance.now() - t0;
      if (i >= 3) times.push(ms); // the first runs warm this query's pages
      items = body.items?.length ?? 1;
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
    results.push({ name: c.name, median: q(0.5), p90: q(0.9), items });
  }

  console.log(`\nmedian and p90 over ${RUNS} sequential requests each (HTTP, keep-alive, admin token):\n`);
  const w = Math.max(...results.map((r) => r.name.length));
  console.log(`${'case'.padEnd(w)}  median ms   p90 ms  items`);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(w)}  ${r.median.toFixed(1).padStart(9)}  ${r.p90.toFixed(1).padStart(7)}  ${String(r.items).padStart(5)}${r.median >= TARGET_MS ? '  ← over target' : ''}`,
    );
  }
  const over = results.filter((r) => r.median >= TARGET_MS);
  console.log(
    over.length === 0 ? `\nall medians under ${TARGET_MS} ms` : `\n${over.length} medians at or over ${TARGET_MS} ms`,
  );

  if (!values['no-plans']) {
    console.log('\nplans (EXPLAIN ANALYZE of the exact SQL, in the workspace scope):');
    for (const c of cases) {
      if (!c.plan) continue;
      const plan = await db.withTenant(tenant, (tx: Queryable) =>
        tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${c.plan!.sql}`,
          c.plan!.params,
        ),
      );
      console.log(`\n--- ${c.name}`);
      for (const row of plan) console.log(`  ${row['QUERY PLAN']}`);
    }
  }
  process.exitCode = over.length === 0 ? 0 : 1;
  await db.transaction((tx) =>
    revokeApiToken(tx, { tenantId: tenant, accountId: admin!.account_id, role: 'admin' }, issued.token_id, new Date()),
  );
} finally {
  await server.stop();
  await db.close();
}
