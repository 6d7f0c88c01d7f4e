// RFC 6962 / RFC 9162 Merkle tree hashing over a store of complete subtrees.
//
// The database keeps one hash per COMPLETE subtree: node (level, index) covers
// leaves [index·2^level, (index+1)·2^level), and it exists once the tree has
// grown past its last leaf, after which it never changes. Every root, inclusion
// proof and consistency proof of any tree size is a fold of a few such nodes,
// so each operation here is split in two pure halves: `…Needs` lists the node
// ids to read (the caller fetches them in ONE query), and the computing
// function takes those rows and does the hashing. Neither half touches a
// database, so the same code serves the service, the CLI and the tests.
//
// Sizes and indexes are JS numbers (safe integers): a log of 2^53 entries is
// not a concern, and the arithmetic below avoids 32-bit bitwise operators.

import { createHash, hash } from 'node:crypto';
import { equalBytes, prefixedUtf8 } from './bytes.ts';

export const HASH_SIZE = 32;

/** A complete subtree: covers leaves [index·2^level, (index+1)·2^level). Leaves are level 0. */
export type NodeId = { readonly level: number; readonly index: number };
export type StoredNode = NodeId & { readonly hash: Uint8Array };

/** A node the computation needed was not among those given: the store is missing a row. */
export class MissingNodeError extends Error {
  readonly node: NodeId;
  constructor(node: NodeId) {
    super(`Merkle node (level ${node.level}, index ${node.index}) was not provided`);
    this.name = 'MissingNodeError';
    this.node = node;
  }
}

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** SHA-256(0x00 ‖ data): the hash of a leaf (the 0x00 keeps leaves and nodes apart). */
export function leafHash(data: Uint8Array): Uint8Array {
  // crypto.hash over one buffer: a hash object per call costs more than the copy (bench/ingest.ts batches).
  return sha256(Buffer.concat([LEAF_PREFIX, data]));
}

/** leafHash of a text's UTF-8 bytes, written straight after the prefix (one buffer, one copy). */
export function leafHashOfText(text: string): Uint8Array {
  return sha256(prefixedUtf8(LEAF_PREFIX, text));
}

/** SHA-256(0x01 ‖ left ‖ right): the hash of an interior node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== 32 || right.length !== 32)
    return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
  NODE_INPUT.set(left, 1);
  NODE_INPUT.set(right, 33);
  return sha256(NODE_INPUT);
}

/**
 * SHA-256 of `input`, as 32 bytes. crypto.hash's own 'buffer' output makes a
 * Buffer in C++ for every call, which cost more than the hash: 2.4 µs a node
 * against 1.0 for its 'binary' (latin1) text, one char a byte, copied out here.
 */
function sha256(input: Uint8Array): Uint8Array {
  const digest = hash('sha256', input, 'binary');
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = digest.charCodeAt(i);
  return out;
}

/** 0x01 ‖ left ‖ right of nodeHash, reused (hashing is synchronous). */
const NODE_INPUT = Buffer.alloc(65, 0x01);

/** The root of the empty tree, SHA-256 of the empty string. */
export function emptyRoot(): Uint8Array {
  return createHash('sha256').digest();
}

/** The Merkle Tree Hash of a list of leaf hashes, straight from the RFC's definition. O(n). */
export function rootFromLeafHashes(leafHashes: readonly Uint8Array[]): Uint8Array {
  if (leafHashes.length === 0) return emptyRoot();
  const mth = (lo: number, hi: number): Uint8Array => {
    if (hi - lo === 1) return leafHashes[lo]!;
    const k = largestPowerOfTwoBelow(hi - lo);
    return nodeHash(mth(lo, lo + k), mth(lo + k, hi));
  };
  return mth(0, leafHashes.length);
}

// ---- roots and appends -----------------------------------------------------

/** The nodes rootFromNodes(size) reads: the complete subtrees that make up [0, size), left to right. */
export function rootNeeds(size: number): NodeId[] {
  checkSize('size', size);
  return size === 0 ? [] : perfectSubtrees(0, size);
}

/** The root of the tree of `size` leaves, from the nodes listed by rootNeeds(size). */
export function rootFromNodes(size: number, nodes: Iterable<StoredNode>): Uint8Array {
  checkSize('size', size);
  return size === 0 ? emptyRoot() : rangeHash(0, size, new NodeMap(nodes));
}

/**
 * The nodes appendLeaves(size, …) reads: the right edge of the current tree,
 * the same list as rootNeeds(size). New nodes only ever merge with those, and
 * the new root needs the ones that are not merged.
 */
