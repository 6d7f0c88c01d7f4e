// Fills new workspaces of a PostgreSQL database with many invocations (with
// stored content), rogue events, agents, scopes and review decisions, for
// benchmarking the read side (bench/read.ts, bench/reports.ts) and the
// partitions and retention at scale. Set-based SQL (generate_series), not
// HTTP: a million invocations take about a minute on two cores (31-74 s
// measured, depending on the load of the machine).
//
//   ./node_modules/.bin/node scripts/seed.ts --database-url postgres://… --invocations 1000000
//     [--workspaces 1] [--agents 200] [--days 90] [--chunk 100000] [--no-rollups]
//
// With --workspaces W the invocations are shared out as real tenants are
// sized, skewed (Zipf, s = 1: the largest of 1,000 workspaces holds 13 % of
// them, the smallest 0.013 %), each workspace with its own ids counted from 1
// and up to --agents agents (the largest all of them, the smallest 5). The
// largest workspace is created last, so the read benchmarks, which take the
// newest seeded workspace, measure it. Rows are written in time order across
// the workspaces, one time slice per transaction (about --chunk rows), as
// traffic interleaves them; each month the period spans gets its partitions
// first, as the service's maintenance would have made them. Last, the daily
// roll-ups of every workspace are written as the service's background pass
// would have kept them (writeRollups).
//
// The rows are shaped like real traffic (skewed agents, 3 % deny, 7 % flagged,
// runs of 5 steps sharing a correlation_id and chained by parent ids, PII in
// 5 % of tool inputs) but have no audit-trail leaves: their log_index values
// are placeholders, so evidence_id of a seeded row leads nowhere. Do not seed
// a database that serves real workspaces.

import { parseArgs } from 'node:util';
import { createWorkspaceWithAdmin } from '../src/accounts/directory.ts';
import { loadConfig } from '../src/config/config.ts';
import type { Queryable } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { INVOCATION_CONTENT_PARTITIONS, INVOCATION_PARTITIONS, ROGUE_EVENT_PARTITIONS } from '../src/ingest/index.ts';
import { PartitionMaintainer, periodAfter, periodStart } from '../src/partitions/index.ts';
import { saveAgentScope } from '../src/policy/store.ts';

/** Marks seeded workspaces: bench/read.ts looks for the newest one. */
const SEED_DOMAIN_SUFFIX = '.seed.agent-ledger.invalid';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    invocations: { type: 'string', default: '1000000' },
    workspaces: { type: 'string', default: '1' },
    agents: { type: 'string', default: '200' },
    days: { type: 'string', default: '90' },
    chunk: { type: 'string', default: '100000' },
    'no-rollups': { type: 'boolean', default: false },
  },
});

const url = values['database-url'] ?? process.env.DATABASE_URL;
if (!url) {
  console.error(
    'usage: scripts/seed.ts --database-url postgres://… --invocations N [--workspaces W] [--agents A] [--days D] [--no-rollups]',
  );
  process.exit(2);
}
const N = intArg('invocations', 1);
const W = intArg('workspaces', 1);
const A = intArg('agents', 1);
const DAYS = intArg('days', 1);
const CHUNK = intArg('chunk', 1000);
if (W > N) {
  console.error('--workspaces must not exceed --invocations');
  process.exit(2);
}

function intArg(name: 'invocations' | 'workspaces' | 'agents' | 'days' | 'chunk', min: number): number {
  const v = Number(values[name]);
  if (!Number.isSafeInteger(v) || v < min) {
    console.error(`--${name} must be an integer ≥ ${min}`);
    process.exit(2);
  }
  return v;
}

/** Invocations per workspace, largest first: Zipf (s = 1), each at least one, summing to n. */
function shares(n: number, w: number): number[] {
  let h = 0;
  for (let k = 1; k <= w; k++) h += 1 / k;
  const out = Array.from({ length: w }, (_, k) => Math.max(1, Math.floor(n / (k + 1) / h)));
  out[0]! += n - out.reduce((a, b) => a + b, 0);
  return out;
}

