import type { PlanCaps } from '../config/config.ts';
import type { Queryable } from '../db/db.ts';
import { enqueue } from '../jobs/jobs.ts';
import type { OpenAppend } from '../ledger/append.ts';
import { evidenceIdOf } from '../ledger/evidence.ts';
import { LEAF_VERSION, newSalt } from '../ledger/leaf.ts';
import { metaCommitment } from './metadata.ts';
import type { PreparedInvocation, RogueInput } from './prepare.ts';

/** The kind of the background job that scans an invocation's tool_output. */
export const OUTPUT_SCAN_JOB = 'tool_output_scan';

// The work done inside the grouped append transaction, for one event. A job
// that must refuse (a cap) decides before it writes anything, and returns the
// refusal instead of throwing, so the other events of the batch still commit.

export type Refusal = { refused: 'plan_limit' } | { refused: 'quota_exceeded' };

export interface InvocationRecorded {
  invocation_id: number;
  evidence_id: number;
}

/** Agents this process has seen registered: agents are never deleted, so the check can be skipped. */
export class KnownAgents {
  readonly #set = new Set<string>();
  has(tenantId: string, agentKey: string): boolean {
    return this.#set.has(`${tenantId}\u0000${agentKey}`);
  }
  add(tenantId: string, agentKey: string): void {
    if (this.#set.size >= 200_000) this.#set.clear();
    this.#set.add(`${tenantId}\u0000${agentKey}`);
  }
}

export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export async function recordInvocation(
  tx: Queryable,
  log: OpenAppend,
  p: PreparedInvocation,
  caps: PlanCaps,
  known: KnownAgents,
  now: Date,
): Promise<InvocationRecorded | Refusal> {
  const tenant = p.tenantId;
  // 1. Is this a new agent, and does the plan allow one more?
  let isNew = false;
  if (!known.has(tenant, p.agentKey)) {
    const [row] = await tx.query<{ known: boolean; agents: number }>(
      `SELECT EXISTS (SELECT 1 FROM agents WHERE tenant_id = $1 AND agent_key = $2) AS known,
              (SELECT count(*)::int FROM agents WHERE tenant_id = $1) AS agents`,
      [tenant, p.agentKey],
    );
    // The cache learns an agent only after the commit (event-routes): an agent
    // seen here may have been registered by an earlier job of this very batch,
    // and a batch that rolls back must not leave it "known" but unstored.
    if (!row!.known) {
      if (row!.agents >= caps.agents) return { refused: 'plan_limit' };
      isNew = true;
    }
  }
  // 2. One statement: count it against today's cap (the conditional upsert
  // refuses at the cap, and then nothing below it writes), register a new
  // agent, take the workspace's next invocation id, insert the invocation with
  // its content. One round trip per event while the log head is locked (two
  // with a tool_output: its scan is enqueued).
  if (caps.invocations_per_day <= 0) return { refused: 'quota_exceeded' };
  const agentIndex = isNew ? log.nextIndex : -1;
  const index = log.nextIndex + (isNew ? 1 : 0);
  const [row] = await tx.query<{ id: number }>(
    `WITH used AS (
       INSERT INTO usage_daily (tenant_id, day, invocations) VALUES ($1, $22, 1)
       ON CONFLICT (tenant_id, day) DO UPDATE SET invocations = usage_daily.invocations + 1
         WHERE usage_daily.invocations < $23
       RETURNING 1
     ), agent AS (
       INSERT INTO agents (tenant_id, agent_key, first_seen_at) SELECT $1, $2, $16 FROM used WHERE $24::boolean
     ), next_id AS (
       INSERT INTO event_ids (tenant_id, kind, last_id) SELECT $1, 'invocation', 1 FROM used
       ON CONFLICT (tenant_id, kind) DO UPDATE SET last_id = event_ids.last_id + 1
       RETURNING last_id
     ), inv AS (
       INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind,
         principal_id, parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count,
         log_index, created_at, review_status, meta_salt)
       SELECT $1, next_id.last_id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $20, $25
       FROM next_id
       RETURNING invocation_id
     ), content AS (
       INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, sealed, sealed_key)
       SELECT $1, inv.invocation_id, c.field, c.body, decode(c.salt, 'hex'), c.findings::jsonb, decode(c.sealed, 'hex'), decode(c.sealed_key, 'hex')
       FROM inv, unnest($17::text[], $18::text[], $19::text[], $21::text[], $26::text[], $27::text[])
         AS c(field, body, salt, findings, sealed, sealed_key)
     )
     SELECT invocation_id AS id FROM inv`,
    [
      tenant,
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
      now,
      p.content.map((c) => c.field),
      p.content.map((c) => c.body),
      p.content.map((c) => Buffer.from(c.salt).toString('hex')),
      needsReview(p.decision.verdict, p.mode) ? 'pending' : null,
      p.content.map((c) => (c.findings === null ? null : JSON.stringify(c.findings))),
      utcDay(now),
      caps.invocations_per_day,
      isNew,
      Buffer.from(p.metaSalt),
      p.content.map((c) => c.sealed?.sealed.toString('hex') ?? null),
      p.content.map((c) => c.sealed?.wrappedKey.toString('hex') ?? null),
    ],
  );
  if (!row) return { refused: 'quota_exceeded' };
  const id = row.id;
  // tool_output is scanned in the background (DESIGN §4): its job commits with the invocation.
  if (p.content.some((c) => c.findings === null)) await enqueue(tx, tenant, OUTPUT_SCAN_JOB, [{ invocation_id: id }]);
  // 3. The leaves, at the positions the rows already name.
  if (isNew && log.add({ v: LEAF_VERSION, kind: 'agent_registered', agent: p.agentPseudonym }, now) !== agentIndex) {
    throw new Error('log index moved during an append');
  }
  if (log.add(invocationLeaf(id, p), now) !== index) throw new Error('log index moved during an append');
  // 4. A tool outside the agent's scope is also a rogue event of its own.
  if (p.outOfScope) await insertRogue(tx, log, tenant, { ...p.outOfScope, invocation_id: id }, now);
  return { invocation_id: id, evidence_id: evidenceIdOf(index) };
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
    meta: metaCommitment(p.metaSalt, invocationMeta(p)),
  };
  if (p.principalKind !== undefined) leaf.principal_kind = p.principalKind;
  if (p.piiCount !== undefined) leaf.pii_count = p.piiCount;
  return leaf as { kind: string };
}

