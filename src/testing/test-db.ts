import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../db/db.ts';
import { openPglite } from '../db/pglite.ts';
import { openPostgres } from '../db/postgres.ts';

export type Store = 'pglite' | 'postgres';

/** PGlite always; the real PostgreSQL server too whenever TEST_DATABASE_URL is set. */
export function testStores(): Store[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDb {
  store: Store;
  db: Db;
  /** The database URL (PostgreSQL only), for server processes the test spawns. */
  url: string | undefined;
  /** Closes the connection and drops the database. */
  dispose(): Promise<void>;
}

/**
 * A fresh database per test file: an in-memory PGlite, or a new database on
 * the PostgreSQL server named after a random id, so parallel files and runs
 * never see each other's rows.
 */
export async function createTestDb(store: Store): Promise<TestDb> {
  if (store === 'pglite') {
    const db = await openPglite();
    return { store, db, url: undefined, dispose: () => db.close() };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `agent_ledger_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), { max: 10 });
  return {
    store,
    db,
    url: url.toString(),
    async dispose() {
      await db.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
