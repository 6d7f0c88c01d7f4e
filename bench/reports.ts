// Reports and the overview from the daily roll-ups: on a PostgreSQL database
// seeded by scripts/seed.ts, the medians of the report's counting queries and
// of the overview's day buckets, counting every row (as before the roll-ups)
// against the roll-ups plus a live count of the rest; the pass that folds the
// workspace, and the same answers with rows written after the pass.
//
//   ./node_modules/.bin/node scripts/seed.ts --database-url URL --invocations 1000000 --days 365
//   ./node_modules/.bin/node bench/reports.ts --database-url URL [--tenant ID] [--runs 7] [--keep-rollups]
//
// --keep-rollups measures on the roll-ups the seed wrote instead of deleting
// the workspace's and folding it again from the start (a pass catching up
// millions of rows is slow: docs/performance.md, "At scale").
//
// The seed writes no log leaves, so the queries are run with the log size
// cut lifted (every row counts), as factsFromTables is called by a report.

import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import type { Queryable } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { factsFromTables, periodTotals } from '../src/reports/compliance.ts';
import { bump, emptyTotals, normalizeTotals } from '../src/reports/facts.ts';
import { foldRollups, rollupReadQuery, splitPeriod } from '../src/reports/rollups.ts';
import { verdictStats } from '../src/review/stats.ts';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    tenant: { type: 'string' },
    runs: { type: 'string', default: '7' },
    // Measure on the roll-ups as they are (scripts/seed.ts writes them): no delete and no pass from the start.
    'keep-rollups': { type: 'boolean', default: false },
  },
  strict: false,
});
const url = typeof values['database-url'] === 'string' ? values['database-url'] : process.env.DATABASE_URL;
if (!url) {
  console.log('skipped: bench/reports.ts needs a PostgreSQL database seeded by scripts/seed.ts:');
  console.log('  ./node_modules/.bin/node bench/reports.ts --database-url URL [--tenant ID] [--runs N]');
  process.exit(0);
}
const RUNS = Math.max(3, Number(values.runs) || 7);
const DAY = 86_400_000;
const NO_CUT = 2 ** 40;

