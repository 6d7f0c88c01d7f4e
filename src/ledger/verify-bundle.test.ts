import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeBase64 } from './bytes.ts';
import { encodeLeaf, leafHashOf } from './leaf.ts';
import {
  appendLeaves,
  consistencyNeeds,
  consistencyProof,
  inclusionNeeds,
  inclusionProof,
  rootFromLeafHashes,
  type StoredNode,
} from './merkle.ts';
import { formatVerifierKey, generateSignerKey, type SignerKey, signCheckpoint, verifierKeyFor } from './note.ts';
import {
  type Bundle,
  type BundleEntry,
  type EvidenceJson,
  type Failure,
  prefixRoots,
  verifyBundle,
} from './verify-bundle.ts';

const ORIGIN = 'agent-ledger.local/3f0c2d7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const service = generateSignerKey('agent-ledger.local');
const verifierKey = formatVerifierKey(verifierKeyFor(service, ORIGIN));

// A log as the service would keep it: leaves, stored nodes, signed checkpoints.
function makeLog(size: number, variant = '') {
  const entries: BundleEntry[] = Array.from({ length: size }, (_, index) => {
    const leaf = encodeLeaf({ kind: 'invocation', seq: index, at: `2026-01-01T00:00:${index % 60}Z${variant}` });
    return { index, leaf, leaf_hash: encodeBase64(leafHashOf(leaf)) };
  });
  const hashes = entries.map((e) => leafHashOf(e.leaf));
  const nodes = new Map<string, StoredNode>();
  for (const node of appendLeaves(0, hashes, []).nodes) nodes.set(`${node.level}/${node.index}`, node);
  const read = (ids: { level: number; index: number }[]) => ids.map((id) => nodes.get(`${id.level}/${id.index}`)!);
  const checkpoint = (n: number, signer: SignerKey = service, origin = ORIGIN) =>
    signCheckpoint({ origin, size: n, root: rootFromLeafHashes(hashes.slice(0, n)) }, signer);
  const inclusion = (index: number, n = size) => ({
    index,
    tree_size: n,
    hashes: inclusionProof(index, n, read(inclusionNeeds(index, n))).map(encodeBase64),
  });
  const consistency = (first: number, second = size) => ({
    first,
    second,
    hashes: consistencyProof(first, second, read(consistencyNeeds(first, second))).map(encodeBase64),
  });
  return { entries, checkpoint, inclusion, consistency };
}

const log = makeLog(42);
const complete = (over: Partial<Bundle> = {}): Bundle => ({
  verifierKeys: [verifierKey],
  checkpoint: log.checkpoint(42),
  origin: ORIGIN,
  entries: log.entries,
  complete: true,
  ...over,
});
const partial = (indexes: number[], over: Partial<Bundle> = {}): Bundle => ({
  verifierKeys: [verifierKey],
  checkpoint: log.checkpoint(42),
  entries: indexes.map((i) => log.entries[i]!),
  inclusion: indexes.map((i) => log.inclusion(i)),
  ...over,
});
const messages = (failures: Failure[]): string[] => failures.map((f) => f.message);

function withLeaf(entries: readonly BundleEntry[], index: number, change: Partial<BundleEntry>): BundleEntry[] {
  return entries.map((e) => (e.index === index ? { ...e, ...change } : e));
}

describe('verifyBundle: intact bundles', () => {
  it('passes the whole log', () => {
    assert.deepEqual(verifyBundle(complete()), []);
  });

  it('passes the whole log listed in any order', () => {
    assert.deepEqual(verifyBundle(complete({ entries: [...log.entries].reverse() })), []);
  });

  it('passes some entries with their inclusion proofs', () => {
    assert.deepEqual(verifyBundle(partial([0, 17, 41])), []);
  });

  it('passes an empty log', () => {
    const empty = makeLog(0);
    assert.deepEqual(verifyBundle(complete({ checkpoint: empty.checkpoint(0), entries: [] })), []);
  });

  it('passes an older checkpoint with its consistency proof, or with the whole log', () => {
    const previous = { checkpoint: log.checkpoint(7), consistency: log.consistency(7) };
    assert.deepEqual(verifyBundle(partial([3], { previous })), []);
    assert.deepEqual(verifyBundle(complete({ previous: { checkpoint: log.checkpoint(7) } })), []);
    assert.deepEqual(verifyBundle(complete({ previous: { checkpoint: log.checkpoint(42) } })), []);
  });

  it('accepts a rotated-out key next to the current one', () => {
    const old = generateSignerKey('agent-ledger.local');
    const keys = [formatVerifierKey(verifierKeyFor(old, ORIGIN)), verifierKey];
    const previous = { checkpoint: log.checkpoint(7, old), consistency: log.consistency(7) };
    assert.deepEqual(verifyBundle(complete({ verifierKeys: keys, previous })), []);
  });
});

