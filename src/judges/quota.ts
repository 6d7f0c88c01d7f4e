import type { PlanCaps } from '../config/index.ts';
import type { Db, Queryable } from '../db/index.ts';

// The plan's multi_judge_calls_per_month, counted exactly across nodes: one
// statement inserts or raises the workspace's counter for the month only while
// it is under the cap, under the counter row's lock (PostgreSQL serializes
// writers of one row, so two nodes racing at the cap cannot both pass it).

/** The first day of the calendar month (UTC) of a time, as a date. */
export function monthOf(now: Date): string {
  return `${now.toISOString().slice(0, 7)}-01`;
}

/** Seconds until the next calendar month (UTC) begins, when the count starts again. */
export function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

export async function callsUsed(tx: Queryable, tenantId: string, now: Date): Promise<number> {
  const [row] = await tx.query<{ used: number }>('SELECT used FROM judge_usage WHERE tenant_id = $1 AND month = $2', [
    tenantId,
    monthOf(now),
  ]);
  return row?.used ?? 0;
}

/** GET /me's multi_judge_calls_used_this_month; needs only the database, so accounts can be given it (see ingest/usage.ts). */
export function judgeCallsThisMonth(db: Db): (tenantId: string, now: Date) => Promise<number> {
  return (tenantId, now) => db.withTenant(tenantId, (tx) => callsUsed(tx, tenantId, now));
}

/** The month's cap of judge calls in the workspace's plan (0 for an unknown workspace), from the accounts' plan lookup. */
export function callsCapOf(
  workspacePlan: (tenantId: string) => Promise<{ caps: PlanCaps } | null>,
): (tenantId: string) => Promise<number> {
  return async (tenantId) => (await workspacePlan(tenantId))?.caps.multi_judge_calls_per_month ?? 0;
}

/** One call of an attempt: which judge, and its number among that judge's calls. */
export interface CallKey {
  invocationId: number;
  attempt: number;
  judge: string;
  n: number;
}

/**
 * Counts one call against the cap, in the caller's transaction. A call
 * already counted (the same attempt, judge and number: a retried job) is not
 * counted again and is allowed. False when the month's cap is reached.
 */
export async function reserveCall(
  tx: Queryable,
  tenantId: string,
  call: CallKey,
  cap: number,
  now: Date,
): Promise<boolean> {
  const month = monthOf(now);
  const [row] = await tx.query<{ fresh: boolean; counted: boolean }>(
    `WITH call AS (
       INSERT INTO judge_calls (tenant_id, invocation_id, attempt, judge, n, month) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING RETURNING 1
     ), bump AS (
       INSERT INTO judge_usage (tenant_id, month, used) SELECT $1, $6, 1 WHERE $7::int > 0 AND EXISTS (SELECT 1 FROM call)
       ON CONFLICT (tenant_id, month) DO UPDATE SET used = judge_usage.used + 1 WHERE judge_usage.used < $7::int
       RETURNING used
     )
     SELECT EXISTS (SELECT 1 FROM call) AS fresh, EXISTS (SELECT 1 FROM bump) AS counted`,
    [tenantId, call.invocationId, call.attempt, call.judge, call.n, month, cap],
  );
  if (!row!.fresh) return true;
  // Over the cap: the call row this statement inserted must not stay.
  if (!row!.counted) throw new QuotaExhausted();
  return true;
}

/** Thrown inside the reservation's transaction so its call row rolls back with it. */
export class QuotaExhausted extends Error {
  override name = 'QuotaExhausted';
}

/** reserveCall in a transaction of its own, committed before the call is made: false at the cap. */
export async function reserve(db: Db, tenantId: string, call: CallKey, cap: number, now: Date): Promise<boolean> {
  try {
    return await db.withTenant(tenantId, (tx) => reserveCall(tx, tenantId, call, cap, now));
  } catch (err) {
    if (err instanceof QuotaExhausted) return false;
    throw err;
  }
}
