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
//
// Statements may go before it in the same Sync (`before`: each Parse, Bind,
// Describe and Execute of the unnamed statement): a guard that raises aborts
// the transaction there, and neither the statement nor COMMIT runs.
import { createRequire } from 'node:module';
import pg from 'pg';

/** What this file uses of node-postgres's connection (pg/lib/connection.js). */
interface Connection {
  execute(config: { portal: string; rows: number | undefined }): void;
  parse(config: { text: string; name: string; types: unknown[] }): void;
  bind(config: {
    portal: string;
    statement: string;
    values: readonly unknown[];
    valueMapper?: (v: unknown) => unknown;
  }): void;
  describe(config: { type: 'P'; name: string }): void;
  sync(): void;
}

/** node-postgres's Query, with the parts of it this file replaces. */
interface PgQuery extends pg.Submittable {
  portal: string;
  prepare(connection: Connection): void;
  _getRows(connection: Connection, rows: number | undefined): void;
}

const Query = pg.Query as unknown as new (config: pg.QueryConfig) => PgQuery;
// node-postgres's own conversion of a parameter for Bind (what its Query uses).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (v: unknown) => unknown };

export class CommittingQuery extends Query {
  readonly #before: ReadonlyArray<{ sql: string; params: readonly unknown[] }>;

  constructor(config: pg.QueryConfig, before: ReadonlyArray<{ sql: string; params: readonly unknown[] }> = []) {
    // The extended protocol whatever the statement (prepare() and _getRows() are what send it all).
    super({ ...config, queryMode: 'extended' } as pg.QueryConfig);
    this.#before = before;
  }

  // Sends Parse (if needed) and Bind of the statement, then _getRows: the statements before it go first.
  override prepare(connection: Connection): void {
    for (const s of this.#before) {
      connection.parse({ text: s.sql, name: '', types: [] });
      connection.bind({ portal: '', statement: '', values: s.params, valueMapper: prepareValue });
      // Its row description: the rows it returns are read as a result of their own.
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: undefined });
    }
    super.prepare(connection);
  }

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
