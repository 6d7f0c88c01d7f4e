import type { Queryable, Row, Statement } from '../db/index.ts';
import { enqueueMany } from '../jobs/index.ts';
import { type OpenAppend, writeRideAlong } from '../ledger/index.ts';
import { IDEMPOTENCY_TTL_MS } from './idempotency.ts';
import type { KnownAgents } from './known-agents.ts';
import type { RecordItem, RecordOutcome } from './set-items.ts';
import { planSet, type SetPlan } from './set-plan.ts';
import { daysOf, expectStateStatement, openingState, readState, sameState, type StateRow } from './set-state.ts';
import { DAY_MS, utcDay } from './utc-day.ts';

/**
 * Records a set of events of one workspace inside the grouped append
 * transaction, set-based: one statement reads what the caps, the agents and
 * the idempotency keys need (and checks the change epoch: set-state.ts), the
 * set is decided in memory (set-plan.ts), and one statement writes every row
 * of every table, however many events there are (set-rows.ts). Caps are
 * counted exactly (the log head's row lock serializes this workspace's writers
 * on every node). Refusals and replays decide before anything is written and
 * write nothing.
 */
export function recordSet(known: KnownAgents): RecordSet {
  return new RecordSet(known);
}

/** The set job (the ledger's LogWriter.submitSet) every event is recorded by. */
export class RecordSet {
  readonly #known: KnownAgents;
  /** Per workspace, the state the last set this node planned leaves, if it commits. */
  readonly #left = new Map<string, StateRow>();

  constructor(known: KnownAgents) {
    this.#known = known;
  }

  /** An event's weight in a transaction (LogWriter's maxWeight): the characters of its texts, stored or sealed. */
  weight(item: RecordItem): number {
    if (item.kind !== 'invocation') return 0;
    let chars = 0;
    for (const c of item.prepared.content) chars += c.body.length + (c.sealed?.sealed.length ?? 0);
    return chars;
  }

