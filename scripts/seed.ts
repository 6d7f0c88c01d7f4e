// Fills one new workspace of a PostgreSQL database with many invocations
// (with stored content), rogue events, agents, scopes and review decisions,
// for benchmarking the read side (bench/read.ts). Set-based SQL
// (generate_series), not HTTP: a million invocations take about a minute
// on two cores (31-74 s measured, depending on the load of the machine).
//
//   ./node_modules/.bin/node scripts/seed.ts --database-url postgres://… --invocations 1000000
//     [--agents 200] [--days 90] [--chunk 100000]
//
// The rows are shaped like real traffic (skewed agents, 3 % deny, 7 % flagged,
// runs of 5 steps sharing a correlation_id and chained by parent ids, PII in
// 5 % of tool inputs) but have no audit-trail leaves: their log_index values
// are placeholders, so evidence_id of a seeded row leads nowhere. Do not seed
// a database that serves real workspaces.

import { parseArgs } from 'node:util';
import { createWorkspaceWithAdmin } from '../src/accounts/directory.ts';
import { loadConfig } from '../src/config/config.ts';
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
    agents: { type: 'string', default: '200' },
    days: { type: 'string', default: '90' },
    chunk: { type: 'string', default: '100000' },
  },
});

const url = values['database-url'] ?? process.env.DATABASE_URL;
if (!url) {
  console.error('usage: scripts/seed.ts --database-url postgres://… --invocations N [--agents A] [--days D]');
  process.exit(2);
}
const N = intArg('invocations', 1);
const A = intArg('agents', 1);
const DAYS = intArg('days', 1);
const CHUNK = intArg('chunk', 1000);

function intArg(name: 'invocations' | 'agents' | 'days' | 'chunk', min: number): number {
  const v = Number(values[name]);
  if (!Number.isSafeInteger(v) || v < min) {
    console.error(`--${name} must be an integer ≥ ${min}`);
    process.exit(2);
  }
  return v;
}