describe('verifyBundle: tampering', () => {
  const changed = encodeLeaf({ kind: 'invocation', seq: 17, at: '2026-01-01T00:00:18Z' });

  it('a changed leaf text: its leaf_hash no longer matches, nor does the root', () => {
    const failures = verifyBundle(complete({ entries: withLeaf(log.entries, 17, { leaf: changed }) }));
    assert.deepEqual(messages(failures), [
      'entry 17: leaf_hash does not match leaf bytes',
      'entries 0..41 do not hash to the checkpoint root',
    ]);
    assert.equal(failures[0]!.index, 17);
  });

  it('a changed leaf with a recomputed leaf_hash: the root, or the inclusion proof, gives it away', () => {
    const forged = withLeaf(log.entries, 17, { leaf: changed, leaf_hash: encodeBase64(leafHashOf(changed)) });
    assert.deepEqual(messages(verifyBundle(complete({ entries: forged }))), [
      'entries 0..41 do not hash to the checkpoint root',
    ]);
    const one = partial([17], { entries: [forged[17]!] });
    assert.deepEqual(messages(verifyBundle(one)), ['entry 17: inclusion proof does not lead to the checkpoint root']);
  });

  it('a removed entry', () => {
    const entries = log.entries.filter((e) => e.index !== 12);
    assert.deepEqual(messages(verifyBundle(complete({ entries }))), ['missing entry 12']);
    const tail = log.entries.slice(0, 30);
    assert.deepEqual(messages(verifyBundle(complete({ entries: tail }))), ['missing entries 30..41']);
  });

  it('two entries swapped', () => {
    const swapped = log.entries.map((e) =>
      e.index === 3 ? { ...log.entries[4]!, index: 3 } : e.index === 4 ? { ...log.entries[3]!, index: 4 } : e,
    );
    assert.deepEqual(messages(verifyBundle(complete({ entries: swapped }))), [
      'entries 0..41 do not hash to the checkpoint root',
    ]);
    const both = partial([3, 4], { entries: [swapped[3]!, swapped[4]!] });
    assert.deepEqual(messages(verifyBundle(both)), [
      'entry 3: inclusion proof does not lead to the checkpoint root',
      'entry 4: inclusion proof does not lead to the checkpoint root',
    ]);
  });

  it('a replaced leaf hash, the leaf itself intact', () => {
    const entries = withLeaf(log.entries, 5, { leaf_hash: log.entries[6]!.leaf_hash });
    assert.deepEqual(messages(verifyBundle(complete({ entries }))), ['entry 5: leaf_hash does not match leaf bytes']);
    const garbage = withLeaf(log.entries, 5, { leaf_hash: 'not base64!' });
    assert.deepEqual(messages(verifyBundle(complete({ entries: garbage }))), [
      'entry 5: leaf_hash does not match leaf bytes',
    ]);
  });

  it('a leaf that hashes right but is not canonical JSON', () => {
    const loose = `{"kind": "invocation"}`;
    const entries = withLeaf(log.entries, 8, { leaf: loose, leaf_hash: encodeBase64(leafHashOf(loose)) });
    const failures = messages(verifyBundle(complete({ entries })));
    assert.deepEqual(failures, [
      'entry 8: leaf is not the canonical JSON of an object',
      'entries 0..41 do not hash to the checkpoint root',
    ]);
  });

  it('a duplicated entry and one past the checkpoint', () => {
    const extra = makeLog(43).entries[42]!;
    const entries = [...log.entries, log.entries[9]!, extra];
    assert.deepEqual(messages(verifyBundle(complete({ entries }))), [
      'entry 9 appears more than once',
      'entry 42 is beyond the checkpoint (size 42)',
    ]);
  });

  it('a forged checkpoint: body changed under the signature', () => {
    const forged = log.checkpoint(42).replace(`${ORIGIN}\n42\n`, `${ORIGIN}\n41\n`);
    const failures = verifyBundle(complete({ checkpoint: forged }));
    assert.equal(failures.length, 1);
    assert.match(failures[0]!.message, /^checkpoint signature invalid: /);
    assert.equal(failures[0]!.kind, 'checkpoint');
  });

  it('a forged checkpoint: signed by another key under the same name', () => {
    const mallory = generateSignerKey('agent-ledger.local');
    const failures = messages(verifyBundle(complete({ checkpoint: log.checkpoint(42, mallory) })));
    assert.equal(failures.length, 1);
    assert.match(failures[0]!, /^checkpoint is not signed by a known key: /);
  });

  it('a genuine checkpoint of another workspace', () => {
    const other = 'agent-ledger.local/another-workspace';
    const keys = [verifierKey, formatVerifierKey(verifierKeyFor(service, other))];
    const failures = messages(
      verifyBundle(complete({ verifierKeys: keys, checkpoint: log.checkpoint(42, service, other) })),
    );
    assert.deepEqual(failures, [`checkpoint is for origin ${other}, expected ${ORIGIN}`]);
  });

  it('a log that was rewritten: not consistent with the older checkpoint', () => {
    const fork = makeLog(42, ' (rewritten)');
    const previous = { checkpoint: fork.checkpoint(7), consistency: log.consistency(7) };
    assert.deepEqual(messages(verifyBundle(partial([3], { previous }))), [
      'checkpoint of size 42 is not consistent with size 7',
    ]);
    assert.deepEqual(messages(verifyBundle(complete({ previous: { checkpoint: fork.checkpoint(7) } }))), [
      'checkpoint of size 42 is not consistent with size 7: entries 0..6 do not hash to the older root',
    ]);
  });

  it('an older checkpoint larger than the new one, or without a proof', () => {
    const small = makeLog(10);
    const bundle = { ...partial([3]), checkpoint: log.checkpoint(10), inclusion: [log.inclusion(3, 10)] };
    assert.deepEqual(messages(verifyBundle({ ...bundle, previous: { checkpoint: log.checkpoint(20) } })), [
      'checkpoint of size 10 is not consistent with size 20: the older checkpoint is larger',
    ]);
    assert.deepEqual(messages(verifyBundle({ ...bundle, previous: { checkpoint: small.checkpoint(7) } })), [
      'no consistency proof from size 7 to 10',
    ]);
    const wrongSizes = { checkpoint: log.checkpoint(7), consistency: log.consistency(6, 10) };
    assert.deepEqual(messages(verifyBundle({ ...bundle, previous: wrongSizes })), [
      'consistency proof is for sizes 6 → 10, not 7 → 10',
    ]);
  });
});

