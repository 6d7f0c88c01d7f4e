import pg from 'pg';
import {
  CommitOutcomeUnknown,
  type Db,
  type Queryable,
  type Row,
  type SendAhead,
  type Statement,
  TENANT_SCOPE_SQL,
  tenantScopeLiteral,
} from './db.ts';
import { BinaryArrayParams } from './binary-arrays.ts';
import { CommittingQuery } from './committing-query.ts';
import { sqlLiteral } from './sql-literal.ts';
import { StatementNames } from './statement-names.ts';

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    // int8 as a JS number: ids and log indexes stay far below 2^53.
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface PostgresOptions {
  max?: number;
  /** Fail fast when the server is gone instead of waiting forever for a connection. */
  connectionTimeoutMillis?: number;
}

// One naming for the process: a name always stands for the same text, on every pool's connections.
const statements = new StatementNames();
// withTenant's opening statements (the log head's lock, the read ahead): a few fixed texts, prepared on first use.
const opening = new StatementNames(32, 1, 'alo_');
const GENERIC = 'SET LOCAL plan_cache_mode = force_generic_plan';
const GENERIC_RESET = 'RESET plan_cache_mode';
/** Which of `opening`'s names each connection has prepared. */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

/** The names `client` has prepared (a set it keeps for its life). */
function preparedNames(client: pg.PoolClient): Set<string> {
  let names = preparedOn.get(client);
  if (!names) preparedOn.set(client, (names = new Set()));
  return names;
}
// Array parameters go in binary where the statement's text says their type (binary-arrays.ts).
const binaryArrays = new BinaryArrayParams();

