import {
  CommitOutcomeUnknown,
  type Db,
  pgErrorCode,
  type Queryable,
  type Row,
  type SendAhead,
  type Statement,
} from '../db/index.ts';
import { OpenAppend, type Sealed } from './append.ts';
import { expectHeadStatement, type Head, headOf, lockHead, lockHeadStatement, MOVED_SQLSTATE } from './log-store.ts';
import type { StoredNode } from './merkle.ts';

/** Work that records something and adds its leaves, run inside the shared transaction. */
export type AppendJob<T> = (tx: Queryable, log: OpenAppend) => Promise<T>;

/**
 * Work done for many items at once: the items of every request queued for the
 * same workspace (and the same SetJob) run in ONE call, so its statements do
 * not multiply with the items. Returns one result per item, in order.
 */
export interface SetJob<I, R> {
  /**
   * `opened`: the rows of this job's opening statement, when it ran in the
   * round trip that took the head lock and this is the transaction's first
   * work (so nothing has written since it read).
   */
  run(tx: Queryable, log: OpenAppend, items: readonly I[], opened?: Row[]): Promise<R[]>;
  /**
   * A statement without parameters that reads what run() would read first,
   * sent with the head lock when this job's request is the one that opens a
   * transaction (`items`: that request's); undefined when there is nothing
   * to read ahead. It runs after the lock is held, on a snapshot of its own,
   * so it sees every append committed before.
   */
  opening?(tenantId: string, items: readonly I[]): Statement | undefined;
  /**
   * Decides items before the transaction holds the lock, appending to `log`
   * (opened on the head the transaction before it leaves, if that commits).
   * The result's run() writes what was decided, once the lock is held and
   * `opened` (the opening statement's rows) shows that what it assumed holds;
   * it returns undefined, having run nothing, when it does not (then run()
   * decides again). undefined: cannot decide these items ahead.
   */
  ahead?(log: OpenAppend, items: readonly I[]): DecidedWork<R> | undefined;
  /**
   * What an item weighs in a transaction's write (its text's characters, say):
   * a transaction takes at most LogWriterOptions.maxWeight of it, splitting a
   * request when it must. Undefined: items weigh nothing.
   */
  weight?(item: I): number;
  /**
   * Work nobody waits on (attaching results already answered for): its
   * transactions give way to the others (takeFromQueue).
   */
  background?: boolean;
  /**
   * Most items of this set one transaction takes (a request of more goes in
   * parts): background work holds the workspace's log for short turns, and
   * what waits behind it goes between them.
   */
  maxItems?: number;
}

/** Work a SetJob decided ahead: run() writes it, or returns undefined, having run nothing, when what it assumed does not hold. */
export interface DecidedWork<R> {
  run(tx: Queryable, opened?: Row[]): Promise<R[] | undefined>;
  /**
   * A statement that raises (log_expect, migration 0124) unless what run()
   * would find in `opened` holds, read once the lock is held: with it, the
   * transaction's write can be sent before the lock's answer (Db's
   * SendAhead) and run() is not called. Undefined when run() has more to
   * write than the log's statement.
   */
  expect?(): Statement | undefined;
  /** run()'s results, for a write sent with expect()'s statement that committed. */
  written?(): R[];
}

/** A transaction's work decided before it held the lock (SetJob.ahead). */
interface DecidedAhead {
  log: OpenAppend;
  work: DecidedWork<unknown>;
  /** What the log's statement leaves. */
  sealed: Sealed;
  /** The write, sent behind the lock with what it was decided on checked there: its outcome is the transaction's. */
  sent?: Promise<void>;
}

