// The log entries PostgreSQL no longer holds (LOG_KEEP_IN_DB_ENTRIES), read
// back from the published tiles (LOG_PUBLISH_URL).
//
// Pruning (log-pruning.ts) deletes whole tiles of entries: entries [0, P) of a
// workspace, P a multiple of 256 recorded in log_pruned, with the leaf and
// subtree hashes their rows held, except the hashes of subtrees of 256 leaves
// or more, which it moves to log_nodes. So every node of level 8 and above is
// still in the database; what is gone are the leaves and the nodes inside a
// tile (levels 0-7), and those are what the level-0 hash tile and the entry
// bundle of each tile hold.
//
// What is read from the store is checked before it is used: a hash tile's 256
// hashes must fold to the tile's level-8 node kept in the database, and an
// entry bundle's 256 leaves must hash to the same node. The checkpoints sign
// roots made of those nodes, so a tile changed in the bucket is refused
// (LogArchiveError), never served, nor folded into a proof.
//
// Nothing read is cached: every read is checked again, so a tile changed in
// the store is noticed at the next read of it.
//
// Readers ask the database first and the store for what it lacks, re-reading
// P after the database answered: pruning deletes rows and moves P in one
// transaction, so a row missing from a read is below a P read after it.

import { HttpProblem } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import { equalBytes } from './bytes.ts';
import { readEntries, readNodes, type StoredEntry } from './log-store.ts';
import { HASH_SIZE, leafHashOfText, type NodeId, rootFromLeafHashes, type StoredNode } from './merkle.ts';
import type { PublishStore } from './publish-stores.ts';
import { TILE_WIDTH, type TileRef, tilePath } from './tiles.ts';

/** The level of the node a full tile's 256 leaves fold to. */
export const TILE_LEVEL = 8;

/**
 * A pruned entry or node cannot be read from the published tiles: the store
 * is unset, unreachable, or holds something else. A request answers it as a
 * 503 saying so (the store's own error stays in the logs).
 */
export class LogArchiveError extends HttpProblem {
  override name = 'LogArchiveError';
  constructor(detail: string, cause?: unknown) {
    super('service_unavailable', `${detail} Older entries of this log are read from its published tiles.`, {
      headers: { 'retry-after': '60' },
    });
    if (cause !== undefined) this.withCause(cause);
  }
}

/** How many entries [0, P) of a workspace's log were pruned from the database (0: none). */
export async function prunedSize(tx: Queryable, tenantId: string): Promise<number> {
  const [row] = await tx.query<{ size: string }>('SELECT size::text AS size FROM log_pruned WHERE tenant_id = $1', [
    tenantId,
  ]);
  return row ? Number(row.size) : 0;
}

interface VerifiedBundle {
  /** The bundle as published. */
  data: Buffer;
  leaves: string[];
  leafHashes: Uint8Array[];
}

export class LogArchive {
  readonly #store: PublishStore | undefined;
  readonly #origin: (tenantId: string) => string;

  /** `store`: LOG_PUBLISH_URL's; undefined when unset (pruned entries then cannot be read). */
  constructor(store: PublishStore | undefined, origin: (tenantId: string) => string) {
    this.#store = store;
    this.#origin = origin;
  }

