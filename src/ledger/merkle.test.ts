import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  appendLeaves,
  appendNeeds,
  consistencyNeeds,
  consistencyProof,
  emptyRoot,
  inclusionNeeds,
  inclusionProof,
  leafHash,
  MissingNodeError,
  type NodeId,
  nodeHash,
  rootFromLeafHashes,
  rootFromNodes,
  rootNeeds,
  type StoredNode,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const unhex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));

// The published RFC 6962 test data (certificate-transparency, Trillian,
// transparency-dev/merkle): eight leaves, the roots of sizes 1..8, and proofs.
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(
  unhex,
);
const LEAF_HASHES = LEAVES.map(leafHash);
const EMPTY_ROOT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const rootOf = (size: number): Uint8Array => unhex(ROOTS[size - 1]!);
// Indexes here are 0-based; the published lists number leaves from 1.
const INCLUSION_VECTORS = [
  { index: 0, size: 1, proof: [] },
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const CONSISTENCY_VECTORS = [
  { size1: 1, size2: 1, proof: [] },
  {
    size1: 1,
    size2: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    size1: 6,
    size2: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    size1: 2,
    size2: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    size1: 6,
    size2: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

// ---- test scaffolding -----------------------------------------------------------

// An in-memory stand-in for the node table. read() hands back exactly the rows
// asked for, so a `…Needs` list that forgets a node makes the computation throw.
class Store {
  readonly rows = new Map<string, StoredNode>();
  size = 0;
  read(ids: readonly NodeId[]): StoredNode[] {
    return ids.map((id) => {
      const row = this.rows.get(`${id.level}/${id.index}`);
      assert.ok(row, `store has no node ${id.level}/${id.index}`);
      return row;
    });
  }
  append(hashes: readonly Uint8Array[]): Uint8Array {
    const { nodes, root } = appendLeaves(this.size, hashes, this.read(appendNeeds(this.size)));
    for (const node of nodes) {
      const key = `${node.level}/${node.index}`;
      assert.ok(!this.rows.has(key), `node ${key} written twice`);
      this.rows.set(key, node);
    }
    this.size += hashes.length;
    return root;
  }
  root(size: number): Uint8Array {
    return rootFromNodes(size, this.read(rootNeeds(size)));
  }
  inclusion(index: number, size: number): Uint8Array[] {
    return inclusionProof(index, size, this.read(inclusionNeeds(index, size)));
  }
  consistency(size1: number, size2: number): Uint8Array[] {
    return consistencyProof(size1, size2, this.read(consistencyNeeds(size1, size2)));
  }
}

function storeWith(hashes: readonly Uint8Array[]): Store {
  const store = new Store();
  store.append(hashes);
  return store;
}

// The RFC 9162 definitions of PATH and PROOF applied to the leaf list itself:
// an independent reference for the proofs built from stored nodes.
function referencePath(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  if (leaves.length <= 1) return [];
  const k = splitPoint(leaves.length);
  return m < k
    ? [...referencePath(m, leaves.slice(0, k)), rootFromLeafHashes(leaves.slice(k))]
    : [...referencePath(m - k, leaves.slice(k)), rootFromLeafHashes(leaves.slice(0, k))];
}

function referenceProof(m: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  const subproof = (m: number, d: readonly Uint8Array[], b: boolean): Uint8Array[] => {
    if (m === d.length) return b ? [] : [rootFromLeafHashes(d)];
    const k = splitPoint(d.length);
    return m <= k
      ? [...subproof(m, d.slice(0, k), b), rootFromLeafHashes(d.slice(k))]
      : [...subproof(m - k, d.slice(k), false), rootFromLeafHashes(d.slice(0, k))];
  };
  return m === 0 ? [] : subproof(m, leaves, true);
}

function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

// Distinct leaves, so no two subtrees share a hash by accident.
const leavesFor = (n: number, salt = 0): Uint8Array[] =>
  Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`leaf ${salt}/${i}`)));

function flipped(bytes: Uint8Array, at: number, mask = 0x01): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[at % copy.length]! ^= mask;
  return copy;
}

const hexes = (list: readonly Uint8Array[]): string[] => list.map(hex);

// ---- RFC vectors -----------------------------------------------------------------

