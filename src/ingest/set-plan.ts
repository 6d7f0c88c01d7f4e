import { randomUUID } from 'node:crypto';
import { evidenceIdOf, newSalt, type OpenAppend } from '../ledger/index.ts';
import { IDEMPOTENCY_TTL_MS } from './idempotency.ts';
import type { KnownAgents } from './known-agents.ts';
import { agentRegisteredLeaf, approvalLeaf, invocationLeaf, quotaReachedLeaf, rogueLeaf } from './leaves.ts';
import type { PreparedInvocation } from './prepare.ts';
import type { RecordItem, RecordOutcome, RogueRecord, StoredResponse } from './set-items.ts';
import { Rows } from './set-rows.ts';
import type { StateRow } from './set-state.ts';
import { utcDay } from './utc-day.ts';

type Item<K extends RecordItem['kind']> = Extract<RecordItem, { kind: K }>;

/** A set decided: each item's outcome, the rows to write, and the state the set leaves if it commits. */
export interface SetPlan {
  out: RecordOutcome[];
  rows: Rows;
  after: StateRow;
}

/**
 * Decides each item against `read` (refusals, replays, ids, indexes), adding
 * its entries to `log` and its rows to the plan; no I/O. Refusals and replays
 * write nothing.
 */
export function planSet(known: KnownAgents, log: OpenAppend, items: readonly RecordItem[], read: StateRow): SetPlan {
  const planner = new SetPlanner(known, log, read);
  const out = items.map((item) => planner.decide(item));
  return { out, rows: planner.close(), after: planner.after() };
}

/** The counters a set moves as it decides its items, starting from what it read. */
class SetPlanner {
  readonly #known: KnownAgents;
  readonly #log: OpenAppend;
  readonly #read: StateRow;
  readonly #rows: Rows;
  readonly #epoch: number;
  readonly #used: Map<string, number>;
  readonly #registered: Set<string>;
  #agentCount: number;
  readonly #claimed = new Map<string, { fingerprint: string; response: StoredResponse; at: number }>();
  readonly #firstIds: { invocation: number; rogue_event: number };
  #lastInvocation: number;
  #lastRogue: number;

  constructor(known: KnownAgents, log: OpenAppend, read: StateRow) {
    this.#known = known;
    this.#log = log;
    this.#read = read;
    this.#rows = new Rows(log.tenantId, read.judged);
    this.#epoch = Number(read.epoch);
    this.#used = new Map(Object.entries(read.usage).map(([d, n]) => [d, Number(n)]));
    this.#registered = new Set(read.known);
    this.#agentCount = read.agents;
    for (const [key, fingerprint, response, at] of read.keys)
      this.#claimed.set(key, { fingerprint, response, at: Date.parse(at) });
    this.#lastInvocation = Number(read.last_ids.invocation ?? 0);
    this.#lastRogue = Number(read.last_ids.rogue_event ?? 0);
    this.#firstIds = { invocation: this.#lastInvocation, rogue_event: this.#lastRogue };
  }

  decide(item: RecordItem): RecordOutcome {
    if (item.epoch !== undefined && item.epoch !== this.#epoch) return { stale: true };
    const replay = this.#replay(item);
    if (replay) return replay;
    const body = item.kind === 'invocation' ? this.#invocation(item) : this.#rogueEvent(item);
    if (typeof body === 'string') return { refused: body };
    if (item.idem) {
      const response: StoredResponse = { status: 201, body };
      this.#claimed.set(item.idem.key, { fingerprint: item.idem.fingerprint, response, at: item.now.getTime() });
      this.#rows.key(item.idem, response, item.now);
    }
    return { status: 201, body, replayed: false, recordedAt: item.now };
  }

  /** The first answer to the item's key, or its refusal when the key asked something else. */
  #replay(item: RecordItem): RecordOutcome | undefined {
    if (!item.idem) return undefined;
    const hit = this.#claimed.get(item.idem.key);
    // A key is kept for 24 hours from its first use, by the request's clock.
    if (!hit || item.now.getTime() - hit.at >= IDEMPOTENCY_TTL_MS) return undefined;
    return hit.fingerprint === item.idem.fingerprint
      ? { status: 201, body: hit.response.body, replayed: true, recordedAt: new Date(hit.at) }
      : { refused: 'idempotency_key_reused' };
  }