export function appendNeeds(size: number): NodeId[] {
  return rootNeeds(size);
}

/**
 * Appends a batch of leaf hashes to a tree of `size` leaves. Returns every node
 * to insert (the new leaves at level 0 and each subtree they complete) and the
 * root of the grown tree. Costs O(k + log n) hashes for k new leaves.
 */
export function appendLeaves(
  size: number,
  leafHashes: readonly Uint8Array[],
  edge: Iterable<StoredNode>,
): { nodes: StoredNode[]; root: Uint8Array } {
  checkSize('size', size);
  for (const hash of leafHashes) checkHash('leaf hash', hash);
  const newSize = size + leafHashes.length;
  checkSize('new size', newSize);
  const known = new NodeMap(edge);
  const nodes: StoredNode[] = [];
  const add = (node: StoredNode): void => {
    nodes.push(node);
    known.set(node);
  };
  leafHashes.forEach((hash, i) => {
    add({ level: 0, index: size + i, hash });
  });
  // At each level, the nodes completed by this batch are the ones ending in (size, newSize].
  for (let level = 1, width = 2; width <= newSize; level++, width *= 2) {
    const end = Math.floor(newSize / width);
    for (let index = Math.floor(size / width); index < end; index++) {
      const left = known.get({ level: level - 1, index: 2 * index });
      const right = known.get({ level: level - 1, index: 2 * index + 1 });
      add({ level, index, hash: nodeHash(left, right) });
    }
  }
  const root = newSize === 0 ? emptyRoot() : rangeHash(0, newSize, known);
  return { nodes, root };
}

// ---- inclusion proofs (RFC 9162 §2.1.3) ------------------------------------

/** The nodes inclusionProof(index, size, …) reads: O(log n) of them. */
export function inclusionNeeds(index: number, size: number): NodeId[] {
  return inclusionRanges(index, size).flatMap(([lo, hi]) => perfectSubtrees(lo, hi));
}

/** PATH(index, D[size]): the audit path from the leaf up, as 32-byte hashes. */
export function inclusionProof(index: number, size: number, nodes: Iterable<StoredNode>): Uint8Array[] {
  const known = new NodeMap(nodes);
  return inclusionRanges(index, size).map(([lo, hi]) => rangeHash(lo, hi, known));
}

// PATH(m, D[n]) = PATH(m, D[0:k]) : MTH(D[k:n])   if m < k
//              = PATH(m-k, D[k:n]) : MTH(D[0:k]) otherwise
// Walked from the top down, so each sibling found is one level closer to the
// root than the next; the proof lists them leaf first, hence the reverse.
function inclusionRanges(index: number, size: number): Array<[number, number]> {
  checkSize('size', size);
  checkSize('index', index);
  if (index >= size) throw new RangeError(`index ${index} is not below tree size ${size}`);
  const siblings: Array<[number, number]> = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    const k = largestPowerOfTwoBelow(hi - lo);
    if (index < lo + k) {
      siblings.push([lo + k, hi]);
      hi = lo + k;
    } else {
      siblings.push([lo, lo + k]);
      lo += k;
    }
  }
  return siblings.reverse();
}

// ---- consistency proofs (RFC 9162 §2.1.4) ----------------------------------

/** The nodes consistencyProof(size1, size2, …) reads: O(log n) of them. */
export function consistencyNeeds(size1: number, size2: number): NodeId[] {
  return consistencyRanges(size1, size2).flatMap(([lo, hi]) => perfectSubtrees(lo, hi));
}

/**
 * PROOF(size1, D[size2]) as 32-byte hashes. Empty when size1 is 0 or equal to
 * size2: the RFC defines proofs for 0 < size1 < size2 only, and the verifier
 * accepts those two trivial cases with an empty proof.
 */
export function consistencyProof(size1: number, size2: number, nodes: Iterable<StoredNode>): Uint8Array[] {
  const known = new NodeMap(nodes);
  return consistencyRanges(size1, size2).map(([lo, hi]) => rangeHash(lo, hi, known));
}

