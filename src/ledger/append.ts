import type { Queryable } from '../db/db.ts';
import { encodeLeaf, leafHashOf } from './leaf.ts';
import { type Head, lockHead, type NewEntry, readNodes, scopeToTenant, writeAppend } from './log-store.ts';
import { appendLeaves, appendNeeds } from './merkle.ts';

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

  constructor(tenantId: string, head: Head) {
    this.tenantId = tenantId;
    this.#start = head;
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

  /** Writes the entries, the tree nodes they complete and the new head. */
  async commit(tx: Queryable): Promise<Head> {
    if (this.#entries.length === 0) return this.#start;
    const edge = await readNodes(tx, this.tenantId, appendNeeds(this.#start.size));
    const { nodes, root } = appendLeaves(this.#start.size, this.#hashes, edge);
    const head = { size: this.#start.size + this.#entries.length, root };
    await writeAppend(tx, this.tenantId, this.#entries, nodes, head);
    return head;
  }
}

/** Opens an append on a workspace's log inside the caller's transaction (locks its head). */
export async function beginAppend(tx: Queryable, tenantId: string): Promise<OpenAppend> {
  await scopeToTenant(tx, tenantId);
  return new OpenAppend(tenantId, await lockHead(tx, tenantId));
}