/** An item of a set whose storage failed: nothing of it was stored. */
export class ItemFailed {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

interface JobPending {
  job: AppendJob<unknown>;
  /** SubmitOptions.background. */
  background: boolean;
  /** A transaction of the other kind was taken ahead of it once already: it goes next. */
  passed?: boolean;
  /** When it was queued (performance.now()). */
  queuedAt: number;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface SetPending {
  set: SetJob<unknown, unknown>;
  items: readonly unknown[];
  /** When it was queued (performance.now()). */
  queuedAt: number;
  /** Items before it were taken by a transaction already (a request heavier than one transaction takes). */
  next: number;
  passed?: boolean;
  results: unknown[];
  left: number;
  resolve: (v: unknown[]) => void;
}

type Pending = JobPending | SetPending;

/** What one call inside a batch transaction runs: a job, or items of one set (maybe of several requests). */
type Unit =
  | { kind: 'job'; p: JobPending }
  | { kind: 'set'; set: SetJob<unknown, unknown>; parts: Array<{ p: SetPending; index: number }>; alone: boolean };

export interface SubmitOptions {
  /**
   * Work nobody waits on (a background scan, an expiry): its transactions
   * give way to those of requests being answered (takeFromQueue).
   */
  background?: boolean;
}

export interface LogWriterOptions {
  /** Most requests grouped into one transaction. */
  maxBatch?: number;
  /** Most events grouped into one transaction (a request of more still goes whole, alone). */
  maxItems?: number;
  /**
   * Most weight (SetJob.weight: characters of text) one transaction takes; a
   * request heavier than what is left of it goes in parts, over several
   * transactions (its first item always goes).
   */
  maxWeight?: number;
  /** Called after each commit with the new head (schedules a checkpoint). */
  onCommitted?: (tenantId: string, head: Head) => void;
  onBatch?: (size: number) => void;
  /**
   * Fewest events queued for a transaction to take them and decide them ahead
   * (default 100); with fewer it waits for the lock and takes them then,
   * with whatever came meanwhile.
   */
  minAheadItems?: number;
  /** Called when a transaction's work was decided ahead: written as decided, or decided again (the state was not as assumed). */
  onDecidedAhead?: (outcome: 'written' | 'decided_again') => void;
  /** Told how long each step of a request's way through the log took (LogStep), in seconds. */
  onStep?: (step: LogStep, seconds: number) => void;
}

/**
 * The steps an event's way through the log takes, timed by this process:
 * `queued`, a request from being queued until a transaction takes it (its
 * first part, for a request split over several); `lock`, a transaction from
 * opening (a connection from the pool, BEGIN and the head's lock) until the
 * lock's answer (the transaction before it writing and committing, when it
 * waits behind one); `plan`, a transaction that took its work at the lock,
 * from the lock's answer until its write with COMMIT is sent (deciding and
 * making the write); `write`, from that write sent, or the lock's answer for
 * a write sent ahead behind the lock, until its commit is answered (the
 * write, COMMIT and its WAL flush). Only transactions that committed are
 * timed.
 */
export type LogStep = 'queued' | 'lock' | 'plan' | 'write';

/**
 * A workspace's queue on this node. At most one transaction waits for the
 * head lock at a time; it takes the queue only once it holds the lock.
 */
interface Lane {
  queue: Pending[];
  /** A transaction is open and waiting for the head lock (or about to open). */
  waiting: boolean;
  /** Transactions of this lane not yet settled (with their retries). */
  open: number;
  /** Resolves when the last transaction that took work has ended (its edge kept). */
  lastEnded: Promise<void>;
  /**
   * Set by the transaction waiting for the lock: called when the one before
   * it sends its last write, with the head and edge that write leaves. The
   * waiting one then takes the queue and decides it ahead (SetJob.ahead), so
   * deciding overlaps that write instead of following it.
   */
  onSent: ((sealed: Sealed) => void) | undefined;
  /**
   * The head and edge the last write sent leaves, while that write runs and
   * no transaction has taken work after it: a transaction that opens then
   * decides ahead on it at once.
   */
  sentAhead: Sealed | undefined;
  /**
   * A transaction took work ahead and does not hold the lock yet: no other
   * may open until it does, so transactions take the lock in the order they
   * take work (each waits for the one before it to end).
   */
  takenAhead: boolean;
}

/**
 * Groups concurrent appends to one workspace into one transaction. While a
 * batch writes, the next transaction is already open and waiting for the
 * head's row lock (BEGIN, scope and lock cost nothing on the critical path);
 * once it has the lock it takes every job queued meanwhile. Across nodes the
 * head's row lock orders the batches, so the log stays gap-free and each
 * job's leaves are durable exactly when its transaction commits.
 *
 * The right edge of each workspace's tree is kept after a commit: complete
 * subtrees never change, so the next append of this node reads no node when
 * the head it locks has the size it left (no other node appended since).
 */
export class LogWriter {
  readonly #db: Db;
  readonly #maxBatch: number;
  readonly #maxItems: number;
  readonly #maxWeight: number;
  /** The database runs on this thread (PGlite). */
  readonly #inProcess: boolean;
  readonly #minAheadItems: number;
  readonly #opts: LogWriterOptions;
  readonly #lanes = new Map<string, Lane>();
  readonly #edges = new Map<string, { size: number; edge: StoredNode[] }>();

  constructor(db: Db, opts: LogWriterOptions = {}) {
    this.#db = db;
    this.#maxBatch = opts.maxBatch ?? 256;
    this.#maxItems = opts.maxItems ?? MAX_TRANSACTION_ITEMS;
    this.#inProcess = db.kind === 'pglite';
    this.#maxWeight = opts.maxWeight ?? (db.kind === 'pglite' ? MAX_TRANSACTION_WEIGHT_PGLITE : MAX_TRANSACTION_WEIGHT);
    this.#minAheadItems = opts.minAheadItems ?? MIN_AHEAD_ITEMS;
    this.#opts = opts;
  }

