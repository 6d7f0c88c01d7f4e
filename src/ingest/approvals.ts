import type { Queryable } from '../db/index.ts';
import { enqueueLater } from '../jobs/index.ts';
import { commitment, evidenceIdOf, LEAF_VERSION, newSalt, type OpenAppend } from '../ledger/index.ts';
import { lockReviewStatus, setReviewStatus } from './review-status.ts';

// Approvals: an invocation a policy rule holds for a person ("hold": true, enforced mode). The
// row and its approval_requested leaf are written with the invocation (record.ts); it is decided
// once — approved or denied by an admin or operator, or expired by the clock (a deny) — with an
// approval_decided or approval_expired leaf, and the invocation's review queue item is resolved
// with it. Every decision is announced on APPROVALS_CHANNEL (NOTIFY), which the long polls of
// every node wait on without holding a connection.

/** The leaf kinds of an approval's life: destinations map them to approval.requested / approval.decided. */
export const APPROVAL_REQUESTED = 'approval_requested';
export const APPROVAL_DECIDED = 'approval_decided';
export const APPROVAL_EXPIRED = 'approval_expired';

/** The job that expires an approval when its hold runs out (run_after = expires_at). */
export const APPROVAL_EXPIRY_JOB = 'approval_expiry';

/** The NOTIFY channel of decided approvals; the payload is `<tenant_id>:<approval_id>`. */
export const APPROVALS_CHANNEL = 'agent_ledger_approvals';

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface ApprovalRow {
  approval_id: string;
  invocation_id: number;
  agent_key: string;
  tool_name: string | null;
  status: ApprovalStatus;
  requested_by_token: string | null;
  created_at: Date;
  expires_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  /** Stored redacted; null when none was given or it was erased. */
  note: string | null;
  /** When retention or an erasure deleted the note; null while it is kept. */
  note_erased_at: Date | null;
  log_index: number;
  decision_log_index: number | null;
}

const COLUMNS = `approval_id, invocation_id, agent_key, tool_name, status, requested_by_token, created_at, expires_at,
  decided_by, decided_at, note, note_erased_at, log_index, decision_log_index`;

/** An approval as the API shows it; the note only to callers that may read stored content. */
export function approvalView(r: ApprovalRow, withNote: boolean) {
  return {
    approval_id: r.approval_id,
    invocation_id: Number(r.invocation_id),
    agent_key: r.agent_key,
    tool_name: r.tool_name,
    status: r.status,
    created_at: r.created_at,
    expires_at: r.expires_at,
    evidence_id: evidenceIdOf(Number(r.log_index)),
    ...(r.decided_at !== null
      ? {
          decided_by: r.decided_by,
          decided_at: r.decided_at,
          decision_evidence_id: evidenceIdOf(Number(r.decision_log_index)),
        }
      : {}),
    ...(withNote && r.note !== null ? { note: r.note } : {}),
    ...(r.note_erased_at !== null ? { note_erased: true as const } : {}),
  };
}

export async function approvalOf(tx: Queryable, tenantId: string, approvalId: string): Promise<ApprovalRow | null> {
  const [row] = await tx.query<ApprovalRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM approvals WHERE tenant_id = $1 AND approval_id = $2`,
    [tenantId, approvalId],
  );
  return row ?? null;
}

/**
 * One page of a workspace's approvals of a status, newest invocation first
 * (keyset on invocation_id); `token`: only those this token recorded.
 */
export async function listApprovals(
  tx: Queryable,
  tenantId: string,
  q: { status: ApprovalStatus; before: number | null; limit: number; token: string | null },
): Promise<ApprovalRow[]> {
  return tx.query<ApprovalRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM approvals
     WHERE tenant_id = $1 AND status = $2 AND ($3::bigint IS NULL OR invocation_id < $3::bigint)
       AND ($4::uuid IS NULL OR requested_by_token = $4::uuid)
     ORDER BY invocation_id DESC LIMIT $5`,
    [tenantId, q.status, q.before, q.token, q.limit + 1],
  );
}