const db = await openPostgres(url, { max: 2 });
try {
  const [ws] =
    typeof values.tenant === 'string'
      ? await db.query<{ tenant_id: string }>('SELECT tenant_id FROM workspaces WHERE tenant_id = $1', [values.tenant])
      : await db.query<{ tenant_id: string }>(
          `SELECT tenant_id FROM workspaces WHERE domain LIKE '%.seed.agent-ledger.invalid' ORDER BY created_at DESC LIMIT 1`,
        );
  if (!ws) throw new Error('no seeded workspace: run scripts/seed.ts first (or pass --tenant)');
  const tenant = ws.tenant_id;
  const [range] = await db.withTenant(tenant, (tx) =>
    tx.query<{ lo: Date; hi: Date; n: number }>(
      'SELECT min(created_at) AS lo, max(created_at) AS hi, count(*)::int AS n FROM invocations WHERE tenant_id = $1',
      [tenant],
    ),
  );
  const hi = new Date(range!.hi).getTime();
  // A one-year report ending at the next midnight after the newest row (whole days and a partial first day).
  const to = new Date(Math.ceil((hi + 1) / DAY) * DAY);
  const from = new Date(to.getTime() - 365 * DAY + 3_600_000);
  const period = { from: from.toISOString(), to: to.toISOString() };
  const since30 = new Date(to.getTime() - 30 * DAY);
  const since93 = new Date(to.getTime() - 93 * DAY);
  console.log(`workspace ${tenant}: ${range!.n} invocations; report ${period.from} … ${period.to}`);

  const median = async (what: string, fn: (tx: Queryable) => Promise<unknown>) => {
    const ms: number[] = [];
    let out: unknown;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      out = await db.snapshot(tenant, fn);
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    const m = ms[Math.floor(ms.length / 2)]!;
    console.log(
      `  ${what}: median ${m.toFixed(1)} ms (min ${ms[0]!.toFixed(1)}, max ${ms.at(-1)!.toFixed(1)}, ${RUNS} runs)`,
    );
    return out;
  };
  const plan = async (what: string, sql: string, params: unknown[]) => {
    const rows = await db.snapshot(tenant, (tx) =>
      tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params),
    );
    const lines = rows.map((r) => r['QUERY PLAN']);
    const buffers = lines.find((l) => /Buffers:/.test(l))?.trim();
    const exec = lines.find((l) => /Execution Time/.test(l))?.trim();
    const jit = lines.find((l) => /Timing: Generation/.test(l))?.trim();
    console.log(`  plan of ${what}: ${exec}; top ${buffers}${jit ? `; JIT ${jit}` : ''}`);
  };

  const oldTotals = (tx: Queryable) => everyRowTotals(tx, tenant, period.from, period.to);
  const oldStats = (since: Date) => (tx: Queryable) => everyRowStats(tx, tenant, since, to);
  const newTotals = (tx: Queryable) => periodTotals(tx, tenant, period, NO_CUT);

  const keep = values['keep-rollups'] === true;
  if (!keep)
    await db.withTenant(tenant, async (tx) => {
      for (const t of ['daily_rollups', 'daily_rogue_rollups', 'rollup_marks'])
        await tx.query(`DELETE FROM ${t} WHERE tenant_id = $1`, [tenant]);
    });
  console.log('counting every row (the queries before the roll-ups):');
  const expected = await median('one-year report totals', oldTotals);
  const expected30 = await median('overview, 30 day buckets', oldStats(since30));
  const expected93 = await median('stats, 93 day buckets', oldStats(since93));
  await plan(
    'the by-agent/verdict/mode GROUP BY',
    `SELECT agent_key, verdict, mode, count(*)::int AS n FROM ingest_read.invocations i
     WHERE i.tenant_id = $1 AND i.created_at >= $2 AND i.created_at < $3 AND i.log_index < $4 GROUP BY 1, 2, 3`,
    [tenant, period.from, period.to, NO_CUT],
  );

  if (!keep) {
    console.log('the new queries before any pass (no roll-ups: everything live):');
    assert.deepEqual(await median('one-year report totals', newTotals), expected);
  }

  const f0 = performance.now();
  let folded = 0;
  for (;;) {
    const n = await db.withTenant(tenant, (tx) => foldRollups(tx, tenant));
    if (!n) break;
    folded += n;
  }
  const foldMs = performance.now() - f0;
  const [size] = await db.withTenant(tenant, (tx) =>
    tx.query<{ rows: number; bytes: string }>(
      `SELECT count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('daily_rollups')) AS bytes
       FROM daily_rollups WHERE tenant_id = $1`,
      [tenant],
    ),
  );
  console.log(
    `pass: ${folded} rows folded in ${(foldMs / 1000).toFixed(1)} s (${((foldMs * 1000) / Math.max(1, folded)).toFixed(1)} µs a row); ` +
      `daily_rollups: ${size!.rows} rows, ${size!.bytes}`,
  );

  const showRollupPlan = async () => {
    const split = await db.snapshot(tenant, (tx) => splitPeriod(tx, tenant, from, to));
    const q = rollupReadQuery(tenant, split);
    await plan('the roll-up read (rollupReadQuery)', q.sql, q.params);
  };
  const fromRollups = async () => {
    assert.deepEqual(await median('one-year report totals', newTotals), expected);
    assert.deepEqual(
      await median('overview, 30 day buckets', (tx) => verdictStats(tx, tenant, since30, to, 'day')),
      expected30,
    );
    assert.deepEqual(
      await median('stats, 93 day buckets', (tx) => verdictStats(tx, tenant, since93, to, 'day')),
      expected93,
    );
    await median('one-year report, every fact (with reviews, open items, policy versions, entry range)', (tx) =>
      factsFromTables(tx, tenant, period, NO_CUT),
    );
  };
  console.log('from the roll-ups (whole days) plus a live count of the rest, right after the pass:');
  await fromRollups();
  await showRollupPlan();
  // What autovacuum does to a table a pass has just rewritten: each batch updated the rows of its days.
  for (const t of ['daily_rollups', 'daily_rogue_rollups']) await db.query(`VACUUM (ANALYZE) ${t}`);
  const [vacuumed] = await db.query<{ bytes: string }>(
    "SELECT pg_size_pretty(pg_total_relation_size('daily_rollups')) AS bytes",
  );
  console.log(`the same once the roll-up tables are vacuumed (daily_rollups ${vacuumed!.bytes}):`);
  await fromRollups();
  await showRollupPlan();

  // Rows recorded after the pass (ids above the mark), their times spread over the year as the seed's:
  // counted live until the next pass.
  const TAIL = 10_000;
  const [max] = await db.withTenant(tenant, (tx) =>
    tx.query<{ id: string }>('SELECT max(invocation_id) AS id FROM invocations WHERE tenant_id = $1', [tenant]),
  );
  const maxId = Number(max!.id);
  await db.withTenant(tenant, (tx) =>
    tx.query(
      `INSERT INTO invocations
       SELECT (jsonb_populate_record(NULL::invocations, to_jsonb(i) || jsonb_build_object('invocation_id', i.invocation_id + $2::bigint))).*
       FROM invocations i WHERE i.tenant_id = $1 AND i.invocation_id BETWEEN 1 AND $3`,
      [tenant, maxId, TAIL],
    ),
  );
  try {
    const withTail = await db.snapshot(tenant, oldTotals);
    console.log(`with ${TAIL} rows written after the pass (not folded yet):`);
    assert.deepEqual(await median('one-year report totals', newTotals), withTail);
    await showRollupPlan();
  } finally {
    await db.withTenant(tenant, (tx) =>
      tx.query('DELETE FROM invocations WHERE tenant_id = $1 AND invocation_id > $2', [tenant, maxId]),
    );
  }
} finally {
  await db.close();
}

