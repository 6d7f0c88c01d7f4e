import type { Db, Queryable } from '../db/db.ts';

/**
 * A Db that notes the first three words of each statement sent inside its
 * workspace transactions (`Db.withTenant`), in order — each of the
 * transaction's opening statements as "opening: …" — so that a test can say
 * which statements a write sends, and how many.
 */
export function countingDb(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const note = (sql: string) => statements.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
  const wrap = (tx: Queryable): Queryable => {
    const counted: Queryable = {
      query: (sql, params) => {
        note(sql);
        return tx.query(sql, params);
      },
      exec: (sql) => tx.exec(sql),
    };
    // The store's queryThenCommit, when it has one (the log's last write uses it), counted the same way.
    const commit = tx.queryThenCommit?.bind(tx);
    if (commit) {
      counted.queryThenCommit = (sql, params) => {
        note(sql);
        return commit(sql, params);
      };
    }
    return counted;
  };
  return {
    db: {
      ...db,
      withTenant: (tenantId, fn, opening) => {
        for (const { sql } of opening ?? [])
          statements.push(`opening: ${sql.trim().split(/\s+/).slice(0, 3).join(' ')}`);
        return db.withTenant(tenantId, (tx, opened) => fn(wrap(tx), opened), opening);
      },
    },
    statements,
  };
}
