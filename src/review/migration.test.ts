import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { testStores, withEmptyDb } from '../testing/test-db.ts';

// 0060 adds per-agent counters to a database that may already hold events:
// it must count the rows written before it, workspace by workspace.

for (const store of testStores()) {
  test(`0060 counts the invocations and rogue events already stored [${store}]`, async () => {
    await withEmptyDb(store, async (db) => {
      const all = loadMigrations();
      await migrate(
        db,
        all.filter((m) => m.name < '0060'),
      );
      const tenants = [randomUUID(), randomUUID()];
      for (const [i, t] of tenants.entries()) {
        await db.query("INSERT INTO workspaces (tenant_id, display_name, domain) VALUES ($1, 'w', 'w.example')", [t]);
        await db.withTenant(t, async (tx) => {
          await tx.query(
            `INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, principal_id, verdict, reasons, policy_version,
               pii_count, log_index, created_at)
             SELECT $1, $2::int * 1000 + g, 'bot-' || (g % 3), CASE WHEN g % 4 = 0 THEN 'shadow' ELSE 'observed' END, 'success', 'p',
               CASE WHEN g % 5 = 0 THEN 'deny' ELSE 'allow' END, '[]', 0, CASE WHEN g % 7 = 0 THEN 2 END, g,
               '2026-01-01T00:00:00Z'::timestamptz + g * interval '1 minute'
             FROM generate_series(1, 40 + $2::int) g`,
            [t, i],
          );
          await tx.query(
            `INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, log_index, created_at)
             SELECT $1, $2::int * 1000 + g, 'oos_tool', 'bot-' || (g % 2), g, '2026-01-02T00:00:00Z'::timestamptz + g * interval '1 second'
             FROM generate_series(1, 5) g`,
            [t, i],
          );
        });
      }
      await migrate(db, all);
      for (const t of tenants) {
        await db.withTenant(t, async (tx) => {
          const counted = await tx.query(
            `SELECT agent_key, verdict, mode, outcome, count(*)::bigint AS invocations,
               count(*) FILTER (WHERE pii_count > 0)::bigint AS pii_invocations, coalesce(sum(pii_count), 0)::bigint AS pii_findings,
               min(created_at) AS first_at, max(created_at) AS last_at
             FROM invocations WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
            [t],
          );
          const kept = await tx.query(
            `SELECT agent_key, verdict, mode, outcome, invocations, pii_invocations, pii_findings, first_at, last_at
             FROM agent_activity WHERE tenant_id = $1 ORDER BY 1, 2, 3, 4`,
            [t],
          );
          assert.ok(counted.length > 0);
          assert.deepEqual(kept, counted);
          const rogue = await tx.query(
            'SELECT agent_key, events FROM agent_rogue_activity WHERE tenant_id = $1 ORDER BY 1',
            [t],
          );
          assert.deepEqual(rogue, [
            { agent_key: 'bot-0', events: 2 },
            { agent_key: 'bot-1', events: 3 },
          ]);
        });
      }
    });
  });
}