async function everyRowTotals(tx: Queryable, tenantId: string, from: string, to: string) {
  const args = [tenantId, from, to, NO_CUT];
  const invWhere = 'i.tenant_id = $1 AND i.created_at >= $2 AND i.created_at < $3 AND i.log_index < $4';
  const totals = emptyTotals();
  for (const g of await tx.query<{ agent_key: string; verdict: string; mode: string; n: number }>(
    `SELECT agent_key, verdict, mode, count(*)::int AS n FROM ingest_read.invocations i WHERE ${invWhere} GROUP BY 1, 2, 3`,
    args,
  )) {
    totals.invocations += g.n;
    bump(totals.invocations_by_agent, g.agent_key, g.n);
    bump(totals.invocations_by_verdict, g.verdict, g.n);
    bump(totals.invocations_by_mode, g.mode, g.n);
  }
  for (const r of await tx.query<{ event_type: string; n: number }>(
    `SELECT event_type, count(*)::int AS n FROM ingest_read.rogue_events
     WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 AND log_index < $4 GROUP BY 1`,
    args,
  )) {
    totals.rogue_events += r.n;
    bump(totals.rogue_events_by_type, r.event_type, r.n);
  }
  const { categoryOf } = await import('../src/detect/index.ts');
  for (const f of await tx.query<{ type: string; n: number }>(
    `SELECT f->>'type' AS type, count(*)::int AS n
     FROM ingest_read.invocations i
     JOIN ingest_read.invocation_content c ON c.tenant_id = i.tenant_id AND c.invocation_id = i.invocation_id
     CROSS JOIN LATERAL jsonb_array_elements(COALESCE(c.findings, '[]'::jsonb)) AS f
     WHERE ${invWhere} GROUP BY 1`,
    args,
  )) {
    const c = categoryOf(f.type);
    if (c === 'injection') totals.injection_findings += f.n;
    else bump(c === 'secret' ? totals.secret_findings_by_type : totals.pii_findings_by_type, f.type, f.n);
  }
  return normalizeTotals(totals);
}

async function everyRowStats(tx: Queryable, tenantId: string, since: Date, until: Date) {
  const rows = await tx.query<{ b: Date; verdict: string; n: string | number }>(
    `SELECT date_bin('1 day'::interval, created_at, $2::timestamptz) AS b, verdict, count(*) AS n
     FROM ingest_read.invocations WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3
     GROUP BY 1, 2`,
    [tenantId, since, until],
  );
  const out: Array<{ start: Date; allow: number; flag_for_review: number; deny: number }> = [];
  for (let t = since.getTime(); t < until.getTime(); t += DAY)
    out.push({ start: new Date(t), allow: 0, flag_for_review: 0, deny: 0 });
  for (const r of rows) {
    const row = out[Math.floor((new Date(r.b).getTime() - since.getTime()) / DAY)];
    if (row && (r.verdict === 'allow' || r.verdict === 'flag_for_review' || r.verdict === 'deny'))
      row[r.verdict] += Number(r.n);
  }
  return out;
}
