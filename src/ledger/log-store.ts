import type { Queryable, Row, Statement } from '../db/index.ts';
import { emptyRoot, type NodeId, type StoredNode } from './merkle.ts';

// The SQL of the log tables. Every function takes the caller's transaction,
// which must be scoped to the tenant (row-level security).

export interface Head {
  size: number;
  root: Uint8Array;
}

/** Scopes the current transaction to a workspace, for RLS (idempotent within it). */
export async function scopeToTenant(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
}

/**
 * Locks the head of a workspace's log for the rest of the transaction,
 * creating an empty log on first use. Every append to the log, from any node,
 * goes through this row lock: that is what orders the log.
 */
export async function lockHead(tx: Queryable, tenantId: string): Promise<Head> {
  const { sql, params } = lockHeadStatement(tenantId);
  return headOf(await tx.query(sql, params));
}

const LOCK_HEAD_SQL = `INSERT INTO log_heads (tenant_id, size, root) VALUES ($1, 0, $2)
     ON CONFLICT (tenant_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id
     RETURNING size, root`;

/**
 * lockHead's statement, for Db.withTenant's opening statements (the head
 * locked in the round trip that opens the transaction).
 */
export function lockHeadStatement(tenantId: string): Statement {
  return { sql: LOCK_HEAD_SQL, params: [tenantId, Buffer.from(emptyRoot())] };
}

/**
 * A statement that raises (SQLSTATE AL001, migration 0124) unless the head is
 * `head`: sent behind the lock by a transaction decided on that head before
 * it held the lock, ahead of its write (Db's SendAhead).
 */
export function expectHeadStatement(tenantId: string, head: Head): Statement {
  return {
    sql: `SELECT log_expect(EXISTS (SELECT 1 FROM log_heads WHERE tenant_id = $1 AND size = $2 AND root = $3), 'the log head')`,
    params: [tenantId, head.size, Buffer.from(head.root)],
  };
}

/** The SQLSTATE of log_expect's error: what a transaction was decided on has moved. */
export const MOVED_SQLSTATE = 'AL001';

/** The head lockHeadStatement's row holds. */
export function headOf(rows: readonly Row[]): Head {
  const row = rows[0] as { size: number | string; root: Uint8Array } | undefined;
  if (!row) throw new Error('the head lock returned no row');
  return { size: Number(row.size), root: new Uint8Array(row.root) };
}

export async function readHead(db: Queryable, tenantId: string): Promise<Head> {
  const [row] = await db.query<{ size: number; root: Uint8Array }>(
    'SELECT size, root FROM log_heads WHERE tenant_id = $1',
    [tenantId],
  );
  return row ? { size: row.size, root: new Uint8Array(row.root) } : { size: 0, root: emptyRoot() };
}

/**
 * The entry whose row holds a node (migrations 0125, 0126): its last leaf,
 * appended when the node became complete.
 */
function holderOf(id: NodeId): number {
  return (id.index + 1) * 2 ** id.level - 1;
}

/**
 * Reads stored nodes in one query. A node is in the row of the entry that
 * completed it (a leaf hash in leaf_hash, a subtree's in subtree_hashes), or,
 * when that entry was appended before migrations 0125/0126, in log_nodes:
 * never in both, so the two halves of the union do not overlap. A node not
 * stored (the tree is not that big) is left out.
 */
export async function readNodes(db: Queryable, tenantId: string, ids: readonly NodeId[]): Promise<StoredNode[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ level: number; idx: number | string; hash: Uint8Array | null }>(
    `SELECT n.level, n.idx, n.hash FROM log_nodes n
     JOIN unnest($2::int[], $3::bigint[]) AS want(level, idx) ON n.level = want.level AND n.idx = want.idx
     WHERE n.tenant_id = $1
     UNION ALL
     SELECT want.level, want.idx,
       CASE WHEN want.level = 0 THEN e.leaf_hash ELSE substring(e.subtree_hashes FROM (want.level - 1) * 32 + 1 FOR 32) END
     FROM unnest($2::int[], $3::bigint[], $4::bigint[]) AS want(level, idx, holder)
     JOIN log_entries e ON e.tenant_id = $1 AND e.idx = want.holder
     WHERE CASE WHEN want.level = 0 THEN e.leaf_hash IS NOT NULL ELSE octet_length(e.subtree_hashes) >= want.level * 32 END`,
    [tenantId, ids.map((i) => i.level), ids.map((i) => i.index), ids.map(holderOf)],
  );
  return rows.map((r) => ({ level: r.level, index: Number(r.idx), hash: new Uint8Array(r.hash!) }));
}

export interface NewEntry {
  index: number;
  leaf: string;
  createdAt: Date;
}

/**
 * Writes of another module that ride along in the statement that writes the
 * log: `ctes` is a list of data-modifying CTEs ("a AS (INSERT …), b AS (…)")
 * numbering its own parameters from $1.
 */
export interface RideAlong {
  ctes: string;
  params: unknown[];
}

/** writeAppend's own parameters: a ride-along's follow them. */
const OWN_PARAMS = 8;

