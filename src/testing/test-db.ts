import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Db } from '../db/db.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
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
 * A fresh database per test file: a PGlite cluster (a copy of a migrated
 * template, in a temporary directory), or a new database on
 * the PostgreSQL server named after a random id, so parallel files and runs
 * never see each other's rows.
 */
export async function createTestDb(store: Store): Promise<TestDb> {
  if (store === 'pglite') {
    // A copy of a migrated template cluster opens in a fraction of the time
    // initdb takes (PGlite's initdb dominates a test file's start-up).
    const template = await pgliteTemplate();
    const dir = mkdtempSync(join(tmpdir(), 'agent-ledger-pglite-'));
    let db: Db;
    try {
      cpSync(template, dir, { recursive: true });
      db = await openPglite(dir);
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return {
      store,
      db,
      url: undefined,
      async dispose() {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
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

/**
 * A PGlite data directory with every migration applied, built once per
 * PGlite version and migration set and shared by test processes (built in a
 * private directory and renamed into place, so concurrent builders never see
 * half a cluster).
 */
export async function pgliteTemplate(): Promise<string> {
  const pkg = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
  const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  const key = createHash('sha256')
    .update(version)
    .update(loadMigrations().map((m) => `${m.name}:${m.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const path = join(tmpdir(), `agent-ledger-pglite-template-${key}`);
  if (existsSync(path)) return path;
  pruneTemplates(path);
  const build = mkdtempSync(join(tmpdir(), 'agent-ledger-pglite-build-'));
  const db = await openPglite(build);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  try {
    renameSync(build, path);
  } catch {
    rmSync(build, { recursive: true, force: true }); // another process won the race
    if (!existsSync(path)) throw new Error(`could not create the PGlite template ${path}`);
  }
  return path;
}

/** Templates of other migration sets, built over an hour ago, are stale (about 40 MB each). */
function pruneTemplates(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith('agent-ledger-pglite-template-') || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone already
    }
  }
}