  /**
   * Reads ahead, with the head lock, what a set like the opening request's
   * needs when it brings no agent this node has not seen: the change epoch,
   * the usage of its days (and of each next day, for a request that crosses
   * midnight while it waits), the last ids, the panel, and the request's
   * idempotency keys (an agent gated call by call sends one with each, and
   * looking them up under the lock would cost the set a round trip there).
   */
  opening(tenantId: string, items: readonly RecordItem[]): Statement | undefined {
    if (!this.#agentsKnown(tenantId, items)) return undefined;
    const days = new Set<string>();
    const keys = new Set<string>();
    // The items of a request share their time: each distinct one is named once.
    let last = Number.NaN;
    let earliest = Number.POSITIVE_INFINITY;
    for (const i of items) {
      if (i.idem) keys.add(i.idem.key);
      if (i.kind !== 'invocation' || i.now.getTime() === last) continue;
      last = i.now.getTime();
      earliest = Math.min(earliest, last);
      days.add(utcDay(i.now));
      days.add(utcDay(new Date(last + DAY_MS)));
    }
    if (keys.size === 0) return openingState(tenantId, [...days]);
    const oldest = Math.min(earliest, ...items.map((i) => i.now.getTime())) - IDEMPOTENCY_TTL_MS;
    return openingState(tenantId, [...days], [...keys], new Date(oldest));
  }

  async run(tx: Queryable, log: OpenAppend, items: readonly RecordItem[], opened?: Row[]): Promise<RecordOutcome[]> {
    const tenantId = log.tenantId;
    const days = daysOf(items);
    const unknown = new Set<string>();
    const keySet = new Set<string>();
    for (const i of items) {
      if (i.idem) keySet.add(i.idem.key);
      if (i.kind === 'invocation' && !this.#known.has(tenantId, i.prepared.agentKey)) unknown.add(i.prepared.agentKey);
    }
    const keys = [...keySet];
    const oldest = new Date(Math.min(...items.map((i) => i.now.getTime())) - IDEMPOTENCY_TTL_MS);
    const ahead = opened?.[0] as StateRow | undefined;
    // What was read ahead serves when these items need nothing more: no agent
    // to count, no day and no key it did not read.
    const read =
      (ahead && unknown.size === 0 && days.every((d) => ahead.days.includes(d)) && keysSince(ahead, keys, oldest)) ||
      (await readState(tx, tenantId, days, [...unknown], keys, oldest));
    const planned = this.#plan(log, items, read);
    await planned.write(tx);
    return planned.out;
  }

  /**
   * Decides items before this transaction holds the lock, against the state
   * the last set this node planned for the workspace leaves (its usage, ids,
   * epoch, panel), appending to `log` (opened on the head that set leaves).
   * Only for items that need nothing read but what the lock's round trip
   * reads ahead: no idempotency key, no agent this node has not seen, days
   * that state holds. run() writes it once the read-ahead row shows the
   * state was as assumed; undefined when it could not be decided ahead.
   */
  ahead(log: OpenAppend, items: readonly RecordItem[]) {
    const basis = this.#left.get(log.tenantId);
    if (!basis) return undefined;
    const days = daysOf(items);
    if (!days.every((d) => basis.days.includes(d))) return undefined;
    if (!this.#readAheadServes(log.tenantId, items)) return undefined;
    const planned = this.#plan(log, items, basis);
    planned.rideAhead();
    return {
      async run(tx: Queryable, opened?: Row[]): Promise<RecordOutcome[] | undefined> {
        const read = opened?.[0] as StateRow | undefined;
        if (!read || !sameState(read, basis, days)) return undefined;
        await planned.write(tx);
        return planned.out;
      },
      // sameState's test in SQL, for a write sent before the lock's answer: only when the log's statement writes every row.
      expect: () => (planned.allInLogStatement() ? expectStateStatement(log.tenantId, basis, days) : undefined),
      written: () => planned.out,
    };
  }

  /** Whether items need nothing read but what the last set left and the lock's read-ahead: no idempotency key, no agent unknown here. */
  #readAheadServes(tenantId: string, items: readonly RecordItem[]): boolean {
    for (const i of items) if (i.idem !== undefined) return false;
    return this.#agentsKnown(tenantId, items);
  }

  /** Whether this node has seen every agent of items (an unknown one is counted against the agent cap, read under the lock). */
  #agentsKnown(tenantId: string, items: readonly RecordItem[]): boolean {
    // Asked twice a set (opening, ahead) for each of its ~2,000 events: a request's events mostly share their agent.
    let agent: string | undefined;
    for (const i of items) {
      if (i.kind !== 'invocation' || i.prepared.agentKey === agent) continue;
      agent = i.prepared.agentKey;
      if (!this.#known.has(tenantId, agent)) return false;
    }
    return true;
  }

  /** Decides the set (set-plan.ts) and remembers the state it leaves, for ahead(). */
  #plan(log: OpenAppend, items: readonly RecordItem[], read: StateRow) {
    const planned = planSet(this.#known, log, items, read);
    if (this.#left.size >= 10_000) this.#left.clear();
    this.#left.set(log.tenantId, planned.after);
    return setWrite(log, planned);
  }
}

/**
 * The read-ahead row as the state of a set whose keys are `keys`, answering
 * from `oldest` on; undefined when it did not look up every one of them or
 * looked only from a later time.
 */
function keysSince(ahead: StateRow, keys: readonly string[], oldest: Date): StateRow | undefined {
  if (keys.length === 0) return ahead;
  const from = Date.parse(ahead.oldest);
  if (!(from <= oldest.getTime()) || !keys.every((k) => ahead.asked.includes(k))) return undefined;
  if (from === oldest.getTime()) return ahead;
  // Looked up from earlier than this set answers: a key stored in between has expired for it.
  return { ...ahead, keys: ahead.keys.filter((k) => Date.parse(k[3]) > oldest.getTime()) };
}

/** How a decided set's rows reach the database: in the log's own statement when they can, else one of their own. */
function setWrite(log: OpenAppend, { out, rows }: SetPlan) {
  let handed = false;
  return {
    out,
    /**
     * Hands the rows to the log's statement now, when this is the last work
     * of its transaction (decided ahead: before the lock, so the statement
     * can be made before it too); write() then leaves them there.
     */
    rideAhead(): void {
      if (rows.empty || !log.lastWork) return;
      log.rideAlong(rows.statement());
      handed = true;
    },
    /**
     * Every row is in the log's statement (rideAhead), and no job is left for write() to enqueue.
     * A method, not a getter: as a getter of this object literal, made for every set, it kept each
     * set's rows and leaves alive past young-generation collections until the next full one — about
     * 2 KB an event promoted, scavenges of ~10 ms instead of ~3 (docs/performance.md, "Garbage collection").
     */
    allInLogStatement(): boolean {
      return handed && rows.jobs.length === 0;
    },
    async write(tx: Queryable): Promise<void> {
      if (rows.empty) return;
      if (!handed) {
        // The last work of its transaction leaves its rows to the log's statement: one round trip less.
        if (log.lastWork) log.rideAlong(rows.statement());
        else await writeRideAlong(tx, rows.statement());
      }
      // tool_outputs are scanned and escalations judged in the background (DESIGN §4): their jobs commit with the invocations.
      if (rows.jobs.length > 0) await enqueueMany(tx, log.tenantId, rows.jobs);
    },
  };
}
