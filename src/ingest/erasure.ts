import type { Queryable } from '../db/index.ts';

/** Which invocations: every given condition must hold. `from`/`to` bound created_at, [from, to). */
export interface ContentSelector {
  principalId?: string;
  agentKey?: string;
  from?: Date;
  to?: Date;
}

/**
 * The erasure selector (ingest_read.selected_invocations, migration 0130) as
 * SQL: the invocations a ContentSelector names, with the workspace as $1 and
 * the selector as $2-$5 (selectorParams). Every module that deletes content
 * written from an invocation selects through it, so an erasure reaches the
 * same invocations everywhere:
 *
 *   `… AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})`
 */
export const SELECTED_INVOCATIONS = 'ingest_read.selected_invocations($1, $2, $3, $4, $5)';

/** The parameters $1-$5 of SELECTED_INVOCATIONS; a caller's own parameters follow from $6. */
export function selectorParams(
  tenantId: string,
  sel: ContentSelector,
): [string, string | null, string | null, string | null, string | null] {
  return [
    tenantId,
    sel.principalId ?? null,
    sel.agentKey ?? null,
    sel.from?.toISOString() ?? null,
    sel.to?.toISOString() ?? null,
  ];
}

/** Erases at most `limit` fields; returns how many, and the invocations they belong to. */
export async function eraseInvocationContent(
  tx: Queryable,
  tenantId: string,
  sel: ContentSelector,
  now: Date,
  limit = 10_000,
): Promise<{ fields: number; invocationIds: number[] }> {
  const rows = await tx.query<{ invocation_id: string }>(
    `UPDATE invocation_content c
     SET body = NULL, salt = NULL, sealed = NULL, sealed_key = NULL, erased_at = $7,
         findings = (SELECT COALESCE(jsonb_agg(jsonb_build_object('type', f->>'type')), '[]'::jsonb)
                     FROM jsonb_array_elements(COALESCE(c.findings, '[]'::jsonb)) AS f)
     WHERE c.tenant_id = $1 AND (c.invocation_id, c.field) IN (
       SELECT x.invocation_id, x.field FROM invocation_content x
       WHERE x.tenant_id = $1 AND x.erased_at IS NULL
         AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
       LIMIT $6)
     RETURNING c.invocation_id`,
    [...selectorParams(tenantId, sel), limit, now.toISOString()],
  );
  return { fields: rows.length, invocationIds: [...new Set(rows.map((r) => Number(r.invocation_id)))] };
}

/**
 * For an erasure (not retention): forgets the salts of the selected
 * invocations' metadata commitments (leaf format v2, `meta`), so no one can
 * confirm a guess of who acted from the log. Returns how many rows had one.
 */
export async function forgetMetadataSalts(tx: Queryable, tenantId: string, sel: ContentSelector): Promise<number> {
  const rows = await tx.query(
    `UPDATE invocations i SET meta_salt = NULL
     WHERE i.tenant_id = $1 AND i.meta_salt IS NOT NULL
       AND i.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
     RETURNING 1`,
    selectorParams(tenantId, sel),
  );
  return rows.length;
}

/**
 * Deletes the notes of the selected invocations' decided approvals and their
 * salts (what a person wrote about a held call may name the customer it
 * concerns); the decision, who made it and when stay, and the approval_decided
 * leaf's commitment can no longer be opened. `decidedBefore`: retention, by
 * the decision's time. Returns how many approvals had a note.
 */
export async function eraseApprovalNotes(
  tx: Queryable,
  tenantId: string,
  sel: ContentSelector & { decidedBefore?: Date },
  now: Date,
  limit = 10_000,
): Promise<number> {
  const rows = await tx.query(
    `UPDATE approvals a SET note = NULL, note_salt = NULL, note_erased_at = $8
     WHERE a.tenant_id = $1 AND a.approval_id IN (
       SELECT x.approval_id FROM approvals x
       WHERE x.tenant_id = $1 AND x.note_erased_at IS NULL AND (x.note IS NOT NULL OR x.note_salt IS NOT NULL)
         AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
         AND ($6::timestamptz IS NULL OR x.decided_at < $6)
       LIMIT $7)
     RETURNING 1`,
    [...selectorParams(tenantId, sel), sel.decidedBefore?.toISOString() ?? null, limit, now.toISOString()],
  );
  return rows.length;
}