  submit<T>(tenantId: string, job: AppendJob<T>, opts: SubmitOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#enqueue(tenantId, {
        job,
        background: opts.background === true,
        queuedAt: performance.now(),
        resolve: resolve as (v: unknown) => void,
        reject,
      });
    });
  }

  /**
   * Runs items through a set job, together with the items other requests
   * queue for the same workspace meanwhile. Never rejects: an item whose
   * storage failed is an ItemFailed in its slot, and nothing of it is stored;
   * the others are stored whatever happens to it.
   */
  submitSet<I, R>(tenantId: string, set: SetJob<I, R>, items: readonly I[]): Promise<Array<R | ItemFailed>> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      this.#enqueue(tenantId, {
        set: set as SetJob<unknown, unknown>,
        items,
        queuedAt: performance.now(),
        next: 0,
        results: new Array(items.length),
        left: items.length,
        resolve: resolve as (v: unknown[]) => void,
      });
    });
  }

  #enqueue(tenantId: string, pending: Pending): void {
    let lane = this.#lanes.get(tenantId);
    if (!lane) {
      lane = {
        queue: [],
        waiting: false,
        open: 0,
        lastEnded: Promise.resolve(),
        onSent: undefined,
        sentAhead: undefined,
        takenAhead: false,
      };
      this.#lanes.set(tenantId, lane);
    }
    lane.queue.push(pending);
    this.#pump(tenantId, lane);
  }

  /** Opens a transaction to wait for the lock when work is queued and none is waiting. */
  #pump(tenantId: string, lane: Lane): void {
    if (lane.waiting || lane.takenAhead || lane.queue.length === 0) return;
    lane.waiting = true;
    lane.open++;
    void this.#drain(tenantId, lane).finally(() => this.#closed(tenantId, lane));
  }

  #closed(tenantId: string, lane: Lane): void {
    lane.open--;
    if (lane.open === 0 && !lane.waiting && lane.queue.length === 0 && this.#lanes.get(tenantId) === lane)
      this.#lanes.delete(tenantId);
    else this.#pump(tenantId, lane);
  }

  /**
   * One transaction that takes the lane's queue once it holds the lock (or,
   * deciding ahead, once the one before it sends its last write); then
   * retries of what failed in it.
   */
  async #drain(tenantId: string, lane: Lane): Promise<void> {
    const turn = new LaneTurn(tenantId, lane, {
      take: (queue) => toUnits(this.#timed(takeFromQueue(queue, this.#maxBatch, this.#maxItems, this.#maxWeight))),
      pump: () => this.#pump(tenantId, lane),
      maxBatch: this.#maxBatch,
      minAheadItems: this.#minAheadItems,
      encode: this.#db.encodeParams?.bind(this.#db),
      onStep: this.#opts.onStep,
    });
    // Waiting from now: a transaction sending its last write before this one has begun hands it the queue.
    lane.onSent = turn.early;
    // Begin on the next turn so requests arriving together share the first batch. Behind another
    // transaction it takes the queue only once it holds the lock: it opens at once, to be waiting
    // for the lock when that one commits. On PGlite every transaction begins on a turn of its own:
    // its database runs on this thread and answers without one, so a workspace's transactions
    // would follow each other with no I/O between them (a flood's backlog written in one
    // uninterrupted task) and another workspace's transaction, whose turn had not come, after all
    // of them. Begun on the next turn, they take the database in turn with other workspaces'.
    if (lane.open === 1 || this.#inProcess) await new Promise((resolve) => setImmediate(resolve));
    // Opened while the last transaction's write runs: decide now, on what it leaves.
    if (lane.sentAhead && turn.units === undefined) turn.early(lane.sentAhead);
    const ahead = turn.opening();
    turn.begin();
    let first: unknown[] | undefined;
    let error: unknown;
    try {
      first = await this.#run(tenantId, turn.take, {
        ahead,
        decided: () => turn.decided,
        sent: turn.announce,
        writing: turn.writing,
        onOpened: turn.opened,
        held: turn.hold,
      });
    } catch (err) {
      error = err;
    } finally {
      turn.end(first !== undefined);
    }
    if (first) {
      turn.units!.forEach((u, i) => settle(u, first[i]));
      return;
    }
    await this.#recover(tenantId, turn.units!, error);
  }

  /** What a transaction takes, its requests' time queued told (onStep 'queued'; a request's first part only). */
  #timed(taken: Taken[]): Taken[] {
    const onStep = this.#opts.onStep;
    if (!onStep) return taken;
    const now = performance.now();
    for (const t of taken) if (!('from' in t) || t.from === 0) onStep('queued', (now - t.p.queuedAt) / 1000);
    return taken;
  }

  /** After a failed batch: what can run again runs again (alone), the rest is refused. */
  async #recover(tenantId: string, failed: Unit[], firstError: unknown): Promise<void> {
    let units = failed;
    let err: unknown = firstError;
    for (;;) {
      if (units.length === 0) return;
      if (err instanceof DecidedAheadMoved) {
        // Sent ahead and refused by its guard: nothing was written. All of it is decided again, in a transaction of its own.
        this.#opts.onDecidedAhead?.('decided_again');
      } else if (err instanceof JobFailure) {
        // That unit failed and the transaction rolled back. A single job
        // or item alone is refused; a set of several runs again item by
        // item, so only the item that fails is refused; the rest run again.
        const index = err.index;
        const u = units[index]!;
        const rest = units.filter((_, i) => i !== index);
        if (u.kind === 'set' && u.parts.length > 1) {
          units = [
            ...rest,
            ...u.parts.map((part) => ({ kind: 'set' as const, set: u.set, parts: [part], alone: true })),
          ];
        } else {
          fail(u, err.cause);
          units = rest;
        }
      } else if (
        err instanceof BeforeCommitFailure &&
        (units.length > 1 || (units[0]?.kind === 'set' && units[0].parts.length > 1))
      ) {
        // Failed before COMMIT was sent (a lost connection, say): nothing
        // was stored, so each request can run again on its own without
        // recording twice, and one bad connection fails one request.
        for (const u of splitByRequest(units)) {
          try {
            const [r] = await this.#run(tenantId, async () => [u]);
            settle(u, r);
          } catch (e) {
            fail(u, e instanceof JobFailure || e instanceof BeforeCommitFailure ? e.cause : e);
          }
        }
        return;
      } else {
        // Failed at BEGIN or COMMIT: a failed COMMIT may still have stored
        // everything, and retrying could record twice. Refuse them all.
        const cause = err instanceof BeforeCommitFailure ? err.cause : err;
        for (const u of units) fail(u, cause);
        return;
      }
      if (units.length === 0) return;
      const current = units;
      try {
        const results = await this.#run(tenantId, async () => current);
        current.forEach((u, i) => settle(u, results[i]));
        return;
      } catch (e) {
        err = e;
      }
    }
  }

  /**
   * One transaction: locks the head, runs what `take` hands it, commits.
   * Results in the order of the units (RunOptions says what else it is told).
   */
  async #run(tenantId: string, take: () => Promise<Unit[]>, opts: RunOptions = {}): Promise<unknown[]> {
    const lock = lockHeadStatement(tenantId);
    const opening = opts.ahead ? [lock, opts.ahead.statement] : [lock];
    const { results, head, edge, size } = await this.#db.withTenant(
      tenantId,
      async (tx, opened) => {
        try {
          return await this.#transaction(tenantId, tx, opened, take, opts);
        } catch (err) {
          throw err instanceof JobFailure || err instanceof CommitOutcomeUnknown || err instanceof DecidedAheadMoved
            ? err
            : new BeforeCommitFailure(err);
        }
      },
      opening,
      opts.onOpened,
    );
    this.#committed(tenantId, size, head, edge);
    return results;
  }

  /** Inside the transaction: the head it holds, the work taken (decided ahead or run now), and the write that commits. */
  async #transaction(
    tenantId: string,
    tx: Queryable,
    opened: Row[][] | undefined,
    take: () => Promise<Unit[]>,
    opts: RunOptions,
  ): Promise<{ results: unknown[]; size: number; head: Head; edge: StoredNode[] | undefined }> {
    opts.held?.();
    const start = opened ? headOf(opened[0]!) : await lockHead(tx, tenantId);
    const readAhead = opened?.[1];
    const units = await take();
    const size = units.reduce((n, u) => n + (u.kind === 'job' ? 1 : u.parts.length), 0);
    // Decided ahead on the head this transaction now holds, and on the state it read: only the write is left.
    const decided = opts.decided?.();
    // Written already, behind the lock, with the head and state it was decided on checked there first.
    if (decided?.sent) return { ...(await this.#writtenAhead(decided)), size };
    const work =
      (decided && (await this.#writeDecided(tx, decided, start, readAhead))) ??
      (await this.#runUnits(tx, tenantId, start, units, opts.ahead?.set, readAhead));
    const committed = await this.#commit(tx, work.log, units.length, opts);
    return { results: work.out, size, ...committed };
  }

  /** The outcome of a write decided ahead and sent behind the lock. */
  async #writtenAhead(decided: DecidedAhead): Promise<{ results: unknown[]; head: Head; edge: StoredNode[] }> {
    try {
      await decided.sent;
    } catch (err) {
      if (err instanceof CommitOutcomeUnknown) throw err;
      if (pgErrorCode(err) === MOVED_SQLSTATE) throw new DecidedAheadMoved(err);
      throw new JobFailure(0, err);
    }
    this.#opts.onDecidedAhead?.('written');
    return { results: [decided.work.written!()], head: decided.sealed.head, edge: decided.sealed.edge };
  }

  /** Writes the work decided ahead if the head and state it assumed hold; undefined (nothing run) when they do not. */
  async #writeDecided(
    tx: Queryable,
    decided: DecidedAhead,
    start: Head,
    readAhead: Row[] | undefined,
  ): Promise<{ log: OpenAppend; out: unknown[] } | undefined> {
    let results: unknown[] | undefined;
    try {
      results = sameHead(decided.log.start, start) ? await decided.work.run(tx, readAhead) : undefined;
    } catch (err) {
      throw new JobFailure(0, err);
    }
    this.#opts.onDecidedAhead?.(results ? 'written' : 'decided_again');
    return results ? { log: decided.log, out: [results] } : undefined;
  }

  /** Runs each unit in turn on a log opened on the head held; a unit's failure is a JobFailure naming it. */
  async #runUnits(
    tx: Queryable,
    tenantId: string,
    start: Head,
    units: Unit[],
    aheadSet: SetJob<unknown, unknown> | undefined,
    readAhead: Row[] | undefined,
  ): Promise<{ log: OpenAppend; out: unknown[] }> {
    const known = this.#edges.get(tenantId);
    const log = new OpenAppend(tenantId, start, known?.size === start.size ? known.edge : undefined);
    const out: unknown[] = [];
    for (const [i, u] of units.entries()) {
      log.lastWork = i === units.length - 1;
      try {
        // What was read ahead holds for the first work only: the others run after writes.
        const given = i === 0 && u.kind === 'set' && u.set === aheadSet ? readAhead : undefined;
        out.push(
          u.kind === 'job'
            ? await u.p.job(tx, log)
            : await u.set.run(
                tx,
                log,
                u.parts.map((x) => x.p.items[x.index]),
                given,
              ),
        );
      } catch (err) {
        throw new JobFailure(i, err);
      }
    }
    return { log, out };
  }

  /** The log's statement, the transaction's last: on PostgreSQL it commits in the same round trip. */
  async #commit(
    tx: Queryable,
    log: OpenAppend,
    unitCount: number,
    { sent, writing: told }: Pick<RunOptions, 'sent' | 'writing'>,
  ): Promise<{ head: Head; edge: StoredNode[] | undefined }> {
    const sealed = log.canSeal ? log.seal() : undefined;
    log.lastWork = false;
    const along = log.hasRideAlong;
    try {
      const writing = log.commit(tx, { last: true });
      // Sent (commit() sends before its first wait): the next transaction may decide its work while this write runs.
      told?.();
      if (sealed) sent?.(sealed);
      return await writing;
    } catch (err) {
      // Lost while committing: maybe stored, so nothing may run again.
      if (err instanceof CommitOutcomeUnknown) throw err;
      // The last unit's rows were written by this statement: its failure
      // is that unit's (it runs again item by item, the others as they were).
      throw along ? new JobFailure(unitCount - 1, err) : err;
    }
  }

  /** Committed: keeps the edge, tells metrics and the checkpoint scheduler. Nothing here may turn that into a failure. */
  #committed(tenantId: string, size: number, head: Head, edge: StoredNode[] | undefined): void {
    if (this.#edges.size >= 10_000) this.#edges.clear();
    if (edge) this.#edges.set(tenantId, { size: head.size, edge });
    try {
      if (size > 0) {
        this.#opts.onBatch?.(size);
        this.#opts.onCommitted?.(tenantId, head);
      }
    } catch {
      // Metrics and checkpoint scheduling are best effort.
    }
  }
}

