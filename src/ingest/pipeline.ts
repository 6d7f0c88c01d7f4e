import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { PlanCaps } from '../config/index.ts';
import { badRequest, HttpProblem, rateLimited, unprocessable } from '../core/index.ts';
import { canonicalJson, ItemFailed, newSalt } from '../ledger/index.ts';
import { redactMeta } from './metadata.ts';
import { decide, globMatch, type PolicyDocument } from '../policy/index.ts';
import { secondsToUtcMidnight } from '../accounts/index.ts';
import type { AgentScope, TenantState } from './gate.ts';
import type { IngestDeps } from './deps.ts';
import type { Authorized } from './event-authorizer.ts';
import {
  scanContent,
  scanContentWith,
  unstorableFields,
  type InvocationInput,
  type PreparedInvocation,
  type RogueInput,
} from './prepare.ts';
import { metaCommitmentOf } from './leaves.ts';
import type { IdempotencyClaim, RecordItem, RecordOutcome, RogueRecord } from './set-items.ts';
import { InvocationBody, RogueBody } from './schemas.ts';

// One path for every event, whichever endpoint (or OTLP) it came by:
// validate and scan each event once, then — with the workspace's cached
// state — decide and record all of them through one set-based write, and
// decide again with fresh reads whatever the write found stale.

export type EventKind = 'invocation' | 'rogue';

export interface EventInput {
  kind: EventKind;
  /** The body the single endpoint of that kind takes. */
  event: unknown;
  /** The request's Idempotency-Key, or a batch item's event_id. */
  key?: string | undefined;
  /**
   * When an invocation happened, for a caller that knows it better than the
   * receipt (an OTLP span's start time, bounded by that caller to
   * [workspace created, receipt]): its occurred_at, committed in its leaf's
   * `meta`. Its created_at and leaf time stay when it is recorded.
   */
  occurredAt?: Date | undefined;
  /** `source` of the oos_tool rogue event an out-of-scope tool also records (default agent-ledger). */
  oosSource?: string | undefined;
}

/**
 * What the single endpoint would have answered for the event; recordedAt, when
 * it was recorded (its created_at; a replay's, the first answer's: the key is
 * written with the event, at its time).
 */
export type EventResult =
  | { status: 201; body: Record<string, unknown>; replayed: boolean; recordedAt: Date }
  | { status: number; problem: HttpProblem };

/** How many times a request is decided again when what it read changed meanwhile. */
const MAX_ATTEMPTS = 5;

/** Stored or signed body fields: the documented ones but tenant_id (unknown fields are ignored). */
const storedFields = (schema: { properties: object }) =>
  Object.keys(schema.properties).filter((k) => k !== 'tenant_id');
const FIELDS: Record<EventKind, string[]> = {
  invocation: storedFields(InvocationBody),
  rogue: storedFields(RogueBody),
};

/** Checks an event against its endpoint's body schema; throws its problem (event-routes.ts provides it). */
export type EventValidator = (kind: EventKind, event: unknown) => void;

type Checked =
  | { kind: 'invocation'; body: InvocationInput; key?: IdempotencyClaim | undefined }
  | { kind: 'rogue'; body: RogueInput; key?: IdempotencyClaim | undefined };

type Scanned =
  | {
      kind: 'invocation';
      body: InvocationInput;
      scanned: ReturnType<typeof scanContent>;
      key?: IdempotencyClaim | undefined;
    }
  | { kind: 'rogue'; event: RogueRecord; key?: IdempotencyClaim | undefined };

/**
 * The checks of the single endpoint that need no database: schema (when
 * `validated` is false), storable text, rogue rules. Throws the event's problem.
 */
export function checkEvent(input: EventInput, validate: EventValidator | undefined): Checked {
  const { kind } = input;
  validate?.(kind, input.event);
  const body = input.event as Record<string, unknown>;
  const bad = unstorableFields(body, FIELDS[kind]);
  if (bad.length > 0) {
    throw unprocessable(
      'Text fields must be valid Unicode without NUL characters.',
      bad.map((f) => ({ field: `/${f}`, message: 'must be valid Unicode text without U+0000' })),
    );
  }
  const key = input.key === undefined ? undefined : { key: input.key, fingerprint: fingerprint(kind, body) };
  if (kind === 'rogue') {
    const r = body as RogueInput;
    if (r.event_type === 'oos_tool' && (r.tool === undefined || r.tool === ''))
      throw badRequest('An oos_tool event must name the tool.');
    return { kind, body: r, key };
  }
  return { kind, body: body as InvocationInput, key };
}

/**
 * What needs the workspace but not its cached state: the scan (long texts on
 * the detector workers, when there are any), sealing, redacted metadata and
 * pseudonyms.
 */
