import { randomUUID } from 'node:crypto';
import type { PlanCaps } from '../config/index.ts';
import type { Queryable, Row, Statement } from '../db/index.ts';
import { enqueueMany, JUDGE_JOB, type JudgeJobPayload, judgeJobPayload } from '../jobs/index.ts';
import {
  evidenceIdOf,
  LEAF_VERSION,
  type LogEntry,
  newSalt,
  type OpenAppend,
  type RideAlong,
  writeRideAlong,
} from '../ledger/index.ts';
import { metaCommitment } from './metadata.ts';
import { epochSql } from '../changes/index.ts';
import type { PreparedInvocation, RogueInput } from './prepare.ts';
import { APPROVAL_EXPIRY_JOB, APPROVAL_REQUESTED } from './approvals.ts';

/** The kind of the background job that scans an invocation's tool_output. */
export const OUTPUT_SCAN_JOB = 'tool_output_scan';

/**
 * Whether an invocation goes to the judge panel on its own: a flag_for_review
 * (it is in the review queue), or any verdict when a rule that fired asks for
 * the panel (`judge: true`). Never in shadow mode: a shadow verdict has no
 * consequence, so it spends no judge calls either.
 */
export function escalatesToJudges(decision: { verdict: string; judge: boolean }, mode: string): boolean {
  return mode !== 'shadow' && (decision.verdict === 'flag_for_review' || decision.judge);
}

/** Agents this process has seen registered: agents are never deleted, so the check can be skipped. */
export class KnownAgents {
  // Per workspace, its agents' keys: asked several times for every event of a set, a lookup must not
  // build a string (a joined key is a new string to hash each time; an event's own agent_key is hashed once).
  readonly #byTenant = new Map<string, Set<string>>();
  #size = 0;
  has(tenantId: string, agentKey: string): boolean {
    return this.#byTenant.get(tenantId)?.has(agentKey) ?? false;
  }
  add(tenantId: string, agentKey: string): void {
    if (this.#size >= 200_000) {
      this.#byTenant.clear();
      this.#size = 0;
    }
    let keys = this.#byTenant.get(tenantId);
    if (!keys) this.#byTenant.set(tenantId, (keys = new Set()));
    if (!keys.has(agentKey)) {
      keys.add(agentKey);
      this.#size++;
    }
  }
}

const DAY_MS = 24 * 3600_000;

// The last day utcDay named: events of a request, a batch, a day share it (toISOString per event was 1-1.5 % of a batch's CPU).
let dayStart = 0;
let dayEnd = 0;
let dayName = '';

/** YYYY-MM-DD of the UTC day `d` falls in. */
export function utcDay(d: Date): string {
  const t = d.getTime();
  if (t >= dayStart && t < dayEnd) return dayName;
  const name = d.toISOString().slice(0, 10);
  dayStart = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
  dayEnd = dayStart + DAY_MS;
  dayName = name;
  return name;
}

/** A request's Idempotency-Key (or a batch item's event_id) and the fingerprint of what it asked. */
export interface IdempotencyClaim {
  key: string;
  /** Hex SHA-256 of the endpoint kind and the canonical JSON body. */
  fingerprint: string;
}

/** How long a key answers with its first response. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

interface ItemBase {
  /** When the request is recorded: the day its quota counts on, the age of idempotency keys. */
  now: Date;
  caps: PlanCaps;
  /** The change epoch the request's cached token, plan, policy and scope were read at (undefined: nothing cached). */
  epoch: number | undefined;
  idem?: IdempotencyClaim | undefined;
}

export type RecordItem =
  | (ItemBase & { kind: 'invocation'; prepared: PreparedInvocation })
  | (ItemBase & { kind: 'rogue'; event: RogueRecord });

/** What a request gets for one item. */
export type RecordOutcome =
  | { status: 201; body: Record<string, unknown>; replayed: boolean }
  | { refused: 'plan_limit' | 'quota_exceeded' | 'idempotency_key_reused' }
  /** Something the request read from memory changed meanwhile (on any node): decide again with fresh reads. */
  | { stale: true };

interface StoredResponse {
  status: 201;
  body: Record<string, unknown>;
}

/**
 * Records a set of events of one workspace inside the grouped append
 * transaction, set-based: one statement reads what the caps, the agents and
 * the idempotency keys need (and checks the change epoch), the leaves and
 * their Merkle nodes are computed in memory, and one statement writes every
 * row of every table, however many events there are. Caps are counted exactly
 * (the log head's row lock serializes this workspace's writers on every node).
 * Refusals and replays decide before anything is written and write nothing.
 */
