import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { type Db, type Queryable, type Row, TENANT_SCOPE_SQL } from './db.ts';
import { PgliteStatements } from './pglite-prepared.ts';

// int8 as a JS number: ids and log indexes stay far below 2^53.
const parsers = { 20: (v: string) => Number(v) };

/** Opens the embedded store in dataDir (created if missing), or in memory when dataDir is undefined. */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir ? { dataDir, parsers } : { parsers });
  const statements = new PgliteStatements(pg);
  const wrap = (q: { query: PGlite['query']; exec: PGlite['exec'] }): Queryable => ({
    async query<R extends Row>(sql: string, params?: readonly unknown[]) {
      // A statement that repeats runs under a name, parsed and planned once (pglite-prepared.ts).
      const named = statements.run<R>(sql, params ?? [], q !== pg);
      if (named) return named;
      const res = await q.query<R>(sql, params ? [...params] : undefined);
      return res.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const db: Db = {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    withTenant: (tenantId, fn, opening) =>
      pg.transaction(async (pgTx) => {
        const tx = wrap(pgTx);
        await tx.query(TENANT_SCOPE_SQL, [tenantId]);
        if (!opening || opening.length === 0) return fn(tx);
        const opened: Row[][] = [];
        for (const s of opening) opened.push(await tx.query<Row>(s.sql, s.params));
        return fn(tx, opened);
      }),
    // One connection, one transaction at a time: every transaction already sees one snapshot.
    snapshot: (tenantId, fn) => db.withTenant(tenantId, fn),
    async ping() {
      await pg.query('SELECT 1');
    },
    async listen(channel, onNotify) {
      const unsub = await pg.listen(channel, (payload) => onNotify(payload));
      return async () => {
        if (!pg.closed) await unsub();
      };
    },
    async close() {
      if (!pg.closed) await pg.close();
    },
  };
  return db;
}