async function scanEvent(deps: IngestDeps, tenantId: string, c: Checked): Promise<Scanned> {
  if (c.kind === 'rogue') {
    // Only the documented fields: an unknown one (say invocation_id, which only
    // the service itself sets) must not reach the row or the leaf. Identifiers
    // as sent, free-form fields redacted, pseudonyms of its agent and type taken.
    const { agent_key, actor_agent_key, user_id } = c.body;
    const event_type = redactMeta(deps.redact, c.body.event_type);
    const [agent, type] = await Promise.all([
      deps.pseudonym(tenantId, 'agent', agent_key),
      deps.pseudonym(tenantId, 'rogue_event_type', event_type),
    ]);
    const event: RogueRecord = {
      event_type,
      agent_key,
      actor_agent_key,
      tool: redactMeta(deps.redact, c.body.tool),
      user_id,
      severity: redactMeta(deps.redact, c.body.severity),
      source: redactMeta(deps.redact, c.body.source),
      pseudonyms: { agent, type },
    };
    return { kind: 'rogue', event, key: c.key };
  }
  const inv = c.body;
  const sealing = { kek: deps.outputKek, tenantId };
  // A metadata-only event (or one with only a tool_output, scanned later) asks nothing of the scheduler.
  const scanned =
    inv.prompt === undefined && inv.response === undefined && inv.context === undefined && inv.tool_input === undefined
      ? scanContent(inv, deps.scan, sealing)
      : await scanContentWith(inv, (fields) => deps.scanner.scan(tenantId, fields), sealing);
  return { kind: 'invocation', body: inv, scanned, key: c.key };
}

/** SHA-256 of the event's kind and its canonical JSON (RFC 8785): the same event, however it is spelled. */
export function fingerprint(kind: EventKind, body: unknown): string {
  // canonicalJson writes the canonicalize package's text (a property test holds them equal) in less time
  // (a metadata body 0.97 → 0.62 µs, a content body 2.3 → 1.9); a body it declines (a lone surrogate,
  // nesting past 256) keeps the package's text: every fingerprint stays what it was.
  return hash('sha256', `${kind}\n${canonicalJson(body) ?? canonicalize(body) ?? ''}`, 'hex');
}

/**
 * Records events for the workspace `authorize` names. Each slot of the result
 * is what the single endpoint would have answered; items stored are stored
 * whatever happens to the others. Throws only what `authorize` throws.
 */
export async function recordEvents(
  shared: IngestDeps,
  authorize: (fresh: boolean) => Promise<Authorized>,
  inputs: readonly EventInput[],
  opts: { validate?: EventValidator } = {},
): Promise<EventResult[]> {
  const deps = withPseudonymMemo(shared);
  const results: Array<EventResult | undefined> = new Array(inputs.length);
  const valid = inputs.map((input, i) => {
    try {
      return checkEvent(input, opts.validate);
    } catch (err) {
      results[i] = failure(err);
      return undefined;
    }
  });
  let checked: Array<Scanned | undefined> = [];
  let pending = valid.flatMap((c, i) => (c ? [i] : []));
  for (let attempt = 0; pending.length > 0; attempt++) {
    const auth = await authorize(attempt > 0);
    if (attempt === 0) {
      checked = await scanAll(deps, auth.tenantId, valid, results);
      pending = pending.filter((i) => checked[i] !== undefined);
      if (pending.length === 0) break;
    }
    if (attempt >= MAX_ATTEMPTS) {
      for (const i of pending)
        results[i] = failure(new Error('the workspace kept changing while the event was decided'));
      break;
    }
    const { tenantId, state } = auth;
    const now = deps.ctx.now();
    const items: RecordItem[] = [];
    const looked = new Lookups(deps, state);
    for (const i of pending) {
      const c = checked[i]!;
      // Only what this request has not looked up yet is awaited (awaits an event were 1.7 µs of toItem its own in a profile of batches of 100).
      if (c.kind === 'invocation' && !looked.has(c.body)) await looked.load(c.body);
      items.push(toItem(deps, state, auth.caps, c, now, inputs[i]!, auth.tokenId, looked));
    }
    let release: () => void;
    try {
      release = await deps.inFlight.claim(
        tenantId,
        items.flatMap((it) => (it.idem ? [it.idem.key] : [])),
      );
    } catch (err) {
      for (const i of pending) results[i] = failure(err);
      break;
    }
    let outcomes: Array<RecordOutcome | ItemFailed>;
    try {
      outcomes = await deps.writer.submitSet(tenantId, deps.recordSet, items);
    } finally {
      release();
    }
    const stale: number[] = [];
    const counted = new StoredCounts();
    outcomes.forEach((o, j) => {
      const i = pending[j]!;
      if ('stale' in o) {
        stale.push(i);
        return;
      }
      const result = outcome(o, auth.caps, now);
      results[i] = result;
      if ('body' in result && !result.replayed) afterStored(deps, tenantId, items[j]!, result.body, counted);
    });
    counted.report(deps);
    if (stale.length > 0) await deps.gate.invalidateIfAt(tenantId, state.epoch);
    pending = stale;
  }
  return results as EventResult[];
}

