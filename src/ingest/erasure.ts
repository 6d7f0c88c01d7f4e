import type { Queryable } from '../db/index.ts';

/** Which invocations: every given condition must hold. `from`/`to` bound created_at, [from, to). */
export interface ContentSelector {
  principalId?: string;
  agentKey?: string;
  from?: Date;
  to?: Date;
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
       JOIN invocations i ON i.tenant_id = x.tenant_id AND i.invocation_id = x.invocation_id
       WHERE x.tenant_id = $1 AND x.erased_at IS NULL
         AND ($2::text IS NULL OR i.principal_id = $2)
         AND ($3::text IS NULL OR i.agent_key = $3)
         AND ($4::timestamptz IS NULL OR i.created_at >= $4)
         AND ($5::timestamptz IS NULL OR i.created_at < $5)
       LIMIT $6)
     RETURNING c.invocation_id`,
    [
      tenantId,
      sel.principalId ?? null,
      sel.agentKey ?? null,
      sel.from?.toISOString() ?? null,
      sel.to?.toISOString() ?? null,
      limit,
      now.toISOString(),
    ],
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
       AND ($2::text IS NULL OR i.principal_id = $2)
       AND ($3::text IS NULL OR i.agent_key = $3)
       AND ($4::timestamptz IS NULL OR i.created_at >= $4)
       AND ($5::timestamptz IS NULL OR i.created_at < $5)
     RETURNING 1`,
    [
      tenantId,
      sel.principalId ?? null,
      sel.agentKey ?? null,
      sel.from?.toISOString() ?? null,
      sel.to?.toISOString() ?? null,
    ],
  );
  return rows.length;
}
