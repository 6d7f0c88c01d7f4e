import type { Db, Queryable } from '../db/index.ts';

// The change epoch of a workspace (migrations/0070): what a node may keep in
// memory for a workspace is valid while the epoch it read before reading it
// is still the stored one.

export const CHANGES_CHANNEL = 'agent_ledger_changes';

/** The current change epoch of a workspace (0 before its first change). */
export async function readEpoch(db: Queryable, tenantId: string): Promise<number> {
  const [row] = await db.query<{ epoch: number }>('SELECT epoch FROM change_epochs WHERE tenant_id = $1', [tenantId]);
  return row?.epoch ?? 0;
}

/**
 * Calls onChange with the workspace id whenever a change is committed (on any
 * node, through PostgreSQL NOTIFY; in-process on PGlite), and with null when
 * changes may have been missed. Returns a stop function.
 * Best effort: the epoch read inside each write is what guarantees freshness.
 */
export async function listenForChanges(
  db: Db,
  onChange: (tenantId: string | null) => void,
): Promise<() => Promise<void>> {
  if (!db.listen) return async () => {};
  return db.listen(CHANGES_CHANNEL, onChange);
}

/**
 * The epoch as a scalar subquery, for a statement of another module that
 * wants the check without a round trip of its own; `param` is the
 * placeholder holding the workspace id (e.g. '$1').
 */
export function epochSql(param: string): string {
  return `coalesce((SELECT epoch FROM change_epochs WHERE tenant_id = ${param}::uuid), 0)`;
}