/** Each checked event scanned for the workspace's detectors; one that fails has its failure as its slot's answer. */
function scanAll(
  deps: IngestDeps,
  tenantId: string,
  valid: ReadonlyArray<ReturnType<typeof checkEvent> | undefined>,
  results: Array<EventResult | undefined>,
): Promise<Array<Scanned | undefined>> {
  return Promise.all(
    valid.map(async (c, i) => {
      if (!c) return undefined;
      try {
        return await scanEvent(deps, tenantId, c);
      } catch (err) {
        results[i] = failure(err);
        return undefined;
      }
    }),
  );
}

/**
 * One lookup per pseudonym a request needs, however many of its events name it
 * (500 events of one agent must not race 500 first-use inserts for its salt).
 */
function withPseudonymMemo(shared: IngestDeps): IngestDeps {
  const pseudonyms = new Map<string, Promise<string>>();
  return {
    ...shared,
    pseudonym(tenantId, kind, value) {
      const k = `${tenantId}\u0000${kind}\u0000${value}`;
      let p = pseudonyms.get(k);
      if (!p) pseudonyms.set(k, (p = shared.pseudonym(tenantId, kind, value)));
      return p;
    },
  };
}

/**
 * What deciding a request's invocations reads of the workspace's cached state,
 * looked up once a request (once an agent: its pseudonym and scope) and then
 * read without awaiting, event after event.
 */
class Lookups {
  readonly #deps: IngestDeps;
  readonly #st: TenantState;
  policy: { version: number; document: PolicyDocument } | undefined;
  readonly #agents = new Map<string, { pseudonym: string; scope: AgentScope }>();
  /** The pseudonym of the rogue event type oos_tool, once an event of the request is out of scope. */
  oosType: string | undefined;

  constructor(deps: IngestDeps, st: TenantState) {
    this.#deps = deps;
    this.#st = st;
  }

  /** Whether everything `body` needs is looked up. */
  has(body: InvocationInput): boolean {
    if (this.policy === undefined) return false;
    const agent = this.#agents.get(body.agent_key);
    return agent !== undefined && (this.oosType !== undefined || inScope(body.tool_name, agent.scope) !== false);
  }

