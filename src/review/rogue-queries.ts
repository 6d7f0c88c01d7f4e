import type { Queryable } from '../db/index.ts';
import { evidenceIdOf } from '../ledger/index.ts';
import { isoMicros, microsOf, type TimeKey, Where } from './cursor.ts';

// Rogue events of a workspace, newest first, keyset paging on
// (created_at, rogue_event_id): rogue_events_created without a filter or with
// since/until, rogue_events_agent and rogue_events_type with one (ingest
// 0201, each partitioned by month with the table).

export interface RogueFilters {
  agent_key?: string | undefined;
  event_type?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

export interface RogueRow {
  rogue_event_id: number;
  event_type: string;
  agent_key: string;
  actor_agent_key: string | null;
  tool: string | null;
  user_id: string | null;
  severity: string | null;
  source: string | null;
  invocation_id: number | null;
  log_index: number;
  created_at: Date;
  created_us: number;
}

export function rogueListQuery(tenantId: string, f: RogueFilters, after: TimeKey | null, limit: number) {
  const w = new Where().add('tenant_id = ?', tenantId);
  if (f.agent_key !== undefined) w.add('agent_key = ?', f.agent_key);
  if (f.event_type !== undefined) w.add('event_type = ?', f.event_type);
  if (f.since !== undefined) w.add('created_at >= ?::timestamptz', f.since);
  if (f.until !== undefined) w.add('created_at < ?::timestamptz', f.until);
  if (after) {
    // The plain bound repeats the row comparison's so that the pages after the first read only the months up to
    // the cursor (rogue events are partitioned by month; a row comparison prunes no partition).
    w.add('created_at <= ?::timestamptz', isoMicros(after.us));
    w.add('(created_at, rogue_event_id) < (?::timestamptz, ?::bigint)', isoMicros(after.us), after.id);
  }
  const lim = w.param(limit + 1);
  const sql = `SELECT rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id, severity, source, invocation_id,
  log_index, created_at, ${microsOf('created_at')} AS created_us
FROM ingest_read.rogue_events
WHERE ${w.sql()}
ORDER BY created_at DESC, rogue_event_id DESC
LIMIT ${lim}`;
  return { sql, params: w.params };
}

export async function listRogueEvents(
  tx: Queryable,
  tenantId: string,
  f: RogueFilters,
  after: TimeKey | null,
  limit: number,
) {
  const q = rogueListQuery(tenantId, f, after, limit);
  return tx.query<RogueRow & Record<string, unknown>>(q.sql, q.params);
}

export function rogueView(r: RogueRow) {
  return {
    rogue_event_id: r.rogue_event_id,
    event_type: r.event_type,
    agent_key: r.agent_key,
    actor_agent_key: r.actor_agent_key,
    tool: r.tool,
    user_id: r.user_id,
    severity: r.severity,
    source: r.source,
    invocation_id: r.invocation_id,
    evidence_id: evidenceIdOf(r.log_index),
    created_at: r.created_at,
  };
}
