// Test utility: a tlog-tiles client that knows only the specs (c2sp.org/tlog-tiles,
// c2sp.org/signed-note, RFC 6962/9162) and shares no code with the service. Given
// a way to fetch "checkpoint" and "tile/..." below a log's prefix, it opens the
// checkpoint with a pinned verifier key, reads hashes from the tiles a tree of
// that size has, builds inclusion proofs from them and checks each against the
// signed root, as a sumdb/tlog client does.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify as edVerify } from 'node:crypto';

export type Fetch = (path: string) => Promise<Uint8Array>;

const sha256 = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
export const leafHash = (entry: Uint8Array): Uint8Array => sha256(Uint8Array.of(0), entry);
const nodeHash = (l: Uint8Array, r: Uint8Array) => sha256(Uint8Array.of(1), l, r);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export function indexPath(n: number): string {
  const groups: string[] = [];
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}
export const tileUrl = (level: number | 'entries', n: number, w: number): string =>
  `tile/${level}/${indexPath(n)}${w < 256 ? `.p/${w}` : ''}`;

export interface OpenedCheckpoint {
  origin: string;
  size: number;
  root: Uint8Array;
}

/** Opens a checkpoint note with a pinned vkey (name+hex8+base64(0x01‖key)); throws unless it signed it. */
export function openCheckpoint(note: string, vkey: string): OpenedCheckpoint {
  const [name, hexId] = vkey.split('+');
  const key = Buffer.from(vkey.split('+').slice(2).join('+'), 'base64');
  const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const lines = note.slice(text.length + 1, -1).split('\n');
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), key.subarray(1)]);
  const ok = lines.some((line) => {
    const m = /^— (\S+) (\S+)$/.exec(line);
    if (!m || m[1] !== name) return false;
    const sig = Buffer.from(m[2]!, 'base64');
    if (sig.subarray(0, 4).toString('hex') !== hexId) return false;
    return edVerify(
      null,
      Buffer.from(text),
      createPublicKey({ key: spki, format: 'der', type: 'spki' }),
      sig.subarray(4),
    );
  });
  assert.ok(ok, 'checkpoint signed by the pinned key');
  const [origin, size, root] = text.slice(0, -1).split('\n');
  assert.equal(origin, name, 'the checkpoint names the key’s log');
  return { origin: origin!, size: Number(size), root: new Uint8Array(Buffer.from(root!, 'base64')) };
}

/** The entries of an entry bundle (c2sp.org/tlog-tiles: each a big-endian uint16 length, then its bytes). */
export function splitBundle(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const len = (bytes[at]! << 8) | bytes[at + 1]!;
    out.push(bytes.subarray(at + 2, at + 2 + len));
    at += 2 + len;
  }
  return out;
}

/** RFC 9162 §2.1.3.2: the root an inclusion proof leads to equals the signed one. */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: Uint8Array[],
  root: Uint8Array,
): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && hex(r) === hex(root);
}

/** Reads one tree of `size` from tiles (each tile fetched once). */
export class TileReader {
  readonly #fetch: Fetch;
  readonly #size: number;
  readonly #tiles = new Map<string, Uint8Array>();
  /** Tile paths fetched, in order. */
  readonly fetched: string[] = [];

  constructor(fetch: Fetch, size: number) {
    this.#fetch = fetch;
    this.#size = size;
  }

  async #tile(level: number | 'entries', n: number): Promise<Uint8Array> {
    const count = level === 'entries' ? this.#size : Math.floor(this.#size / 256 ** level);
    const w = Math.min(256, count - n * 256);
    assert.ok(w > 0, `tile ${level}/${n} is beyond a tree of ${this.#size}`);
    const path = tileUrl(level, n, w);
    let data = this.#tiles.get(path);
    if (data === undefined) {
      data = await this.#fetch(path);
      this.fetched.push(path);
      if (level !== 'entries') assert.equal(data.length, w * 32, `${path} holds ${w} hashes`);
      this.#tiles.set(path, data);
    }
    return data;
  }

  /** The entry at `index`, checked against its hash in the level-0 tile. */
  async entry(index: number): Promise<Uint8Array> {
    const bundle = splitBundle(await this.#tile('entries', Math.floor(index / 256)));
    const entry = bundle[index % 256];
    assert.ok(entry !== undefined, `entry ${index} in its bundle`);
    assert.equal(hex(leafHash(entry)), hex(await this.node(0, index)), `entry ${index} hashes to its tile hash`);
    return entry;
  }

  /** The hash of the perfect subtree at height `k`, index `i` (leaves i·2^k … (i+1)·2^k − 1). */
  async node(k: number, i: number): Promise<Uint8Array> {
    assert.ok((i + 1) * 2 ** k <= this.#size, `node ${k}/${i} is complete in a tree of ${this.#size}`);
    const level = Math.floor(k / 8);
    const below = 2 ** (k % 8);
    // The node's 2^(k mod 8) descendants at the tile level, combined pairwise.
    let hashes: Uint8Array[] = [];
    for (let j = i * below; j < (i + 1) * below; j++) {
      const tile = await this.#tile(level, Math.floor(j / 256));
      hashes.push(tile.subarray((j % 256) * 32, (j % 256) * 32 + 32));
    }
    while (hashes.length > 1) hashes = hashes.flatMap((h, x) => (x % 2 === 0 ? [nodeHash(h, hashes[x + 1]!)] : []));
    return hashes[0]!;
  }

  /** MTH(D[a:b]) of RFC 6962, from the largest perfect subtrees. */
  async rangeHash(a: number, b: number): Promise<Uint8Array> {
    const n = b - a;
    if (n === 1) return this.node(0, a);
    if ((n & (n - 1)) === 0 && a % n === 0) return this.node(Math.log2(n), a / n);
    let k = 1;
    while (k * 2 < n) k *= 2;
    return nodeHash(await this.rangeHash(a, a + k), await this.rangeHash(a + k, b));
  }

  /** PATH(m, D[0:size]) of RFC 6962, made of tile hashes. */
  async inclusionProof(m: number, a = 0, b = this.#size): Promise<Uint8Array[]> {
    const n = b - a;
    if (n <= 1) return [];
    let k = 1;
    while (k * 2 < n) k *= 2;
    if (m - a < k) return [...(await this.inclusionProof(m, a, a + k)), await this.rangeHash(a + k, b)];
    return [...(await this.inclusionProof(m, a + k, b)), await this.rangeHash(a, a + k)];
  }
}

/**
 * What an auditor does with a published log: opens its checkpoint with the
 * pinned key, rebuilds the root from the tiles, and checks an inclusion proof
 * for each of `leaves` (entries read from their bundles). Returns the
 * checkpoint and the entries' texts.
 */
export async function auditPublishedLog(
  fetch: Fetch,
  vkey: string,
  leaves: number[],
): Promise<{ checkpoint: OpenedCheckpoint; entries: string[]; reader: TileReader }> {
  const checkpoint = openCheckpoint(new TextDecoder().decode(await fetch('checkpoint')), vkey);
  const reader = new TileReader(fetch, checkpoint.size);
  assert.equal(
    hex(await reader.rangeHash(0, checkpoint.size)),
    hex(checkpoint.root),
    'the tiles hash to the signed root',
  );
  const entries: string[] = [];
  for (const i of leaves) {
    const entry = await reader.entry(i);
    const proof = await reader.inclusionProof(i);
    assert.ok(verifyInclusion(leafHash(entry), i, checkpoint.size, proof, checkpoint.root), `leaf ${i} is included`);
    entries.push(new TextDecoder().decode(entry));
  }
  return { checkpoint, entries, reader };
}
