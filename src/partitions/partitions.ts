// Time partitions, kept by the service itself on both stores (PGlite has core
// declarative partitioning but no pg_partman). A partitioned table is RANGE
// partitioned on one timestamptz column into UTC days or months named
// <table>_pYYYYMMDD / <table>_pYYYYMM, plus a <table>_default partition its
// migration creates: a row whose period has no partition yet (a clock that
// jumped, a maintenance pass that has not run) lands there instead of failing
// the write. A pass, for each table:
//
//   - makes the partitions of the current period and `ahead` more (and of any
//     period rows in the default partition belong to, moving those rows into
//     it: PostgreSQL refuses to attach a range the default partition holds
//     rows of);
//   - ANALYZEs each partition that holds rows but has no planner statistics
//     (a month just begun, a fresh database; PGlite has no autovacuum at
//     all): without them the planner costs every index of the partition at
//     about a row, and a statement's cached generic plan for a read by key
//     took the (tenant_id, created_at) index over a whole day instead of the
//     primary key. ANALYZE invalidates such cached plans; a partition is
//     analyzed once, autovacuum keeps its statistics after that;
//   - drops every partition wholly before the table's cutoff (disk back at
//     once, no dead rows, no WAL per row) and deletes the default partition's
//     rows before it.
//
// Each change runs in its own short transaction holding a per-table advisory
// lock (nodes take turns; a node finding it taken leaves the table to the
// holder) and a lock timeout, so DDL waiting behind a long reader gives up
// until the next pass instead of queueing writers behind it.

import { Poller } from '../core/index.ts';
import { type Db, type Queryable, TENANT_ROLE } from '../db/index.ts';

export type PartitionUnit = 'day' | 'month';

/** A table partitioned by time, and how long its rows are kept. */
export interface PartitionedTable {
  /** The partitioned parent (its migration creates it and `<table>_default`). */
  table: string;
  /** The partition key: a timestamptz column. */
  column: string;
  unit: PartitionUnit;
  /** Partitions made ahead of the current one. */
  ahead: number;
  /**
   * Rows before this time may go: partitions wholly before it are dropped.
   * Undefined (or a function answering undefined): kept forever.
   */
  dropBefore?: (now: Date) => Date | undefined;
  /**
   * Runs in the transaction that drops a partition or deletes the default
   * partition's rows before the cutoff, before it does: what other tables
   * count of those rows (`relation`'s, only those before `before` when given)
   * is taken out of them there — neither fires the parent's DELETE trigger.
   */
  beforeRemove?: (tx: Queryable, relation: string, before?: Date) => Promise<void>;
}

/** The start of the UTC day or month `t` is in. */
export function periodStart(t: Date, unit: PartitionUnit): Date {
  return unit === 'day'
    ? new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()))
    : new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
}

/** The start of the period `n` periods after the one starting at `start`. */
export function periodAfter(start: Date, unit: PartitionUnit, n = 1): Date {
  return unit === 'day'
    ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + n))
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + n, 1));
}

/** The partition of `table` holding the period starting at `start`. */
export function partitionName(table: string, start: Date, unit: PartitionUnit): string {
  const iso = start.toISOString();
  const ymd = `${iso.slice(0, 4)}${iso.slice(5, 7)}${unit === 'day' ? iso.slice(8, 10) : ''}`;
  return `${table}_p${ymd}`;
}

/** The period start a partition's name stands for; undefined for a name this module did not make. */
export function periodOfName(table: string, name: string, unit: PartitionUnit): Date | undefined {
  const m = (unit === 'day' ? /^(\d{4})(\d{2})(\d{2})$/ : /^(\d{4})(\d{2})$/).exec(
    name.startsWith(`${table}_p`) ? name.slice(table.length + 2) : '',
  );
  if (!m) return undefined;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] === undefined ? 1 : Number(m[3])));
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