export function recordSet(known: KnownAgents) {
  /** Per workspace, the state the last set this node planned leaves, if it commits. */
  const left = new Map<string, StateRow>();
  return {
    /** An event's weight in a transaction (LogWriter's maxWeight): the characters of its texts, stored or sealed. */
    weight(item: RecordItem): number {
      if (item.kind !== 'invocation') return 0;
      let chars = 0;
      for (const c of item.prepared.content) chars += c.body.length + (c.sealed?.sealed.length ?? 0);
      return chars;
    },

    /**
     * Reads ahead, with the head lock, what a set like the opening request's
     * needs when it brings no idempotency key and no agent this node has not
     * seen: the change epoch, the usage of its days (and of each next day, for
     * a request that crosses midnight while it waits), the last ids, the panel.
     */
    opening(tenantId: string, items: readonly RecordItem[]): Statement | undefined {
      if (
        items.some(
          (i) => i.idem !== undefined || (i.kind === 'invocation' && !known.has(tenantId, i.prepared.agentKey)),
        )
      )
        return undefined;
      const days = new Set<string>();
      // The items of a request share their time: each distinct one is named once.
      let last = Number.NaN;
      for (const i of items) {
        if (i.kind !== 'invocation' || i.now.getTime() === last) continue;
        last = i.now.getTime();
        days.add(utcDay(i.now));
        days.add(utcDay(new Date(last + DAY_MS)));
      }
      // No agents to count, no keys to look up (so no oldest time for them either).
      return { sql: STATE_SQL, params: [tenantId, [...days], [], [], EPOCH_ISO] };
    },

    async run(tx: Queryable, log: OpenAppend, items: readonly RecordItem[], opened?: Row[]): Promise<RecordOutcome[]> {
      const tenantId = log.tenantId;
      const days = daysOf(items);
      const unknownAgents = [
        ...new Set(
          items
            .filter((i) => i.kind === 'invocation' && !known.has(tenantId, i.prepared.agentKey))
            .map((i) => (i as { prepared: PreparedInvocation }).prepared.agentKey),
        ),
      ];
      const keys = [...new Set(items.flatMap((i) => (i.idem ? [i.idem.key] : [])))];
      const ahead = opened?.[0] as StateRow | undefined;
      // What was read ahead serves when these items need nothing more: no key
      // to look up, no agent to count, no day it did not read.
      const read =
        ahead && keys.length === 0 && unknownAgents.length === 0 && days.every((d) => ahead.days.includes(d))
          ? ahead
          : await readState(
              tx,
              tenantId,
              days,
              unknownAgents,
              keys,
              new Date(Math.min(...items.map((i) => i.now.getTime())) - IDEMPOTENCY_TTL_MS),
            );
      const planned = plan(log, items, read);
      await planned.write(tx);
      return planned.out;
    },

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
      const basis = left.get(log.tenantId);
      if (!basis) return undefined;
      const days = daysOf(items);
      if (!days.every((d) => basis.days.includes(d))) return undefined;
      if (
        items.some(
          (i) => i.idem !== undefined || (i.kind === 'invocation' && !known.has(log.tenantId, i.prepared.agentKey)),
        )
      )
        return undefined;
      const planned = plan(log, items, basis);
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
    },
  };

  /**
   * Decides each item against `read` (refusals, replays, ids, indexes) and
   * gathers every row to write; `write` writes them. Remembers the state the
   * set leaves (for ahead()).
   */
  function plan(log: OpenAppend, items: readonly RecordItem[], read: StateRow) {
    const tenantId = log.tenantId;
    const epoch = Number(read.epoch);
    const used = new Map(Object.entries(read.usage).map(([d, n]) => [d, Number(n)]));
    const registered = new Set(read.known);
    let agentCount = read.agents;
    const claimed = new Map<string, { fingerprint: string; response: StoredResponse; at: number }>();
    for (const [key, fingerprint, response, at] of read.keys)
      claimed.set(key, { fingerprint, response, at: Date.parse(at) });
    let lastInvocation = Number(read.last_ids.invocation ?? 0);
    let lastRogue = Number(read.last_ids.rogue_event ?? 0);

    const rows = new Rows(tenantId, read.judged);
    const startIds = { invocation: lastInvocation, rogue_event: lastRogue };
    const out: RecordOutcome[] = [];
    for (const item of items) {
      if (item.epoch !== undefined && item.epoch !== epoch) {
        out.push({ stale: true });
        continue;
      }
      if (item.idem) {
        const hit = claimed.get(item.idem.key);
        // A key is kept for 24 hours from its first use, by the request's clock.
        if (hit && item.now.getTime() - hit.at < IDEMPOTENCY_TTL_MS) {
          out.push(
            hit.fingerprint === item.idem.fingerprint
              ? { status: 201, body: hit.response.body, replayed: true }
              : { refused: 'idempotency_key_reused' },
          );
          continue;
        }
      }
      let body: Record<string, unknown>;
      if (item.kind === 'invocation') {
        const p = item.prepared;
        const isNew = !known.has(tenantId, p.agentKey) && !registered.has(p.agentKey);
        if (isNew && agentCount >= item.caps.agents) {
          out.push({ refused: 'plan_limit' });
          continue;
        }
        const day = utcDay(item.now);
        if ((used.get(day) ?? 0) >= item.caps.invocations_per_day) {
          out.push({ refused: 'quota_exceeded' });
          continue;
        }
        const usedToday = (used.get(day) ?? 0) + 1;
        used.set(day, usedToday);
        if (isNew) {
          registered.add(p.agentKey);
          agentCount++;
          rows.agent(p.agentKey, item.now);
          log.add({ v: LEAF_VERSION, kind: 'agent_registered', agent: p.agentPseudonym }, item.now);
        }
        // The leaf's time and created_at are the service's clock; when the event happened is p.occurredAt.
        const id = ++lastInvocation;
        rows.usage(day, id);
        const index = log.add(invocationLeaf(id, p), item.now);
        rows.invocation(id, index, p, item.now, item.caps.multi_judge_calls_per_month > 0);
        // A tool outside the agent's scope is also a rogue event of its own.
        if (p.outOfScope) {
          const oos: RogueRecord = { ...p.outOfScope, invocation_id: id };
          const salt = newSalt();
          rows.rogue(++lastRogue, log.add(rogueLeaf(oos, salt), item.now), oos, salt, item.now);
        }
        body = {
          invocation_id: id,
          tenant_id: tenantId,
          verdict: p.decision.verdict,
          evidence_id: evidenceIdOf(index),
          ...(p.piiCount !== undefined ? { pii_count: p.piiCount } : {}),
          // An enforced agent asked before it acts: it is told why (the rule ids, as GET /invocations/{id} shows them).
          ...(p.mode === 'enforced' ? { reasons: p.decision.reasons } : {}),
        };
        // Held for a person: the approval, its row and its leaf commit with the invocation, so no
        // agent is told to wait for an approval that does not exist.
        if (p.decision.hold) {
          const approvalId = randomUUID();
          const expiresAt = new Date(item.now.getTime() + p.decision.hold.seconds * 1000).toISOString();
          const at = log.add(
            {
              v: LEAF_VERSION,
              kind: APPROVAL_REQUESTED,
              approval_id: approvalId,
              invocation_id: id,
              expires_at: expiresAt,
            },
            item.now,
          );
          rows.approval(approvalId, id, p, item.now, expiresAt, at, p.decision.hold.seconds * 1000);
          body.approval = { approval_id: approvalId, status: 'pending', expires_at: expiresAt };
        }
        // The invocation that uses up a quota says so, once: the next one is refused, and refusals append nothing.
        if (usedToday === item.caps.invocations_per_day)
          log.add(quotaReachedLeaf('invocations_per_day', item.caps.invocations_per_day, day), item.now);
        if (isNew && agentCount === item.caps.agents) log.add(quotaReachedLeaf('agents', item.caps.agents), item.now);
      } else {
        const e = item.event;
        const salt = newSalt();
        rows.rogue(++lastRogue, log.add(rogueLeaf(e, salt), item.now), e, salt, item.now);
        body = { accepted: true, event_type: e.event_type, tenant_id: tenantId };
      }
      if (item.idem) {
        const response: StoredResponse = { status: 201, body };
        claimed.set(item.idem.key, { fingerprint: item.idem.fingerprint, response, at: item.now.getTime() });
        rows.key(item.idem, response, item.now);
      }
      out.push({ status: 201, body, replayed: false });
    }
    // What the next set of this node may assume, if this one commits.
    const after: StateRow = {
      ...read,
      epoch,
      usage: Object.fromEntries(used),
      last_ids: { ...read.last_ids, invocation: lastInvocation, rogue_event: lastRogue },
      known: [],
      agents: 0,
      keys: [],
    };
    if (left.size >= 10_000) left.clear();
    left.set(tenantId, after);
    let handed = false;
    const statement = () => {
      rows.ids('invocation', startIds.invocation, lastInvocation);
      rows.ids('rogue_event', startIds.rogue_event, lastRogue);
      return rows.statement();
    };
    return {
      out,
      /**
       * Hands the rows to the log's statement now, when this is the last work
       * of its transaction (decided ahead: before the lock, so the statement
       * can be made before it too); write() then leaves them there.
       */
      rideAhead(): void {
        if (rows.empty || !log.lastWork) return;
        log.rideAlong(statement());
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
          if (log.lastWork) log.rideAlong(statement());
          else await writeRideAlong(tx, statement());
        }
        // tool_outputs are scanned and escalations judged in the background (DESIGN §4): their jobs commit with the invocations.
        if (rows.jobs.length > 0) await enqueueMany(tx, tenantId, rows.jobs);
      },
    };
  }
}