/**
 * The metadata an invocation leaf commits to: the row's values as stored.
 * parent_invocation_id is a link the service may resolve later (an OTLP child
 * recorded before its parent), so it is in neither the leaf nor its commitment.
 */
export function invocationMeta(p: PreparedInvocation): Record<string, unknown> {
  return {
    agent_key: p.agentKey,
    principal_id: p.principalId,
    outcome: p.outcome,
    correlation_id: p.correlationId,
    tool_name: p.toolName,
    duration_ms: p.durationMs,
  };
}

/** A rogue event as stored: free-form fields already redacted, pseudonyms of its agent and type taken. */
export interface RogueRecord extends Omit<RogueInput, 'tenant_id'> {
  invocation_id?: number;
  pseudonyms: { agent: string; type: string };
}

const ROGUE_META = ['agent_key', 'event_type', 'actor_agent_key', 'tool', 'user_id', 'severity', 'source'] as const;

export async function insertRogue(tx: Queryable, log: OpenAppend, tenantId: string, e: RogueRecord, now: Date): Promise<number> {
  const salt = newSalt();
  const leaf: Record<string, unknown> = {
    v: LEAF_VERSION,
    kind: 'rogue',
    type: e.pseudonyms.type,
    agent: e.pseudonyms.agent,
    meta: metaCommitment(salt, Object.fromEntries(ROGUE_META.map((k) => [k, e[k]]))),
  };
  if (e.invocation_id !== undefined) leaf.invocation_id = e.invocation_id;
  const index = log.add(leaf as { kind: string }, now);
  const [row] = await tx.query<{ id: number }>(
    `WITH next_id AS (
       INSERT INTO event_ids (tenant_id, kind, last_id) VALUES ($1, 'rogue_event', 1)
       ON CONFLICT (tenant_id, kind) DO UPDATE SET last_id = event_ids.last_id + 1
       RETURNING last_id
     )
     INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id,
       severity, source, invocation_id, log_index, created_at, meta_salt)
     SELECT $1, last_id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM next_id
     RETURNING rogue_event_id AS id`,
    [
      tenantId,
      e.event_type,
      e.agent_key,
      e.actor_agent_key ?? null,
      e.tool ?? null,
      e.user_id ?? null,
      e.severity ?? null,
      e.source ?? null,
      e.invocation_id ?? null,
      index,
      now,
      Buffer.from(salt),
    ],
  );
  if (!row) throw new Error('rogue event not stored');
  return index;
}
