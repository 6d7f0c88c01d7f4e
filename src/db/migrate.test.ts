import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { loadMigrations, migrate } from './migrate.ts';
import { openPostgres } from './postgres.ts';

// Nodes of one deployment start together against a new database: every one
// of them runs migrate() at once. Exactly one applies each migration and none
// fails (before the fix, two creating schema_migrations at once died on
// pg_type's unique index).
test(
  'nodes migrating an empty PostgreSQL database at once: each migration applied once, no node fails',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  async () => {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `agent_ledger_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const nodes = await Promise.all([1, 2, 3, 4].map(() => openPostgres(url.toString(), { max: 2 })));
    try {
      const applied = await Promise.all(nodes.map((db) => migrate(db)));
      const all = applied.flat().sort();
      const expected = loadMigrations()
        .map((m) => m.name)
        .sort();
      assert.deepEqual(all, expected, 'every migration applied by exactly one node');
      const [row] = await nodes[0]!.query<{ n: string }>('SELECT count(*)::text AS n FROM schema_migrations');
      assert.equal(Number(row!.n), expected.length);
    } finally {
      await Promise.all(nodes.map((db) => db.close()));
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
);
