import type { Queryable } from '../db/index.ts';
import { INVOCATION_COLUMNS, invocationSummary, type InvocationRow } from './invocation-queries.ts';
import { type RogueRow, rogueView } from './rogue-queries.ts';
import { microsOf } from './cursor.ts';
import { invocationTimeSql } from '../ingest/index.ts';

// What the read side shows of invocations and rogue events, for the events
// that leave the service (destinations): the same views every role sees in
// the API (invocationSummary, rogueView), so an event never carries more than
// a viewer reads — never content, never a value the read side redacts.

/** The summaries of these invocations, by id (ids not found are absent). */
export async function invocationViews(
  tx: Queryable,
  tenantId: string,
  ids: readonly number[],
): Promise<Map<number, ReturnType<typeof invocationSummary>>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.query<InvocationRow & Record<string, unknown>>(
    `SELECT ${INVOCATION_COLUMNS} FROM ingest_read.invocations i WHERE i.tenant_id = $1 AND i.invocation_id = ANY($2::bigint[])
       AND ${invocationTimeSql('i', '$1', '$2::bigint[]')}`,
    [tenantId, ids],
  );
  return new Map(rows.map((r) => [Number(r.invocation_id), invocationSummary(r)]));
}

/**
 * The views of the rogue events recorded at these log indexes, by index. A
 * rogue leaf names no event id, so they are found by log index among the
 * events created in [from, to] (the leaves' times), which the index on
 * (tenant_id, created_at) bounds.
 */
export async function rogueViewsAt(
  tx: Queryable,
  tenantId: string,
  logIndexes: readonly number[],
  from: string,
  to: string,
): Promise<Map<number, ReturnType<typeof rogueView>>> {
  if (logIndexes.length === 0) return new Map();
  const rows = await tx.query<RogueRow & Record<string, unknown>>(
    `SELECT rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id, severity, source, invocation_id,
       log_index, created_at, ${microsOf('created_at')} AS created_us
     FROM ingest_read.rogue_events
     WHERE tenant_id = $1 AND created_at >= $2::timestamptz - interval '1 second' AND created_at <= $3::timestamptz + interval '1 second'
       AND log_index = ANY($4::bigint[])`,
    [tenantId, from, to, logIndexes],
  );
  return new Map(rows.map((r) => [Number(r.log_index), rogueView(r)]));
}