// SUBPROOF(m, D[n], b) = {}                                   if m = n and b
//                      = {MTH(D[n])}                          if m = n and not b
//                      = SUBPROOF(m, D[0:k], b) : MTH(D[k:n])        if m <= k
//                      = SUBPROOF(m-k, D[k:n], false) : MTH(D[0:k])  if m > k
// Walked top down with absolute leaf positions; reversed like inclusionRanges.
function consistencyRanges(size1: number, size2: number): Array<[number, number]> {
  checkSize('size1', size1);
  checkSize('size2', size2);
  if (size1 > size2) throw new RangeError(`size1 ${size1} is larger than size2 ${size2}`);
  if (size1 === 0 || size1 === size2) return [];
  const ranges: Array<[number, number]> = [];
  let lo = 0;
  let hi = size2;
  let wholeOldTree = true; // b: [lo, size1) is still the entire old tree, whose root the verifier has
  while (size1 !== hi) {
    const k = largestPowerOfTwoBelow(hi - lo);
    if (size1 - lo <= k) {
      ranges.push([lo + k, hi]);
      hi = lo + k;
    } else {
      ranges.push([lo, lo + k]);
      lo += k;
      wholeOldTree = false;
    }
  }
  if (!wholeOldTree) ranges.push([lo, hi]);
  return ranges.reverse();
}

// ---- verifiers: exactly RFC 9162 §2.1.3.2 and §2.1.4.2 -----------------------

/** True when `proof` shows the leaf with hash `leaf` at `index` in the tree of `size` leaves with `root`. */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!isSize(index) || !isSize(size) || index >= size) return false;
  if (!isHash(leaf) || !isHash(root) || !proof.every(isHash)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      // If LSB(fn) is not set, shift both until it is or fn is 0.
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalBytes(r, root);
}

/**
 * True when `proof` shows the tree of size2 with root2 extends the tree of size1 with root1.
 * Beyond the RFC (which covers 0 < size1 < size2): equal sizes need equal roots and an
 * empty proof, and size1 = 0 needs the empty-tree root and an empty proof.
 */
export function verifyConsistency(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): boolean {
  if (!isSize(size1) || !isSize(size2) || size1 > size2) return false;
  if (!isHash(root1) || !isHash(root2) || !proof.every(isHash)) return false;
  if (size1 === size2) return proof.length === 0 && equalBytes(root1, root2);
  if (size1 === 0) return proof.length === 0 && equalBytes(root1, emptyRoot());
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      // If LSB(fn) is not set, shift both until it is or fn is 0.
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return equalBytes(fr, root1) && equalBytes(sr, root2) && sn === 0;
}

// ---- tree arithmetic ---------------------------------------------------------

// The complete subtrees making up [lo, hi), largest first. Every range the RFC
// recursions produce starts at a multiple of the power of two at or above its
// length, so the binary decomposition of hi - lo laid out from lo is aligned.
function perfectSubtrees(lo: number, hi: number): NodeId[] {
  const ids: NodeId[] = [];
  let level = 0;
  while (2 ** (level + 1) <= hi - lo) level++;
  for (let start = lo; start < hi; level--) {
    const width = 2 ** level;
    if (start + width <= hi) {
      ids.push({ level, index: start / width });
      start += width;
    }
  }
  return ids;
}

// MTH(D[lo:hi]) from stored nodes: the decomposition folded from the right.
function rangeHash(lo: number, hi: number, known: NodeMap): Uint8Array {
  const hashes = perfectSubtrees(lo, hi).map((id) => known.get(id));
  let acc = hashes.pop()!;
  while (hashes.length > 0) acc = nodeHash(hashes.pop()!, acc);
  return acc;
}

class NodeMap {
  readonly #hashes = new Map<string, Uint8Array>();
  constructor(nodes: Iterable<StoredNode>) {
    for (const node of nodes) this.set(node);
  }
  set(node: StoredNode): void {
    checkHash(`node (level ${node.level}, index ${node.index})`, node.hash);
    this.#hashes.set(`${node.level}/${node.index}`, node.hash);
  }
  get(id: NodeId): Uint8Array {
    const hash = this.#hashes.get(`${id.level}/${id.index}`);
    if (hash === undefined) throw new MissingNodeError(id);
    return hash;
  }
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

function isOdd(n: number): boolean {
  return n % 2 === 1;
}

function half(n: number): number {
  return Math.floor(n / 2);
}

function isSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function isHash(hash: Uint8Array): boolean {
  return hash instanceof Uint8Array && hash.length === HASH_SIZE;
}

function checkSize(name: string, n: number): void {
  if (!isSize(n)) throw new RangeError(`${name} must be a non-negative safe integer, got ${n}`);
}

function checkHash(name: string, hash: Uint8Array): void {
  if (!isHash(hash)) throw new TypeError(`${name} must be ${HASH_SIZE} bytes`);
}