/**
 * The entry a quota leaves when an invocation uses up the last of it: the
 * invocations of a UTC day (`period`: the day) or the agents a workspace may
 * register. Once per period and quota: what goes over it is refused and
 * appends nothing.
 */
function quotaReachedLeaf(quota: 'invocations_per_day' | 'agents', limit: number, period?: string): LogEntry {
  return { v: LEAF_VERSION, kind: 'quota_reached', quota, limit, ...(period === undefined ? {} : { period }) };
}

/** The UTC days of the invocations among items (the days their quota counts on). */
function daysOf(items: readonly RecordItem[]): string[] {
  return [...new Set(items.filter((i) => i.kind === 'invocation').map((i) => utcDay(i.now)))];
}

/** Whether what the lock's round trip read is the state a set was decided against, as far as the set's days go. */
function sameState(read: StateRow, basis: StateRow, days: readonly string[]): boolean {
  const id = (r: StateRow, kind: string) => Number(r.last_ids[kind] ?? 0);
  return (
    Number(read.epoch) === Number(basis.epoch) &&
    read.judged === basis.judged &&
    id(read, 'invocation') === id(basis, 'invocation') &&
    id(read, 'rogue_event') === id(basis, 'rogue_event') &&
    days.every((d) => read.days.includes(d) && Number(read.usage[d] ?? 0) === Number(basis.usage[d] ?? 0))
  );
}