  /** Looks up what `body` needs, in the order a single event always did: policy, agent's pseudonym, scope, oos_tool's pseudonym. */
  async load(body: InvocationInput): Promise<void> {
    const { tenantId } = this.#st;
    this.policy ??= await this.#deps.gate.policy(this.#st);
    let agent = this.#agents.get(body.agent_key);
    if (!agent) {
      const pseudonym = await this.#deps.pseudonym(tenantId, 'agent', body.agent_key);
      agent = { pseudonym, scope: await this.#deps.gate.scope(this.#st, body.agent_key) };
      this.#agents.set(body.agent_key, agent);
    }
    if (this.oosType === undefined && inScope(body.tool_name, agent.scope) === false)
      this.oosType = await this.#deps.pseudonym(tenantId, 'rogue_event_type', 'oos_tool');
  }

  agent(agentKey: string): { pseudonym: string; scope: AgentScope } {
    return this.#agents.get(agentKey)!;
  }
}

/** Whether the tool is in the agent's scope and its persona's allowed tools (the policy module's rule); undefined when neither limits it. */
function inScope(tool: string | undefined, { tools, persona }: AgentScope): boolean | undefined {
  if (tool === undefined || (tools === null && (persona?.allowed_tools ?? null) === null)) return undefined;
  const lists = [tools, persona?.allowed_tools ?? null].filter((l): l is string[] => l !== null);
  return lists.length === 0 ? undefined : lists.every((l) => l.some((g) => globMatch(g, tool)));
}

/** The item of an event whose lookups are done (Lookups.has). */
function toItem(
  deps: IngestDeps,
  st: TenantState,
  caps: PlanCaps,
  c: Scanned,
  now: Date,
  input: EventInput,
  tokenId: string | undefined,
  looked: Lookups,
): RecordItem {
  // Literals, not a shared base spread into each: one object an event, not two (a copy of each item's base was
  // where toItem's own time sat in a profile of batches).
  if (c.kind === 'rogue') return { now, caps, epoch: st.epoch, idem: c.key, kind: 'rogue', event: c.event };
  return {
    now,
    caps,
    epoch: st.epoch,
    idem: c.key,
    kind: 'invocation',
    // Never after it was recorded: occurred_at <= created_at holds for every row (the read side relies on it).
    prepared: decideInvocation(
      deps,
      st,
      c.body,
      c.scanned,
      input.oosSource ?? 'agent-ledger',
      input.occurredAt !== undefined && input.occurredAt > now ? now : input.occurredAt,
      tokenId,
      looked,
    ),
  };
}

function decideInvocation(
  deps: IngestDeps,
  st: TenantState,
  body: InvocationInput,
  scanned: ReturnType<typeof scanContent>,
  oosSource: string,
  occurredAt: Date | undefined,
  tokenId: string | undefined,
  looked: Lookups,
): PreparedInvocation {
  const { content, findings, piiCount } = scanned;
  const mode = body.mode ?? 'observed';
  const outcome = body.outcome ?? 'success';
  const principalId = body.principal_id ?? body.agent_key;
  const policy = looked.policy!;
  const { pseudonym: agentPseudonym, scope } = looked.agent(body.agent_key);
  const toolName = redactMeta(deps.redact, body.tool_name);
  // The agent's scope and its persona's allowed tools both limit it (policy module's rule).
  const toolInScope = inScope(body.tool_name, scope);
  const persona = scope.persona;
  const decision = decide(policy.document, {
    agent_key: body.agent_key,
    tool_name: body.tool_name,
    mode,
    outcome,
    principal_kind: body.principal_kind,
    principal_id: principalId,
    findings,
    tool_in_scope: toolInScope,
    persona,
  });
  const outOfScope: RogueRecord | undefined =
    toolInScope === false && toolName !== undefined
      ? {
          event_type: 'oos_tool',
          agent_key: body.agent_key,
          tool: toolName,
          source: oosSource,
          severity: mode === 'shadow' ? 'info' : 'high',
          pseudonyms: { agent: agentPseudonym, type: looked.oosType! },
        }
      : undefined;
  const prepared: PreparedInvocation = {
    tenantId: st.tenantId,
    agentKey: body.agent_key,
    agentPseudonym,
    mode,
    outcome: redactMeta(deps.redact, outcome),
    durationMs: body.duration_ms,
    principalKind: body.principal_kind,
    principalId,
    parentInvocationId: body.parent_invocation_id,
    correlationId: redactMeta(deps.redact, body.correlation_id),
    toolName,
    content,
    findings,
    piiCount,
    decision,
    policyVersion: policy.version,
    toolInScope,
    metaSalt: newSalt(),
    outOfScope,
    occurredAt: occurredAt?.toISOString(),
    recordedBy: tokenId,
  };
  prepared.metaCommitment = metaCommitmentOf(prepared);
  return prepared;
}

function outcome(o: Exclude<RecordOutcome, { stale: true }> | ItemFailed, caps: PlanCaps, now: Date): EventResult {
  if (o instanceof ItemFailed) return failure(o.cause);
  if ('status' in o) return o;
  switch (o.refused) {
    case 'plan_limit':
      return problem(new HttpProblem('plan_limit', `The plan allows ${caps.agents} agents; upgrade to register more.`));
    case 'quota_exceeded':
      return problem(
        rateLimited(
          secondsToUtcMidnight(now),
          'quota_exceeded',
          `The plan allows ${caps.invocations_per_day} invocations a day; the count resets at 00:00 UTC.`,
        ),
      );
    case 'idempotency_key_reused':
      return problem(
        new HttpProblem(
          'idempotency_key_reused',
          'This idempotency key was used for a different request; use a new key for a new event.',
        ),
      );
  }
}

function afterStored(
  deps: IngestDeps,
  tenantId: string,
  item: RecordItem,
  body: Record<string, unknown>,
  counted: StoredCounts,
): void {
  if (item.kind === 'rogue') {
    counted.rogue++;
    return;
  }
  deps.knownAgents.add(tenantId, item.prepared.agentKey);
  counted.invocation(item.prepared.decision.verdict);
  deps.afterInvocation?.(tenantId, body.invocation_id as number, item.prepared);
}

/** A request's events stored, by kind and verdict: the events counter moves once a verdict, not once an event. */
class StoredCounts {
  rogue = 0;
  readonly #verdicts = new Map<string, number>();
  invocation(verdict: string): void {
    this.#verdicts.set(verdict, (this.#verdicts.get(verdict) ?? 0) + 1);
  }
  report(deps: IngestDeps): void {
    const events = deps.ctx.metrics.events;
    if (this.rogue > 0) events.inc({ kind: 'rogue', verdict: 'n/a' }, this.rogue);
    for (const [verdict, n] of this.#verdicts) events.inc({ kind: 'invocation', verdict }, n);
  }
}

const problem = (p: HttpProblem): EventResult => ({ status: p.status, problem: p });

/** An HttpProblem keeps its status; anything else is a 500 with nothing recorded (logged by the caller). */
function failure(err: unknown): EventResult {
  if (err instanceof HttpProblem) return problem(err);
  return problem(
    new HttpProblem('internal_error', 'The event could not be stored; nothing of it was recorded.').withCause(err),
  );
}
