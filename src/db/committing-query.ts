// A statement and COMMIT in one round trip, over the extended protocol: Parse
// (once per connection for a named statement), Bind and Execute of the
// statement, then Parse, Bind and Execute of COMMIT, then one Sync. The
// server runs them in order and answers once; an error skips what follows up
// to the Sync, so COMMIT never runs after a failed statement (the transaction
// stays open, aborted, for the caller's ROLLBACK). Its parameters go as
// node-postgres sends them, arrays in binary (binary-arrays.ts): committing in
// a simple query instead (EXECUTE with the parameters as literals, then
// COMMIT) cost both ends the text of every array, more than the round trip
// past a dozen entries.
//
// node-postgres sends one statement per Sync; this is its Query with the
// messages before the Sync changed (its private _getRows, which sends them):
// every answer is still handled by its Query (two command results, then the
// one ReadyForQuery that ends it).
import pg from 'pg';

/** What this file uses of node-postgres's connection (pg/lib/connection.js). */
interface Connection {
  execute(config: { portal: string; rows: number | undefined }): void;
  parse(config: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[] }): void;
  sync(): void;
}

/** node-postgres's Query, with the part of it this file replaces. */
interface PgQuery extends pg.Submittable {
  portal: string;
  _getRows(connection: Connection, rows: number | undefined): void;
}

const Query = pg.Query as unknown as new (config: pg.QueryConfig) => PgQuery;

export class CommittingQuery extends Query {
  // Called once the statement is parsed (if it had to be) and bound, to execute it and Sync.
  override _getRows(connection: Connection, rows: number | undefined): void {
    if (rows) throw new Error('CommittingQuery reads every row at once');
    connection.execute({ portal: this.portal, rows: undefined });
    // The unnamed statement and portal: the statement's own portal has run by now.
    connection.parse({ text: 'COMMIT', name: '', types: [] });
    connection.bind({ portal: '', statement: '', values: [] });
    connection.execute({ portal: '', rows: undefined });
    connection.sync();
  }
}
