import type { Queryable } from '../db/index.ts';
import { INVOCATION_COLUMNS, invocationSummary, type InvocationRow } from './invocation-queries.ts';
import { type RogueRow, rogueView } from './rogue-queries.ts';
import { microsOf } from './cursor.ts';
import { invocationTimeSql } from '../ingest/index.ts';

// What the read side shows of invocations and rogue events, for the events
// that leave the service (destinations): the same views every role sees in
// the API (invocationSummary, rogueView), so an event never carries more than
// a viewer reads — never content, never a value the read side redacts.

/**
 * An invocation an event shows: its id and, when the event is the
 * invocation's own audit-trail entry, the entry's time — the time the row
 * was recorded with (created_at, the partition key).
 */
export interface InvocationRef {
  id: number;
  recordedAt?: string;
}

/**
 * The summaries of these invocations, by id (ids not found are absent).
 *
 * Those whose time is known are read by it: the rows recorded between the
 * earliest and the latest of those times, a window that holds about as many
 * rows as there are entries (a workspace's entries follow its clock), in the
 * months it spans — whichever index the planner takes, and it takes its
 * cached generic plan from a partition that has no statistics yet (a month
 * just begun) as readily as from one that has. Read by id with the days'
 * bounds alone, such a plan scanned the whole day's rows through the
 * (tenant_id, created_at) index, comparing each with every id asked for
 * (seconds a chunk: delivery fell minutes behind). The others (an id named
 * by a review, a scan or an approval; or a time that matched no row) are
 * read by id.
 */
export async function invocationViews(
  tx: Queryable,
  tenantId: string,
  refs: readonly InvocationRef[],
): Promise<Map<number, ReturnType<typeof invocationSummary>>> {
  const out = new Map<number, ReturnType<typeof invocationSummary>>();
  const timed = refs.filter((r) => r.recordedAt !== undefined);
  if (timed.length > 0) {
    const times = timed.map((r) => Date.parse(r.recordedAt!));
    const rows = await tx.query<InvocationRow & Record<string, unknown>>(
      `SELECT ${INVOCATION_COLUMNS} FROM unnest($4::bigint[]) AS k(id)
       JOIN ingest_read.invocations i ON i.tenant_id = $1 AND i.invocation_id = k.id
       WHERE i.created_at >= $2::timestamptz AND i.created_at <= $3::timestamptz`,
      [
        tenantId,
        new Date(Math.min(...times)).toISOString(),
        new Date(Math.max(...times)).toISOString(),
        [...new Set(timed.map((r) => r.id))],
      ],
    );
    for (const r of rows) out.set(Number(r.invocation_id), invocationSummary(r));
  }
  const byId = [...new Set(refs.filter((r) => !out.has(r.id)).map((r) => r.id))];
  if (byId.length > 0) {
    const rows = await tx.query<InvocationRow & Record<string, unknown>>(
      `SELECT ${INVOCATION_COLUMNS} FROM ingest_read.invocations i WHERE i.tenant_id = $1 AND i.invocation_id = ANY($2::bigint[])
         AND ${invocationTimeSql('i', '$1', '$2::bigint[]')}`,
      [tenantId, byId],
    );
    for (const r of rows) out.set(Number(r.invocation_id), invocationSummary(r));
  }
  return out;
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
