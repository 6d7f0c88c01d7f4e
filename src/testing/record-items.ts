import type { PlanCaps } from '../config/config.ts';
import type { PreparedInvocation } from '../ingest/prepare.ts';
import type { RecordItem } from '../ingest/set-items.ts';
import { newSalt } from '../ledger/leaf.ts';
import { DEFAULT_POLICY } from '../policy/default-policy.ts';
import { decide } from '../policy/engine.ts';

/**
 * The i-th metadata-only invocation of a test of the ingest set (record.ts),
 * decided as the pipeline would: agent `agent-{i % agents}`, tool crm.lookup,
 * change epoch 0.
 */
export function metaItem(tenantId: string, i: number, now: Date, caps: PlanCaps, agents = 4): RecordItem {
  const agentKey = `agent-${i % agents}`;
  const prepared: PreparedInvocation = {
    tenantId,
    agentKey,
    agentPseudonym: `sha256:${agentKey}`,
    metaSalt: newSalt(),
    outOfScope: undefined,
    mode: 'observed',
    outcome: 'success',
    durationMs: i,
    principalKind: undefined,
    principalId: agentKey,
    parentInvocationId: undefined,
    correlationId: `c-${i}`,
    toolName: 'crm.lookup',
    content: [],
    findings: [],
    piiCount: undefined,
    decision: decide(DEFAULT_POLICY, {
      agent_key: agentKey,
      tool_name: 'crm.lookup',
      mode: 'observed',
      outcome: 'success',
      principal_id: agentKey,
      findings: [],
      tool_in_scope: undefined,
    }),
    policyVersion: 0,
    toolInScope: undefined,
  };
  return { now, caps, epoch: 0, kind: 'invocation', prepared };
}

/** Items 0 … n-1 (metaItem). */
export function metaItems(tenantId: string, n: number, now: Date, caps: PlanCaps, agents = 4): RecordItem[] {
  return Array.from({ length: n }, (_, i) => metaItem(tenantId, i, now, caps, agents));
}
