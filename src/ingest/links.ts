import type { Queryable } from '../db/index.ts';
import { invocationTimeOnceSql } from './invocation-time.ts';

/**
 * Sets the parent of invocations recorded before their parent was known (an
 * OTLP child span arrives before its parent). A link once set is never moved:
 * only invocations without a parent are updated. Runs inside the caller's
 * append transaction; the leaf of the child stays as written.
 */
export async function linkParents(
  tx: Queryable,
  tenantId: string,
  links: ReadonlyArray<{ child: number; parent: number }>,
): Promise<void> {
  if (links.length === 0) return;
  // The links drive the join (LATERAL, fenced with OFFSET 0 so the planner
  // cannot flatten it: one primary-key lookup each), so the
  // cost follows the links, not the workspace: with a fast-growing table's
  // stale statistics the planner otherwise scanned the workspace's
  // invocations once per link (2 s for 340 links among 28,000 invocations).
  // The days' bounds are computed once for the statement: as plain calls
  // they ran again for every link, each reading every link's id (12-14 s
  // for 2,000 links, 0.2-0.4 s once).
  await tx.query(
    `UPDATE invocations i SET parent_invocation_id = t.parent
     FROM (SELECT c.ctid AS row, c.tableoid AS part, l.parent FROM unnest($2::bigint[], $3::bigint[]) AS l(child, parent)
           CROSS JOIN LATERAL (SELECT ctid, tableoid FROM invocations WHERE tenant_id = $1 AND invocation_id = l.child
             AND ${invocationTimeOnceSql('', '$1', '$2::bigint[]')} AND parent_invocation_id IS NULL OFFSET 0) c
           WHERE l.child <> l.parent) t
     WHERE i.ctid = t.row AND i.tableoid = t.part AND i.tenant_id = $1
       AND ${invocationTimeOnceSql('i', '$1', '$2::bigint[]')}`,
    [tenantId, links.map((l) => l.child), links.map((l) => l.parent)],
  );
}
