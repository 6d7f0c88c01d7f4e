import type { Queryable } from '../db/index.ts';
import { commitment, evidenceIdOf, LEAF_VERSION, newSalt, type OpenAppend } from '../ledger/index.ts';
import { lockReviewStatus, setReviewStatus } from '../ingest/index.ts';
import type { TimeKey } from './cursor.ts';
import { type InvocationRow, invocationListQuery } from './invocation-queries.ts';

// The review queue: invocations with review_status 'pending' (flagged at write
// time or by the tool_output scan) until an admin or operator decides, and the
// decisions themselves (table reviews).

export type Decision = 'approve' | 'reject';

export interface ReviewRow {
  decision: Decision;
  /** null once erased (src/review/erasure.ts). */
  note: string | null;
  /** null when the judge panel decided (decided_by_panel). */
  decided_by: string | null;
  decided_by_panel: boolean;
  decided_at: Date;
  log_index: number;
}

export async function reviewOf(tx: Queryable, tenantId: string, invocationId: number): Promise<ReviewRow | null> {
  const [row] = await tx.query<ReviewRow & Record<string, unknown>>(
    'SELECT decision, note, decided_by, decided_by_panel, decided_at, log_index FROM reviews WHERE tenant_id = $1 AND invocation_id = $2',
    [tenantId, invocationId],
  );
  return row ?? null;
}

/** A decision as shown: the note only to roles that may read stored content. */
export function decisionView(r: ReviewRow, withNote: boolean) {
  return {
    decision: r.decision,
    ...(withNote ? { note: r.note, note_erased: r.note === null } : {}),
    decided_by: r.decided_by,
    decided_by_panel: r.decided_by_panel,
    decided_at: r.decided_at,
    evidence_id: evidenceIdOf(r.log_index),
  };
}

export type DecideResult =
  | { ok: true; review: ReviewRow; status: 'approved' | 'rejected' }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'not_pending'; status: string | null };

/**
 * Decides a pending invocation inside the log writer's transaction: locks the
 * invocation row (after the log head, the order the tool_output scan locks
 * in too, so the two never deadlock), stores the decision and the note, sets
 * the review status and appends a `review` leaf that commits to the note with
 * a salted hash. Refusals are returned, not thrown, so the other jobs of the
 * grouped transaction still commit.
 */
export async function decideReview(
  tx: Queryable,
  log: OpenAppend,
  input: { tenantId: string; invocationId: number; decision: Decision; note: string; by: string; now: Date },
): Promise<DecideResult> {
  return decide(tx, log, input);
}

/**
 * The judge panel resolves a pending review on its own (a unanimous panel,
 * with the workspace's auto_resolve on): the same decision, row and leaf as a
 * reviewer's, with `by_panel: true` in the leaf and no account. False when
 * the invocation is no longer pending (a human decided first).
 */
export async function resolveAsPanel(
  tx: Queryable,
  log: OpenAppend,
  input: { tenantId: string; invocationId: number; decision: Decision; note: string; now: Date },
): Promise<boolean> {
  return (await decide(tx, log, { ...input, by: null })).ok;
}

/**
 * A held invocation's approval was decided by a person (ingest's approvals):
 * its review queue item gets the same decision, note and account — a reviews
 * row and a `review` leaf like a reviewer's. False when it was no longer
 * pending (a reviewer decided the item first).
 */
export async function resolveAsReviewer(
  tx: Queryable,
  log: OpenAppend,
  input: { tenantId: string; invocationId: number; decision: Decision; note: string; by: string; now: Date },
): Promise<boolean> {
  return (await decide(tx, log, input)).ok;
}

async function decide(
  tx: Queryable,
  log: OpenAppend,
  input: { tenantId: string; invocationId: number; decision: Decision; note: string; by: string | null; now: Date },
): Promise<DecideResult> {
  const { tenantId, invocationId, decision, note, by, now } = input;
  const current = await lockReviewStatus(tx, tenantId, invocationId);
  if (current === undefined) return { ok: false, reason: 'not_found' };
  if (current !== 'pending') return { ok: false, reason: 'not_pending', status: current };
  const salt = newSalt();
  const status = decision === 'approve' ? 'approved' : 'rejected';
  const index = log.add(
    {
      v: LEAF_VERSION,
      kind: 'review',
      invocation_id: invocationId,
      decision,
      note: commitment(salt, note),
      ...(by === null ? { by_panel: true } : { by_account_id: by }),
    },
    now,
  );
  await tx.query(
    `INSERT INTO reviews (tenant_id, invocation_id, decision, note, note_salt, decided_by, decided_by_panel, decided_at, log_index)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [tenantId, invocationId, decision, note, Buffer.from(salt), by, by === null, now, index],
  );
  await setReviewStatus(tx, tenantId, invocationId, status);
  return {
    ok: true,
    status,
    review: { decision, note, decided_by: by, decided_by_panel: by === null, decided_at: now, log_index: index },
  };
}

export interface QueueRow extends InvocationRow {
  r_decision: Decision | null;
  r_note: string | null;
  r_decided_by: string | null;
  r_decided_by_panel: boolean | null;
  r_decided_at: Date | null;
  r_log_index: number | null;
}

/** The invocations of one review status, newest first, with their decision (index invocations_review). */
export function reviewListQuery(tenantId: string, status: string, after: TimeKey | null, limit: number) {
  return invocationListQuery(tenantId, { review_status: status }, after, limit, {
    columns:
      'r.decision AS r_decision, r.note AS r_note, r.decided_by AS r_decided_by, r.decided_by_panel AS r_decided_by_panel, r.decided_at AS r_decided_at, r.log_index AS r_log_index',
    join: 'LEFT JOIN reviews r ON r.tenant_id = i.tenant_id AND r.invocation_id = i.invocation_id',
  });
}

export async function listReviews(
  tx: Queryable,
  tenantId: string,
  status: string,
  after: TimeKey | null,
  limit: number,
) {
  const q = reviewListQuery(tenantId, status, after, limit);
  return tx.query<QueueRow & Record<string, unknown>>(q.sql, q.params);
}