  /** The invocation's answer, or why it is refused. */
  #invocation(item: Item<'invocation'>): Record<string, unknown> | 'plan_limit' | 'quota_exceeded' {
    const p = item.prepared;
    const log = this.#log;
    const isNew = !this.#known.has(log.tenantId, p.agentKey) && !this.#registered.has(p.agentKey);
    if (isNew && this.#agentCount >= item.caps.agents) return 'plan_limit';
    const day = utcDay(item.now);
    const usedToday = (this.#used.get(day) ?? 0) + 1;
    if (usedToday > item.caps.invocations_per_day) return 'quota_exceeded';
    this.#used.set(day, usedToday);
    if (isNew) {
      this.#registered.add(p.agentKey);
      this.#agentCount++;
      this.#rows.agent(p.agentKey, item.now);
      log.add(agentRegisteredLeaf(p.agentPseudonym), item.now);
    }
    // The leaf's time and created_at are the service's clock; when the event happened is p.occurredAt.
    const id = ++this.#lastInvocation;
    this.#rows.usage(day, id);
    const index = log.add(invocationLeaf(id, p), item.now);
    this.#rows.invocation(id, index, p, item.now, item.caps.multi_judge_calls_per_month > 0);
    // A tool outside the agent's scope is also a rogue event of its own.
    if (p.outOfScope) this.#rogue({ ...p.outOfScope, invocation_id: id }, item.now);
    const body: Record<string, unknown> = {
      invocation_id: id,
      tenant_id: log.tenantId,
      verdict: p.decision.verdict,
      evidence_id: evidenceIdOf(index),
      ...(p.piiCount !== undefined ? { pii_count: p.piiCount } : {}),
      // An enforced agent asked before it acts: it is told why (the rule ids, as GET /invocations/{id} shows them).
      ...(p.mode === 'enforced' ? { reasons: p.decision.reasons } : {}),
    };
    if (p.decision.hold) body.approval = this.#hold(id, p, item.now, p.decision.hold.seconds);
    // The invocation that uses up a quota says so, once: the next one is refused, and refusals append nothing.
    if (usedToday === item.caps.invocations_per_day)
      log.add(quotaReachedLeaf('invocations_per_day', item.caps.invocations_per_day, day), item.now);
    if (isNew && this.#agentCount === item.caps.agents) log.add(quotaReachedLeaf('agents', item.caps.agents), item.now);
    return body;
  }

  /**
   * Held for a person: the approval, its row and its leaf commit with the invocation, so no
   * agent is told to wait for an approval that does not exist.
   */
  #hold(invocationId: number, p: PreparedInvocation, now: Date, seconds: number) {
    const approvalId = randomUUID();
    const expiresAt = new Date(now.getTime() + seconds * 1000).toISOString();
    const index = this.#log.add(approvalLeaf(approvalId, invocationId, expiresAt), now);
    this.#rows.approval({ approvalId, invocationId, p, now, expiresAt, index }, seconds * 1000);
    return { approval_id: approvalId, status: 'pending', expires_at: expiresAt };
  }

  #rogueEvent(item: Item<'rogue'>): Record<string, unknown> {
    this.#rogue(item.event, item.now);
    return { accepted: true, event_type: item.event.event_type, tenant_id: this.#log.tenantId };
  }

  #rogue(e: RogueRecord, now: Date): void {
    const salt = newSalt();
    this.#rows.rogue(++this.#lastRogue, this.#log.add(rogueLeaf(e, salt), now), e, salt, now);
  }

  /** The rows, with each day's usage and the last ids the set took. */
  close(): Rows {
    this.#rows.close([
      ['invocation', this.#firstIds.invocation, this.#lastInvocation],
      ['rogue_event', this.#firstIds.rogue_event, this.#lastRogue],
    ]);
    return this.#rows;
  }

  /** What the next set of this node may assume, if this one commits. */
  after(): StateRow {
    return {
      ...this.#read,
      epoch: this.#epoch,
      usage: Object.fromEntries(this.#used),
      last_ids: { ...this.#read.last_ids, invocation: this.#lastInvocation, rogue_event: this.#lastRogue },
      known: [],
      agents: 0,
      keys: [],
    };
  }
}
