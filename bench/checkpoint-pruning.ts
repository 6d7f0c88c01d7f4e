// Checkpoint pruning of one busy workspace: --days (default 1) of checkpoints
// at one a second inserted straight into `checkpoints` (C2SP-sized notes),
// then the pruner's first pass (rows before/after, time), a second pass, and a
// steady pass after ten more minutes of checkpoints. On PostgreSQL it also
// prints the table's size and the plan of the pass's chunk query.
//
//   ./node_modules/.bin/node bench/checkpoint-pruning.ts [--store pglite|postgres] [--days 1]

import { CheckpointPruner } from '../src/ledger/checkpoint-pruning.ts';
import { createTestDb } from '../src/testing/test-db.ts';
import { benchArgs } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const days = args.int('days', 1);
const tenant = '11111111-1111-4111-8111-111111111111';
const start = Date.parse('2026-03-01T00:00:00Z');
const n = days * 86_400;
const ms = (t0: number) => `${(performance.now() - t0).toFixed(0)} ms`;

for (const store of args.stores) {
  console.log(`\n[${store}] one checkpoint a second for ${days} day(s)`);
  const t = await createTestDb(store);
  const db = t.db;
  try {
    let t0 = performance.now();
    await db.withTenant(tenant, (tx) =>
      tx.query(
        `INSERT INTO checkpoints (tenant_id, size, root, note, created_at)
         SELECT $1::uuid, g + 1, decode(repeat('ab', 32), 'hex'),
           'agent-ledger.local/' || $1::text || E'\\n' || (g + 1) || E'\\n' || repeat('A', 44) || E'\\n\\n— agent-ledger.local/' || $1::text || ' ' || repeat('B', 91) || E'\\n',
           $2::timestamptz + g * interval '1 second'
         FROM generate_series(0, $3::int - 1) g`,
        [tenant, new Date(start), n],
      ),
    );
    console.log(`inserted ${n} rows in ${ms(t0)}`);
    if (store === 'postgres') {
      const [sz] = await db.query<{ s: string; i: string }>(
        `SELECT pg_size_pretty(pg_table_size('checkpoints')) AS s, pg_size_pretty(pg_indexes_size('checkpoints')) AS i`,
      );
      console.log(`table ${sz!.s}, indexes ${sz!.i}`);
    }
    let now = start + n * 1000 + 15 * 60_000;
    const pruner = new CheckpointPruner({
      db,
      now: () => new Date(now),
      tenants: async () => [tenant],
      referenced: async () => [],
    });
    const count = async () =>
      (
        await db.withTenant(tenant, (tx) =>
          tx.query<{ n: number }>('SELECT count(*)::int AS n FROM checkpoints WHERE tenant_id = $1', [tenant]),
        )
      )[0]!.n;
    t0 = performance.now();
    const deleted = await pruner.prune(tenant);
    console.log(`first pass: ${deleted} deleted in ${ms(t0)}, ${await count()} remain`);
    t0 = performance.now();
    console.log(`second pass: ${await pruner.prune(tenant)} deleted in ${ms(t0)}`);
    await db.withTenant(tenant, (tx) =>
      tx.query(
        `INSERT INTO checkpoints (tenant_id, size, root, note, created_at)
         SELECT $1::uuid, $3::int + g + 1, '\\x00', 'n', $2::timestamptz + g * interval '1 second' FROM generate_series(0, 599) g`,
        [tenant, new Date(now), n],
      ),
    );
    now += 20 * 60_000;
    t0 = performance.now();
    console.log(`after 600 more: ${await pruner.prune(tenant)} deleted in ${ms(t0)}, ${await count()} remain`);
  } finally {
    await t.dispose();
  }
}