/** What #run is told and tells. */
interface RunOptions {
  /** A set job's opening statement, read in the round trip that takes the lock. */
  ahead?: { set: SetJob<unknown, unknown>; statement: Statement } | undefined;
  /** The units' work decided ahead, if it was. */
  decided?: () => DecidedAhead | undefined;
  /** Told the head and edge its last write leaves, just before it is sent. */
  sent?: (sealed: Sealed) => void;
  /** Told when its write with COMMIT has been sent. */
  writing?: () => void;
  /** Db.withTenant's onOpened. */
  onOpened?: (sendAhead: SendAhead) => void;
  /** Told when the lock's answer has come. */
  held?: () => void;
}

/** What a LaneTurn needs of its LogWriter. */
interface TurnDeps {
  /** Takes what one transaction takes from the front of the queue (takeFromQueue), as units. */
  take(queue: Pending[]): Unit[];
  /** Opens the lane's next transaction if work is queued and none is waiting (LogWriter's #pump). */
  pump(): void;
  maxBatch: number;
  minAheadItems: number;
  encode: Db['encodeParams'];
  onStep: LogWriterOptions['onStep'];
}

/**
 * One transaction's turn in its lane: when it takes the queue (once it holds
 * the head's lock or, deciding ahead, once the transaction before it sends
 * its last write), what it decided ahead, and that decided write sent right
 * behind the lock. At most one turn of a lane waits for the lock at a time,
 * and turns take the lock in the order they take work.
 */