describe('verifyBundle: incomplete or broken input', () => {
  it('wants an inclusion proof for each entry when not the whole log', () => {
    const bundle = partial([2, 5], { inclusion: [log.inclusion(2)] });
    assert.deepEqual(verifyBundle(bundle), [{ kind: 'inclusion', index: 5, message: 'entry 5: no inclusion proof' }]);
  });

  it('wants proofs made against the checkpoint', () => {
    const bundle = partial([2], { inclusion: [log.inclusion(2, 40)] });
    assert.deepEqual(messages(verifyBundle(bundle)), [
      "entry 2: inclusion proof is for tree size 40, the checkpoint's is 42",
    ]);
    const stray = partial([2], { inclusion: [log.inclusion(2), log.inclusion(9)] });
    assert.deepEqual(messages(verifyBundle(stray)), ['inclusion proof for entry 9, which the bundle does not hold']);
    const garbled = partial([2], { inclusion: [{ ...log.inclusion(2), hashes: ['AAAA'] }] });
    assert.deepEqual(messages(verifyBundle(garbled)), [
      'entry 2: inclusion proof does not lead to the checkpoint root',
    ]);
  });

  it('reports bad keys and unreadable checkpoints instead of throwing', () => {
    assert.deepEqual(messages(verifyBundle(complete({ verifierKeys: [] }))).slice(0, 1), ['no verifier key given']);
    const bad = verifyBundle(complete({ verifierKeys: ['nonsense', verifierKey] }));
    assert.deepEqual(
      bad.map((f) => f.kind),
      ['key'],
    );
    const unreadable = messages(verifyBundle(complete({ checkpoint: 'hello' })));
    assert.equal(unreadable.length, 1);
    assert.match(unreadable[0]!, /^checkpoint is not a signed note: /);
    const missing = verifyBundle(complete({ checkpoint: undefined as unknown as string }));
    assert.deepEqual(messages(missing), ['checkpoint is missing']);
  });

  it('still checks each entry against its own leaf hash when the checkpoint is unusable', () => {
    const entries = withLeaf(log.entries, 1, { leaf_hash: log.entries[0]!.leaf_hash });
    const failures = messages(verifyBundle(complete({ checkpoint: 'hello', entries })));
    assert.equal(failures.length, 2);
    assert.equal(failures[1], 'entry 1: leaf_hash does not match leaf bytes');
  });

  it('reports entries with impossible indexes', () => {
    const entries = [...log.entries, { ...log.entries[0]!, index: -1 }, { ...log.entries[0]!, index: 1.5 }];
    assert.deepEqual(messages(verifyBundle(complete({ entries }))), [
      'an entry has an invalid index -1',
      'an entry has an invalid index 1.5',
    ]);
  });
});