describe('merkle: RFC 6962 test vectors', () => {
  it('hashes the empty tree and the empty leaf as published', () => {
    assert.equal(hex(emptyRoot()), EMPTY_ROOT);
    assert.equal(hex(rootFromLeafHashes([])), EMPTY_ROOT);
    assert.equal(hex(leafHash(new Uint8Array())), ROOTS[0]);
  });

  it('gives the published root of every size 1..8, naively and from stored nodes', () => {
    const oneByOne = new Store();
    for (let size = 1; size <= 8; size++) {
      assert.equal(hex(rootFromLeafHashes(LEAF_HASHES.slice(0, size))), ROOTS[size - 1], `naive, size ${size}`);
      assert.equal(hex(oneByOne.append([LEAF_HASHES[size - 1]!])), ROOTS[size - 1], `append, size ${size}`);
    }
    const allAtOnce = storeWith(LEAF_HASHES);
    for (let size = 0; size <= 8; size++) {
      assert.equal(hex(allAtOnce.root(size)), size === 0 ? EMPTY_ROOT : ROOTS[size - 1], `stored, size ${size}`);
    }
  });

  it('node hash is SHA-256(0x01 ‖ left ‖ right)', () => {
    assert.equal(hex(nodeHash(LEAF_HASHES[0]!, LEAF_HASHES[1]!)), ROOTS[1]);
  });

  const store = storeWith(LEAF_HASHES);
  for (const { index, size, proof } of INCLUSION_VECTORS) {
    it(`builds and verifies the published inclusion proof of leaf ${index} in size ${size}`, () => {
      const hashes = proof.map(unhex);
      assert.deepEqual(hexes(store.inclusion(index, size)), proof);
      assert.ok(verifyInclusion(index, size, LEAF_HASHES[index]!, hashes, rootOf(size)));
      for (const [what, probe] of inclusionCorruptions(index, size, hashes, rootOf(size), LEAF_HASHES[index]!)) {
        assert.ok(!verifyInclusion(...probe), `accepted: ${what}`);
      }
    });
  }

  for (const { size1, size2, proof } of CONSISTENCY_VECTORS) {
    it(`builds and verifies the published consistency proof ${size1} → ${size2}`, () => {
      const hashes = proof.map(unhex);
      assert.deepEqual(hexes(store.consistency(size1, size2)), proof);
      assert.ok(verifyConsistency(size1, size2, hashes, rootOf(size1), rootOf(size2)));
      if (hashes.length === 0) return;
      for (const [what, probe] of consistencyCorruptions(size1, size2, hashes, rootOf(size1), rootOf(size2))) {
        assert.ok(!verifyConsistency(...probe), `accepted: ${what}`);
      }
    });
  }
});

type InclusionArgs = Parameters<typeof verifyInclusion>;
type ConsistencyArgs = Parameters<typeof verifyConsistency>;
const SOME_HASH = unhex('abacaba000000000000000000000000000000000000000000060061e00123456');

// The corruptions transparency-dev/merkle throws at the published proofs.
function inclusionCorruptions(
  index: number,
  size: number,
  proof: Uint8Array[],
  root: Uint8Array,
  leaf: Uint8Array,
): Array<[string, InclusionArgs]> {
  const probes: Array<[string, InclusionArgs]> = [
    ['index - 1', [index - 1, size, leaf, proof, root]],
    ['index + 1', [index + 1, size, leaf, proof, root]],
    ['index ^ 2', [index ^ 2, size, leaf, proof, root]],
    ['size * 2', [index, size * 2, leaf, proof, root]],
    ['size / 2', [index, Math.floor(size / 2), leaf, proof, root]],
    ['wrong leaf', [index, size, SOME_HASH, proof, root]],
    ['short leaf', [index, size, leaf.subarray(1), proof, root]],
    ['empty root', [index, size, leaf, proof, emptyRoot()]],
    ['some root', [index, size, leaf, proof, SOME_HASH]],
    ['trailing garbage', [index, size, leaf, [...proof, new Uint8Array()], root]],
    ['trailing root', [index, size, leaf, [...proof, root], root]],
    ['preceding garbage', [index, size, leaf, [new Uint8Array(), ...proof], root]],
    ['preceding root', [index, size, leaf, [root, ...proof], root]],
    // Past the top of the tree the RFC stops (step 4a), or this would pass.
    ['extra level above the root', [index, size, leaf, [...proof, SOME_HASH], nodeHash(SOME_HASH, root)]],
  ];
  proof.forEach((_, i) => {
    const bad = proof.map((h, j) => (j === i ? flipped(h, 0, 8) : h));
    probes.push([`modified proof[${i}]`, [index, size, leaf, bad, root]]);
  });
  if (proof.length > 0) probes.push(['removed component', [index, size, leaf, proof.slice(0, -1), root]]);
  if (proof.length > 1) {
    probes.push(['inserted component', [index, size, leaf, [proof[0]!, SOME_HASH, ...proof.slice(1)], root]]);
  }
  return probes;
}

