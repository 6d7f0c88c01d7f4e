import type { Queryable } from '../db/db.ts';
import { encodeLeaf, leafHashOf } from './leaf.ts';
import { type Head, lockHead, type NewEntry, readNodes, type RideAlong, scopeToTenant, writeAppend, writeRideAlong } from './log-store.ts';
import { appendLeaves, appendNeeds, type StoredNode } from './merkle.ts';

/** An entry of the audit trail: its kind and plain-JSON fields. The time is added on append. */
export interface LogEntry {
  kind: string;
  [field: string]: unknown;
}

/**
 * An append in progress inside one transaction: the head is locked, so the
 * indexes handed out by add() are final once the transaction commits.
 */
export class OpenAppend {
  readonly tenantId: string;
  readonly #start: Head;
  readonly #entries: NewEntry[] = [];
  readonly #hashes: Uint8Array[] = [];
  readonly #edge: readonly StoredNode[] | undefined;
  #along: RideAlong[] = [];
  /**
   * Set by the log writer while the work running is the last of its
   * transaction: only then may it leave its rows to the log's statement
   * (rideAlong), since nothing after it in the transaction reads them.
   */
  lastWork = false;

  /** `edge`: the nodes appendNeeds(head.size) names, when the caller already has them. */
  constructor(tenantId: string, head: Head, edge?: readonly StoredNode[]) {
    this.tenantId = tenantId;
    this.#start = head;
    this.#edge = edge;
  }

  /** Size of the log before this append. */
  get startSize(): number {
    return this.#start.size;
  }

  /** The index the next added entry will get. */
  get nextIndex(): number {
    return this.#start.size + this.#entries.length;
  }

  /** Adds an entry; returns its index. The leaf carries the tenant and the time. */
  add(entry: LogEntry, time: Date): number {
    const index = this.nextIndex;
    const leaf = encodeLeaf({ ...entry, tenant_id: this.tenantId, time: time.toISOString() });
    this.#entries.push({ index, leaf, createdAt: time });
    this.#hashes.push(leafHashOf(leaf));
    return index;
  }

  /**
   * Rows to write in the statement that writes the log (one round trip less).
   * Only while `lastWork` is set; the writes happen in commit().
   */
  rideAlong(w: RideAlong): void {
    if (!this.lastWork) throw new Error('rideAlong outside the last work of a transaction');
    this.#along.push(w);
  }

  /** Rows left to commit() by rideAlong. */
  get hasRideAlong(): boolean {
    return this.#along.length > 0;
  }

  /**
   * Writes the entries, the tree nodes they complete (hashed here, in memory)
   * and the new head, in one statement (with the last ride-along's rows).
   * Returns the new head and the right edge of the grown tree (the nodes the
   * next append needs). `last`: nothing runs in the transaction after this,
   * so the statement may commit it in the same round trip (queryThenCommit).
   */
  async commit(tx: Queryable, opts: { last?: boolean } = {}): Promise<{ head: Head; edge: StoredNode[] | undefined }> {
    const along = this.#along;
    this.#along = [];
    const last = this.#entries.length > 0 ? along.pop() : undefined;
    for (const w of along) await writeRideAlong(tx, w);
    if (this.#entries.length === 0) return { head: this.#start, edge: this.#edge ? [...this.#edge] : undefined };
    const edge = this.#edge ?? (await readNodes(tx, this.tenantId, appendNeeds(this.#start.size)));
    const { nodes, root } = appendLeaves(this.#start.size, this.#hashes, edge);
    const head = { size: this.#start.size + this.#entries.length, root };
    await writeAppend(tx, this.tenantId, this.#entries, nodes, head, last, opts.last === true);
    const all = new Map<string, StoredNode>();
    for (const n of [...edge, ...nodes]) all.set(`${n.level}/${n.index}`, n);
    return { head, edge: appendNeeds(head.size).map((id) => all.get(`${id.level}/${id.index}`)!) };
  }
}

/** Opens an append on a workspace's log inside the caller's transaction (locks its head). */
export async function beginAppend(tx: Queryable, tenantId: string): Promise<OpenAppend> {
  await scopeToTenant(tx, tenantId);
  return new OpenAppend(tenantId, await lockHead(tx, tenantId));
}
