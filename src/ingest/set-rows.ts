import { JUDGE_JOB, type JudgeJobPayload, judgeJobPayload } from '../jobs/index.ts';
import type { RideAlong } from '../ledger/index.ts';
import { APPROVAL_EXPIRY_JOB } from './approvals.ts';
import { escalatesToJudges, OUTPUT_SCAN_JOB } from './escalation.ts';
import type { PreparedInvocation } from './prepare.ts';
import type { IdempotencyClaim, RogueRecord, StoredResponse } from './set-items.ts';
import {
  AGENTS,
  type ApprovalRow,
  APPROVALS,
  EVENT_IDS,
  IDEMPOTENCY_KEYS,
  insertCte,
  INVOCATION_CONTENT,
  INVOCATIONS,
  ROGUE_EVENTS,
  type SetTable,
  USAGE_DAILY,
  type UsageRow,
} from './set-tables.ts';

/** One table's rows as columns, one array each (unnest()'s parameters). */
class TableRows<R> {
  readonly table: SetTable<R>;
  readonly columns: unknown[][];
  constructor(table: SetTable<R>) {
    this.table = table;
    this.columns = table.columns.map(() => []);
  }
  add(row: R): void {
    const cols = this.table.columns;
    for (let i = 0; i < cols.length; i++) this.columns[i]!.push(cols[i]!.value(row));
  }
  get size(): number {
    return this.columns[0]!.length;
  }
}

/** A background job a set enqueues with its rows. */
export interface SetJob {
  kind: string;
  payload: { invocation_id: number } | JudgeJobPayload | { approval_id: string };
  delayMs?: number;
}

/** Every row a set of events writes, as columns, written by one statement. */
export class Rows {
  readonly #tenant: string;
  /** The workspace has a judge panel: escalations its plan allows judging go to it. */
  readonly #judged: boolean;
  /** Per UTC day: its invocations and the first and last id given out. */
  readonly #perDay = new Map<string, UsageRow>();
  readonly #usage = new TableRows(USAGE_DAILY);
  readonly #agents = new TableRows(AGENTS);
  readonly #inv = new TableRows(INVOCATIONS);
  readonly #content = new TableRows(INVOCATION_CONTENT);
  readonly #rogue = new TableRows(ROGUE_EVENTS);
  readonly #ids = new TableRows(EVENT_IDS);
  readonly #keys = new TableRows(IDEMPOTENCY_KEYS);
  readonly #approvals = new TableRows(APPROVALS);
  /** The tables in the order of their CTEs (ctesOf's bits). */
  readonly #parts: readonly TableRows<never>[] = [
    this.#usage,
    this.#agents,
    this.#inv,
    this.#content,
    this.#rogue,
    this.#ids,
    this.#keys,
    this.#approvals,
  ];
  /** The invocations' background jobs: tool_output scans, judge escalations, approvals' expiry. */
  readonly jobs: SetJob[] = [];
  empty = true;

  constructor(tenant: string, judged: boolean) {
    this.#tenant = tenant;
    this.#judged = judged;
  }

  usage(day: string, id: number): void {
    const u = this.#perDay.get(day);
    if (u) {
      u.n++;
      u.first = Math.min(u.first, id);
      u.last = Math.max(u.last, id);
    } else this.#perDay.set(day, { day, n: 1, first: id, last: id });
  }

  agent(key: string, now: Date): void {
    this.#agents.add({ key, now });
  }

  invocation(id: number, index: number, p: PreparedInvocation, now: Date, judgesAllowed: boolean): void {
    this.empty = false;
    this.#inv.add({ id, index, p, now });
    for (const c of p.content) this.#content.add({ id, c, now });
    if (p.content.some((c) => c.findings === null))
      this.jobs.push({ kind: OUTPUT_SCAN_JOB, payload: { invocation_id: id } });
    if (this.#judged && judgesAllowed && escalatesToJudges(p.decision, p.mode))
      this.jobs.push({ kind: JUDGE_JOB, payload: judgeJobPayload(id, p.decision) });
  }

  rogue(id: number, index: number, e: RogueRecord, salt: Uint8Array, now: Date): void {
    this.empty = false;
    this.#rogue.add({ id, index, e, salt, now });
  }

  approval(row: ApprovalRow, holdMs: number): void {
    this.#approvals.add(row);
    // Expiry is a deny that must happen with nobody watching: a job due when the hold runs out.
    this.jobs.push({ kind: APPROVAL_EXPIRY_JOB, payload: { approval_id: row.approvalId }, delayMs: holdMs });
  }

  key(claim: IdempotencyClaim, response: StoredResponse, now: Date): void {
    this.#keys.add({ claim, response, now });
  }

  /** The rows every set ends with, once it is decided: each day's usage, the last id of each kind it took. */
  close(lastIds: ReadonlyArray<readonly [kind: string, before: number, last: number]>): void {
    for (const u of this.#perDay.values()) this.#usage.add(u);
    for (const [kind, before, last] of lastIds) if (last !== before) this.#ids.add([kind, last]);
  }

  /**
   * Every row as data-modifying CTEs of one statement (see RideAlong), only
   * the tables this set writes: an INSERT of no rows still costs its
   * execution, and on rogue_events and invocations a statement-level trigger
   * runs for it all the same (rogue_events' ran in every transaction of
   * invocations alone).
   */
  statement(): RideAlong {
    const params: unknown[] = [this.#tenant];
    let mask = 0;
    this.#parts.forEach((part, i) => {
      if (part.size === 0) return;
      mask |= 1 << i;
      params.push(...part.columns);
    });
    return { ctes: ctesOf(this.#parts, mask), params };
  }
}

/** The CTEs of the parts in `mask` (bit i: parts[i]), numbered; made once per combination. */
const ctesByMask = new Map<number, string>();
function ctesOf(parts: readonly TableRows<never>[], mask: number): string {
  let ctes = ctesByMask.get(mask);
  if (ctes === undefined) {
    let n = 1;
    ctes = parts
      .filter((_, i) => mask & (1 << i))
      .map((p) => insertCte(p.table))
      .join(', ')
      .replace(/\$_/g, () => `$${++n}`);
    ctesByMask.set(mask, ctes);
  }
  return ctes;
}
