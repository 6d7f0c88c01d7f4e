import { LEAF_VERSION, type LogEntry } from '../ledger/index.ts';
import { APPROVAL_REQUESTED } from './approvals.ts';
import { metaCommitment } from './metadata.ts';
import type { PreparedInvocation } from './prepare.ts';
import type { RogueRecord } from './set-items.ts';

// The log entries a set of events appends: what a verifier counts by, and commitments to everything else.

/**
 * The invocation's leaf (format v2): what a verifier counts by — kind, mode,
 * verdict, the agent's pseudonym, finding counts, time — and commitments to
 * everything else. No value a client sent is in it: the metadata (principal,
 * outcome, tool, correlation id, ...) as stored is committed to with a salt of
 * its own (`meta`), the texts as before (`content`).
 */
export function invocationLeaf(id: number, p: PreparedInvocation): LogEntry {
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
  return leaf as LogEntry;
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

// In canonical order (metaCommitment then need not sort them).
const ROGUE_META = ['actor_agent_key', 'agent_key', 'event_type', 'severity', 'source', 'tool', 'user_id'] as const;

/** A rogue event's leaf (format v2): pseudonyms of its type and agent, a commitment to the rest. */
export function rogueLeaf(e: RogueRecord, salt: Uint8Array): LogEntry {
  const leaf: Record<string, unknown> = {
    v: LEAF_VERSION,
    kind: 'rogue',
    type: e.pseudonyms.type,
    agent: e.pseudonyms.agent,
    meta: metaCommitment(salt, Object.fromEntries(ROGUE_META.map((k) => [k, e[k]]))),
  };
  if (e.invocation_id !== undefined) leaf.invocation_id = e.invocation_id;
  return leaf as LogEntry;
}

/** The entry of an approval a hold rule asks for, committed with its invocation. */
export function approvalLeaf(approvalId: string, invocationId: number, expiresAt: string): LogEntry {
  return {
    v: LEAF_VERSION,
    kind: APPROVAL_REQUESTED,
    approval_id: approvalId,
    invocation_id: invocationId,
    expires_at: expiresAt,
  };
}

/** The entry of an agent's first invocation in the workspace. */
export function agentRegisteredLeaf(agentPseudonym: string): LogEntry {
  return { v: LEAF_VERSION, kind: 'agent_registered', agent: agentPseudonym };
}

/**
 * The entry a quota leaves when an invocation uses up the last of it: the
 * invocations of a UTC day (`period`: the day) or the agents a workspace may
 * register. Once per period and quota: what goes over it is refused and
 * appends nothing.
 */
export function quotaReachedLeaf(quota: 'invocations_per_day' | 'agents', limit: number, period?: string): LogEntry {
  return { v: LEAF_VERSION, kind: 'quota_reached', quota, limit, ...(period === undefined ? {} : { period }) };
}
