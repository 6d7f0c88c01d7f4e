// The database seam: one small interface over PGlite (embedded default) and
// node-postgres (production), so every module writes plain SQL once and runs it
// unchanged on both stores.

export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one statement with $1… parameters and returns its rows. */
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs one statement (its rows are not returned) and commits the
   * transaction, in one round trip where the store has round trips
   * (PostgreSQL; absent elsewhere). Nothing may run in the transaction after
   * it. A database error means nothing was committed; a CommitOutcomeUnknown
   * (the connection was lost) means it may have been.
   */
  queryThenCommit?(sql: string, params: readonly unknown[]): Promise<void>;
}

/** The connection was lost while a commit was on its way: whether it took effect is unknown. */
export class CommitOutcomeUnknown extends Error {
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super('the connection was lost while committing: the outcome is unknown');
    this.name = 'CommitOutcomeUnknown';
    this.cause = cause;
  }
}

/** A statement and its $1… parameters. */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/**
 * Sends a transaction's last statements and COMMIT right behind its opening
 * statements, before their answer has come (Db.withTenant's `onOpened`): the
 * server runs them as soon as the opening ones are done, without waiting for
 * this process in between. Nothing else may run in the transaction after.
 * Resolves once committed; a database error means nothing was committed (an
 * error skips what follows it, COMMIT included); a CommitOutcomeUnknown (the
 * connection was lost) means it may have been. withTenant's `fn` must await
 * the promise before it returns.
 */
export type SendAhead = (statements: readonly Statement[]) => Promise<void>;

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * A transaction scoped to one workspace: it switches to the row-level-security
   * role and sets `app.tenant_id`, so a query that forgets its tenant filter
   * still cannot see or write another workspace's rows (defence in depth).
   * `opening`: statements to run first inside it, one after the other (each
   * on a snapshot of its own, taken when it starts), whose rows fn gets as
   * `opened`, one array per statement — on PostgreSQL in the same round trip
   * as BEGIN and the scope (a hot path saves round trips), each prepared once
   * per connection and run by EXECUTE with its parameters as literals (the
   * server parses and plans it once per connection, not in every
   * transaction). An implementation that cannot run them passes `opened`
   * undefined, and the caller runs what it needs itself.
   * `onOpened`: called once the opening statements are on their way and their
   * answer has not come, where the store can send more behind them
   * (PostgreSQL, when they went in one round trip); never elsewhere.
   */
  withTenant<T>(
    tenantId: string,
    fn: (tx: Queryable, opened?: Row[][]) => Promise<T>,
    opening?: readonly Statement[],
    onOpened?: (sendAhead: SendAhead) => void,
  ): Promise<T>;
  /** A read-only tenant-scoped transaction on one consistent snapshot (REPEATABLE READ), for reports. */
  snapshot<T>(tenantId: string, fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The statement with its parameters in the form this store sends them
   * (PostgreSQL: arrays in binary), made ahead of the round trip that sends
   * it: sending the result encodes nothing again. Absent where nothing can
   * be encoded ahead (PGlite serializes parameters as it sends them).
   */
  encodeParams?(statement: Statement): Statement;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  /**
   * Subscribes to NOTIFY on a channel. `onNotify(null)` means notifications
   * may have been missed (the listening connection was lost and is being
   * re-established): whatever they would have invalidated must be dropped.
   */
  listen?(channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The role tenant-scoped transactions run as; created by the first migration. */
export const TENANT_ROLE = 'agent_ledger_tenant';

export const TENANT_SCOPE_SQL = `SELECT set_config('role', '${TENANT_ROLE}', true), set_config('app.tenant_id', $1, true)`;

/** A workspace id: the only form in which one is ever written into SQL text instead of a parameter. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * TENANT_SCOPE_SQL with the workspace id written in, for a round trip without
 * parameters (several statements in one simple query); undefined unless the
 * id is a UUID, so nothing but hex digits and dashes ever reaches the text.
 */
export function tenantScopeLiteral(tenantId: string): string | undefined {
  if (!UUID_RE.test(tenantId)) return undefined;
  return `SELECT set_config('role', '${TENANT_ROLE}', true), set_config('app.tenant_id', '${tenantId}', true)`;
}

export function pgErrorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}
