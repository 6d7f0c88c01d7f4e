import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

const srcDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Every module keeps its SQL in `src/<module>/migrations/NNNN_name.sql`; the
 * global order is the file name, so numbers are unique across modules.
 */
export function loadMigrations(root = srcDir): Migration[] {
  const found: Migration[] = [];
  for (const mod of readdirSync(root, { withFileTypes: true })) {
    if (!mod.isDirectory()) continue;
    const dir = join(root, mod.name, 'migrations');
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f));
    } catch {
      continue;
    }
    for (const f of files) {
      const sql = readFileSync(join(dir, f), 'utf8');
      found.push({ name: basename(f, '.sql'), sql, checksum: createHash('sha256').update(sql).digest('hex') });
    }
  }
  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < found.length; i++) {
    if (found[i]!.name.slice(0, 4) === found[i - 1]!.name.slice(0, 4)) {
      throw new Error(`two migrations share the number ${found[i]!.name.slice(0, 4)}`);
    }
  }
  return found;
}

// Any constant works; it only has to be the same on every node.
const MIGRATION_LOCK = 7_201_346_011;

/**
 * Applies the migrations not yet recorded, each in its own transaction. Nodes
 * starting together serialize on an advisory lock, so each runs exactly once.
 * Returns the names applied now.
 */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  // Under the lock too: two nodes creating the table at once on an empty
  // database collide in PostgreSQL's catalogue (pg_type's unique index), as
  // IF NOT EXISTS only checks before it creates.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const [row] = await tx.query<{ checksum: string }>('SELECT checksum FROM schema_migrations WHERE name = $1', [
        m.name,
      ]);
      if (row) {
        if (row.checksum !== m.checksum) {
          throw new Error(`migration ${m.name} was changed after it was applied; add a new migration instead`);
        }
        return false;
      }
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
      return true;
    });
    if (ran) applied.push(m.name);
  }
  return applied;
}
