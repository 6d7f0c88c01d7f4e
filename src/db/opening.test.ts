// withTenant's opening statements run in the round trip that opens the
// transaction. On PostgreSQL each is prepared once per connection (PREPARE in
// that round trip, the first time) and run by EXECUTE with its parameters as
// literals: the rows must be each statement's own, in order, whether it was
// prepared just now or before, and a parameter that has no literal still runs.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTestDb, type TestDb, testStores } from '../testing/test-db.ts';

for (const store of testStores()) {
  describe(`opening statements [${store}]`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(store);
    });
    after(async () => {
      await t?.dispose();
    });

    const opening = [
      { sql: 'SELECT $1::text AS a, current_setting($2) AS tenant', params: ['it\'s \\ a "text"', 'app.tenant_id'] },
      { sql: 'SELECT n FROM generate_series(1, $1::int) AS n', params: [3] },
      {
        sql: 'SELECT $1::date[]::text[] AS days, cardinality($2::text[]) AS none',
        params: [['2026-11-28', '2026-11-29'], []],
      },
    ];

    test("each statement's rows, in order, inside the scoped transaction, time after time", async () => {
      const tenant = randomUUID();
      // More transactions than the pool has connections: some prepare, some find it prepared.
      for (let i = 0; i < 24; i++) {
        const opened = await t.db.withTenant(tenant, async (_tx, rows) => rows, opening);
        assert.deepEqual(opened, [
          [{ a: 'it\'s \\ a "text"', tenant }],
          [{ n: 1 }, { n: 2 }, { n: 3 }],
          [{ days: ['2026-11-28', '2026-11-29'], none: 0 }],
        ]);
      }
    });

    test('a parameter without a literal (it holds NUL) goes as a parameter, and the server judges it', async () => {
      await assert.rejects(
        t.db.withTenant(randomUUID(), async () => 'ran', [{ sql: 'SELECT $1::text AS a', params: ['a\0b'] }]),
        /0x00|null character|invalid byte sequence/i,
      );
      const opened = await t.db.withTenant(randomUUID(), async (_tx, rows) => rows, [
        { sql: 'SELECT length($1::bytea) AS n', params: [Buffer.from([0, 1, 0])] },
      ]);
      assert.deepEqual(opened, [[{ n: 3 }]]);
    });

    test('a failing opening statement fails the transaction; the next ones run as before', async () => {
      const tenant = randomUUID();
      await assert.rejects(
        t.db.withTenant(tenant, async () => 'ran', [{ sql: 'SELECT 1 / $1::int AS q', params: [0] }]),
        /division by zero/,
      );
      for (let i = 0; i < 12; i++) {
        const opened = await t.db.withTenant(tenant, async (_tx, rows) => rows, [
          { sql: 'SELECT 1 / $1::int AS q', params: [1] },
          ...opening.slice(1, 2),
        ]);
        assert.deepEqual(opened, [[{ q: 1 }], [{ n: 1 }, { n: 2 }, { n: 3 }]]);
      }
    });
  });
}