describe('verifyBundle: evidence records', () => {
  // GET /api/v1/audit/evidence/{id}: an entry with a proof against the checkpoint current at the time.
  const evidence = (index: number, n: number, from = log): EvidenceJson => ({
    evidence_id: index + 1,
    index,
    leaf: from.entries[index]!.leaf,
    leaf_hash: from.entries[index]!.leaf_hash,
    checkpoint: from.checkpoint(n),
    inclusion: { tree_size: n, hashes: from.inclusion(index, n).hashes },
  });

  it('passes evidence against the same, an older or a newer checkpoint', () => {
    assert.deepEqual(verifyBundle(complete({ evidence: [evidence(0, 42), evidence(17, 42), evidence(41, 42)] })), []);
    // Older: the whole log gives the older root; without it, a consistency proof does.
    assert.deepEqual(verifyBundle(complete({ evidence: [evidence(17, 30), evidence(0, 1)] })), []);
    const linked = { ...evidence(17, 30), consistency: log.consistency(30, 42) };
    assert.deepEqual(verifyBundle(partial([3], { evidence: [linked] })), []);
    // Newer (the log grew between the two requests): a proof from the bundle's size to the evidence's.
    const newer = { ...evidence(35, 42), consistency: log.consistency(30, 42) };
    const at30 = complete({ checkpoint: log.checkpoint(30), entries: log.entries.slice(0, 30), evidence: [newer] });
    assert.deepEqual(verifyBundle(at30), []);
  });

  it('prefixRoots gives the root of every prefix', () => {
    const hashes = log.entries.map((e) => leafHashOf(e.leaf));
    const roots = prefixRoots(hashes);
    for (let n = 0; n <= hashes.length; n++) assert.deepEqual(roots(n), rootFromLeafHashes(hashes.slice(0, n)));
    assert.throws(() => roots(43), RangeError);
  });

  it('evidence whose leaf is not the log entry at its index', () => {
    const wrong = { ...evidence(5, 42), leaf: log.entries[6]!.leaf, leaf_hash: log.entries[6]!.leaf_hash };
    const failures = verifyBundle(complete({ evidence: [wrong] }));
    assert.deepEqual(messages(failures), [
      "evidence 6 (entry 5): leaf differs from the log's entry at that index",
      'evidence 6 (entry 5): inclusion proof does not lead to its checkpoint root',
    ]);
    assert.ok(failures.every((f) => f.kind === 'evidence' && f.index === 5));
  });

  it('evidence from a rewritten log, signed by the genuine key', () => {
    const fork = makeLog(42, ' (rewritten)');
    assert.deepEqual(messages(verifyBundle(complete({ evidence: [evidence(3, 20, fork)] }))), [
      "evidence 4 (entry 3): leaf differs from the log's entry at that index",
      'evidence 4 (entry 3): its checkpoint (size 20) is not consistent with the checkpoint of size 42: entries 0..19 do not hash to its root',
    ]);
    const linked = { ...evidence(3, 20, fork), consistency: log.consistency(20, 42) };
    assert.deepEqual(messages(verifyBundle(partial([], { evidence: [linked] }))), [
      'evidence 4 (entry 3): its checkpoint (size 20) is not consistent with the checkpoint of size 42',
    ]);
  });

  it('evidence with a wrong id, a forged checkpoint, a bad proof, or no link to the bundle', () => {
    assert.deepEqual(messages(verifyBundle(complete({ evidence: [{ ...evidence(5, 42), evidence_id: 5 }] }))), [
      'evidence 5 (entry 5): evidence id is not the entry index + 1',
    ]);
    const mallory = generateSignerKey('agent-ledger.local');
    const forged = { ...evidence(5, 42), checkpoint: log.checkpoint(42, mallory) };
    const [unsigned] = messages(verifyBundle(complete({ evidence: [forged] })));
    assert.match(unsigned!, /^evidence 6 \(entry 5\) checkpoint is not signed by a known key: /);
    const badProof = { ...evidence(5, 42), inclusion: { tree_size: 42, hashes: log.inclusion(6).hashes } };
    assert.deepEqual(messages(verifyBundle(complete({ evidence: [badProof] }))), [
      'evidence 6 (entry 5): inclusion proof does not lead to its checkpoint root',
    ]);
    assert.deepEqual(messages(verifyBundle(partial([], { evidence: [evidence(5, 30)] }))), [
      'evidence 6 (entry 5): no consistency proof from size 30 to 42',
    ]);
    const missing = complete({ entries: log.entries.filter((e) => e.index !== 5), evidence: [evidence(5, 42)] });
    assert.deepEqual(messages(verifyBundle(missing)), [
      'missing entry 5',
      'evidence 6 (entry 5): the log has no entry at that index',
    ]);
  });
});
