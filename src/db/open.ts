import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** PostgreSQL when a URL is given, else the embedded store in dataDir. */
export async function openDb(opts: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<Db> {
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.poolSize === undefined ? {} : { max: opts.poolSize })
    : openPglite(opts.dataDir);
}