async function lockApproval(tx: Queryable, tenantId: string, approvalId: string): Promise<ApprovalRow | null> {
  const [row] = await tx.query<ApprovalRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM approvals WHERE tenant_id = $1 AND approval_id = $2 FOR UPDATE`,
    [tenantId, approvalId],
  );
  return row ?? null;
}

async function announce(tx: Queryable, tenantId: string, approvalId: string): Promise<void> {
  // Delivered when the transaction commits, to every node listening (PGlite: in process).
  await tx.query('SELECT pg_notify($1, $2)', [APPROVALS_CHANNEL, `${tenantId}:${approvalId}`]);
}

/**
 * Resolves the invocation's review queue item with a person's decision (the
 * review module's resolveAsReviewer: its reviews row and `review` leaf);
 * false when the item was no longer pending.
 */
export type ResolveReview = (
  tx: Queryable,
  log: OpenAppend,
  input: {
    tenantId: string;
    invocationId: number;
    decision: 'approve' | 'reject';
    note: string;
    by: string;
    now: Date;
  },
) => Promise<boolean>;

/** Expires a locked pending approval: its leaf, its row, its review item (rejected), its announcement. */
async function expireLocked(
  tx: Queryable,
  log: OpenAppend,
  tenantId: string,
  row: ApprovalRow,
  now: Date,
): Promise<ApprovalRow> {
  const index = log.add(
    {
      v: LEAF_VERSION,
      kind: APPROVAL_EXPIRED,
      approval_id: row.approval_id,
      invocation_id: Number(row.invocation_id),
    },
    now,
  );
  await tx.query(
    `UPDATE approvals SET status = 'expired', decided_at = $3, decision_log_index = $4
     WHERE tenant_id = $1 AND approval_id = $2`,
    [tenantId, row.approval_id, now, index],
  );
  // Expiry is a deny: the review item goes with it, by nobody (no reviews row, no account).
  if ((await lockReviewStatus(tx, tenantId, Number(row.invocation_id))) === 'pending')
    await setReviewStatus(tx, tenantId, Number(row.invocation_id), 'rejected');
  await announce(tx, tenantId, row.approval_id);
  return { ...row, status: 'expired', decided_at: now, decision_log_index: index };
}

export type ApprovalDecision = 'approve' | 'deny';

export type DecideApprovalResult =
  | { ok: true; approval: ApprovalRow }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'decided'; approval: ApprovalRow };

/**
 * A person's decision, inside the log writer's transaction: locks the
 * approval (after the log head, like every writer of these rows), refuses one
 * already decided or expired — a pending one past its time is expired here
 * first, so "after expiry" never depends on when the expiry job ran — and
 * otherwise stores the decision and its leaf, resolves the review item and
 * announces it. Refusals are returned, not thrown: the grouped transaction's
 * other jobs (and an expiry made here) still commit.
 */
export async function decideApproval(
  tx: Queryable,
  log: OpenAppend,
  input: { tenantId: string; approvalId: string; decision: ApprovalDecision; note: string; by: string; now: Date },
  resolveReview: ResolveReview | undefined,
): Promise<DecideApprovalResult> {
  const { tenantId, approvalId, decision, note, by, now } = input;
  const row = await lockApproval(tx, tenantId, approvalId);
  if (!row) return { ok: false, reason: 'not_found' };
  if (row.status === 'pending' && row.expires_at.getTime() <= now.getTime())
    return { ok: false, reason: 'decided', approval: await expireLocked(tx, log, tenantId, row, now) };
  if (row.status !== 'pending') return { ok: false, reason: 'decided', approval: row };
  const salt = newSalt();
  const status = decision === 'approve' ? 'approved' : 'denied';
  const index = log.add(
    {
      v: LEAF_VERSION,
      kind: APPROVAL_DECIDED,
      approval_id: approvalId,
      invocation_id: Number(row.invocation_id),
      decision,
      note: commitment(salt, note),
      by_account_id: by,
    },
    now,
  );
  await tx.query(
    `UPDATE approvals SET status = $3, decided_by = $4, decided_at = $5, note = $6, note_salt = $7, decision_log_index = $8
     WHERE tenant_id = $1 AND approval_id = $2`,
    [tenantId, approvalId, status, by, now, note, Buffer.from(salt), index],
  );
  await resolveReview?.(tx, log, {
    tenantId,
    invocationId: Number(row.invocation_id),
    decision: decision === 'approve' ? 'approve' : 'reject',
    note,
    by,
    now,
  });
  await announce(tx, tenantId, approvalId);
  return {
    ok: true,
    approval: { ...row, status, decided_by: by, decided_at: now, note, decision_log_index: index },
  };
}

/**
 * Expires the approval if it is still pending and its time has come (the
 * expiry job, and a long poll that outlived it). One not yet due by the
 * service's clock (the job ran by the database's, a little ahead) gets a job
 * again for the time left.
 */
export async function expireIfDue(
  tx: Queryable,
  log: OpenAppend,
  tenantId: string,
  approvalId: string,
  now: Date,
): Promise<ApprovalRow | null> {
  const row = await lockApproval(tx, tenantId, approvalId);
  if (!row || row.status !== 'pending') return row;
  const left = row.expires_at.getTime() - now.getTime();
  if (left > 0) {
    await enqueueLater(tx, tenantId, APPROVAL_EXPIRY_JOB, { approval_id: row.approval_id }, left);
    return row;
  }
  return expireLocked(tx, log, tenantId, row, now);
}
