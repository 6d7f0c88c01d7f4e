import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { testStores, withEmptyDb } from '../testing/test-db.ts';

// 0036 moves a database that already holds events to per-workspace ids: each
// workspace goes on from its own highest id (the ids given out stay: leaves
// name them), and the shared sequences are gone.

for (const store of testStores()) {
  test(`0036 starts each workspace's id counters at its highest id [${store}]`, async () => {
    await withEmptyDb(store, async (db) => {
      const all = loadMigrations();
      await migrate(
        db,
        all.filter((m) => m.name < '0036'),
      );
      const [a, b, idle] = [randomUUID(), randomUUID(), randomUUID()];
      for (const t of [a, b, idle]) {
        await db.query("INSERT INTO workspaces (tenant_id, display_name, domain) VALUES ($1, 'w', $2)", [
          t,
          `${t}.example`,
        ]);
      }
      // The shared sequence interleaved them: A got 1-9 and 13, B 10-12.
      const ids = { [a]: [1, 2, 3, 4, 5, 6, 7, 8, 9, 13], [b]: [10, 11, 12] };
      for (const [t, list] of Object.entries(ids)) {
        await db.withTenant(t, async (tx) => {
          await tx.query(
            `INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, principal_id, verdict, reasons, policy_version, log_index, created_at)
             SELECT $1, id, 'bot', 'observed', 'success', 'p', 'allow', '[]', 0, id, now() FROM unnest($2::bigint[]) id`,
            [t, list],
          );
          await tx.query(
            `INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, log_index, created_at)
             SELECT $1, id + 100, 'loop', 'bot', id, now() FROM unnest($2::bigint[]) id`,
            [t, list.slice(0, 2)],
          );
        });
      }
      await migrate(db, all);
      const counters = await db.query<{ tenant_id: string; kind: string; last_id: number }>(
        'SELECT tenant_id, kind, last_id FROM event_ids ORDER BY last_id',
      );
      assert.deepEqual(
        counters.map((c) => [c.tenant_id, c.kind, c.last_id]),
        [
          [b, 'invocation', 12],
          [a, 'invocation', 13],
          [a, 'rogue_event', 102],
          [b, 'rogue_event', 111],
        ],
      );
      const seqs = await db.query(
        "SELECT 1 FROM pg_class WHERE relkind = 'S' AND relname IN ('invocation_ids', 'rogue_event_ids')",
      );
      assert.deepEqual(seqs, []);
      const [row] = await db.query<{ meta_salt: unknown; sealed: unknown }>(
        'SELECT i.meta_salt, c.sealed FROM invocations i LEFT JOIN invocation_content c USING (tenant_id, invocation_id) WHERE i.tenant_id = $1 LIMIT 1',
        [a],
      );
      assert.deepEqual(row, { meta_salt: null, sealed: null }, 'rows of v1 leaves have no meta commitment');
    });
  });
}
