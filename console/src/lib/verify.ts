// Verification of the audit trail in this browser, with WebCrypto only:
// C2SP signed-note checkpoints (Ed25519), RFC 6962/9162 leaf hashes,
// inclusion and consistency proofs. The same checks as `agent-ledger verify`.

const enc = new TextEncoder();

export function b64decode(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
export function b64encode(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
}
export function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!;
  return d === 0;
}

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  let n = 0;
  for (const p of parts) n += p.length;
  const buf = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    buf.set(p, o);
    o += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
}

const LEAF = Uint8Array.of(0);
const NODE = Uint8Array.of(1);
export const leafHash = (leaf: string) => sha256(LEAF, enc.encode(leaf));
const nodeHash = (l: Uint8Array, r: Uint8Array) => sha256(NODE, l, r);

export class VerifyError extends Error {}

export interface VerifierKey {
  name: string;
  keyId: number;
  publicKey: Uint8Array;
  text: string;
}

/** A C2SP verifier key: name+hex8 key id+base64(0x01 ‖ Ed25519 public key). */
export async function parseVerifierKey(text: string): Promise<VerifierKey> {
  const m = /^([^+\s]+)\+([0-9a-fA-F]{8})\+([A-Za-z0-9+/=]+)$/.exec(text.trim());
  if (!m) throw new VerifyError('The verifier key is not name+keyid+key.');
  const raw = b64decode(m[3]!);
  if (raw.length !== 33 || raw[0] !== 1) throw new VerifyError('The verifier key is not an Ed25519 key.');
  const publicKey = raw.slice(1);
  const digest = await sha256(enc.encode(m[1]!), Uint8Array.of(0x0a, 0x01), publicKey);
  const keyId = new DataView(digest.buffer).getUint32(0);
  if (keyId !== parseInt(m[2]!, 16)) throw new VerifyError('The verifier key id does not match its key.');
  return { name: m[1]!, keyId, publicKey, text: text.trim() };
}

export async function keyFingerprint(k: VerifierKey): Promise<string> {
  return hex(await sha256(k.publicKey));
}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Uint8Array;
  signedBy: string;
}

/**
 * Verifies a signed checkpoint against the log's keys (current and rotated
 * out) and parses it. Throws VerifyError when no key's signature verifies.
 */
export async function verifyCheckpoint(note: string, keys: VerifierKey[], origin: string): Promise<Checkpoint> {
  const split = note.indexOf('\n\n');
  if (split < 0) throw new VerifyError('The checkpoint is not a signed note.');
  const text = note.slice(0, split + 1);
  const lines = text.split('\n');
  if (lines.length < 4) throw new VerifyError('The checkpoint has no origin, size and root.');
  const [o, sizeText, rootText] = lines;
  if (o !== origin) throw new VerifyError(`The checkpoint is for ${o}, not ${origin}.`);
  if (!/^\d{1,16}$/.test(sizeText!)) throw new VerifyError('The checkpoint size is not a number.');
  const root = b64decode(rootText!);
  if (root.length !== 32) throw new VerifyError('The checkpoint root is not a SHA-256 hash.');
  const sigLines = note
    .slice(split + 2)
    .split('\n')
    .filter((l) => l !== '');
  for (const line of sigLines) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) continue;
    const blob = b64decode(m[2]!);
    if (blob.length !== 68) continue;
    const id = new DataView(blob.buffer, blob.byteOffset).getUint32(0);
    for (const k of keys) {
      if (k.name !== m[1] || k.keyId !== id) continue;
      const key = await crypto.subtle.importKey('raw', k.publicKey as BufferSource, { name: 'Ed25519' }, false, [
        'verify',
      ]);
      const ok = await crypto.subtle.verify(
        { name: 'Ed25519' },
        key,
        blob.slice(4) as BufferSource,
        enc.encode(text) as BufferSource,
      );
      if (ok) return { origin: o!, size: Number(sizeText), root, signedBy: k.text };
      throw new VerifyError('The checkpoint signature does not verify: the checkpoint was altered or forged.');
    }
  }
  throw new VerifyError("No signature on the checkpoint is by the log's key.");
}

/** RFC 9162 §2.1.3.2: the root an inclusion proof leads to. */
export async function rootFromInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: Uint8Array[],
): Promise<Uint8Array> {
  if (index >= size) throw new VerifyError('The entry index is beyond the tree size.');
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) throw new VerifyError('The inclusion proof is too long.');
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) throw new VerifyError('The inclusion proof is too short.');
  return r;
}

export async function verifyInclusion(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: string[],
  root: Uint8Array,
): Promise<void> {
  const got = await rootFromInclusion(index, size, leaf, proof.map(b64decode));
  if (!equal(got, root))
    throw new VerifyError(
      'The inclusion proof does not lead to the checkpoint root: the entry or the proof was altered.',
    );
}

/** RFC 9162 §2.1.4.2: that the tree of size `second` extends the tree of size `first`. */
export async function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proofB64: string[],
): Promise<void> {
  const proof = proofB64.map(b64decode);
  if (first > second) throw new VerifyError('The log is smaller than the checkpoint this browser saw before.');
  if (first === second) {
    if (proof.length !== 0 || !equal(firstRoot, secondRoot))
      throw new VerifyError('Same size, different root: the log was rewritten.');
    return;
  }
  if (first === 0) return;
  let path = proof;
  if ((first & (first - 1)) === 0) path = [firstRoot, ...proof];
  if (path.length === 0) throw new VerifyError('The consistency proof is empty.');
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) throw new VerifyError('The consistency proof is too long.');
    if (fn % 2 === 1 || fn === sn) {
      fr = await nodeHash(c, fr);
      sr = await nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = await nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0 || !equal(fr, firstRoot) || !equal(sr, secondRoot)) {
    throw new VerifyError('The log is not an extension of the checkpoint this browser saw before.');
  }
}

export interface Evidence {
  evidence_id: number;
  index: number;
  leaf: string;
  leaf_hash: string;
  checkpoint: string;
  inclusion: { tree_size: number; hashes: string[] };
}

/** Checks an evidence bundle: leaf hash, checkpoint signature, inclusion in that checkpoint. */
export async function verifyEvidence(ev: Evidence, keys: VerifierKey[], origin: string): Promise<Checkpoint> {
  const lh = await leafHash(ev.leaf);
  if (b64encode(lh) !== ev.leaf_hash) throw new VerifyError('The leaf hash does not match the entry.');
  const cp = await verifyCheckpoint(ev.checkpoint, keys, origin);
  if (cp.size !== ev.inclusion.tree_size)
    throw new VerifyError('The proof is for another tree size than the checkpoint.');
  await verifyInclusion(ev.index, cp.size, lh, ev.inclusion.hashes, cp.root);
  return cp;
}
