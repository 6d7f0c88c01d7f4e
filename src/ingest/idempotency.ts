import type { Queryable } from '../db/db.ts';
import { IDEMPOTENCY_TTL_MS } from './record.ts';

/** Deletes idempotency keys past their 24 hours (and an hour of slack for clocks), across workspaces. */
export async function sweepIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1', [
    new Date(now.getTime() - IDEMPOTENCY_TTL_MS - 3600_000).toISOString(),
  ]);
  return rows.length;
}
