import type { Queryable } from '../db/db.ts';

/**
 * Sets the parent of invocations recorded before their parent was known (an
 * OTLP child span arrives before its parent). A link once set is never moved:
 * only invocations without a parent are updated. Runs inside the caller's
 * append transaction; the leaf of the child stays as written.
 */
export async function linkParents(tx: Queryable, tenantId: string, links: ReadonlyArray<{ child: number; parent: number }>): Promise<void> {
  if (links.length === 0) return;
  await tx.query(
    `UPDATE invocations i SET parent_invocation_id = l.parent
     FROM unnest($2::bigint[], $3::bigint[]) AS l(child, parent)
     WHERE i.tenant_id = $1 AND i.invocation_id = l.child AND i.parent_invocation_id IS NULL AND l.child <> l.parent`,
    [tenantId, links.map((l) => l.child), links.map((l) => l.parent)],
  );
}