class LaneTurn {
  /** What this transaction took from the queue (set once). */
  units: Unit[] | undefined;
  /** Its work, decided before it held the lock. */
  decided: DecidedAhead | undefined;
  /** Resolves when this transaction has ended. */
  readonly #end: Promise<void>;
  #ended!: () => void;
  /** Resolves when the transaction of this node that took work before this one has ended. */
  #previous: Promise<void> = Promise.resolve();
  /** Took the queue ahead of the lock and does not hold it yet. */
  #ahead = false;
  /** What its last write leaves, once that write is on its way. */
  #sent: Sealed | undefined;
  #sendAhead: SendAhead | undefined;
  #held = false;
  /** When it began opening, the lock's answer came, and its write was sent (performance.now()). */
  #lockSentAt = 0;
  #heldAt = 0;
  #writeSentAt = 0;
  readonly #tenantId: string;
  readonly #lane: Lane;
  readonly #deps: TurnDeps;

  constructor(tenantId: string, lane: Lane, deps: TurnDeps) {
    this.#tenantId = tenantId;
    this.#lane = lane;
    this.#deps = deps;
    this.#end = new Promise<void>((r) => (this.#ended = r));
  }

  /** Takes the queue, once: at the lock, or before it (`beforeLock`, deciding ahead). */
  #grab(beforeLock = false): Unit[] {
    if (this.units) return this.units;
    const lane = this.#lane;
    if (lane.onSent === this.early) lane.onSent = undefined;
    // Every transaction that held the lock before this one has ended in the
    // database once it holds it. Let the last one of this node finish here
    // too (it keeps the tree's edge this one needs); then the next may open and wait.
    this.#previous = lane.lastEnded;
    lane.lastEnded = this.#end;
    lane.waiting = false;
    lane.sentAhead = undefined;
    this.units = this.#deps.take(lane.queue);
    if (beforeLock) lane.takenAhead = this.#ahead = true;
    else this.#deps.pump();
    return this.units;
  }

  /** Holding the lock (or failed before it): the next transaction may open. */
  #locked(): void {
    if (!this.#ahead) return;
    this.#ahead = false;
    this.#lane.takenAhead = false;
    this.#deps.pump();
  }

  /** This transaction's last write is on its way, leaving `sealed`: the next may decide on it. */
  readonly announce = (sealed: Sealed): void => {
    this.#sent = sealed;
    this.#lane.sentAhead = sealed;
    this.#lane.onSent?.(sealed);
  };

  /**
   * Decided, and the opening is on its way without an answer yet: the
   * write goes right behind the lock, with what it was decided on checked
   * there, so the database runs it the moment the write before commits
   * instead of waiting for this process to hear of the lock.
   */
  #sendDecided(): void {
    const decided = this.decided;
    if (!decided || decided.sent || !this.#sendAhead || this.#held) return;
    const statements = aheadStatements(this.#tenantId, decided);
    if (!statements) return;
    decided.sent = this.#sendAhead(statements);
    this.writing();
    // Awaited once the lock's answer comes (#run), or by withTenant if it never does.
    decided.sent.catch(() => {});
    this.announce(decided.sealed);
  }

  /** The write before this transaction is on its way, leaving `sealed`: with enough queued, take it and decide on that. */
  readonly early = (sealed: Sealed): void => {
    if (this.units || queuedItems(this.#lane.queue, this.#deps.maxBatch) < this.#deps.minAheadItems) return;
    const taken = this.#grab(true);
    try {
      this.decided = decideAhead(this.#tenantId, taken, sealed, this.#deps.encode);
    } catch {
      // Decided again once the lock is held, where a failure is this transaction's own.
      this.decided = undefined;
    }
    this.#sendDecided();
  };

  /** Db.withTenant's onOpened: statements may be sent behind the opening now. */
  readonly opened = (send: SendAhead): void => {
    this.#sendAhead = send;
    this.#sendDecided();
  };

  /** The lock's answer has come: nothing more is sent ahead of it. */
  readonly hold = (): void => {
    this.#heldAt = performance.now();
    this.#held = true;
  };

  /** Its write with COMMIT is on its way. */
  readonly writing = (): void => {
    this.#writeSentAt = performance.now();
  };

  /** About to open the transaction: a connection, BEGIN and the lock. */
  begin(): void {
    this.#lockSentAt = performance.now();
  }

  /** #run's take: holding the lock, the work (taken now unless it was ahead), once the transaction before has ended. */
  readonly take = async (): Promise<Unit[]> => {
    const taken = this.#grab();
    this.#locked();
    await this.#previous;
    return taken;
  };

  /**
   * What the transaction reads ahead with the lock: the opening statement of
   * the set job of the work taken (deciding ahead) or of the request first in
   * the queue, which opens the transaction.
   */
  opening(): { set: SetJob<unknown, unknown>; statement: Statement } | undefined {
    const taken = this.units?.[0];
    const opener = taken
      ? taken.kind === 'set'
        ? { set: taken.set, items: taken.parts.map((x) => x.p.items[x.index]) }
        : undefined
      : openerOf(frontOf(this.#lane.queue, this.#deps.maxBatch));
    const statement = opener?.set.opening?.(this.#tenantId, opener.items);
    return statement === undefined || !opener ? undefined : { set: opener.set, statement };
  }

  /** The transaction has ended (committed or not). */
  end(committed: boolean): void {
    if (committed) this.#timeSteps();
    // Failed before it held the lock (BEGIN, a lost connection): what it
    // would have taken is refused, as a failed BEGIN always refused its batch.
    this.#grab();
    this.#locked();
    // Its write has ended: a transaction opening now finds the lock free, or the head moved.
    if (this.#sent && this.#lane.sentAhead === this.#sent) this.#lane.sentAhead = undefined;
    this.#ended();
  }

  /** A committed transaction's steps (LogStep): the lock, the planning under it (work taken there), the write. */
  #timeSteps(): void {
    const onStep = this.#deps.onStep;
    if (!onStep || this.#heldAt === 0 || this.#writeSentAt === 0) return;
    const now = performance.now();
    onStep('lock', (this.#heldAt - this.#lockSentAt) / 1000);
    // Sent ahead, behind the lock: planned before the lock, written once it was held.
    if (this.#writeSentAt >= this.#heldAt) onStep('plan', (this.#writeSentAt - this.#heldAt) / 1000);
    onStep('write', (now - Math.max(this.#writeSentAt, this.#heldAt)) / 1000);
  }
}

/**
 * Deciding ahead takes the events queued when the write before is sent; taking
 * them at the lock instead groups those that come meanwhile too. Below about a
 * hundred events (single events from a few dozen agents) grouping is worth
 * more than the millisecond of deciding it moves off the lock (metadata singles
 * measured no faster deciding ahead; batches of 100 faster), so smaller queues wait.
 */
const MIN_AHEAD_ITEMS = 100;

/**
 * Most events one transaction takes (default of LogWriterOptions.maxItems).
 * Clients wait for their answer before they send more, so a transaction
 * taking every request in flight leaves the node idle while the database
 * writes it and the database idle while the node decides the next: smaller
 * transactions keep both busy (the next decided ahead while one writes).
 * A transaction decided ahead also makes its statement ahead, so little is
 * left between one write and the next, and what is left is paid per
 * transaction: hence a large cap. Against 500 (ingest-ab, 64 clients,
 * same-machine pairs): 2,000 gave batches of 100 1.12x the events/s (10 of 10
 * pairs, again 7 of 8) and content batches 1.07x; 1,000 gave 1.08x, 4,000
 * 0.92x (docs/performance.md).
 */
export const MAX_TRANSACTION_ITEMS = 2_000;

/**
 * Most weight one transaction takes (default of LogWriterOptions.maxWeight):
 * for events, the characters of their stored texts. On PGlite the database
 * runs on the event loop: writing 2,000 events with 8,000-character prompts
 * was 2 s of one uninterrupted task, and 512 K characters still 100-200 ms on
 * a loaded machine, while every other workspace's request waited; at 256 K a
 * write is a few tens of milliseconds, and events with a few kilobytes of text
 * still go a hundred a transaction. On PostgreSQL the write runs in the
 * server, beside other workspaces' transactions on other connections: only
 * encoding the parameters is this process's, so transactions may be larger.
 */
export const MAX_TRANSACTION_WEIGHT_PGLITE = 256 * 1024;
export const MAX_TRANSACTION_WEIGHT = 4 * 1024 * 1024;

/** What a transaction takes of a request: its items from `from` up to `to` (exclusive). */
type Taken = { p: JobPending } | { p: SetPending; from: number; to: number };

/**
 * What one transaction takes from the front of the queue (and removes from it): at most `max`
 * requests, at most `maxItems` events unless the first request alone has more, and at most
 * `maxWeight` of weight (SetJob.weight): a request heavier than what is left of that goes in
 * part, its rest left at the front of the queue for the next transaction. So one workspace's
 * flood of long texts writes in transactions of bounded size: another workspace's transaction
 * waits behind one of those (on the shared database, and on PGlite, whose writes run on the
 * event loop), not behind megabytes.
 */
function takeFromQueue(queue: Pending[], max: number, maxItems: number, maxWeight: number): Taken[] {
  const background = servesBackground(queue, max);
  const out: Taken[] = [];
  let n = 0;
  let weight = 0;
  for (let i = 0; i < queue.length && i < max && out.length < max;) {
    const p = queue[i]!;
    if (isBackground(p) !== background) {
      // Left for a transaction of its own kind; passed over once, it opens the next one.
      p.passed = true;
      i++;
      continue;
    }
    if ('job' in p) {
      if (out.length > 0 && n + 1 > maxItems) break;
      queue.splice(i, 1);
      out.push({ p });
      n++;
      continue;
    }
    const left = p.items.length - p.next;
    if (out.length > 0 && n + left > maxItems) break;
    let to = p.items.length;
    if (p.set.weight || p.set.maxItems) {
      const most = p.set.maxItems ?? Number.POSITIVE_INFINITY;
      to = p.next;
      while (to < p.items.length) {
        const w = p.set.weight?.(p.items[to]) ?? 0;
        // The first item of a transaction goes whatever it weighs.
        if ((weight + w > maxWeight || n + to - p.next >= most) && (out.length > 0 || to > p.next)) break;
        weight += w;
        to++;
      }
      if (to === p.next) break;
    }
    out.push({ p, from: p.next, to });
    n += to - p.next;
    if (to < p.items.length) {
      p.next = to;
      // Its turn taken: what waits of the other kind goes before its next part.
      p.passed = false;
      break;
    }
    queue.splice(i, 1);
  }
  return out;
}

const isBackground = (p: Pending): boolean => ('job' in p ? p.background : p.set.background === true);

/**
 * Whether the next transaction takes background work: a transaction takes
 * one kind only, so a request being answered never waits for a background
 * scan's statements in its own transaction, and it goes first when both wait
 * — but background work passed over once goes next, so it never starves.
 */
function servesBackground(queue: readonly Pending[], max: number): boolean {
  const front = queue[0];
  if (front === undefined || !isBackground(front)) return false;
  if (front.passed) return true;
  for (let i = 1; i < queue.length && i < max; i++) if (!isBackground(queue[i]!)) return false;
  return true;
}

/** The request that opens the next transaction (the first of the kind it takes). */
function frontOf(queue: readonly Pending[], max: number): Pending | undefined {
  const background = servesBackground(queue, max);
  for (let i = 0; i < queue.length && i < max; i++) if (isBackground(queue[i]!) === background) return queue[i];
  return undefined;
}

/** Events queued in the first `max` requests. */
function queuedItems(queue: readonly Pending[], max: number): number {
  let n = 0;
  for (let i = 0; i < queue.length && i < max; i++) n += itemsOf(queue[i]!);
  return n;
}

/** The events of a request not yet taken (a job counts one). */
function itemsOf(p: Pending): number {
  return 'job' in p ? 1 : p.items.length - p.next;
}

/** The set job and the items not yet taken of the request at the front of a queue, which opens the next transaction. */
function openerOf(p: Pending | undefined): { set: SetJob<unknown, unknown>; items: readonly unknown[] } | undefined {
  if (p === undefined || 'job' in p) return undefined;
  return { set: p.set, items: p.next === 0 ? p.items : p.items.slice(p.next) };
}

/**
 * A transaction's units decided ahead on `before` (the head and edge the transaction
 * before leaves), when they are one set that can be; with the log's statement
 * made too (`encode`: Db.encodeParams), so that once the lock is held only
 * sending it is left.
 */
function decideAhead(
  tenantId: string,
  units: Unit[],
  before: Sealed,
  encode: Db['encodeParams'],
): DecidedAhead | undefined {
  const u = units[0];
  if (units.length !== 1 || u?.kind !== 'set' || !u.set.ahead) return undefined;
  const log = new OpenAppend(tenantId, before.head, before.edge);
  log.lastWork = true;
  const work = u.set.ahead(
    log,
    u.parts.map((x) => x.p.items[x.index]),
  );
  if (!work) return undefined;
  const sealed = log.seal();
  log.prepareCommit(encode);
  return { log, work, sealed };
}

/**
 * What a transaction decided ahead sends behind its lock (Db's SendAhead):
 * the head it was decided on checked, then the state its work assumed, then
 * the log's statement made ahead (with every row of the work in it);
 * undefined when its work cannot go that way.
 */
function aheadStatements(tenantId: string, decided: DecidedAhead): Statement[] | undefined {
  const expect = decided.work.expect?.();
  if (!expect || !decided.work.written) return undefined;
  const prepared = decided.log.takePrepared();
  if (!prepared) return undefined;
  return [expectHeadStatement(tenantId, decided.log.start), expect, prepared.statement];
}

function sameHead(a: Head, b: Head): boolean {
  return a.size === b.size && Buffer.from(a.root).equals(Buffer.from(b.root));
}

/** Consecutive requests of the same set job share one unit. */
function toUnits(batch: Taken[]): Unit[] {
  const units: Unit[] = [];
  for (const t of batch) {
    if (!('from' in t)) {
      units.push({ kind: 'job', p: t.p });
      continue;
    }
    const { p, from, to } = t;
    const last = units.at(-1);
    const parts: Array<{ p: SetPending; index: number }> = [];
    for (let index = from; index < to; index++) parts.push({ p, index });
    if (last?.kind === 'set' && last.set === p.set && !last.alone) last.parts.push(...parts);
    else units.push({ kind: 'set', set: p.set, parts, alone: false });
  }
  return units;
}

/** Units regrouped so that each holds one request's items. */
function splitByRequest(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  for (const u of units) {
    if (u.kind === 'job') {
      out.push(u);
      continue;
    }
    const byRequest = new Map<SetPending, Array<{ p: SetPending; index: number }>>();
    for (const part of u.parts) byRequest.set(part.p, [...(byRequest.get(part.p) ?? []), part]);
    for (const parts of byRequest.values()) out.push({ kind: 'set', set: u.set, parts, alone: true });
  }
  return out;
}

function settle(u: Unit, result: unknown): void {
  if (u.kind === 'job') {
    u.p.resolve(result);
    return;
  }
  const results = result as unknown[];
  u.parts.forEach((part, i) => place(part, results[i]));
}

function fail(u: Unit, cause: unknown): void {
  if (u.kind === 'job') u.p.reject(cause);
  else for (const part of u.parts) place(part, new ItemFailed(cause));
}

function place(part: { p: SetPending; index: number }, value: unknown): void {
  part.p.results[part.index] = value;
  if (--part.p.left === 0) part.p.resolve(part.p.results);
}

/** The batch failed inside its transaction, not in a job: nothing was committed. */
class BeforeCommitFailure extends Error {
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super('append batch failed before commit');
    this.cause = cause;
  }
}

/** A transaction's write sent ahead was refused by its guard: what it was decided on had moved; nothing was written. */
class DecidedAheadMoved extends Error {
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super('decided ahead on a head or state that moved');
    this.cause = cause;
  }
}

/** A job threw inside a batch; its transaction was rolled back. */
class JobFailure extends Error {
  readonly index: number;
  override readonly cause: unknown;
  constructor(index: number, cause: unknown) {
    super('append job failed');
    this.index = index;
    this.cause = cause;
  }
}
