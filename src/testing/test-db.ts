import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
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
export interface TestDbOptions {
  /** PostgreSQL only: a database without the migrations applied (for tests of migrating). */
  empty?: boolean;
}

export async function createTestDb(store: Store, opts: TestDbOptions = {}): Promise<TestDb> {
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
  // A copy of a migrated template database costs a fraction of running every
  // migration; tests of the migrations themselves ask for an empty one.
  const template = opts.empty ? undefined : await postgresTemplate(base);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
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

/** The database of a suite of eachTestDb: created before the suite's tests, so read inside a test. */
export class SuiteDb {
  #current: TestDb | undefined;
  readonly store: Store;

  constructor(store: Store) {
    this.store = store;
  }

  get db(): Db {
    return this.#opened().db;
  }

  /** The database URL (PostgreSQL only), for server processes the test spawns. */
  get url(): string | undefined {
    return this.#opened().url;
  }

  async open(): Promise<void> {
    this.#current = await createTestDb(this.store);
  }

  async dispose(): Promise<void> {
    await this.#current?.dispose();
  }

  #opened(): TestDb {
    if (!this.#current) throw new Error('the test database is not created yet (read it inside a test)');
    return this.#current;
  }
}

/**
 * A suite per store (testStores()), each with a database of its own (migrated): created before the suite's tests,
 * dropped after them. Inside a test, `testDb.db` is that suite's database.
 */
export function eachTestDb(title: string, body: (testDb: SuiteDb, store: Store) => void): void {
  for (const store of testStores()) {
    describe(`${title} [${store}]`, () => {
      const testDb = new SuiteDb(store);
      before(() => testDb.open());
      after(() => testDb.dispose());
      body(testDb, store);
    });
  }
}

/** An empty database of the store (no migrations: for tests of migrating), closed and dropped afterwards. */
export async function withEmptyDb(store: Store, fn: (db: Db) => Promise<void>): Promise<void> {
  if (store === 'pglite') {
    const db = await openPglite();
    try {
      await fn(db);
    } finally {
      await db.close();
    }
    return;
  }
  const t = await createTestDb('postgres', { empty: true });
  try {
    await fn(t.db);
  } finally {
    await t.dispose();
  }
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
  const key = migrationSetKey(version);
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

/** Names the migration set (and what else a template depends on): a template is reused only for the same key. */
function migrationSetKey(salt: string): string {
  return createHash('sha256')
    .update(salt)
    .update(
      loadMigrations()
        .map((m) => `${m.name}:${m.checksum}`)
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);
}

const TEMPLATE_PREFIX = 'agent_ledger_template_';
let postgresTemplateOnce: Promise<string> | undefined;

/**
 * A database on the PostgreSQL server with every migration applied, built
 * once per migration set under an advisory lock (so concurrent test processes
 * build it once) and never connected to afterwards: new test databases are
 * created from it with CREATE DATABASE … TEMPLATE. Templates of other
 * migration sets built over an hour ago are dropped.
 */
function postgresTemplate(base: string): Promise<string> {
  postgresTemplateOnce ??= buildPostgresTemplate(base).catch((err: unknown) => {
    postgresTemplateOnce = undefined;
    throw err;
  });
  return postgresTemplateOnce;
}

async function buildPostgresTemplate(base: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationSetKey('postgres')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [TEMPLATE_PREFIX]);
    const existing = await admin.query<{ datname: string; built: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS built FROM pg_database WHERE datname LIKE $1`,
      [`${TEMPLATE_PREFIX}%`],
    );
    for (const row of existing.rows) {
      if (row.datname === name || Date.now() - Number(row.built ?? 0) < 3_600_000) continue;
      await admin.query(`DROP DATABASE IF EXISTS ${row.datname}`).catch(() => undefined); // in use: next time
    }
    if (existing.rows.some((r) => r.datname === name)) return name;
    const build = `${name}_build`;
    await admin.query(`DROP DATABASE IF EXISTS ${build} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${build}`);
    const url = new URL(base);
    url.pathname = `/${build}`;
    const db = await openPostgres(url.toString(), { max: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE ${build} RENAME TO ${name}`);
    await admin.query(`COMMENT ON DATABASE ${name} IS '${Date.now()}'`);
    return name;
  } finally {
    await admin.end(); // releases the advisory lock
  }
}