  /**
   * Stored nodes, from the database or, for nodes inside pruned tiles, from
   * the published level-0 hash tiles (verified). A node neither has is left
   * out, as readNodes does.
   */
  async readNodes(tx: Queryable, tenantId: string, ids: readonly NodeId[]): Promise<StoredNode[]> {
    const found = await readNodes(tx, tenantId, ids);
    if (found.length === ids.length) return found;
    const have = new Set(found.map((n) => `${n.level}/${n.index}`));
    const missing = ids.filter((id) => id.level < TILE_LEVEL && !have.has(`${id.level}/${id.index}`));
    if (missing.length === 0) return found;
    const pruned = await prunedSize(tx, tenantId);
    // A proof's nodes inside one tile are read from it once.
    const tiles = new Map<number, Promise<Uint8Array[]>>();
    for (const id of missing) {
      const first = id.index * 2 ** id.level;
      if (first + 2 ** id.level > pruned) continue;
      const tile = Math.floor(first / TILE_WIDTH);
      if (!tiles.has(tile)) tiles.set(tile, this.#leafHashes(tx, tenantId, tile));
      const hashes = await tiles.get(tile)!;
      const at = first - tile * TILE_WIDTH;
      found.push({ ...id, hash: rootFromLeafHashes(hashes.slice(at, at + 2 ** id.level)) });
    }
    return found;
  }

  /** Entries [start, end) in index order: the database's, and those of pruned tiles from their entry bundles. */
  async readEntries(tx: Queryable, tenantId: string, start: number, end: number): Promise<StoredEntry[]> {
    const rows = await readEntries(tx, tenantId, start, end);
    if (rows.length === end - start || (rows.length > 0 && rows[0]!.index === start)) return rows;
    const pruned = await prunedSize(tx, tenantId);
    if (start >= pruned) return rows;
    const out: StoredEntry[] = [];
    for (let i = start; i < Math.min(end, pruned);) {
      const tile = Math.floor(i / TILE_WIDTH);
      const bundle = await this.#bundle(tx, tenantId, tile);
      const stop = Math.min(end, pruned, (tile + 1) * TILE_WIDTH);
      for (; i < stop; i++) {
        const at = i - tile * TILE_WIDTH;
        out.push({ index: i, leaf: bundle.leaves[at]!, leafHash: bundle.leafHashes[at]! });
      }
    }
    return [...out, ...rows.filter((r) => r.index >= pruned)];
  }

  /**
   * A level-0 hash tile or an entry bundle of a pruned tile (a full one, or
   * the first `width` of it), as published and verified; undefined for any
   * other tile, which the database builds.
   */
  async tile(tx: Queryable, tenantId: string, ref: TileRef): Promise<Uint8Array | undefined> {
    if (ref.level !== 0) return undefined;
    if ((ref.index + 1) * TILE_WIDTH > (await prunedSize(tx, tenantId))) return undefined;
    if (ref.kind === 'hash')
      return Buffer.concat((await this.#leafHashes(tx, tenantId, ref.index)).slice(0, ref.width));
    const { data } = await this.#bundle(tx, tenantId, ref.index);
    if (ref.width === TILE_WIDTH) return data;
    // The first `width` length-prefixed leaves: the partial bundle's exact bytes.
    let end = 0;
    for (let i = 0; i < ref.width; i++) end += 2 + data.readUInt16BE(end);
    return data.subarray(0, end);
  }

  /**
   * The first and one past the last index of the pruned entries whose time
   * (the leaf's, as log_entries.created_at was) lies in [from, to), below
   * `size`; null when none does. Tiles are picked by the times pruning kept
   * of each (log_pruned_tiles); only the first and last that match are read.
   */
  async entryRange(
    tx: Queryable,
    tenantId: string,
    from: string,
    to: string,
    size: number,
  ): Promise<{ start: number; end: number } | null> {
    const tiles = await tx.query<{ tile: string }>(
      `SELECT tile::text AS tile FROM log_pruned_tiles
       WHERE tenant_id = $1 AND first_at < $3 AND last_at >= $2 AND tile * ${TILE_WIDTH} < $4 ORDER BY tile`,
      [tenantId, from, to, size],
    );
    const lo = Date.parse(from);
    const hi = Date.parse(to);
    const matching = async (tile: number): Promise<number[]> => {
      const bundle = await this.#bundle(tx, tenantId, tile);
      const out: number[] = [];
      bundle.leaves.forEach((leaf, i) => {
        const t = Date.parse((JSON.parse(leaf) as { time?: string }).time ?? '');
        if (t >= lo && t < hi && tile * TILE_WIDTH + i < size) out.push(tile * TILE_WIDTH + i);
      });
      return out;
    };
    const order = tiles.map((t) => Number(t.tile));
    let start: number | undefined;
    for (const tile of order) {
      const m = await matching(tile);
      if (m.length > 0) {
        start = m[0]!;
        break;
      }
    }
    if (start === undefined) return null;
    for (const tile of order.reverse()) {
      const m = await matching(tile);
      if (m.length > 0) return { start, end: m.at(-1)! + 1 };
    }
    return null;
  }

  /** The 256 leaf hashes of a pruned tile, from its published level-0 hash tile, folding to the kept level-8 node. */
  async #leafHashes(tx: Queryable, tenantId: string, tile: number): Promise<Uint8Array[]> {
    const ref: TileRef = { kind: 'hash', level: 0, index: tile, width: TILE_WIDTH };
    const data = await this.#read(tenantId, ref);
    if (data.length !== TILE_WIDTH * HASH_SIZE) throw this.#wrong(tenantId, ref, 'has the wrong length');
    const hashes = Array.from({ length: TILE_WIDTH }, (_, i) => data.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
    await this.#check(tx, tenantId, ref, rootFromLeafHashes(hashes));
    return hashes;
  }

  /** The 256 leaves of a pruned tile, from its published entry bundle, whose hashes fold to the kept level-8 node. */
  async #bundle(tx: Queryable, tenantId: string, tile: number): Promise<VerifiedBundle> {
    const ref: TileRef = { kind: 'entries', level: 0, index: tile, width: TILE_WIDTH };
    const data = await this.#read(tenantId, ref);
    const leaves: string[] = [];
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      for (let at = 0; at < data.length;) {
        const len = data.readUInt16BE(at);
        if (at + 2 + len > data.length) throw new Error('truncated');
        leaves.push(decoder.decode(data.subarray(at + 2, at + 2 + len)));
        at += 2 + len;
      }
    } catch {
      throw this.#wrong(tenantId, ref, 'is not an entry bundle');
    }
    if (leaves.length !== TILE_WIDTH) throw this.#wrong(tenantId, ref, `holds ${leaves.length} entries, not 256`);
    const leafHashes = leaves.map(leafHashOfText);
    await this.#check(tx, tenantId, ref, rootFromLeafHashes(leafHashes));
    return { data, leaves, leafHashes };
  }

  /** The tile's root against the level-8 node the database kept (the checkpoints sign roots made of it). */
  async #check(tx: Queryable, tenantId: string, ref: TileRef, root: Uint8Array): Promise<void> {
    const [kept] = await readNodes(tx, tenantId, [{ level: TILE_LEVEL, index: ref.index }]);
    if (!kept) throw new LogArchiveError(`The database holds no hash of log tile ${ref.index}.`);
    if (!equalBytes(kept.hash, root)) throw this.#wrong(tenantId, ref, 'does not match the signed log');
  }

  async #read(tenantId: string, ref: TileRef): Promise<Buffer> {
    if (!this.#store)
      throw new LogArchiveError(
        `Log entries of tile ${ref.index} were pruned from the database and LOG_PUBLISH_URL is not set.`,
      );
    const key = `${this.#origin(tenantId)}/${tilePath(ref)}`;
    let data: Uint8Array | undefined;
    try {
      data = await this.#store.get(key);
    } catch (err) {
      throw new LogArchiveError(`The published log could not be read (${tilePath(ref)}).`, err);
    }
    if (data === undefined) throw new LogArchiveError(`The published log has no ${tilePath(ref)}.`);
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }

  #wrong(tenantId: string, ref: TileRef, what: string): LogArchiveError {
    return new LogArchiveError(`The published ${tilePath(ref)} ${what}.`).withCause(new Error(`tenant ${tenantId}`));
  }
}
