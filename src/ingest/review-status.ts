import type { Queryable } from '../db/index.ts';
import { oneInvocationTimeSql } from './invocation-time.ts';

const BY_ID = `tenant_id = $1 AND invocation_id = $2 AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`;

// An invocation's place in the review queue is a column of ingest's table:
// ingest sets it to 'pending' when policy flags the invocation (at write time
// or after the tool_output scan); the review module reads it through
// ingest_read.invocations and decides it through these two functions.

export type ReviewStatus = 'pending' | 'approved' | 'rejected';

/**
 * Locks the invocation's row until the caller's transaction ends and returns
 * its review status: null when it was never flagged, undefined when there is
 * no such invocation.
 */
export async function lockReviewStatus(
  tx: Queryable,
  tenantId: string,
  invocationId: number,
): Promise<ReviewStatus | null | undefined> {
  const [row] = await tx.query<{ review_status: ReviewStatus | null }>(
    `SELECT review_status FROM invocations WHERE ${BY_ID} FOR UPDATE`,
    [tenantId, invocationId],
  );
  return row === undefined ? undefined : row.review_status;
}

/** Records the reviewer's decision on a flagged invocation (its row locked by lockReviewStatus). */
export async function setReviewStatus(
  tx: Queryable,
  tenantId: string,
  invocationId: number,
  status: Exclude<ReviewStatus, 'pending'>,
): Promise<void> {
  await tx.query(`UPDATE invocations SET review_status = $3 WHERE ${BY_ID}`, [tenantId, invocationId, status]);
}
