import type { Queryable, Statement } from '../db/index.ts';
import { encodeLeaf, leafHashOf } from './leaf.ts';
import {
  appendStatement,
  type Head,
  lockHead,
  type NewEntry,
  readNodes,
  type RideAlong,
  scopeToTenant,
  writeAppend,
  writeRideAlong,
} from './log-store.ts';
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
  #sealed: Sealed | undefined;
  /** commit()'s statement, made ahead by prepareCommit (undone by a later rideAlong). */
  #prepared: Statement | undefined;
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

  /** Whether seal() can run: the right edge of the tree is known. */
  get canSeal(): boolean {
    return this.#edge !== undefined || this.#sealed !== undefined;
  }

  /** The head this append grows. */
  get start(): Head {
    return this.#start;
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
    if (this.#sealed) throw new Error('add() after seal()');
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
    this.#prepared = undefined;
  }

  /** Rows left to commit() by rideAlong. */
  get hasRideAlong(): boolean {
    return this.#along.length > 0;
  }

  /**
   * Computes the tree nodes the entries complete and the new head, in memory,
   * once: `edge` must be known (given to the constructor). Nothing more may be
   * added after. Returns the new head and the right edge of the grown tree
   * (the nodes the next append needs), so the next append can be computed
   * before this one is written.
   */
  seal(): Sealed {
    if (this.#sealed) return this.#sealed;
    if (!this.#edge) throw new Error('seal() needs the right edge of the tree');
    this.#sealed = sealOnto(this.#start, this.#hashes, this.#edge);
    return this.#sealed;
  }

  /**
   * Makes commit()'s statement now, its parameters in the form the store
   * sends them (`encode`, Db.encodeParams): an append decided before its
   * transaction holds the lock then has nothing left to build between the
   * lock and the write, where the database waits for it. Needs seal().
   */
  prepareCommit(encode: (s: Statement) => Statement = (s) => s): void {
    if (!this.#sealed) throw new Error('prepareCommit() before seal()');
    if (this.#entries.length === 0) return;
    const sealed = this.#sealed;
    this.#prepared = encode(
      appendStatement(this.tenantId, this.#entries, sealed.nodes, sealed.head, this.#along.at(-1)),
    );
  }

  /**
   * The statement prepareCommit made, for its caller to send (with what the
   * append was decided on checked ahead of it, Db's SendAhead) instead of
   * commit(): undefined unless it was made and nothing else is left to
   * write. Returns the new head and edge, as commit() would once it is written.
   */
  takePrepared(): { statement: Statement; head: Head; edge: StoredNode[] } | undefined {
    if (!this.#prepared || !this.#sealed || this.#along.length > 1) return undefined;
    const statement = this.#prepared;
    this.#prepared = undefined;
    this.#along = [];
    return { statement, head: this.#sealed.head, edge: this.#sealed.edge };
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
    const sealed =
      this.#sealed ??
      sealOnto(
        this.#start,
        this.#hashes,
        this.#edge ?? (await readNodes(tx, this.tenantId, appendNeeds(this.#start.size))),
      );
    // Made ahead with the same rows (a rideAlong since would have undone it).
    const statement = this.#prepared ?? appendStatement(this.tenantId, this.#entries, sealed.nodes, sealed.head, last);
    this.#prepared = undefined;
    await writeAppend(tx, statement, opts.last === true);
    return { head: sealed.head, edge: sealed.edge };
  }
}

/** An append's outcome computed in memory: the nodes to write, the new head, the new right edge. */
export interface Sealed {
  nodes: StoredNode[];
  head: Head;
  edge: StoredNode[];
}

function sealOnto(start: Head, hashes: readonly Uint8Array[], edge: readonly StoredNode[]): Sealed {
  if (hashes.length === 0) return { nodes: [], head: start, edge: [...edge] };
  const { nodes, root } = appendLeaves(start.size, hashes, edge);
  const head = { size: start.size + hashes.length, root };
  const all = new Map<string, StoredNode>();
  for (const n of [...edge, ...nodes]) all.set(`${n.level}/${n.index}`, n);
  return { nodes, head, edge: appendNeeds(head.size).map((id) => all.get(`${id.level}/${id.index}`)!) };
}

/** Opens an append on a workspace's log inside the caller's transaction (locks its head). */
export async function beginAppend(tx: Queryable, tenantId: string): Promise<OpenAppend> {
  await scopeToTenant(tx, tenantId);
  return new OpenAppend(tenantId, await lockHead(tx, tenantId));
}
