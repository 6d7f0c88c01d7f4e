// A deployment upgrading to partitioned spans (otlp migration 0204) keeps
// every recorded span: each moves into its invocation's month; one whose
// invocation the records retention already dropped goes into the month of the
// day that gave out its invocation's id (and is dropped with that month); the read
// of an invocation's span and the redaction of texts stored before they were
// redacted find them there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../db/index.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';
import { redactLegacySpanTexts } from './span-texts.ts';
import { otelDetails } from './store.ts';

const TENANT = '00000000-0000-4000-8000-0000000000cc';
const PARTITIONED = '0204';

for (const store of testStores()) {
  test(`upgrading (${store}): every recorded span moves into its invocation's month`, async () => {
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
        all.filter((m) => m.name < PARTITIONED),
      );
      await db.withTenant(TENANT, async (tx) => {
        // Invocations 1-3 of three months; 9 was given out on 2025-10-15 and its row is gone.
        await tx.query(
          `INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, principal_id, verdict, reasons,
             policy_version, log_index, created_at)
           SELECT $1, i, 'bot', 'observed', 'success', 'p', 'allow', '[]', 1, 10 + i,
             timestamptz '2025-11-20T10:00:00.123456Z' + (i * interval '20 days')
           FROM generate_series(1, 3) AS i`,
          [TENANT],
        );
        await tx.query(
          `INSERT INTO usage_daily (tenant_id, day, invocations, first_invocation_id, last_invocation_id)
           VALUES ($1, '2025-10-15', 1, 9, 9)`,
          [TENANT],
        );
        await tx.query(
          `INSERT INTO otel_spans (tenant_id, trace_id, span_id, invocation_id, span_name, span_kind, operation,
             start_time_unix_nano, texts_redacted)
           SELECT $1, repeat('a', 32), lpad(i::text, 16, '0'), i, 'chat for jane@example.com', 'client', 'chat',
             1760000000000000000, i <> 2
           FROM unnest(ARRAY[1, 2, 3, 9]) AS i`,
          [TENANT],
        );
      });
      await migrate(db, all);
      const rows = await db.withTenant(TENANT, (tx) =>
        tx.query<{ id: number; part: string }>(
          'SELECT invocation_id::int AS id, tableoid::regclass::text AS part FROM otel_spans ORDER BY 1',
        ),
      );
      assert.deepEqual(
        rows.map((r) => [r.id, r.part]),
        [
          [1, 'otel_spans_p202512'],
          [2, 'otel_spans_p202512'],
          [3, 'otel_spans_p202601'],
          [9, 'otel_spans_p202510'],
        ],
      );
      const [nine] = await db.withTenant(TENANT, (tx) =>
        tx.query<{ at: Date }>('SELECT created_at AS at FROM otel_spans WHERE invocation_id = 9'),
      );
      assert.equal(new Date(nine!.at).toISOString(), '2025-10-15T00:00:00.000Z');
      // Read by the invocation's time (microseconds the Date drops), and the unredacted one found by the sweep.
      await db.withTenant(TENANT, async (tx) => {
        const [inv] = await tx.query<{ at: Date }>('SELECT created_at AS at FROM invocations WHERE invocation_id = 2');
        const details = await otelDetails(tx, TENANT, { id: 2, createdAt: new Date(inv!.at) }, true, (s) =>
          s.replace('jane@example.com', '<EMAIL>'),
        );
        assert.equal(details?.span_id, '0000000000000002');
        assert.equal(await redactLegacySpanTexts(tx, TENANT, (s) => s.replace('jane@example.com', '<EMAIL>')), 1);
        const [stored] = await tx.query<{ span_name: string; texts_redacted: boolean }>(
          'SELECT span_name, texts_redacted FROM otel_spans WHERE invocation_id = 2',
        );
        assert.deepEqual(stored, { span_name: 'chat for <EMAIL>', texts_redacted: true });
        assert.equal(await redactLegacySpanTexts(tx, TENANT, (s) => s), 0);
      });
    } finally {
      await dispose();
    }
  });
}
