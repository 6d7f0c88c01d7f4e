import type { Queryable } from '../db/index.ts';
import { type ContentSelector, SELECTED_INVOCATIONS, selectorParams } from '../ingest/index.ts';

/**
 * Erases the notes of reviews of the selected invocations (`from`/`to` bound
 * the invocation's time), or — with `decidedBefore` — of reviews decided
 * before then (retention). Returns how many notes it erased.
 */
export async function eraseReviewNotes(
  tx: Queryable,
  tenantId: string,
  sel: ContentSelector & { decidedBefore?: Date },
  now: Date,
  limit = 10_000,
): Promise<number> {
  const rows = await tx.query(
    `UPDATE reviews r SET note = NULL, note_salt = NULL, note_erased_at = $8
     WHERE r.tenant_id = $1 AND r.invocation_id IN (
       SELECT x.invocation_id FROM reviews x
       WHERE x.tenant_id = $1 AND x.note_erased_at IS NULL
         AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
         AND ($6::timestamptz IS NULL OR x.decided_at < $6)
       LIMIT $7)
     RETURNING 1`,
    [...selectorParams(tenantId, sel), sel.decidedBefore?.toISOString() ?? null, limit, now.toISOString()],
  );
  return rows.length;
}
