// A deployment upgrading to partitioned tables keeps what it holds: the rows
// written before the migrations that partition ingest's tables are there
// after them (idempotency keys: those still answering), in the partitions of
// their periods or, until the maintenance's next pass, the default one; the
// per-agent counters of rogue events and invocations count each row once, and
// each invocation's texts are kept in its month.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../db/index.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { PartitionMaintainer } from '../partitions/index.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';
import { INGEST_PARTITIONS } from './index.ts';

const TENANT = '00000000-0000-4000-8000-0000000000bb';
const FIRST_PARTITIONED = '0200';

for (const store of testStores()) {
  test(`upgrading (${store}): idempotency keys that still answer and every rogue event, invocation and text move into the partitioned tables`, async () => {
    let db: Db;
    let dispose: () => Promise<void>;
    if (store === 'postgres') {
      const t = await createTestDb('postgres', { empty: true });
      db = t.db;
      dispose = () => t.dispose();
    } else {
      db = await openPglite();
      dispose = () => db.close();
    }
    try {
      const all = loadMigrations();
      await migrate(
        db,
        all.filter((m) => m.name < FIRST_PARTITIONED),
      );
      await db.query(
        `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, response, created_at) VALUES
           ($1, 'live', '\\x01', '{"status": 201, "body": {"invocation_id": 7}}', now() - interval '2 hours'),
           ($1, 'expired', '\\x02', '{"status": 201, "body": {}}', now() - interval '30 hours')`,
        [TENANT],
      );
      // Rogue events of three months, counted per agent by the table's trigger (RLS forced: as the workspace).
      await db.withTenant(TENANT, (tx) =>
        tx.query(
          `INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, log_index, created_at)
           SELECT $1, i, 'loop', 'bot-' || (i % 2), i - 1, timestamptz '2025-11-20T10:00:00Z' + (i * interval '20 days')
           FROM generate_series(1, 4) AS i`,
          [TENANT],
        ),
      );
      // Invocations of three months with their texts, counted per agent by the table's trigger.
      await db.withTenant(TENANT, async (tx) => {
        await tx.query(
          `INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, principal_id, verdict, reasons,
             policy_version, log_index, created_at)
           SELECT $1, i, 'bot-' || (i % 2), 'observed', 'success', 'p', 'allow', '[]', 1, 10 + i,
             timestamptz '2025-11-20T10:00:00Z' + (i * interval '20 days')
           FROM generate_series(1, 4) AS i`,
          [TENANT],
        );
        await tx.query(
          `INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt)
           SELECT $1, i, f, 'text ' || i, '\\x00' FROM generate_series(1, 4) AS i, unnest(ARRAY['prompt', 'tool_input']) AS f`,
          [TENANT],
        );
      });
      const invocationCounters = () =>
        db.withTenant(TENANT, (tx) =>
          tx.query('SELECT agent_key, invocations::int AS n FROM agent_activity ORDER BY agent_key'),
        );
      const invocationsCountedBefore = await invocationCounters();
      assert.equal(invocationsCountedBefore.length, 2);
      const counters = () =>
        db.withTenant(TENANT, (tx) =>
          tx.query('SELECT agent_key, event_type, events::int AS n FROM agent_rogue_activity ORDER BY agent_key'),
        );
      const countedBefore = await counters();
      assert.equal(countedBefore.length, 2);
      await migrate(db, all);
      const rogue = await db.withTenant(TENANT, (tx) =>
        tx.query<{ id: number; part: string }>(
          'SELECT rogue_event_id AS id, tableoid::regclass::text AS part FROM rogue_events ORDER BY 1',
        ),
      );
      assert.deepEqual(
        rogue.map((r) => [r.id, r.part]),
        [
          [1, 'rogue_events_p202512'],
          [2, 'rogue_events_p202512'],
          [3, 'rogue_events_p202601'],
          [4, 'rogue_events_p202602'],
        ],
      );
      assert.deepEqual(await counters(), countedBefore, 'the copy counted nothing twice');
      // Invocations and their texts, each in its invocation's month; the counters unchanged; the days'
      // ids recorded, so that a read by id finds its month.
      const invocations = await db.withTenant(TENANT, (tx) =>
        tx.query<{ id: number; part: string; texts: string; found: number }>(
          `SELECT i.invocation_id::int AS id, i.tableoid::regclass::text AS part,
             (SELECT string_agg(c.tableoid::regclass::text || ':' || c.field, ',' ORDER BY c.field) FROM invocation_content c
               WHERE c.tenant_id = i.tenant_id AND c.invocation_id = i.invocation_id AND c.created_at = i.created_at) AS texts,
             (SELECT count(*)::int FROM ingest_read.invocations j WHERE j.tenant_id = i.tenant_id
               AND j.invocation_id = i.invocation_id
               AND j.created_at >= ingest_read.invocations_from(i.tenant_id, ARRAY[i.invocation_id])
               AND j.created_at < ingest_read.invocations_until(i.tenant_id, ARRAY[i.invocation_id])) AS found
           FROM invocations i ORDER BY 1`,
        ),
      );
      assert.deepEqual(
        invocations.map((r) => [r.id, r.part, r.texts, r.found]),
        [
          [1, 'invocations_p202512', 'invocation_content_p202512:prompt,invocation_content_p202512:tool_input', 1],
          [2, 'invocations_p202512', 'invocation_content_p202512:prompt,invocation_content_p202512:tool_input', 1],
          [3, 'invocations_p202601', 'invocation_content_p202601:prompt,invocation_content_p202601:tool_input', 1],
          [4, 'invocations_p202602', 'invocation_content_p202602:prompt,invocation_content_p202602:tool_input', 1],
        ],
      );
      assert.deepEqual(await invocationCounters(), invocationsCountedBefore, 'the copy counted nothing twice');
      // The new rows go on being counted, and the read view answers.
      await db.withTenant(TENANT, (tx) =>
        tx.query(
          `INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, log_index, created_at)
           VALUES ($1, 5, 'loop', 'bot-1', 4, '2026-02-10T00:00:00Z')`,
          [TENANT],
        ),
      );
      const [viewed] = await db.withTenant(TENANT, (tx) =>
        tx.query<{ n: number }>('SELECT count(*)::int AS n FROM ingest_read.rogue_events'),
      );
      assert.equal(viewed!.n, 5);
      assert.deepEqual(
        (await counters()).map((r) => [r['agent_key'], r['n']]),
        [
          ['bot-0', 2],
          ['bot-1', 3],
        ],
      );
      const rows = await db.query<{ key: string; response: unknown; part: string }>(
        'SELECT key, response, tableoid::regclass::text AS part FROM idempotency_keys ORDER BY key',
      );
      assert.deepEqual(
        rows.map((r) => [r.key, r.response, r.part]),
        [['live', { status: 201, body: { invocation_id: 7 } }, 'idempotency_keys_default']],
      );
      // The first pass moves it into its day's partition.
      const m = new PartitionMaintainer({ db, now: () => new Date(), tables: INGEST_PARTITIONS });
      const pass = await m.maintain();
      assert.equal(pass.defaultRowsMoved, 1);
      const [moved] = await db.query<{ part: string }>(
        "SELECT tableoid::regclass::text AS part FROM idempotency_keys WHERE key = 'live'",
      );
      assert.match(moved!.part, /^idempotency_keys_p\d{8}$/);
    } finally {
      await dispose();
    }
  });
}
