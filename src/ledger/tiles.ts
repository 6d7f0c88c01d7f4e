import type { Queryable } from '../db/index.ts';
import { utf8 } from './bytes.ts';
import { readNodes } from './log-store.ts';
import { HASH_SIZE } from './merkle.ts';

export const TILE_WIDTH = 256;
const TILE_HEIGHT = 8;
export const MAX_BUNDLE_ENTRY_BYTES = 0xffff;

export type TileKind = 'hash' | 'entries';
export interface TileRef {
  kind: TileKind;
  /** Tile level (0-6 in practice: a level-7 hash covers 2^56 leaves, more than a log holds); 0 for entry bundles. */
  level: number;
  index: number;
  /** Number of hashes or entries: 256 for a full tile. */
  width: number;
}

const INDEX_PATH = /^(?:x\d{3}\/)*\d{3}$/;

/**
 * Parses the part of a tile URL after "tile/". Only the one canonical spelling
 * of each tile is accepted (no leading "x000/" group, no leading zeros in L or
 * W), so every tile has exactly one URL and caches never hold two copies.
 */
export function parseTilePath(path: string): TileRef | undefined {
  const slash = path.indexOf('/');
  if (slash < 0) return undefined;
  const head = path.slice(0, slash);
  let rest = path.slice(slash + 1);
  let width = TILE_WIDTH;
  const partial = rest.indexOf('.p/');
  if (partial >= 0) {
    const w = rest.slice(partial + 3);
    if (!/^[1-9][0-9]{0,2}$/.test(w) || Number(w) >= TILE_WIDTH) return undefined;
    width = Number(w);
    rest = rest.slice(0, partial);
  }
  if (!INDEX_PATH.test(rest) || rest.startsWith('x000/')) return undefined;
  const index = Number(rest.replaceAll('x', '').replaceAll('/', ''));
  if (!Number.isSafeInteger(index)) return undefined;
  let ref: TileRef;
  if (head === 'entries') ref = { kind: 'entries', level: 0, index, width };
  else if (!/^(0|[1-9][0-9]?)$/.test(head) || Number(head) > 63) return undefined;
  else ref = { kind: 'hash', level: Number(head), index, width };
  return leavesNeeded(ref) <= MAX_LOG_SIZE ? ref : undefined;
}

/**
 * The most entries a log can hold: entry indexes are JavaScript numbers (and
 * bigint columns), exact up to 2^53. A tile that needs a bigger log can never
 * exist, so it is refused before any arithmetic on its node indexes, which
 * would pass 2^53 (losing exactness) and then 2^63 (overflowing bigint).
 */
export const MAX_LOG_SIZE = 2n ** 53n;

/** How many entries the log must hold for a tile to exist: its last hash covers leaves up to here. */
export function leavesNeeded(ref: TileRef): bigint {
  return (BigInt(ref.index) * BigInt(TILE_WIDTH) + BigInt(ref.width)) * BigInt(TILE_WIDTH) ** BigInt(ref.level);
}

/** The stored-node level and index range a hash tile is made of. */
export function tileNodes(ref: TileRef): { level: number; start: number; end: number } {
  const start = ref.index * TILE_WIDTH;
  return { level: ref.level * TILE_HEIGHT, start, end: start + ref.width };
}

/** Concatenated hashes, in index order; undefined unless all `width` of them exist. */
export function encodeHashTile(hashes: readonly Uint8Array[], width: number): Uint8Array | undefined {
  if (hashes.length !== width || hashes.some((h) => h.length !== HASH_SIZE)) return undefined;
  return Buffer.concat(hashes);
}

/** An entry bundle: each leaf's UTF-8 bytes after its big-endian uint16 length. */
export function encodeBundle(leaves: readonly string[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const leaf of leaves) {
    const bytes = utf8(leaf);
    if (bytes.length > MAX_BUNDLE_ENTRY_BYTES)
      throw new RangeError(`a ${bytes.length}-byte entry does not fit an entry bundle`);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(bytes.length);
    parts.push(len, bytes);
  }
  return Buffer.concat(parts);
}

/** The tile path after the origin, as the service spells it (parseTilePath reads exactly this). */
export function tilePath(ref: TileRef): string {
  const groups: string[] = [];
  let n = ref.index;
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  const index = groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
  const head = ref.kind === 'entries' ? 'entries' : String(ref.level);
  return `tile/${head}/${index}${ref.width < TILE_WIDTH ? `.p/${ref.width}` : ''}`;
}

// ---- storage: full tiles are written once and served from the table --------

export async function readStoredTile(db: Queryable, tenantId: string, ref: TileRef): Promise<Uint8Array | undefined> {
  const [row] = await db.query<{ data: Uint8Array }>(
    'SELECT data FROM log_tiles WHERE tenant_id = $1 AND kind = $2 AND level = $3 AND idx = $4',
    [tenantId, ref.kind, ref.level, ref.index],
  );
  return row ? new Uint8Array(row.data) : undefined;
}

export async function storeTile(db: Queryable, tenantId: string, ref: TileRef, data: Uint8Array): Promise<void> {
  await db.query(
    'INSERT INTO log_tiles (tenant_id, kind, level, idx, data) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
    [tenantId, ref.kind, ref.level, ref.index, Buffer.from(data)],
  );
}

/** Builds a tile from the stored nodes or leaves; undefined when the log is not that big yet. */
export async function buildTile(db: Queryable, tenantId: string, ref: TileRef): Promise<Uint8Array | undefined> {
  const { level, start, end } = tileNodes(ref);
  if (ref.kind === 'entries') {
    const rows = await db.query<{ leaf: string }>(
      'SELECT leaf FROM log_entries WHERE tenant_id = $1 AND idx >= $2 AND idx < $3 ORDER BY idx',
      [tenantId, start, end],
    );
    return rows.length === ref.width ? encodeBundle(rows.map((r) => r.leaf)) : undefined;
  }
  // Each node where its last leaf's append stored it (readNodes): in that entry's row, or in log_nodes.
  const ids = Array.from({ length: end - start }, (_, i) => ({ level, index: start + i }));
  const stored = new Map((await readNodes(db, tenantId, ids)).map((n) => [n.index, n.hash]));
  const hashes = ids.map((id) => stored.get(id.index));
  return hashes.every((h) => h !== undefined) ? encodeHashTile(hashes as Uint8Array[], ref.width) : undefined;
}