export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 5000,
    types,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const run = async <R extends Row>(c: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => {
    if (!params) return (await c.query<R>(sql)).rows;
    const name = statements.nameOf(sql);
    const values = binaryArrays.encode(sql, params);
    return (await c.query<R>(name === undefined ? { text: sql, values } : { name, text: sql, values })).rows;
  };

  async function transaction<T>(
    scope: string | null,
    fn: (tx: Queryable, opened?: Row[][]) => Promise<T>,
    begin = 'BEGIN',
    openingStatements: readonly Statement[] = [],
    onOpened?: (sendAhead: SendAhead) => void,
  ): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    let committed = false;
    /** The statements and COMMIT sent ahead, behind the opening (settled, never rejecting: its error or undefined). */
    let sentAhead: Promise<unknown> | undefined;
    // The pool listens for errors of idle clients only: without a listener, a
    // connection lost mid-transaction is an uncaught 'error' event that ends
    // the process. The failing query reports the loss; the client is dropped.
    const onLost = () => {
      broken = true;
    };
    client.on('error', onLost);
    try {
      let opened: Row[][] | undefined;
      const literal = scope ? tenantScopeLiteral(scope) : undefined;
      const executes = literal ? openingExecutes(client, openingStatements) : undefined;
      if (literal && executes) {
        // One round trip: BEGIN, the scope and the opening statements as one
        // simple query (each statement still gets its own snapshot, so an
        // opening one may wait for a lock and the next read what was committed).
        let results: pg.QueryResult[];
        try {
          const answer = client.query([begin, literal, ...executes.texts].join('; '));
          onOpened?.((statements) => {
            const sent = sendAhead(statements);
            sentAhead = sent.then(
              () => undefined,
              (err: unknown) => err,
            );
            return sent;
          });
          results = (await answer) as unknown as pg.QueryResult[];
        } catch (err) {
          // Whether a PREPARE in it ran is not known: the connection is not reused.
          if (executes.preparing.length > 0) broken = true;
          // What was sent behind it has failed too (the transaction is aborted), unless the connection was lost: then say so.
          const late = await sentAhead;
          throw late instanceof CommitOutcomeUnknown ? late : err;
        }
        executes.prepared();
        if (openingStatements.length > 0) opened = executes.rowsAt.map((i) => results[i + 2]!.rows as Row[]);
      } else {
        await client.query(begin);
        if (scope) await client.query(TENANT_SCOPE_SQL, [scope]);
        if (openingStatements.length > 0) {
          opened = [];
          for (const s of openingStatements) opened.push(await run(client, s.sql, s.params));
        }
      }
      const open = () => {
        if (committed) throw new Error('the transaction has committed: nothing more may run in it');
      };
      const result = await fn(
        {
          query: async (sql, params) => {
            open();
            return run(client, sql, params);
          },
          exec: async (sql) => {
            open();
            await client.query(sql);
          },
          queryThenCommit: async (sql, params) => {
            open();
            committed = true;
            await thenCommit([], { sql, params });
          },
        },
        opened,
      );
      // fn awaits what it sent ahead; a failure of it that fn let pass is still a failure.
      const late = await sentAhead;
      if (late !== undefined) throw late;
      if (!committed) await client.query('COMMIT');
      return result;
    } catch (failure) {
      let err = failure;
      // Statements sent ahead that committed although fn failed (fn must await them): stored, so not a plain failure.
      if (sentAhead && (await sentAhead) === undefined && !(err instanceof CommitOutcomeUnknown))
        err = new CommitOutcomeUnknown(err);
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true; // the connection is unusable; do not return it to the pool
      }
      throw err;
    } finally {
      client.removeListener('error', onLost);
      // Back to one statement at a time for the pool's next user (sendAhead pipelined; nothing is in flight now).
      (client as unknown as { pipeline: boolean }).pipeline = false;
      client.release(broken);
    }

    /**
     * The statement and COMMIT in one round trip (committing-query.ts), with
     * `before` ahead of it in the same Sync: one less on the log's critical path.
     */
    async function thenCommit(before: readonly Statement[], last: Statement): Promise<void> {
      const name = statements.nameOf(last.sql);
      const values = binaryArrays.encode(last.sql, last.params);
      try {
        await new Promise((resolve, reject) => {
          const config = {
            text: last.sql,
            values,
            callback: (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res)),
          };
          client.query(
            new CommittingQuery(
              name === undefined ? config : { ...config, name },
              before.map((b) => ({ sql: b.sql, params: binaryArrays.encode(b.sql, b.params) })),
            ),
          );
        });
      } catch (err) {
        // A database error: a statement or COMMIT failed, nothing was
        // committed (an error of COMMIT itself rolls back). After one of
        // several statements, which of them were parsed is not known here
        // (node-postgres counts the statement parsed at the first parse of
        // the Sync): the connection is not reused.
        if (err instanceof pg.DatabaseError) {
          if (before.length > 0) broken = true;
          throw err;
        }
        broken = true;
        throw new CommitOutcomeUnknown(err);
      }
    }

    /** SendAhead: pipelined behind the opening, whose answer has not come (node-postgres's pipeline mode sends it at once). */
    function sendAhead(all: readonly Statement[]): Promise<void> {
      if (committed) return Promise.reject(new Error('the transaction has committed: nothing more may run in it'));
      const last = all.at(-1);
      if (!last) return Promise.reject(new Error('sendAhead needs a statement'));
      committed = true;
      (client as unknown as { pipeline: boolean }).pipeline = true;
      return thenCommit(all.slice(0, -1), last);
    }
  }

  /**
   * The opening statements as EXECUTEs of statements prepared on this
   * connection (with a PREPARE before each one's first use here), their
   * parameters as literals; `rowsAt`: where each one's rows are among the
   * texts' results. Undefined when one cannot be (a parameter holding NUL,
   * every name given out): then they run the plain way.
   */
  function openingExecutes(client: pg.PoolClient, statements: readonly Statement[]) {
    const done = preparedNames(client);
    const texts: string[] = [];
    const rowsAt: number[] = [];
    const preparing: string[] = [];
    for (const s of statements) {
      const name = opening.nameOf(s.sql);
      const literals = s.params.map(sqlLiteral);
      if (name === undefined || literals.includes(undefined)) return undefined;
      if (!done.has(name) && !preparing.includes(name)) {
        texts.push(`PREPARE ${name} AS ${s.sql}`);
        preparing.push(name);
      }
      rowsAt.push(texts.length);
      texts.push(literals.length > 0 ? `EXECUTE ${name}(${literals.join(', ')})` : `EXECUTE ${name}`);
    }
    // Their plans are the same whatever the parameters (a workspace's rows by its id): planned once
    // (a generic plan), not again at every EXECUTE as the server otherwise went on doing (one-event
    // transactions against literal texts, ingest-ab: events/s x1.127 ± 0.069 with it, x1.037 ± 0.043
    // without). Only for them: the rest of the transaction plans as it would.
    if (texts.length > 0) {
      texts.unshift(GENERIC);
      texts.push(GENERIC_RESET);
      for (let i = 0; i < rowsAt.length; i++) rowsAt[i]! += 1;
    }
    return {
      texts,
      rowsAt,
      preparing,
      prepared() {
        for (const n of preparing) done.add(n);
      },
    };
  }

  const db: Db = {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    exec: async (sql) => {
      await pool.query(sql);
    },
    transaction: (fn) => transaction(null, fn),
    withTenant: (tenantId, fn, opening, onOpened) => transaction(tenantId, fn, 'BEGIN', opening, onOpened),
    snapshot: (tenantId, fn) => transaction(tenantId, fn, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'),
    // Encoded arrays are Buffers: encoding them again passes them through.
    encodeParams: (s) => ({ sql: s.sql, params: binaryArrays.encode(s.sql, s.params) }),
    async ping() {
      await pool.query('SELECT 1');
    },
    async listen(channel, onNotify) {
      // One dedicated connection (a pooled one would be handed to others),
      // re-opened a second after it is lost.
      let stopped = false;
      let client: pg.Client | undefined;
      let retry: NodeJS.Timeout | undefined;
      const start = (): Promise<void> => {
        const c = new pg.Client({
          connectionString: url,
          connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 5000,
        });
        let gone = false;
        const lost = () => {
          if (gone) return;
          gone = true;
          if (client === c) client = undefined;
          c.end().catch(() => {});
          onNotify(null);
          if (!stopped) retry = setTimeout(() => void start(), 1000);
        };
        c.on('error', lost);
        c.on('end', lost);
        c.on('notification', (n) => {
          if (n.channel === channel) onNotify(n.payload ?? null);
        });
        client = c;
        return (
          c
            .connect()
            .then(() => c.query(`LISTEN ${pg.escapeIdentifier(channel)}`))
            // Anything changed while not listening is unknown.
            .then(() => onNotify(null), lost)
        );
      };
      await start();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const c = client;
        client = undefined;
        await c?.end().catch(() => {});
      };
    },
    async close() {
      if (!pool.ended && !pool.ending) await pool.end();
    },
  };
  return db;
}