/**
 * A statement that raises (log_expect, SQLSTATE AL001) unless sameState(read,
 * basis, days) would hold for what it reads: the epoch, the judge panel, the
 * last ids, the usage of the days.
 */
function expectStateStatement(tenantId: string, basis: StateRow, days: readonly string[]): Statement {
  const id = (kind: string) => Number(basis.last_ids[kind] ?? 0);
  return {
    sql: EXPECT_STATE_SQL,
    params: [
      tenantId,
      Number(basis.epoch),
      basis.judged,
      id('invocation'),
      id('rogue_event'),
      days,
      days.map((d) => Number(basis.usage[d] ?? 0)),
    ],
  };
}

const EXPECT_STATE_SQL = `SELECT log_expect(
    ${epochSql('$1')} = $2
    AND judge_panel_configured($1::uuid) = $3
    AND coalesce((SELECT last_id FROM event_ids WHERE tenant_id = $1::uuid AND kind = 'invocation'), 0) = $4
    AND coalesce((SELECT last_id FROM event_ids WHERE tenant_id = $1::uuid AND kind = 'rogue_event'), 0) = $5
    AND NOT EXISTS (SELECT 1 FROM unnest($6::date[], $7::bigint[]) AS d(day, n)
      WHERE coalesce((SELECT u.invocations FROM usage_daily u WHERE u.tenant_id = $1::uuid AND u.day = d.day), 0) <> d.n),
    'the state the events were decided on')`;

/** What a set of events reads before it decides (stateSql's row). */
interface StateRow {
  epoch: number;
  usage: Record<string, number>;
  known: string[];
  agents: number;
  keys: Array<[string, string, StoredResponse, string]>;
  last_ids: Record<string, number>;
  judged: boolean;
  /** The days whose usage was read (a day without a row has none). */
  days: string[];
}

/**
 * The one statement that reads what deciding a set needs, over SQL
 * expressions for the workspace, its days, the agents this node does not know,
 * the idempotency keys and the oldest time a key still answers.
 */