const started = performance.now();
const lap = (what: string, t0: number) => console.log(`${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const db = await openPostgres(url, { max: 2 });
try {
  await migrate(db);
  const now = new Date();
  const sizes = shares(N, W);
  // Agents: all A in the largest workspace, in proportion below it, at least 5 (or A).
  const agents = sizes.map((n) => (W === 1 ? A : Math.min(A, Math.max(5, Math.ceil((A * n) / sizes[0]!)))));
  const rogues = sizes.map((n) => Math.max(1, Math.floor(n / 100)));

  let t0 = performance.now();
  const tenants: string[] = new Array(W);
  const admins: string[] = new Array(W);
  const stamp = now.getTime().toString(36);
  // Smallest first: the largest is the newest.
  for (let k = W - 1; k >= 0; k--) {
    const domain = `w${stamp}${W === 1 ? '' : `-${k}`}${SEED_DOMAIN_SUFFIX}`;
    const admin = await db.transaction((tx) =>
      createWorkspaceWithAdmin(tx, loadConfig({}), `admin@${domain}`, domain, new Date(now.getTime() - k)),
    );
    tenants[k] = admin.tenant_id;
    admins[k] = admin.account_id;
  }
  lap(`${W} workspaces`, t0);
  console.log(`largest workspace ${tenants[0]} (${sizes[0]} invocations), admin ${admins[0]}`);

  const end = now.getTime();
  const start = end - DAYS * 86_400_000;
  const spanMs = end - start;
  // The workspaces as arrays, for unnest(): id, invocations, agents, rogue events.
  const ws = [tenants, sizes, agents, rogues];

  t0 = performance.now();
  // Not scoped to one workspace: the seed writes many at once as the connecting (owner) role.
  await db.query(
    `INSERT INTO agents (tenant_id, agent_key, first_seen_at)
     SELECT w.tenant, 'agent-' || lpad(a::text, 4, '0'), $5::timestamptz
     FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::int[]) AS w(tenant, n, agents, rogues)
     CROSS JOIN LATERAL generate_series(0, w.agents - 1) a`,
    [...ws, new Date(start)],
  );
  // A few scoped agents (the policy module's own function), in the ten largest workspaces.
  for (let k = 0; k < Math.min(W, 10); k++) {
    await db.withTenant(tenants[k]!, async (tx) => {
      for (let a = 0; a < Math.min(agents[k]!, 10); a++) {
        await saveAgentScope(
          tx,
          tenants[k]!,
          `agent-${String(a).padStart(4, '0')}`,
          ['crm.*', 'search', `tool-${a}`],
          admins[k]!,
          now,
        );
      }
    });
  }

  for (let m = periodStart(new Date(start), 'month'); m.getTime() <= end; m = periodAfter(m, 'month')) {
    const at = m;
    await new PartitionMaintainer({
      db,
      now: () => at,
      tables: [ROGUE_EVENT_PARTITIONS, INVOCATION_PARTITIONS, INVOCATION_CONTENT_PARTITIONS],
    }).maintain();
  }
  lap('agents, scopes and partitions', t0);

  // Invocations with their texts, one time slice per transaction. Row g
  // (0 ≤ g < n) of a workspace of n has id 1+g and a time in the g-th of n
  // equal steps of the period, so ids and times rise together as in real
  // traffic; slice [f0, f1) of the period holds rows floor(n·f0) to
  // floor(n·f1) - 1 of every workspace, written in time order.
  //
  // Stored content: a prompt for every third invocation, the redacted
  // tool_input of those with PII (with its findings), a scanned tool_output
  // for every fifth.
  const slices = Math.max(1, Math.ceil(N / CHUNK));
  for (let s = 0; s < slices; s++) {
    const c0 = performance.now();
    const f0 = s / slices;
    const f1 = (s + 1) / slices;
    const [done] = await db.query<{ n: number }>(
      `WITH ins AS (
         INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind, principal_id,
           parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count, log_index,
           review_status, output_scan_verdict, output_scan_reasons, output_scanned_at, created_at)
         SELECT tenant, id, agent, mode, outcome, duration, 'agent', agent,
           CASE WHEN correlated AND g % 5 <> 0 THEN id - 1 END,
           CASE WHEN correlated THEN 'run-' || (1 + g / 5) END,
           tool, verdict,
           CASE verdict WHEN 'allow' THEN '["default"]' WHEN 'deny' THEN '["secret-in-tool-input"]' ELSE '["prompt-injection"]' END::jsonb,
           0, pii, g * 2,
           CASE WHEN verdict = 'flag_for_review' AND mode <> 'shadow' THEN
             CASE WHEN created > now() - interval '3 days' THEN 'pending' WHEN r6 < 0.8 THEN 'approved' ELSE 'rejected' END
           END,
           CASE WHEN g % 5 = 0 THEN 'allow' END, CASE WHEN g % 5 = 0 THEN '["default"]'::jsonb END,
           CASE WHEN g % 5 = 0 THEN created + interval '1 second' END,
           created
         FROM (
           SELECT tenant, g, 1 + g AS id, created, r6, r7,
             'agent-' || lpad(floor(agents * power(r1, 2))::int::text, 4, '0') AS agent,
             CASE WHEN r2 < 0.03 THEN 'deny' WHEN r2 < 0.10 THEN 'flag_for_review' ELSE 'allow' END AS verdict,
             CASE WHEN r3 < 0.02 THEN 'shadow' WHEN r3 < 0.20 THEN 'enforced' ELSE 'observed' END AS mode,
             CASE WHEN r4 < 0.90 THEN 'success' WHEN r4 < 0.97 THEN 'error' WHEN r4 < 0.99 THEN 'denied' ELSE 'throttled' END AS outcome,
             CASE WHEN r5 < 0.05 THEN 1 + floor(r5 * 60)::int % 3 END AS pii,
             CASE WHEN r5 >= 0.90 THEN NULL ELSE (ARRAY['search','crm.lookup','crm.update','payments.refund','mail.send','shell.exec',
               'files.read','files.write','http.get','sql.query'])[1 + floor(r7 * 10)::int] END AS tool,
             floor(r6 * 2000)::int AS duration,
             (g / 5) % 10 < 7 AS correlated
           FROM (
             SELECT w.tenant, w.agents, g, $7::timestamptz + (g + random()) * ($8::float8 / w.n) * interval '1 millisecond' AS created,
               random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6, random() AS r7
             FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::int[]) AS w(tenant, n, agents, rogues)
             CROSS JOIN LATERAL generate_series(floor(w.n * $5::float8)::bigint, floor(w.n * $6::float8)::bigint - 1) g
           ) r
           ORDER BY created
         ) s
         RETURNING tenant_id, invocation_id, pii_count, created_at),
       texts AS (
         INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, created_at)
         SELECT i.tenant_id, i.invocation_id, c.field, c.body,
           sha256(int8send(i.invocation_id) || convert_to(c.field, 'UTF8')), c.findings, i.created_at
         FROM ins i
         CROSS JOIN LATERAL (VALUES
           ('prompt', 'Summarize the open tickets of account ' || i.invocation_id || ' and draft a short reply for the customer.',
             '[]'::jsonb, i.invocation_id % 3 = 0),
           ('tool_input', '{"to":"<EMAIL_ADDRESS>","subject":"Ticket ' || i.invocation_id || '"}',
             '[{"type":"EMAIL_ADDRESS","start":7,"end":22,"score":0.95,"category":"pii"}]'::jsonb, i.pii_count IS NOT NULL),
           ('tool_output', '{"status":"ok","items":' || (i.invocation_id % 17) || '}', '[]'::jsonb, i.invocation_id % 5 = 0)
         ) AS c(field, body, findings, present)
         WHERE c.present
         RETURNING 1)
       SELECT (SELECT count(*) FROM ins)::int AS n`,
      [...ws, f0, s === slices - 1 ? 1 : f1, new Date(start), spanMs],
    );
    lap(`slice ${s + 1}/${slices}: ${done?.n ?? 0} invocations with content`, c0);
  }

  t0 = performance.now();
  await db.transaction(async (tx) => {
    // Each day's invocations and the ids it gave out, as ingest counts them (reads by id find months by them).
    await tx.query(
      `INSERT INTO usage_daily (tenant_id, day, invocations, first_invocation_id, last_invocation_id)
       SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, count(*), min(invocation_id), max(invocation_id)
       FROM invocations WHERE tenant_id = ANY($1::uuid[]) GROUP BY 1, 2`,
      [tenants],
    );
    await tx.query(
      `INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id, severity, source,
         invocation_id, log_index, created_at)
       SELECT tenant, 1 + g, t, agent, NULL, CASE WHEN t = 'oos_tool' THEN 'shell.exec' END, NULL,
         CASE WHEN r2 < 0.2 THEN 'high' ELSE 'medium' END, 'seed', NULL, 2 * n + g,
         $5::timestamptz + (g + r2) * ($6::float8 / rogues) * interval '1 millisecond'
       FROM (
         SELECT w.tenant, w.n, w.rogues, g, random() AS r2,
           'agent-' || lpad(floor(w.agents * power(random(), 2))::int::text, 4, '0') AS agent,
           (ARRAY['oos_tool','oos_tool','oos_tool','oos_tool','oos_tool','data_exfiltration','data_exfiltration',
             'privilege_escalation','privilege_escalation','prompt_injection'])[1 + floor(random() * 10)::int] AS t
         FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::int[]) AS w(tenant, n, agents, rogues)
         CROSS JOIN LATERAL generate_series(0, w.rogues - 1) g
       ) r`,
      [...ws, new Date(start), spanMs],
    );
    await tx.query(
      `INSERT INTO event_ids (tenant_id, kind, last_id)
       SELECT w.tenant, k.kind, CASE k.kind WHEN 'invocation' THEN w.n ELSE w.rogues END
       FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::int[]) AS w(tenant, n, agents, rogues)
       CROSS JOIN (VALUES ('invocation'), ('rogue_event')) AS k(kind)`,
      ws,
    );
    await tx.query(
      `INSERT INTO reviews (tenant_id, invocation_id, decision, note, note_salt, decided_by, decided_at, log_index)
       SELECT i.tenant_id, i.invocation_id, CASE i.review_status WHEN 'approved' THEN 'approve' ELSE 'reject' END,
         'Checked against the ticket; ' || i.review_status || '.', sha256(int8send(i.invocation_id)), a.admin,
         i.created_at + interval '1 hour', i.log_index + 1
       FROM invocations i JOIN unnest($1::uuid[], $2::uuid[]) AS a(tenant, admin) ON a.tenant = i.tenant_id
       WHERE i.review_status IN ('approved', 'rejected')`,
      [tenants, admins],
    );
  });
  lap(`${rogues.reduce((a, b) => a + b, 0)} rogue events and the review decisions`, t0);

  t0 = performance.now();
  // Fresh statistics for the planner and a visibility map for index-only scans.
  for (const table of [
    'invocations',
    'invocation_content',
    'rogue_events',
    'reviews',
    'agents',
    'agent_activity',
    'agent_rogue_activity',
    'usage_daily',
  ]) {
    await db.query(`VACUUM (ANALYZE) ${table}`);
  }
  lap('VACUUM ANALYZE', t0);

  if (!values['no-rollups']) {
    t0 = performance.now();
    await db.transaction((tx) => writeRollups(tx, tenants, sizes, rogues));
    await db.query('VACUUM (ANALYZE) daily_rollups');
    await db.query('VACUUM (ANALYZE) daily_rogue_rollups');
    lap('daily roll-ups', t0);
  }

  const counts = await db.query<{ what: string; n: number }>(
    `SELECT 'invocations' AS what, count(*)::bigint AS n FROM invocations WHERE tenant_id = ANY($1::uuid[])
     UNION ALL SELECT 'invocation_content', count(*) FROM invocation_content WHERE tenant_id = ANY($1::uuid[])
     UNION ALL SELECT 'rogue_events', count(*) FROM rogue_events WHERE tenant_id = ANY($1::uuid[])
     UNION ALL SELECT 'agents', count(*) FROM agents WHERE tenant_id = ANY($1::uuid[])
     UNION ALL SELECT 'reviews', count(*) FROM reviews WHERE tenant_id = ANY($1::uuid[])
     UNION ALL SELECT 'pending reviews', count(*) FROM invocations WHERE tenant_id = ANY($1::uuid[]) AND review_status = 'pending'`,
    [tenants],
  );
  for (const c of counts) console.log(`  ${c.what}: ${c.n}`);
  if (W > 1) {
    const mid = Math.floor(W / 2);
    console.log(`  sizes: largest ${sizes[0]}, median ${sizes[mid]} (${tenants[mid]}), smallest ${sizes[W - 1]}`);
  }
  lap(`seeded ${W} workspace(s)`, started);
} finally {
  await db.close();
}

/**
 * The daily roll-ups and their marks as the service's pass (foldRollups)
 * leaves them once it has folded every row, written set-based: the pass
 * catching up millions of rows at once is far slower than its steady state of
 * a minute's rows (docs/performance.md, "At scale"). The seed writes no
 * background scans (output_scans), so every text's findings count with its
 * invocation. bench/reports.ts checks every answer against counting every row.
 */
async function writeRollups(tx: Queryable, tenants: string[], sizes: number[], rogues: number[]): Promise<void> {
  await tx.query(
    `INSERT INTO daily_rollups (tenant_id, day, agent_key, verdict, mode, finding_type, n)
     SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, agent_key, verdict, mode, '', count(*)
     FROM invocations WHERE tenant_id = ANY($1::uuid[]) GROUP BY 1, 2, 3, 4, 5
     UNION ALL
     SELECT i.tenant_id, (i.created_at AT TIME ZONE 'UTC')::date, i.agent_key, i.verdict, i.mode, f->>'type', count(*)
     FROM invocations i
     JOIN invocation_content c ON c.tenant_id = i.tenant_id AND c.invocation_id = i.invocation_id AND c.created_at = i.created_at
     CROSS JOIN LATERAL jsonb_array_elements(c.findings) AS f
     WHERE i.tenant_id = ANY($1::uuid[]) GROUP BY 1, 2, 3, 4, 5, 6`,
    [tenants],
  );
  await tx.query(
    `INSERT INTO daily_rogue_rollups (tenant_id, day, event_type, n)
     SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, event_type, count(*)
     FROM rogue_events WHERE tenant_id = ANY($1::uuid[]) GROUP BY 1, 2, 3`,
    [tenants],
  );
  await tx.query(
    `INSERT INTO rollup_marks (tenant_id, invocation_id, rogue_event_id)
     SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::bigint[])
     ON CONFLICT (tenant_id) DO UPDATE SET invocation_id = EXCLUDED.invocation_id, rogue_event_id = EXCLUDED.rogue_event_id`,
    [tenants, sizes, rogues],
  );
}
