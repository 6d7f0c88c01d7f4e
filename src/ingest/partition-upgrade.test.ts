// A deployment upgrading to partitioned tables keeps what it holds: the rows
// written before the migrations that partition ingest's tables are there
// after them (idempotency keys: those still answering), in the partitions of
// their periods or, until the maintenance's next pass, the default one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../db/index.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { PartitionMaintainer } from '../partitions/index.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';
import { IDEMPOTENCY_PARTITIONS } from './index.ts';

const TENANT = '00000000-0000-4000-8000-0000000000bb';
const FIRST_PARTITIONED = '0200';

for (const store of testStores()) {
  test(`upgrading (${store}): idempotency keys that still answer move into the partitioned table`, async () => {
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
      await migrate(db, all);
      const rows = await db.query<{ key: string; response: unknown; part: string }>(
        'SELECT key, response, tableoid::regclass::text AS part FROM idempotency_keys ORDER BY key',
      );
      assert.deepEqual(
        rows.map((r) => [r.key, r.response, r.part]),
        [['live', { status: 201, body: { invocation_id: 7 } }, 'idempotency_keys_default']],
      );
      // The first pass moves it into its day's partition.
      const m = new PartitionMaintainer({ db, now: () => new Date(), tables: [IDEMPOTENCY_PARTITIONS] });
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
