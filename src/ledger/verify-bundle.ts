// The auditor's check, as a pure function: given the verifier key(s), a signed
// checkpoint and what the service handed out (entries, proofs, an older
// checkpoint), list everything that does not add up. An empty list means the
// bundle is intact. It never throws on bad input: bad input is a finding.
//
// Entries are checked against the checkpoint one of two ways:
//   complete: the entries are the whole log, indexes 0..size-1, and together
//             must hash to the checkpoint's root (any row changed, removed or
//             reordered shows up here);
//   otherwise: each entry needs an inclusion proof to the checkpoint's root.
//
// Evidence (what GET /api/v1/audit/evidence/{id} hands out: an entry, the
// checkpoint current when it was asked for, and an inclusion proof against it)
// is checked on its own terms, against the bundle's entry at the same index,
// and for consistency with the bundle's checkpoint.

import { decodeBase64, equalBytes } from './bytes.ts';
import { encodeLeaf, leafHashOf } from './leaf.ts';
import {
  appendLeaves,
  rootFromLeafHashes,
  rootFromNodes,
  rootNeeds,
  type StoredNode,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';
import {
  type Checkpoint,
  NoteError,
  type NoteErrorCode,
  openCheckpoint,
  parseVerifierKey,
  type VerifierKey,
} from './note.ts';

/** An entry as GET /api/v1/audit/entries returns it: the exact leaf text and its base64 leaf hash. */
export type BundleEntry = { readonly index: number; readonly leaf: string; readonly leaf_hash: string };
/** As GET /api/v1/audit/proof/inclusion returns it; hashes are base64. */
export type InclusionProofJson = {
  readonly index: number;
  readonly tree_size: number;
  readonly hashes: readonly string[];
};
/** As GET /api/v1/audit/proof/consistency returns it; hashes are base64. */
export type ConsistencyProofJson = {
  readonly first: number;
  readonly second: number;
  readonly hashes: readonly string[];
};

/**
 * As GET /api/v1/audit/evidence/{evidence_id} returns it. `consistency` links its
 * checkpoint to the bundle's: from the smaller size to the larger. It may be
 * left out when the bundle holds the whole log and the evidence's checkpoint is
 * not the larger one (the older root is then recomputed from the entries).
 */
export type EvidenceJson = {
  readonly evidence_id: number;
  readonly index: number;
  readonly leaf: string;
  readonly leaf_hash: string;
  readonly checkpoint: string;
  readonly inclusion: { readonly tree_size: number; readonly hashes: readonly string[] };
  readonly consistency?: ConsistencyProofJson;
};

export type Bundle = {
  /** Trusted note verifier key strings, rotated-out keys included. */
  readonly verifierKeys: readonly string[];
  /** The signed checkpoint everything is checked against. */
  readonly checkpoint: string;
  /** The origin the caller expects the log to have, when it knows it. */
  readonly origin?: string;
  readonly entries: readonly BundleEntry[];
  /** The entries claim to be the whole log at the checkpoint's size. */
  readonly complete?: boolean;
  /** Inclusion proofs against the checkpoint; required for each entry unless `complete`. */
  readonly inclusion?: readonly InclusionProofJson[];
  /** A checkpoint seen earlier, which the new one must extend; the proof may be left out when `complete`. */
  readonly previous?: { readonly checkpoint: string; readonly consistency?: ConsistencyProofJson };
  /** Evidence records to check, each against its own checkpoint and against this bundle. */
  readonly evidence?: readonly EvidenceJson[];
};

export type FailureKind =
  'key' | 'checkpoint' | 'entry' | 'root' | 'inclusion' | 'consistency' | 'evidence' | 'report' | 'witness';
/** One finding: what failed, and the entry index when one entry is to blame. */
export type Failure = { readonly kind: FailureKind; readonly index?: number; readonly message: string };

export function verifyBundle(bundle: Bundle): Failure[] {
  const failures: Failure[] = [];
  const fail = (kind: FailureKind, message: string, index?: number): void => {
    failures.push(index === undefined ? { kind, message } : { kind, index, message });
  };

  const verifiers = parseVerifiers(bundle.verifierKeys, fail);
  const latest = openOrFail(bundle.checkpoint, verifiers, 'checkpoint', fail);
  if (latest && bundle.origin !== undefined && latest.origin !== bundle.origin) {
    fail('checkpoint', `checkpoint is for origin ${latest.origin}, expected ${bundle.origin}`);
  }

  const { hashes, unusable } = hashEntries(bundle.entries, latest, fail);
  // The leaf hashes of 0..size-1 in order, when the bundle really holds the whole log.
  const wholeLog = bundle.complete && latest ? wholeLogOrFail(hashes, unusable, latest, fail) : undefined;
  if (wholeLog && latest && !equalBytes(rootFromLeafHashes(wholeLog), latest.root)) {
    fail('root', `${span(latest.size)} do not hash to the checkpoint root`);
  }
  if (latest) checkInclusion(bundle, hashes, unusable, latest, fail);
  if (bundle.previous && latest) checkPrevious(bundle.previous, verifiers, latest, wholeLog, fail);
  if (bundle.evidence && bundle.evidence.length > 0) {
    const prefixRoot = wholeLog ? prefixRoots(wholeLog) : undefined;
    for (const ev of bundle.evidence) checkEvidence(ev, bundle, verifiers, latest, hashes, unusable, prefixRoot, fail);
  }
  return failures;
}

/**
 * The root of every prefix of a list of leaf hashes, each in O(log n) after one
 * O(n) pass: the complete subtrees are built once, as the service stores them.
 */
export function prefixRoots(leafHashes: readonly Uint8Array[]): (size: number) => Uint8Array {
  const { nodes } = appendLeaves(0, leafHashes, []);
  const byId = new Map<string, StoredNode>(nodes.map((n) => [`${n.level}/${n.index}`, n]));
  return (size) => {
    if (!Number.isSafeInteger(size) || size < 0 || size > leafHashes.length) {
      throw new RangeError(`prefix size ${size} is not within 0..${leafHashes.length}`);
    }
    // The complete subtrees making up [0, size): all were built above.
    const needed = rootNeeds(size).map((id) => byId.get(`${id.level}/${id.index}`)!);
    return rootFromNodes(size, needed);
  };
}

type Fail = (kind: FailureKind, message: string, index?: number) => void;

function parseVerifiers(texts: readonly string[], fail: Fail): VerifierKey[] {
  if (texts.length === 0) fail('key', 'no verifier key given');
  const keys: VerifierKey[] = [];
  texts.forEach((text, i) => {
    try {
      keys.push(parseVerifierKey(text));
    } catch (err) {
      fail('key', `verifier key ${i + 1}: ${describe(err)}`);
    }
  });
  return keys;
}

function openOrFail(
  text: string,
  verifiers: readonly VerifierKey[],
  label: string,
  fail: Fail,
): Checkpoint | undefined {
  if (typeof text !== 'string') {
    fail('checkpoint', `${label} is missing`);
    return undefined;
  }
  try {
    return openCheckpoint(text, verifiers).checkpoint;
  } catch (err) {
    if (!(err instanceof NoteError)) throw err;
    const reasons: Record<NoteErrorCode, string> = {
      malformed_note: `${label} is not a signed note`,
      malformed_checkpoint: `${label} is malformed`,
      invalid_signature: `${label} signature invalid`,
      unverified_note: `${label} is not signed by a known key`,
      ambiguous_key: 'verifier keys are ambiguous',
      malformed_key: `${label} key is malformed`,
      key_id_mismatch: `${label} key id is wrong`,
    };
    fail('checkpoint', `${reasons[err.code]}: ${err.message}`);
    return undefined;
  }
}

// Checks each entry on its own and returns the hash of each index's leaf bytes
// (the leaf text is what the log committed to; its leaf_hash field is only a
// copy). Indexes that appear more than once, or whose leaf is not text, are
// reported once and set aside as unusable, not hashed.
function hashEntries(
  entries: readonly BundleEntry[],
  latest: Checkpoint | undefined,
  fail: Fail,
): { hashes: Map<number, Uint8Array>; unusable: Set<number> } {
  const hashes = new Map<number, Uint8Array>();
  const unusable = new Set<number>();
  const seen = new Set<number>();
  const isIndex = (i: unknown): boolean => Number.isSafeInteger(i) && (i as number) >= 0;
  for (const entry of entries) {
    if (!isIndex(entry.index)) fail('entry', `an entry has an invalid index ${JSON.stringify(entry.index)}`);
  }
  for (const entry of entries.filter((e) => isIndex(e.index)).sort((a, b) => a.index - b.index)) {
    const i = entry.index;
    if (seen.has(i)) {
      if (!unusable.has(i)) fail('entry', `entry ${i} appears more than once`, i);
      unusable.add(i);
      hashes.delete(i);
      continue;
    }
    seen.add(i);
    if (typeof entry.leaf !== 'string' || !entry.leaf.isWellFormed()) {
      fail('entry', `entry ${i}: leaf is not text`, i);
      unusable.add(i);
      continue;
    }
    const hash = leafHashOf(entry.leaf);
    hashes.set(i, hash);
    const claimed = typeof entry.leaf_hash === 'string' ? decodeBase64(entry.leaf_hash) : undefined;
    if (!claimed || !equalBytes(claimed, hash)) fail('entry', `entry ${i}: leaf_hash does not match leaf bytes`, i);
    if (!isCanonicalLeaf(entry.leaf)) fail('entry', `entry ${i}: leaf is not the canonical JSON of an object`, i);
    if (latest && i >= latest.size) fail('entry', `entry ${i} is beyond the checkpoint (size ${latest.size})`, i);
  }
  return { hashes, unusable };
}

function isCanonicalLeaf(leaf: string): boolean {
  try {
    return encodeLeaf(JSON.parse(leaf)) === leaf;
  } catch {
    return false;
  }
}

// Missing, duplicated or broken entries make the root meaningless; they are reported instead.
function wholeLogOrFail(
  hashes: Map<number, Uint8Array>,
  unusable: Set<number>,
  latest: Checkpoint,
  fail: Fail,
): Uint8Array[] | undefined {
  const ordered: Uint8Array[] = [];
  for (let i = 0; i < latest.size;) {
    const hash = hashes.get(i);
    if (hash !== undefined || unusable.has(i)) {
      if (hash !== undefined) ordered.push(hash);
      i++;
      continue;
    }
    let last = i;
    while (last + 1 < latest.size && !hashes.has(last + 1) && !unusable.has(last + 1)) last++;
    fail('entry', last === i ? `missing entry ${i}` : `missing entries ${i}..${last}`, i);
    i = last + 1;
  }
  return ordered.length === latest.size ? ordered : undefined;
}

function checkInclusion(
  bundle: Bundle,
  hashes: Map<number, Uint8Array>,
  unusable: Set<number>,
  latest: Checkpoint,
  fail: Fail,
): void {
  const proofs = new Map<number, InclusionProofJson>();
  for (const proof of bundle.inclusion ?? []) {
    if (unusable.has(proof.index)) continue; // The entry itself is already reported.
    if (!hashes.has(proof.index)) {
      fail('inclusion', `inclusion proof for entry ${proof.index}, which the bundle does not hold`, proof.index);
    } else if (proofs.has(proof.index)) {
      fail('inclusion', `entry ${proof.index} has more than one inclusion proof`, proof.index);
    } else {
      proofs.set(proof.index, proof);
    }
  }
  for (const [i, hash] of hashes) {
    if (i >= latest.size) continue; // Already reported as beyond the checkpoint.
    const proof = proofs.get(i);
    if (proof === undefined) {
      if (!bundle.complete) fail('inclusion', `entry ${i}: no inclusion proof`, i);
      continue;
    }
    if (proof.tree_size !== latest.size) {
      fail(
        'inclusion',
        `entry ${i}: inclusion proof is for tree size ${proof.tree_size}, the checkpoint's is ${latest.size}`,
        i,
      );
      continue;
    }
    const path = decodeHashes(proof.hashes);
    if (!path || !verifyInclusion(i, latest.size, hash, path, latest.root)) {
      fail('inclusion', `entry ${i}: inclusion proof does not lead to the checkpoint root`, i);
    }
  }
}

function checkPrevious(
  previous: NonNullable<Bundle['previous']>,
  verifiers: readonly VerifierKey[],
  latest: Checkpoint,
  wholeLog: readonly Uint8Array[] | undefined,
  fail: Fail,
): void {
  const older = openOrFail(previous.checkpoint, verifiers, 'older checkpoint', fail);
  if (!older) return;
  const inconsistent = `checkpoint of size ${latest.size} is not consistent with size ${older.size}`;
  if (older.origin !== latest.origin) {
    fail('consistency', `older checkpoint is for origin ${older.origin}, not ${latest.origin}`);
    return;
  }
  if (older.size > latest.size) {
    fail('consistency', `${inconsistent}: the older checkpoint is larger`);
    return;
  }
  const proof = previous.consistency;
  if (proof) {
    if (proof.first !== older.size || proof.second !== latest.size) {
      fail(
        'consistency',
        `consistency proof is for sizes ${proof.first} → ${proof.second}, not ${older.size} → ${latest.size}`,
      );
    } else {
      const path = decodeHashes(proof.hashes);
      if (!path || !verifyConsistency(older.size, latest.size, path, older.root, latest.root))
        fail('consistency', inconsistent);
    }
  }
  if (wholeLog) {
    // With the whole log at hand, the older root can be recomputed directly.
    if (!equalBytes(rootFromLeafHashes(wholeLog.slice(0, older.size)), older.root)) {
      fail('consistency', `${inconsistent}: ${span(older.size)} do not hash to the older root`);
    }
  } else if (!proof) {
    fail('consistency', `no consistency proof from size ${older.size} to ${latest.size}`);
  }
}

function checkEvidence(
  ev: EvidenceJson,
  bundle: Bundle,
  verifiers: readonly VerifierKey[],
  latest: Checkpoint | undefined,
  hashes: Map<number, Uint8Array>,
  unusable: Set<number>,
  prefixRoot: ((size: number) => Uint8Array) | undefined,
  fail: Fail,
): void {
  const i = ev.index;
  const id = ev.evidence_id;
  if (!Number.isSafeInteger(i) || i < 0) {
    fail('evidence', `evidence ${JSON.stringify(id)} has an invalid index ${JSON.stringify(i)}`);
    return;
  }
  const label = `evidence ${id} (entry ${i})`;
  const failAt = (message: string): void => fail('evidence', `${label}: ${message}`, i);
  if (id !== i + 1) failAt('evidence id is not the entry index + 1');
  if (typeof ev.leaf !== 'string' || !ev.leaf.isWellFormed()) {
    failAt('leaf is not text');
    return;
  }
  const hash = leafHashOf(ev.leaf);
  const claimed = typeof ev.leaf_hash === 'string' ? decodeBase64(ev.leaf_hash) : undefined;
  if (!claimed || !equalBytes(claimed, hash)) failAt('leaf_hash does not match leaf bytes');
  const inLog = hashes.get(i);
  if (inLog !== undefined && !equalBytes(inLog, hash)) failAt("leaf differs from the log's entry at that index");
  else if (inLog === undefined && !unusable.has(i) && bundle.complete && latest && i < latest.size) {
    failAt('the log has no entry at that index');
  }

  const own = openOrFail(ev.checkpoint, verifiers, `${label} checkpoint`, fail);
  if (!own) return;
  if (latest && own.origin !== latest.origin) {
    failAt(`checkpoint is for origin ${own.origin}, not ${latest.origin}`);
    return;
  }
  const proof = ev.inclusion;
  if (!proof || proof.tree_size !== own.size) {
    failAt(`inclusion proof is for tree size ${proof?.tree_size}, its checkpoint's is ${own.size}`);
  } else {
    const path = decodeHashes(proof.hashes);
    if (!path || !verifyInclusion(i, own.size, hash, path, own.root))
      failAt('inclusion proof does not lead to its checkpoint root');
  }
  if (!latest) return;
  // Its checkpoint and the bundle's must be two states of one append-only log.
  const [small, large] = own.size <= latest.size ? [own, latest] : [latest, own];
  const link = ev.consistency;
  const inconsistent = `its checkpoint (size ${own.size}) is not consistent with the checkpoint of size ${latest.size}`;
  if (own.size === latest.size) {
    if (!equalBytes(own.root, latest.root))
      failAt(`its checkpoint has another root than the checkpoint of the same size ${latest.size}`);
  } else if (link) {
    const path = link.first === small.size && link.second === large.size ? decodeHashes(link.hashes) : undefined;
    if (!path || !verifyConsistency(small.size, large.size, path, small.root, large.root)) failAt(inconsistent);
  } else if (prefixRoot && own.size <= latest.size) {
    if (!equalBytes(prefixRoot(own.size), own.root))
      failAt(`${inconsistent}: ${span(own.size)} do not hash to its root`);
  } else {
    failAt(`no consistency proof from size ${small.size} to ${large.size}`);
  }
}

function decodeHashes(list: readonly string[]): Uint8Array[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const hashes = list.map((text) => (typeof text === 'string' ? decodeBase64(text) : undefined));
  return hashes.every((h): h is Uint8Array => h?.length === 32) ? hashes : undefined;
}

function span(size: number): string {
  return size === 0 ? 'no entries (an empty log)' : `entries 0..${size - 1}`;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