function consistencyCorruptions(
  size1: number,
  size2: number,
  proof: Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): Array<[string, ConsistencyArgs]> {
  const probes: Array<[string, ConsistencyArgs]> = [
    ['size1 - 1', [size1 - 1, size2, proof, root1, root2]],
    ['size1 + 1', [size1 + 1, size2, proof, root1, root2]],
    ['size1 ^ 2', [size1 ^ 2, size2, proof, root1, root2]],
    ['size2 * 2', [size1, size2 * 2, proof, root1, root2]],
    ['size2 / 2', [size1, Math.floor(size2 / 2), proof, root1, root2]],
    ['wrong root1', [size1, size2, proof, SOME_HASH, root2]],
    ['wrong root2', [size1, size2, proof, root1, SOME_HASH]],
    ['swapped roots', [size1, size2, proof, root2, root1]],
    ['empty proof', [size1, size2, [], root1, root2]],
    ['trailing garbage', [size1, size2, [...proof, new Uint8Array()], root1, root2]],
    ['trailing root1', [size1, size2, [...proof, root1], root1, root2]],
    ['trailing root2', [size1, size2, [...proof, root2], root1, root2]],
    ['preceding garbage', [size1, size2, [new Uint8Array(), ...proof], root1, root2]],
    ['preceding root1', [size1, size2, [root1, ...proof], root1, root2]],
    ['preceding root2', [size1, size2, [root2, ...proof], root1, root2]],
    ['preceding proof[0]', [size1, size2, [proof[0]!, ...proof], root1, root2]],
    ['truncated proof', [size1, size2, proof.slice(0, -1), root1, root2]],
    // Past the top of the tree the RFC stops (step 6a), or this would pass.
    [
      'extra level above the roots',
      [size1, size2, [...proof, SOME_HASH], nodeHash(SOME_HASH, root1), nodeHash(SOME_HASH, root2)],
    ],
  ];
  proof.forEach((_, i) => {
    const bad = proof.map((h, j) => (j === i ? flipped(h, 0, 16) : h));
    probes.push([`modified proof[${i}]`, [size1, size2, bad, root1, root2]]);
  });
  return probes;
}

// ---- edge cases ------------------------------------------------------------------