const started = performance.now();
const lap = (what: string, t0: number) => console.log(`${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const db = await openPostgres(url, { max: 2 });
try {
  await migrate(db);
  const now = new Date();
  const domain = `w${now.getTime().toString(36)}${SEED_DOMAIN_SUFFIX}`;
  const admin = await db.transaction((tx) =>
    createWorkspaceWithAdmin(tx, loadConfig({}), `admin@${domain}`, domain, now),
  );
  const tenant = admin.tenant_id;
  console.log(`workspace ${tenant} (${domain}), admin ${admin.account_id}`);

  // Ids are counted per workspace (event_ids) and this workspace is new: its
  // ids are base+g, and the counters are set past them below.
  const base = 1;
  const R = Math.max(1, Math.floor(N / 100));
  const rbase = 1;
  const end = now.getTime();
  const start = end - DAYS * 86_400_000;
  const params = { tenant, start: new Date(start), spanMs: end - start };

  let t0 = performance.now();
  await db.withTenant(tenant, async (tx) => {
    await tx.query(
      `INSERT INTO agents (tenant_id, agent_key, first_seen_at)
       SELECT $1, 'agent-' || lpad(a::text, 4, '0'), $2::timestamptz FROM generate_series(0, $3 - 1) a`,
      [tenant, params.start, A],
    );
    // A few scoped agents (the policy module's own function).
    for (let a = 0; a < Math.min(A, 10); a++) {
      await saveAgentScope(
        tx,
        tenant,
        `agent-${String(a).padStart(4, '0')}`,
        ['crm.*', 'search', `tool-${a}`],
        admin.account_id,
        now,
      );
    }
  });

  // Invocations, their texts and rogue events are partitioned by month: each
  // month the seed spans gets its partitions first, as the service's
  // maintenance would have made them.
  for (let m = periodStart(params.start, 'month'); m.getTime() <= end; m = periodAfter(m, 'month')) {
    const at = m;
    await new PartitionMaintainer({
      db,
      now: () => at,
      tables: [ROGUE_EVENT_PARTITIONS, INVOCATION_PARTITIONS, INVOCATION_CONTENT_PARTITIONS],
    }).maintain();
  }

  // Invocations, chunk by chunk (one transaction each): row g (0 ≤ g < N)
  // has id base+g and a time spread evenly over the period, so ids and
  // times rise together as in real traffic.
  for (let from = 0; from < N; from += CHUNK) {
    const to = Math.min(N, from + CHUNK) - 1;
    const c0 = performance.now();
    await db.withTenant(tenant, (tx) =>
      tx.query(
        `INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind, principal_id,
           parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count, log_index,
           review_status, output_scan_verdict, output_scan_reasons, output_scanned_at, created_at)
         SELECT $1, id, agent, mode, outcome, duration, 'agent', agent,
           CASE WHEN correlated AND g % 5 <> 0 THEN id - 1 END,
           CASE WHEN correlated THEN 'run-' || ($2::bigint + g / 5) END,
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
           SELECT g, $2::bigint + g AS id, created, r6, r7,
             'agent-' || lpad(floor($6 * power(r1, 2))::int::text, 4, '0') AS agent,
             CASE WHEN r2 < 0.03 THEN 'deny' WHEN r2 < 0.10 THEN 'flag_for_review' ELSE 'allow' END AS verdict,
             CASE WHEN r3 < 0.02 THEN 'shadow' WHEN r3 < 0.20 THEN 'enforced' ELSE 'observed' END AS mode,
             CASE WHEN r4 < 0.90 THEN 'success' WHEN r4 < 0.97 THEN 'error' WHEN r4 < 0.99 THEN 'denied' ELSE 'throttled' END AS outcome,
             CASE WHEN r5 < 0.05 THEN 1 + floor(r5 * 60)::int % 3 END AS pii,
             CASE WHEN r5 >= 0.90 THEN NULL ELSE (ARRAY['search','crm.lookup','crm.update','payments.refund','mail.send','shell.exec',
               'files.read','files.write','http.get','sql.query'])[1 + floor(r7 * 10)::int] END AS tool,
             floor(r6 * 2000)::int AS duration,
             (g / 5) % 10 < 7 AS correlated
           FROM (
             SELECT g, $3::timestamptz + (g + random()) * ($4::float8 / $5) * interval '1 millisecond' AS created,
               random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6, random() AS r7
             FROM generate_series($7::bigint, $8::bigint) g
           ) r
         ) s`,
        [tenant, base, params.start, params.spanMs, N, A, from, to],
      ),
    );
    // Stored content: a prompt for every third invocation, the redacted
    // tool_input of those with PII (with its findings), a scanned tool_output
    // for every fifth.
    await db.withTenant(tenant, (tx) =>
      tx.query(
        `INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, created_at)
         SELECT $1, i.invocation_id, c.field, c.body, sha256(int8send(i.invocation_id) || convert_to(c.field, 'UTF8')), c.findings,
           i.created_at
         FROM invocations i
         CROSS JOIN LATERAL (VALUES
           ('prompt', 'Summarize the open tickets of account ' || i.invocation_id || ' and draft a short reply for the customer.',
             '[]'::jsonb, i.invocation_id % 3 = 0),
           ('tool_input', '{"to":"<EMAIL_ADDRESS>","subject":"Ticket ' || i.invocation_id || '"}',
             '[{"type":"EMAIL_ADDRESS","start":7,"end":22,"score":0.95,"category":"pii"}]'::jsonb, i.pii_count IS NOT NULL),
           ('tool_output', '{"status":"ok","items":' || (i.invocation_id % 17) || '}', '[]'::jsonb, i.invocation_id % 5 = 0)
         ) AS c(field, body, findings, present)
         WHERE i.tenant_id = $1 AND i.invocation_id BETWEEN $2 AND $3 AND c.present`,
        [tenant, base + from, base + to],
      ),
    );
    lap(`invocations ${from + 1}-${to + 1} with content`, c0);
  }

  t0 = performance.now();
  await db.withTenant(tenant, async (tx) => {
    // Each day's invocations and the ids it gave out, as ingest counts them (reads by id find months by them).
    await tx.query(
      `INSERT INTO usage_daily (tenant_id, day, invocations, first_invocation_id, last_invocation_id)
       SELECT $1, (created_at AT TIME ZONE 'UTC')::date, count(*), min(invocation_id), max(invocation_id)
       FROM invocations WHERE tenant_id = $1 GROUP BY 2`,
      [tenant],
    );
    await tx.query(
      `INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id, severity, source,
         invocation_id, log_index, created_at)
       SELECT $1, $2::bigint + g, t, agent, NULL, CASE WHEN t = 'oos_tool' THEN 'shell.exec' END, NULL,
         CASE WHEN r2 < 0.2 THEN 'high' ELSE 'medium' END, 'seed', NULL, $7::bigint + g,
         $3::timestamptz + (g + r2) * ($4::float8 / $5) * interval '1 millisecond'
       FROM (
         SELECT g, random() AS r2,
           'agent-' || lpad(floor($6 * power(random(), 2))::int::text, 4, '0') AS agent,
           (ARRAY['oos_tool','oos_tool','oos_tool','oos_tool','oos_tool','data_exfiltration','data_exfiltration',
             'privilege_escalation','privilege_escalation','prompt_injection'])[1 + floor(random() * 10)::int] AS t
         FROM generate_series(0, $5 - 1) g
       ) r`,
      [tenant, rbase, params.start, params.spanMs, R, A, 2 * N],
    );
    await tx.query(
      "INSERT INTO event_ids (tenant_id, kind, last_id) VALUES ($1, 'invocation', $2), ($1, 'rogue_event', $3)",
      [tenant, base + N - 1, rbase + R - 1],
    );
    await tx.query(
      `INSERT INTO reviews (tenant_id, invocation_id, decision, note, note_salt, decided_by, decided_at, log_index)
       SELECT tenant_id, invocation_id, CASE review_status WHEN 'approved' THEN 'approve' ELSE 'reject' END,
         'Checked against the ticket; ' || review_status || '.', sha256(int8send(invocation_id)), $2, created_at + interval '1 hour',
         log_index + 1
       FROM invocations WHERE tenant_id = $1 AND review_status IN ('approved', 'rejected')`,
      [tenant, admin.account_id],
    );
  });
  lap(`${R} rogue events and the review decisions`, t0);

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
  ]) {
    await db.query(`VACUUM (ANALYZE) ${table}`);
  }
  lap('VACUUM ANALYZE', t0);

  const counts = await db.withTenant(tenant, (tx) =>
    tx.query<{ what: string; n: number }>(
      `SELECT 'invocations' AS what, count(*)::bigint AS n FROM invocations WHERE tenant_id = $1
       UNION ALL SELECT 'invocation_content', count(*) FROM invocation_content WHERE tenant_id = $1
       UNION ALL SELECT 'rogue_events', count(*) FROM rogue_events WHERE tenant_id = $1
       UNION ALL SELECT 'agents', count(*) FROM agents WHERE tenant_id = $1
       UNION ALL SELECT 'reviews', count(*) FROM reviews WHERE tenant_id = $1
       UNION ALL SELECT 'pending reviews', count(*) FROM invocations WHERE tenant_id = $1 AND review_status = 'pending'`,
      [tenant],
    ),
  );
  for (const c of counts) console.log(`  ${c.what}: ${c.n}`);
  lap(`seeded workspace ${tenant}`, started);
} finally {
  await db.close();
}