function stateSql(tenant: string, days: string, agents: string, keys: string, oldest: string): string {
  return `SELECT ${epochSql(tenant)} AS epoch,
           (SELECT coalesce(jsonb_object_agg(day::text, invocations), '{}'::jsonb) FROM usage_daily
             WHERE tenant_id = ${tenant} AND day = ANY(${days}::date[])) AS usage,
           (SELECT coalesce(array_agg(agent_key), '{}') FROM agents WHERE tenant_id = ${tenant} AND agent_key = ANY(${agents}::text[])) AS known,
           (CASE WHEN cardinality(${agents}::text[]) > 0 THEN (SELECT count(*)::int FROM agents WHERE tenant_id = ${tenant}) ELSE 0 END) AS agents,
           (SELECT coalesce(jsonb_agg(jsonb_build_array(key, encode(fingerprint, 'hex'), response, created_at)), '[]'::jsonb)
              FROM idempotency_keys WHERE tenant_id = ${tenant} AND key = ANY(${keys}::text[]) AND created_at > ${oldest}) AS keys,
           -- Per-workspace ids, taken gap-free: only this transaction (it holds the log head) moves them.
           (SELECT coalesce(jsonb_object_agg(kind, last_id), '{}'::jsonb) FROM event_ids WHERE tenant_id = ${tenant}) AS last_ids,
           -- The judges module's function (migration 0120): whether flags escalate to its panel.
           judge_panel_configured(${tenant}) AS judged,
           ${days}::date[]::text[] AS days`;
}

const STATE_SQL = stateSql('$1', '$2', '$3', '$4', '$5');
/** The oldest time a key answers from, when no key is looked up. */
const EPOCH_ISO = new Date(0).toISOString();

async function readState(
  tx: Queryable,
  tenantId: string,
  days: string[],
  agents: string[],
  keys: string[],
  oldest: Date,
): Promise<StateRow> {
  const [row] = await tx.query<StateRow & Row>(STATE_SQL, [tenantId, days, agents, keys, oldest.toISOString()]);
  return row!;
}

/** Every row a set of events writes, as columns, written by one statement. */
class Rows {
  readonly #tenant: string;
  /** Per UTC day: invocations, and the first and last id given out (reads by id find their months by them). */
  readonly #usage = new Map<string, [number, number, number]>();
  readonly #agents: [string[], string[]] = [[], []];
  readonly #inv = Array.from({ length: 20 }, () => [] as unknown[]);
  readonly #content: unknown[][] = [[], [], [], [], [], [], [], []];
  readonly #ids: [string[], number[]] = [[], []];
  /** The invocations' background jobs: tool_output scans and judge escalations. */
  readonly jobs: {
    kind: string;
    payload: { invocation_id: number } | JudgeJobPayload | { approval_id: string };
    delayMs?: number;
  }[] = [];
  /** The workspace has a judge panel: escalations its plan allows judging go to it. */
  readonly #judged: boolean;
  readonly #rogue = Array.from({ length: 12 }, () => [] as unknown[]);
  readonly #keys: unknown[][] = [[], [], [], []];
  readonly #approvals = Array.from({ length: 8 }, () => [] as unknown[]);
  empty = true;

  constructor(tenant: string, judged: boolean) {
    this.#tenant = tenant;
    this.#judged = judged;
  }

  usage(day: string, id: number) {
    const u = this.#usage.get(day);
    if (u) {
      u[0]++;
      u[1] = Math.min(u[1], id);
      u[2] = Math.max(u[2], id);
    } else this.#usage.set(day, [1, id, id]);
  }

  agent(key: string, now: Date) {
    this.#agents[0].push(key);
    this.#agents[1].push(now.toISOString());
  }