describe('merkle: edge cases', () => {
  const some = leafHash(Buffer.from('data'));

  it('a one-leaf tree has the leaf hash as root and an empty inclusion proof', () => {
    assert.ok(verifyInclusion(0, 1, some, [], some));
    assert.ok(!verifyInclusion(0, 1, some, [], SOME_HASH));
    assert.ok(!verifyInclusion(0, 1, new Uint8Array(), [], new Uint8Array()));
  });

  it('no inclusion in an empty tree, nor past the end', () => {
    for (const [index, size] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 1],
      [-1, 1],
      [0.5, 2],
    ] as const) {
      assert.ok(!verifyInclusion(index, size, some, [], emptyRoot()), `${index}/${size}`);
      assert.ok(!verifyInclusion(index, size, some, [], some), `${index}/${size}`);
    }
  });

  it('trivial consistency: equal sizes need equal roots, size 0 needs the empty root, and no proof', () => {
    const r1 = leafHash(Buffer.from('1'));
    const r2 = leafHash(Buffer.from('2'));
    assert.ok(verifyConsistency(0, 0, [], emptyRoot(), emptyRoot()));
    assert.ok(verifyConsistency(0, 5, [], emptyRoot(), r2));
    assert.ok(verifyConsistency(3, 3, [], r1, r1));
    assert.ok(!verifyConsistency(0, 5, [], r1, r2), 'a non-empty root for size 0');
    assert.ok(!verifyConsistency(3, 3, [], r1, r2), 'equal sizes, different roots');
    assert.ok(!verifyConsistency(3, 3, [r1], r1, r1), 'equal sizes with a proof');
    assert.ok(!verifyConsistency(0, 5, [r1], emptyRoot(), r2), 'size 0 with a proof');
    assert.ok(!verifyConsistency(2, 1, [], r1, r2), 'shrinking');
    assert.ok(!verifyConsistency(1, 2, [], r1, r2), 'growth without a proof');
  });

  it('refuses impossible proof requests', () => {
    const store = storeWith(leavesFor(5));
    assert.throws(() => store.inclusion(5, 5), RangeError);
    assert.throws(() => store.inclusion(0, 0), RangeError);
    assert.throws(() => store.consistency(4, 3), RangeError);
    assert.throws(() => rootNeeds(-1), RangeError);
    assert.throws(() => rootNeeds(1.5), RangeError);
    assert.throws(() => appendLeaves(0, [new Uint8Array(31)], []), TypeError);
    assert.deepEqual(store.consistency(0, 5), []);
    assert.deepEqual(store.consistency(5, 5), []);
  });

  it('reports the node it was not given', () => {
    const store = storeWith(leavesFor(6));
    const needs = inclusionNeeds(1, 6);
    const rows = store.read(needs).slice(1);
    assert.throws(
      () => inclusionProof(1, 6, rows),
      (err: unknown) => err instanceof MissingNodeError && err.node.level === needs[0]!.level,
    );
    assert.throws(() => appendLeaves(6, leavesFor(1), []), MissingNodeError);
  });

  it('an empty batch changes nothing', () => {
    const store = storeWith(leavesFor(6));
    const { nodes, root } = appendLeaves(6, [], store.read(appendNeeds(6)));
    assert.deepEqual(nodes, []);
    assert.deepEqual(root, store.root(6));
  });
});

// ---- exhaustive small trees ----------------------------------------------------

describe('merkle: every proof of every tree up to 40 leaves', () => {
  const N = 40;
  const leaves = leavesFor(N);
  const store = storeWith(leaves);
  const roots = Array.from({ length: N + 1 }, (_, n) => rootFromLeafHashes(leaves.slice(0, n)));

  it('stores every complete subtree, with the hash of its leaves, and nothing else', () => {
    const expected = new Map<string, string>();
    for (let level = 0; 2 ** level <= N; level++) {
      for (let index = 0; (index + 1) * 2 ** level <= N; index++) {
        const covered = leaves.slice(index * 2 ** level, (index + 1) * 2 ** level);
        expected.set(`${level}/${index}`, hex(rootFromLeafHashes(covered)));
      }
    }
    const actual = new Map([...store.rows].map(([key, node]) => [key, hex(node.hash)]));
    assert.deepEqual(actual, expected);
  });

  it('inclusion proofs match the RFC definition and verify', () => {
    for (let size = 1; size <= N; size++) {
      assert.deepEqual(store.root(size), roots[size]);
      for (let index = 0; index < size; index++) {
        const proof = store.inclusion(index, size);
        assert.deepEqual(hexes(proof), hexes(referencePath(index, leaves.slice(0, size))), `${index}/${size}`);
        assert.ok(verifyInclusion(index, size, leaves[index]!, proof, roots[size]!), `${index}/${size}`);
      }
    }
  });

  it('consistency proofs match the RFC definition and verify', () => {
    for (let size2 = 0; size2 <= N; size2++) {
      for (let size1 = 0; size1 <= size2; size1++) {
        const proof = store.consistency(size1, size2);
        assert.deepEqual(hexes(proof), hexes(referenceProof(size1, leaves.slice(0, size2))), `${size1}→${size2}`);
        assert.ok(verifyConsistency(size1, size2, proof, roots[size1]!, roots[size2]!), `${size1}→${size2}`);
      }
    }
  });

  it('reads O(log n) nodes per operation', () => {
    for (let size = 1; size <= N; size++) {
      const bound = 2 * Math.ceil(Math.log2(size + 1)) + 1;
      assert.ok(appendNeeds(size).length <= Math.ceil(Math.log2(size + 1)), `append ${size}`);
      for (let index = 0; index < size; index++) {
        assert.ok(inclusionNeeds(index, size).length <= bound, `inclusion ${index}/${size}`);
      }
      for (let size1 = 1; size1 < size; size1++) {
        assert.ok(consistencyNeeds(size1, size).length <= bound, `consistency ${size1}→${size}`);
      }
    }
  });
});