export interface PartitionPass {
  created: string[];
  dropped: string[];
  /** Partitions analyzed: they held rows and had no statistics. */
  analyzed: string[];
  /** Rows deleted from default partitions (before a cutoff) or moved out of them. */
  defaultRowsDeleted: number;
  defaultRowsMoved: number;
}

export interface PartitionMaintainerDeps {
  db: Db;
  /** The service's clock. */
  now: () => Date;
  tables: readonly PartitionedTable[];
  onError?: (err: unknown, table: string | undefined) => void;
}

export interface PartitionMaintainerOptions {
  /** Between passes. Default ten minutes. */
  intervalMs?: number;
  /** How long a change waits for the table's lock before it is left to the next pass. Default 2 s. */
  lockTimeoutMs?: number;
}

export class PartitionMaintainer {
  readonly #deps: PartitionMaintainerDeps;
  readonly #lockTimeoutMs: number;
  readonly #poller: Poller;
  readonly #intervalMs: number;

  constructor(deps: PartitionMaintainerDeps, opts: PartitionMaintainerOptions = {}) {
    for (const t of deps.tables)
      if (!IDENT.test(t.table) || !IDENT.test(t.column)) throw new Error(`not a plain identifier: ${t.table}`);
    this.#deps = deps;
    this.#lockTimeoutMs = opts.lockTimeoutMs ?? 2_000;
    this.#intervalMs = opts.intervalMs ?? 600_000;
    this.#poller = new Poller({
      round: () => this.maintain().then(() => 0),
      pollMs: this.#intervalMs,
      onError: (err) => deps.onError?.(err, undefined),
    });
  }

  /** Polls: a pass every interval (the service runs the first itself before it takes writes). */
  start(): void {
    this.#poller.start(this.#intervalMs);
  }

  async stop(): Promise<void> {
    await this.#poller.stop();
  }

  /** One pass over every table; a table that fails is reported and left to the next pass. */
  async maintain(): Promise<PartitionPass> {
    const pass: PartitionPass = { created: [], dropped: [], analyzed: [], defaultRowsDeleted: 0, defaultRowsMoved: 0 };
    for (const t of this.#deps.tables) {
      try {
        await this.#maintainTable(t, pass);
      } catch (err) {
        this.#deps.onError?.(err, t.table);
      }
    }
    return pass;
  }

  /** The partitions `table` has now, by period start (this module's names only). */
  async partitions(t: PartitionedTable, q: Queryable = this.#deps.db): Promise<Map<string, Date>> {
    const rows = await q.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = $1::regclass`,
      [t.table],
    );
    const out = new Map<string, Date>();
    for (const { name } of rows) {
      const start = periodOfName(t.table, name, t.unit);
      if (start) out.set(name, start);
    }
    return out;
  }

  async #maintainTable(t: PartitionedTable, pass: PartitionPass): Promise<void> {
    const now = this.#deps.now();
    const cutoff = t.dropBefore?.(now);
    const have = await this.partitions(t);
    const wanted = new Set<number>();
    const current = periodStart(now, t.unit);
    for (let i = 0; i <= t.ahead; i++) wanted.add(periodAfter(current, t.unit, i).getTime());
    // Periods the default partition holds rows of get their partition too (unless they are due to go).
    const held = await this.#deps.db.query<{ at: Date }>(
      `SELECT DISTINCT date_trunc('${t.unit}', ${t.column}, 'UTC') AS at FROM ${t.table}_default`,
    );
    for (const { at } of held) {
      const start = periodStart(new Date(at), t.unit);
      if (cutoff === undefined || periodAfter(start, t.unit) > cutoff) wanted.add(start.getTime());
    }
    const existing = new Set([...have.values()].map((d) => d.getTime()));
    for (const ms of [...wanted].sort((a, b) => a - b)) {
      if (existing.has(ms)) continue;
      const moved = await this.#create(t, new Date(ms));
      if (moved === null) continue;
      pass.created.push(partitionName(t.table, new Date(ms), t.unit));
      pass.defaultRowsMoved += moved;
    }
    for (const name of await this.#withoutStatistics(t)) {
      const done = await this.#locked(t, async (tx) => {
        await tx.exec(`ANALYZE ${name}`);
        return true;
      });
      if (done) pass.analyzed.push(name);
    }
    if (cutoff === undefined) return;
    for (const [name, start] of [...have].sort((a, b) => a[1].getTime() - b[1].getTime())) {
      if (periodAfter(start, t.unit) > cutoff) continue;
      const gone = await this.#locked(t, async (tx) => {
        await t.beforeRemove?.(tx, name);
        await tx.exec(`DROP TABLE IF EXISTS ${name}`);
        return true;
      });
      if (gone) pass.dropped.push(name);
    }
    const deleted = await this.#locked(t, async (tx) => {
      await t.beforeRemove?.(tx, `${t.table}_default`, cutoff);
      return tx.query(`DELETE FROM ${t.table}_default WHERE ${t.column} < $1 RETURNING 1`, [cutoff.toISOString()]);
    });
    pass.defaultRowsDeleted += deleted?.length ?? 0;
  }

  /**
   * The partitions of `t` (the default one too) that hold rows but have no
   * column statistics: never analyzed, or analyzed while still empty (as
   * those made ahead are by an ANALYZE of the parent).
   */
  async #withoutStatistics(t: PartitionedTable): Promise<string[]> {
    const bare = await this.#deps.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i
         JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE i.inhparent = $1::regclass AND c.relkind = 'r'
          AND NOT EXISTS (SELECT 1 FROM pg_stats s WHERE s.schemaname = n.nspname AND s.tablename = c.relname)
        ORDER BY 1`,
      [t.table],
    );
    const out: string[] = [];
    for (const { name } of bare) {
      if (!IDENT.test(name)) continue;
      const [row] = await this.#deps.db.query<{ has: boolean }>(`SELECT EXISTS (SELECT FROM ${name}) AS has`);
      if (row?.has) out.push(name);
    }
    return out;
  }

  /**
   * Makes the partition of the period starting at `start`, moving the rows
   * the default partition holds of it; how many moved, or null when another
   * node holds the table.
   */
  async #create(t: PartitionedTable, start: Date): Promise<number | null> {
    const name = partitionName(t.table, start, t.unit);
    const lo = start.toISOString();
    const hi = periodAfter(start, t.unit).toISOString();
    return this.#locked(t, async (tx) => {
      const [exists] = await tx.query('SELECT 1 FROM pg_class WHERE relname = $1 AND relkind = $2', [name, 'r']);
      if (exists) return 0;
      // A table of its own first, filled from the default partition, then
      // attached: attaching checks the default partition holds none of its range.
      await tx.exec(`CREATE TABLE ${name} (LIKE ${t.table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      const moved = await tx.query(
        `WITH moved AS (DELETE FROM ${t.table}_default WHERE ${t.column} >= $1 AND ${t.column} < $2 RETURNING *)
         INSERT INTO ${name} SELECT * FROM moved RETURNING 1`,
        [lo, hi],
      );
      await tx.exec(
        `ALTER TABLE ${t.table} ATTACH PARTITION ${name} FOR VALUES FROM ('${lo}') TO ('${hi}');
         REVOKE ALL ON ${name} FROM ${TENANT_ROLE}`,
      );
      return moved.length;
    });
  }

  /** Runs fn holding the table's advisory lock, with the lock timeout; null when another node holds it. */
  async #locked<T>(t: PartitionedTable, fn: (tx: Queryable) => Promise<T>): Promise<T | null> {
    return this.#deps.db.transaction(async (tx) => {
      const [got] = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [
        `partitions:${t.table}`,
      ]);
      if (!got?.ok) return null;
      await tx.exec(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.#lockTimeoutMs))}`);
      return fn(tx);
    });
  }
}