  invocation(id: number, index: number, p: PreparedInvocation, now: Date, judgesAllowed: boolean) {
    this.empty = false;
    const values = [
      id,
      p.agentKey,
      p.mode,
      p.outcome,
      p.durationMs ?? null,
      p.principalKind ?? null,
      p.principalId,
      p.parentInvocationId ?? null,
      p.correlationId ?? null,
      p.toolName ?? null,
      p.decision.verdict,
      JSON.stringify(p.decision.reasons),
      p.policyVersion,
      p.piiCount ?? null,
      index,
      now.toISOString(),
      needsReview(p.decision.verdict, p.mode) ? 'pending' : null,
      p.metaSalt,
      p.occurredAt ?? null,
      p.recordedBy ?? null,
    ];
    values.forEach((v, i) => this.#inv[i]!.push(v));
    for (const c of p.content) {
      this.#content[0]!.push(id);
      this.#content[1]!.push(c.field);
      this.#content[2]!.push(c.body);
      this.#content[3]!.push(c.salt);
      this.#content[4]!.push(c.findings === null ? null : JSON.stringify(c.findings));
      this.#content[5]!.push(c.sealed?.sealed ?? null);
      this.#content[6]!.push(c.sealed?.wrappedKey ?? null);
      this.#content[7]!.push(now.toISOString());
    }
    if (p.content.some((c) => c.findings === null))
      this.jobs.push({ kind: OUTPUT_SCAN_JOB, payload: { invocation_id: id } });
    if (this.#judged && judgesAllowed && escalatesToJudges(p.decision, p.mode))
      this.jobs.push({ kind: JUDGE_JOB, payload: judgeJobPayload(id, p.decision) });
  }

  rogue(id: number, index: number, e: RogueRecord, salt: Uint8Array, now: Date) {
    this.empty = false;
    const values = [
      id,
      e.event_type,
      e.agent_key,
      e.actor_agent_key ?? null,
      e.tool ?? null,
      e.user_id ?? null,
      e.severity ?? null,
      e.source ?? null,
      e.invocation_id ?? null,
      index,
      now.toISOString(),
      salt,
    ];
    values.forEach((v, i) => this.#rogue[i]!.push(v));
  }

  approval(
    approvalId: string,
    invocationId: number,
    p: PreparedInvocation,
    now: Date,
    expiresAt: string,
    index: number,
    holdMs: number,
  ) {
    const values = [
      approvalId,
      invocationId,
      p.agentKey,
      p.toolName ?? null,
      p.recordedBy ?? null,
      now.toISOString(),
      expiresAt,
      index,
    ];
    values.forEach((v, i) => this.#approvals[i]!.push(v));
    // Expiry is a deny that must happen with nobody watching: a job due when the hold runs out.
    this.jobs.push({ kind: APPROVAL_EXPIRY_JOB, payload: { approval_id: approvalId }, delayMs: holdMs });
  }

  /** The workspace's last id of a kind, when this set took any. */
  ids(kind: string, before: number, last: number) {
    if (last === before) return;
    this.#ids[0].push(kind);
    this.#ids[1].push(last);
  }

  key(claim: IdempotencyClaim, response: StoredResponse, now: Date) {
    this.#keys[0]!.push(claim.key);
    this.#keys[1]!.push(claim.fingerprint);
    this.#keys[2]!.push(JSON.stringify(response));
    this.#keys[3]!.push(now.toISOString());
  }

  /**
   * Every row as data-modifying CTEs of one statement (see RideAlong), only
   * the tables this set writes: an INSERT of no rows still costs its
   * execution, and on rogue_events and invocations a statement-level trigger
   * runs for it all the same (rogue_events' ran in every transaction of
   * invocations alone).
   */
  statement(): RideAlong {
    const parts = [
      this.#usage.size > 0
        ? [[...this.#usage.keys()], ...[0, 1, 2].map((i) => [...this.#usage.values()].map((u) => u[i]))]
        : undefined,
      this.#agents[0].length > 0 ? this.#agents : undefined,
      this.#inv[0]!.length > 0 ? this.#inv : undefined,
      this.#content[0]!.length > 0 ? this.#content : undefined,
      this.#rogue[0]!.length > 0 ? this.#rogue : undefined,
      this.#ids[0].length > 0 ? this.#ids : undefined,
      this.#keys[0]!.length > 0 ? this.#keys : undefined,
      this.#approvals[0]!.length > 0 ? this.#approvals : undefined,
    ];
    const params: unknown[] = [this.#tenant];
    let mask = 0;
    parts.forEach((columns, i) => {
      if (columns === undefined) return;
      mask |= 1 << i;
      params.push(...columns);
    });
    return { ctes: rowsCtes(mask), params };
  }
}

/**
 * Rows' CTEs, in the order of its parts: `$1` is the workspace, `$_` each
 * part's columns in turn (numbered by rowsCtes).
 */
const ROWS_CTES = [
  `usage AS (
     INSERT INTO usage_daily (tenant_id, day, invocations, first_invocation_id, last_invocation_id)
     SELECT $1, u.day, u.n, u.first_id, u.last_id FROM unnest($_::date[], $_::int[], $_::bigint[], $_::bigint[])
       AS u(day, n, first_id, last_id)
     ON CONFLICT (tenant_id, day) DO UPDATE SET invocations = usage_daily.invocations + EXCLUDED.invocations,
       first_invocation_id = least(usage_daily.first_invocation_id, EXCLUDED.first_invocation_id),
       last_invocation_id = greatest(usage_daily.last_invocation_id, EXCLUDED.last_invocation_id)
   )`,
  `agent AS (
     INSERT INTO agents (tenant_id, agent_key, first_seen_at)
     SELECT $1, a.k, a.t FROM unnest($_::text[], $_::timestamptz[]) AS a(k, t)
     ON CONFLICT (tenant_id, agent_key) DO NOTHING
   )`,
  `inv AS (
     INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind,
       principal_id, parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count,
       log_index, created_at, review_status, meta_salt, occurred_at, recorded_by_token)
     SELECT $1, i.id, i.agent_key, i.mode, i.outcome, i.duration_ms, i.principal_kind, i.principal_id,
       i.parent_invocation_id, i.correlation_id, i.tool_name, i.verdict, i.reasons::jsonb, i.policy_version,
       i.pii_count, i.log_index, i.created_at, i.review_status, i.meta_salt, i.occurred_at, i.recorded_by_token
     FROM unnest($_::bigint[], $_::text[], $_::text[], $_::text[], $_::bigint[], $_::text[], $_::text[],
       $_::bigint[], $_::text[], $_::text[], $_::text[], $_::text[], $_::int[], $_::int[], $_::bigint[],
       $_::timestamptz[], $_::text[], $_::bytea[], $_::timestamptz[], $_::uuid[])
       AS i(id, agent_key, mode, outcome, duration_ms, principal_kind, principal_id, parent_invocation_id,
         correlation_id, tool_name, verdict, reasons, policy_version, pii_count, log_index, created_at, review_status, meta_salt,
         occurred_at, recorded_by_token)
   )`,
  `content AS (
     INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, sealed, sealed_key, created_at)
     SELECT $1, c.id, c.field, c.body, c.salt, c.findings::jsonb, c.sealed, c.sealed_key, c.created_at
     FROM unnest($_::bigint[], $_::text[], $_::text[], $_::bytea[], $_::text[], $_::bytea[], $_::bytea[], $_::timestamptz[])
       AS c(id, field, body, salt, findings, sealed, sealed_key, created_at)
   )`,
  `rogue AS (
     INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id,
       severity, source, invocation_id, log_index, created_at, meta_salt)
     SELECT $1, r.id, r.event_type, r.agent_key, r.actor_agent_key, r.tool, r.user_id, r.severity, r.source,
       r.invocation_id, r.log_index, r.created_at, r.meta_salt
     FROM unnest($_::bigint[], $_::text[], $_::text[], $_::text[], $_::text[], $_::text[],
       $_::text[], $_::text[], $_::bigint[], $_::bigint[], $_::timestamptz[], $_::bytea[])
       AS r(id, event_type, agent_key, actor_agent_key, tool, user_id, severity, source, invocation_id, log_index, created_at, meta_salt)
   )`,
  `ids AS (
     INSERT INTO event_ids (tenant_id, kind, last_id)
     SELECT $1, n.kind, n.last_id FROM unnest($_::text[], $_::bigint[]) AS n(kind, last_id)
     ON CONFLICT (tenant_id, kind) DO UPDATE SET last_id = EXCLUDED.last_id
   )`,
  `idem AS (
     INSERT INTO idempotency_keys (tenant_id, key, fingerprint, response, created_at)
     SELECT $1, k.key, decode(k.fp, 'hex'), k.response::jsonb, k.at
     FROM unnest($_::text[], $_::text[], $_::text[], $_::timestamptz[]) AS k(key, fp, response, at)
     -- An expired key is a row of an older day (the lookup ignored it); its successor is a row of its own.
     ON CONFLICT (tenant_id, key, created_at) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, response = EXCLUDED.response,
       created_at = EXCLUDED.created_at
   )`,
  `approval AS (
     INSERT INTO approvals (tenant_id, approval_id, invocation_id, agent_key, tool_name, status, requested_by_token,
       created_at, expires_at, log_index)
     SELECT $1, a.id, a.invocation_id, a.agent_key, a.tool_name, 'pending', a.token, a.created_at, a.expires_at, a.log_index
     FROM unnest($_::uuid[], $_::bigint[], $_::text[], $_::text[], $_::uuid[], $_::timestamptz[], $_::timestamptz[],
       $_::bigint[]) AS a(id, invocation_id, agent_key, tool_name, token, created_at, expires_at, log_index)
   )`,
];

/** The CTEs of the parts in `mask` (bit i: ROWS_CTES[i]), numbered; made once per combination. */
const ctesByMask = new Map<number, string>();
function rowsCtes(mask: number): string {
  let ctes = ctesByMask.get(mask);
  if (ctes === undefined) {
    let n = 1;
    ctes = ROWS_CTES.filter((_, i) => mask & (1 << i))
      .join(', ')
      .replace(/\$_/g, () => `$${++n}`);
    ctesByMask.set(mask, ctes);
  }
  return ctes;
}

// In canonical order (metaCommitment then need not sort them).
const ROGUE_META = ['actor_agent_key', 'agent_key', 'event_type', 'severity', 'source', 'tool', 'user_id'] as const;

/** A rogue event's leaf (format v2): pseudonyms of its type and agent, a commitment to the rest. */
function rogueLeaf(e: RogueRecord, salt: Uint8Array): { kind: string } {
  const leaf: Record<string, unknown> = {
    v: LEAF_VERSION,
    kind: 'rogue',
    type: e.pseudonyms.type,
    agent: e.pseudonyms.agent,
    meta: metaCommitment(salt, Object.fromEntries(ROGUE_META.map((k) => [k, e[k]]))),
  };
  if (e.invocation_id !== undefined) leaf.invocation_id = e.invocation_id;
  return leaf as { kind: string };
}

/** Findings by type, as stored: what a report totals, so a verifier can recount them from the leaves. */
export function countByType(findings: readonly { type: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of findings) out[f.type] = (out[f.type] ?? 0) + 1;
  return out;
}

function storedFindingCounts(content: PreparedInvocation['content']): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const c of content) if (c.findings && c.findings.length > 0) out[c.field] = countByType(c.findings);
  return out;
}

/** flag_for_review puts an invocation in the review queue; shadow-mode verdicts never count. */
export function needsReview(verdict: string, mode: string): boolean {
  return verdict === 'flag_for_review' && mode !== 'shadow';
}

/**
 * The invocation's leaf (format v2): what a verifier counts by — kind, mode,
 * verdict, the agent's pseudonym, finding counts, time — and commitments to
 * everything else. No value a client sent is in it: the metadata (principal,
 * outcome, tool, correlation id, ...) as stored is committed to with a salt of
 * its own (`meta`), the texts as before (`content`).
 */
function invocationLeaf(id: number, p: PreparedInvocation) {
  const leaf: Record<string, unknown> = {
    v: LEAF_VERSION,
    kind: 'invocation',
    invocation_id: id,
    agent: p.agentPseudonym,
    mode: p.mode,
    verdict: p.decision.verdict,
    reasons: p.decision.reasons,
    policy_version: p.policyVersion,
    content: Object.fromEntries(p.content.map((c) => [c.field, c.commitment])),
    findings: storedFindingCounts(p.content),
    meta: p.metaCommitment ?? metaCommitmentOf(p),
  };
  if (p.principalKind !== undefined) leaf.principal_kind = p.principalKind;
  if (p.piiCount !== undefined) leaf.pii_count = p.piiCount;
  return leaf as { kind: string };
}

/** The commitment an invocation's leaf holds to its metadata as stored. */
export function metaCommitmentOf(p: PreparedInvocation): string {
  return metaCommitment(p.metaSalt, invocationMeta(p));
}

/**
 * The metadata an invocation leaf commits to: the row's values as stored
 * (occurred_at only for an event that named its own time, an OTLP span's start).
 * parent_invocation_id is a link the service may resolve later (an OTLP child
 * recorded before its parent), so it is in neither the leaf nor its commitment.
 */
export function invocationMeta(p: PreparedInvocation): Record<string, unknown> {
  // In canonical order (metaCommitment then need not sort them).
  return {
    agent_key: p.agentKey,
    correlation_id: p.correlationId,
    duration_ms: p.durationMs,
    occurred_at: p.occurredAt,
    outcome: p.outcome,
    principal_id: p.principalId,
    tool_name: p.toolName,
  };
}

/** A rogue event as stored: free-form fields already redacted, pseudonyms of its agent and type taken. */
export interface RogueRecord extends Omit<RogueInput, 'tenant_id'> {
  invocation_id?: number;
  pseudonyms: { agent: string; type: string };
}