// ---- properties on larger trees ---------------------------------------------------

describe('merkle: properties up to a few hundred leaves', () => {
  const MAX = 300;
  const leaves = leavesFor(MAX, 1);
  const roots = Array.from({ length: MAX + 1 }, (_, n) => rootFromLeafHashes(leaves.slice(0, n)));
  const full = storeWith(leaves);

  it('batched appends of any sizes store the same nodes and roots as the naive MTH', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }), (batches) => {
        const store = new Store();
        for (const k of batches) {
          if (store.size + k > MAX) break;
          const root = store.append(leaves.slice(store.size, store.size + k));
          assert.deepEqual(root, roots[store.size]);
        }
        for (const [key, node] of store.rows) assert.deepEqual(node.hash, full.rows.get(key)?.hash, key);
        assert.equal(
          store.rows.size,
          [...full.rows.values()].filter((n) => (n.index + 1) * 2 ** n.level <= store.size).length,
        );
        for (let size = 0; size <= store.size; size++) assert.deepEqual(store.root(size), roots[size]);
      }),
      { numRuns: 60 },
    );
  });

  const indexAndSize = fc
    .integer({ min: 1, max: MAX })
    .chain((size) => fc.tuple(fc.integer({ min: 0, max: size - 1 }), fc.constant(size)));

  it('every inclusion proof verifies, and any flipped byte, other index or other size fails', () => {
    fc.assert(
      fc.property(indexAndSize, fc.nat(), fc.nat(), ([index, size], pick, at) => {
        const proof = full.inclusion(index, size);
        const leaf = leaves[index]!;
        const root = roots[size]!;
        assert.ok(verifyInclusion(index, size, leaf, proof, root));
        assert.ok(!verifyInclusion(index, size, flipped(leaf, at), proof, root), 'flipped leaf');
        assert.ok(!verifyInclusion(index, size, leaf, proof, flipped(root, at)), 'flipped root');
        if (proof.length > 0) {
          const i = pick % proof.length;
          const bad = proof.map((h, j) => (j === i ? flipped(h, at) : h));
          assert.ok(!verifyInclusion(index, size, leaf, bad, root), 'flipped proof byte');
        }
        const other = pick % size;
        if (other !== index) assert.ok(!verifyInclusion(other, size, leaf, proof, root), 'other index');
        // Another size with that size's true root: the proof binds the tree size.
        const otherSize = 1 + (pick % MAX);
        if (otherSize !== size && index < otherSize) {
          assert.ok(!verifyInclusion(index, otherSize, leaf, proof, roots[otherSize]!), 'other size');
        }
      }),
      { numRuns: 500 },
    );
  });

  const sizePair = fc
    .integer({ min: 0, max: MAX })
    .chain((size2) => fc.tuple(fc.integer({ min: 0, max: size2 }), fc.constant(size2)));

  it('every consistency proof verifies, and any flipped byte or other size fails', () => {
    fc.assert(
      fc.property(sizePair, fc.nat(), fc.nat(), ([size1, size2], pick, at) => {
        const proof = full.consistency(size1, size2);
        const root1 = roots[size1]!;
        const root2 = roots[size2]!;
        assert.ok(verifyConsistency(size1, size2, proof, root1, root2));
        if (size1 === 0 || size1 === size2) return;
        assert.ok(!verifyConsistency(size1, size2, proof, flipped(root1, at), root2), 'flipped root1');
        assert.ok(!verifyConsistency(size1, size2, proof, root1, flipped(root2, at)), 'flipped root2');
        const i = pick % proof.length;
        const bad = proof.map((h, j) => (j === i ? flipped(h, at) : h));
        assert.ok(!verifyConsistency(size1, size2, bad, root1, root2), 'flipped proof byte');
        const other1 = 1 + (pick % size2);
        if (other1 !== size1 && other1 < size2) {
          assert.ok(!verifyConsistency(other1, size2, proof, roots[other1]!, root2), 'other size1');
        }
        const other2 = size1 + 1 + (pick % (MAX - size1));
        if (other2 !== size2) {
          assert.ok(!verifyConsistency(size1, other2, proof, root1, roots[other2]!), 'other size2');
        }
      }),
      { numRuns: 500 },
    );
  });
});