/** Ride-along CTEs with every parameter number moved past writeAppend's, made once per text: the few texts recur. */
const shiftedTexts = new Map<string, string>();
function shifted(ctes: string): string {
  let text = shiftedTexts.get(ctes);
  if (text === undefined) {
    text = ctes.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + OWN_PARAMS}`);
    if (shiftedTexts.size >= 256) shiftedTexts.clear();
    shiftedTexts.set(ctes, text);
  }
  return text;
}

/** Writes a ride-along's CTEs as a statement of their own. */
export async function writeRideAlong(tx: Queryable, w: RideAlong): Promise<void> {
  await tx.query(`WITH ${w.ctes} SELECT 1`, w.params);
}

/** subtree_hashes of an entry that completes no subtree: empty, not null (null marks an entry appended before migration 0126). */
const NO_BYTES = new Uint8Array(0);

/**
 * The statement that writes appended entries, with their leaf hashes and the
 * hashes of the subtrees each completes (readNodes), and the new head (and a
 * ride-along's rows): built apart from sending it, so an append decided ahead
 * has it ready before it holds the lock (OpenAppend.prepareCommit). `nodes`:
 * appendLeaves', every node the entries complete.
 */
export function appendStatement(
  tenantId: string,
  entries: readonly NewEntry[],
  nodes: readonly StoredNode[],
  head: Head,
  along?: RideAlong,
): Statement {
  const extra = along ? `${shifted(along.ctes)}, ` : '';
  const first = entries[0]?.index ?? 0;
  const leafHashes: Uint8Array[] = new Array(entries.length);
  const subtrees: Uint8Array[][] = Array.from({ length: entries.length }, () => []);
  // appendLeaves lists the nodes level by level, upwards: each entry's subtrees come in order of level.
  let leaves = 0;
  for (const n of nodes) {
    const at = holderOf(n) - first;
    if (!(at >= 0 && at < entries.length))
      throw new Error(`appendStatement: node (${n.level}, ${n.index}) is not completed by these entries`);
    if (n.level === 0) {
      leafHashes[at] = n.hash;
      leaves++;
    } else subtrees[at]!.push(n.hash);
  }
  if (leaves !== entries.length) throw new Error('appendStatement: every entry needs its leaf hash among the nodes');
  return {
    sql: `WITH ${extra}e AS (
       INSERT INTO log_entries (tenant_id, idx, leaf, created_at, leaf_hash, subtree_hashes)
       SELECT $1, e.idx, e.leaf, e.created_at, e.hash, e.subtrees
       FROM unnest($2::bigint[], $3::text[], $4::timestamptz[], $5::bytea[], $6::bytea[]) AS e(idx, leaf, created_at, hash, subtrees)
     )
     UPDATE log_heads SET size = $7, root = $8, updated_at = now() WHERE tenant_id = $1`,
    params: [
      tenantId,
      entries.map((e) => e.index),
      entries.map((e) => e.leaf),
      entries.map((e) => e.createdAt.toISOString()),
      leafHashes,
      subtrees.map((hashes) =>
        hashes.length === 0 ? NO_BYTES : hashes.length === 1 ? hashes[0]! : Buffer.concat(hashes),
      ),
      head.size,
      Buffer.from(head.root),
      ...(along?.params ?? []),
    ],
  };
}

/**
 * Sends appendStatement's statement; `andCommit`: and commits the
 * transaction with it, in one round trip where the store allows.
 */
export async function writeAppend(tx: Queryable, statement: Statement, andCommit = false): Promise<void> {
  if (andCommit && tx.queryThenCommit) await tx.queryThenCommit(statement.sql, statement.params);
  else await tx.query(statement.sql, statement.params);
}

export interface StoredEntry {
  index: number;
  leaf: string;
  leafHash: Uint8Array;
}

/** Entries [start, end) with their stored leaf hashes, in index order. */
export async function readEntries(db: Queryable, tenantId: string, start: number, end: number): Promise<StoredEntry[]> {
  const rows = await db.query<{ idx: number; leaf: string; hash: Uint8Array | null }>(
    `SELECT e.idx, e.leaf, coalesce(e.leaf_hash, n.hash) AS hash FROM log_entries e
     LEFT JOIN log_nodes n ON e.leaf_hash IS NULL AND n.tenant_id = e.tenant_id AND n.level = 0 AND n.idx = e.idx
     WHERE e.tenant_id = $1 AND e.idx >= $2 AND e.idx < $3 ORDER BY e.idx`,
    [tenantId, start, end],
  );
  return rows.map((r) => ({ index: r.idx, leaf: r.leaf, leafHash: new Uint8Array(r.hash ?? []) }));
}

/**
 * The entries of the log's first `size` that were appended in [from, to):
 * their first index and one past their last, or null when there are none
 * (index log_entries_time). `archive`: also among the entries pruned from the
 * database (all before those it holds), found through their published tiles.
 */
export async function entryRange(
  db: Queryable,
  tenantId: string,
  from: string,
  to: string,
  size: number,
  archive?: { entryRange: typeof entryRange },
): Promise<{ start: number; end: number } | null> {
  const [range] = await db.query<{ start: number | null; last: number | null }>(
    `SELECT min(idx) AS start, max(idx) AS last FROM log_entries
     WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 AND idx < $4`,
    [tenantId, from, to, size],
  );
  const held =
    range?.start == null || range.last == null ? null : { start: Number(range.start), end: Number(range.last) + 1 };
  const pruned = archive ? await archive.entryRange(db, tenantId, from, to, size) : null;
  if (pruned === null) return held;
  return { start: pruned.start, end: held?.end ?? pruned.end };
}
