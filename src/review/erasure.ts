import type { Queryable } from '../db/index.ts';
import type { ContentSelector } from '../ingest/index.ts';

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
       JOIN ingest_read.invocations i ON i.tenant_id = x.tenant_id AND i.invocation_id = x.invocation_id
       WHERE x.tenant_id = $1 AND x.note_erased_at IS NULL
         AND ($2::text IS NULL OR i.principal_id = $2)
         AND ($3::text IS NULL OR i.agent_key = $3)
         AND ($4::timestamptz IS NULL OR i.created_at >= $4)
         AND ($5::timestamptz IS NULL OR i.created_at < $5)
         AND ($6::timestamptz IS NULL OR x.decided_at < $6)
       LIMIT $7)
     RETURNING 1`,
    [
      tenantId,
      sel.principalId ?? null,
      sel.agentKey ?? null,
      sel.from?.toISOString() ?? null,
      sel.to?.toISOString() ?? null,
      sel.decidedBefore?.toISOString() ?? null,
      limit,
      now.toISOString(),
    ],
  );
  return rows.length;
}
