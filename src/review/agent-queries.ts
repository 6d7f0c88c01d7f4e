import type { Queryable } from '../db/index.ts';
import type { RiskInputs } from './risk.ts';

// Agents as the read side sees them: registered by their first invocation
// (ingest_read.agents) or named by a rogue event. Their counts come from the
// per-agent counters ingest's triggers keep (ingest_read.agent_activity,
// agent_rogue_activity), never from scanning an agent's history.

export interface AgentTotals extends RiskInputs {
  agent_key: string;
  first_seen_at: Date | null;
  last_seen_at: Date | null;
  invocations: number;
}

// Sums over one agent's counter rows (correlated on `k.agent_key`).
const TOTALS = `
  LEFT JOIN ingest_read.agents a ON a.tenant_id = $1 AND a.agent_key = k.agent_key
  LEFT JOIN LATERAL (
    SELECT coalesce(sum(invocations), 0)::bigint AS invocations,
           coalesce(sum(invocations) FILTER (WHERE verdict = 'deny' AND mode <> 'shadow'), 0)::bigint AS denies,
           coalesce(sum(invocations) FILTER (WHERE verdict = 'flag_for_review' AND mode <> 'shadow'), 0)::bigint AS flags,
           coalesce(sum(pii_findings), 0)::bigint AS pii_findings,
           coalesce(sum(invocations - pii_invocations) FILTER (WHERE verdict = 'allow'), 0)::bigint AS clean_invocations,
           min(first_at) AS first_at, max(last_at) AS last_at
    FROM ingest_read.agent_activity WHERE tenant_id = $1 AND agent_key = k.agent_key) act ON true
  LEFT JOIN LATERAL (
    SELECT coalesce(sum(events), 0)::bigint AS rogue_events, min(first_at) AS first_at, max(last_at) AS last_at
    FROM ingest_read.agent_rogue_activity WHERE tenant_id = $1 AND agent_key = k.agent_key) rog ON true`;

const TOTAL_COLUMNS = `k.agent_key,
  least(a.first_seen_at, act.first_at, rog.first_at) AS first_seen_at,
  greatest(act.last_at, rog.last_at) AS last_seen_at,
  act.invocations, act.denies, act.flags, act.pii_findings, act.clean_invocations, rog.rogue_events`;

/** A page of agents in agent_key order (keyset: agent_key > after). */
export function agentListQuery(tenantId: string, after: string | null, limit: number) {
  // Each source is cut at limit+1 before the union, so a page reads at most
  // 2·(limit+1) keys whatever the number of agents.
  const sql = `WITH k AS (
    SELECT agent_key FROM (
      (SELECT agent_key FROM ingest_read.agents WHERE tenant_id = $1 AND agent_key > $2 ORDER BY agent_key LIMIT $3)
      UNION
      (SELECT DISTINCT agent_key FROM ingest_read.agent_rogue_activity WHERE tenant_id = $1 AND agent_key > $2 ORDER BY agent_key LIMIT $3)
    ) u ORDER BY agent_key LIMIT $3
  )
  SELECT ${TOTAL_COLUMNS} FROM k ${TOTALS}
  ORDER BY k.agent_key`;
  return { sql, params: [tenantId, after ?? '', limit + 1] };
}

export async function listAgents(
  tx: Queryable,
  tenantId: string,
  after: string | null,
  limit: number,
): Promise<AgentTotals[]> {
  const q = agentListQuery(tenantId, after, limit);
  return tx.query<AgentTotals & Record<string, unknown>>(q.sql, q.params);
}

export interface AgentDetail {
  totals: AgentTotals;
  activity: Array<{ verdict: string; mode: string; outcome: string; invocations: number }>;
  rogue: Array<{ event_type: string; events: number }>;
}

export function agentTotalsQuery(tenantId: string, agentKey: string) {
  return {
    sql: `SELECT ${TOTAL_COLUMNS} FROM (SELECT $2::text AS agent_key) k ${TOTALS}`,
    params: [tenantId, agentKey],
  };
}

/** One agent's counters; null when the workspace never saw it (no invocation, no rogue event). */
export async function agentDetail(tx: Queryable, tenantId: string, agentKey: string): Promise<AgentDetail | null> {
  const q = agentTotalsQuery(tenantId, agentKey);
  const [totals] = await tx.query<AgentTotals & Record<string, unknown>>(q.sql, q.params);
  if (!totals || totals.first_seen_at === null) return null;
  const activity = await tx.query<{ verdict: string; mode: string; outcome: string; invocations: number }>(
    'SELECT verdict, mode, outcome, invocations FROM ingest_read.agent_activity WHERE tenant_id = $1 AND agent_key = $2 AND invocations > 0',
    [tenantId, agentKey],
  );
  const rogue = await tx.query<{ event_type: string; events: number }>(
    'SELECT event_type, events FROM ingest_read.agent_rogue_activity WHERE tenant_id = $1 AND agent_key = $2 AND events > 0 ORDER BY event_type',
    [tenantId, agentKey],
  );
  return { totals, activity, rogue };
}
