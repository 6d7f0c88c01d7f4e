// C2SP signed notes (c2sp.org/signed-note) with Ed25519, the key strings of
// Go's golang.org/x/mod/sumdb/note, and C2SP tlog checkpoints
// (c2sp.org/tlog-checkpoint) on top. Any tool that speaks those formats (Go's
// note package, Sigstore, Trillian/Tessera clients) can check our checkpoints.
//
//   note       = text (ends in "\n") + "\n" + signature lines
//   signature  = "— " + key name + " " + base64(key id ‖ Ed25519 signature of text) + "\n"
//   key id     = SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key)[:4], big-endian
//   verifier   = name + "+" + hex8(key id) + "+" + base64(0x01 ‖ public key)
//   signer     = "PRIVATE+KEY+" + name + "+" + hex8(key id) + "+" + base64(0x01 ‖ 32-byte seed)
//
// A key id depends on the key NAME as well as the key, and one service key signs
// the checkpoints of many logs (one per workspace, each named by its origin), so
// signing takes the key name explicitly and keyId() works for any name.

import { createHash, createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { decodeBase64, encodeBase64, equalBytes, utf8 } from './bytes.ts';
import { HASH_SIZE } from './merkle.ts';

export type NoteErrorCode =
  | 'malformed_note' // not a signed note: bad characters, no signature block, a bad signature line
  | 'unverified_note' // well formed, but no signature from a known key (for checkpoints: named by the origin)
  | 'invalid_signature' // a known key's signature does not verify: the note was altered or forged
  | 'ambiguous_key' // two different verifier keys share a name and key id
  | 'malformed_key' // a signer or verifier key string that does not parse
  | 'key_id_mismatch' // a key string whose key id is not the hash of its name and key
  | 'malformed_checkpoint'; // a note text that is not origin / size / root hash

export class NoteError extends Error {
  readonly code: NoteErrorCode;
  constructor(code: NoteErrorCode, message: string) {
    super(message);
    this.name = 'NoteError';
    this.code = code;
  }
}

export type VerifierKey = { readonly name: string; readonly keyId: number; readonly publicKey: Uint8Array };
/** An Ed25519 private key and the name it was stored under (signing may use other names). */
export type SignerKey = { readonly name: string; readonly seed: Uint8Array; readonly publicKey: Uint8Array };
/** A signature line's key: name and key id. */
export type NoteSignature = { readonly name: string; readonly keyId: number };
export type OpenedNote = {
  readonly text: string;
  /** Distinct known keys whose signatures verified. Never empty. */
  readonly verified: readonly NoteSignature[];
  /** Signatures by keys the caller did not pass (witnesses, rotated-out keys…), left unchecked. */
  readonly unverified: readonly NoteSignature[];
};
/** A tree head. `extensions` are extra, opaque note lines (the spec allows, but discourages, them). */
export type Checkpoint = {
  readonly origin: string;
  readonly size: number;
  readonly root: Uint8Array;
  readonly extensions?: readonly string[];
};

const ALG_ED25519 = 0x01;
const ED25519_KEY_SIZE = 32;
const SIGNATURE_PREFIX = '\u2014 '; // em dash, space
const SIGNER_PREFIX = 'PRIVATE+KEY+';
// The spec requires accepting at least 16 signatures; Go's note package stops at 100.
const MAX_SIGNATURES = 100;
// ASCII control characters other than newline are not allowed anywhere in a note.
const CONTROL = /[\u0000-\u0009\u000b-\u001f]/;
// Key names: non-empty, no Unicode spaces, no "+" (it separates key-string fields), no controls.
const BAD_NAME_CHAR = /[\p{White_Space}\p{Cc}+]/u;
const HEX8 = /^[0-9a-fA-F]{8}$/;
// RFC 8410 DER wrappers: a raw 32-byte Ed25519 seed or public key becomes a KeyObject.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

export function isValidKeyName(name: string): boolean {
  return name.length > 0 && name.isWellFormed() && !BAD_NAME_CHAR.test(name);
}

/** The key id of an Ed25519 public key under a name, as a uint32. */
export function keyId(name: string, publicKey: Uint8Array): number {
  const digest = createHash('sha256')
    .update(utf8(name))
    .update(Uint8Array.of(0x0a, ALG_ED25519))
    .update(publicKey)
    .digest();
  return digest.readUInt32BE(0);
}

// ---- keys ---------------------------------------------------------------------

export function generateSignerKey(name: string): SignerKey {
  return signerKeyFromSeed(name, randomBytes(ED25519_KEY_SIZE));
}

export function signerKeyFromSeed(name: string, seed: Uint8Array): SignerKey {
  checkName(name, 'malformed_key');
  if (seed.length !== ED25519_KEY_SIZE) throw new NoteError('malformed_key', 'an Ed25519 seed is 32 bytes');
  const spki = createPublicKey(privateKeyObject(seed)).export({ format: 'der', type: 'spki' });
  return { name, seed: Uint8Array.from(seed), publicKey: new Uint8Array(spki.subarray(SPKI_ED25519.length)) };
}

/** The verifier key of a signer's key under `name` (the key name its notes are signed with). */
export function verifierKeyFor(signer: SignerKey, name: string): VerifierKey {
  checkName(name, 'malformed_key');
  return { name, keyId: keyId(name, signer.publicKey), publicKey: signer.publicKey };
}

export function formatVerifierKey(key: VerifierKey): string {
  return `${key.name}+${hex8(key.keyId)}+${encodeBase64(typedKey(key.publicKey))}`;
}

export function parseVerifierKey(text: string): VerifierKey {
  const { name, id, key } = splitKeyString(text, 'verifier');
  const publicKey = untypedKey(key, 'verifier');
  try {
    publicKeyObject(publicKey);
  } catch {
    throw new NoteError('malformed_key', 'verifier key is not a valid Ed25519 public key');
  }
  checkKeyId(name, id, publicKey, 'verifier');
  return { name, keyId: id, publicKey };
}

export function formatSignerKey(key: SignerKey): string {
  return `${SIGNER_PREFIX}${key.name}+${hex8(keyId(key.name, key.publicKey))}+${encodeBase64(typedKey(key.seed))}`;
}

export function parseSignerKey(text: string): SignerKey {
  if (!text.startsWith(SIGNER_PREFIX)) throw new NoteError('malformed_key', 'signer key must start with PRIVATE+KEY+');
  const { name, id, key } = splitKeyString(text.slice(SIGNER_PREFIX.length), 'signer');
  const signer = signerKeyFromSeed(name, untypedKey(key, 'signer'));
  checkKeyId(name, id, signer.publicKey, 'signer');
  return signer;
}

// name + "+" + hex8 + "+" + base64: the base64 may itself contain "+", so split twice only.
function splitKeyString(text: string, what: string): { name: string; id: number; key: Uint8Array } {
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  const malformed = new NoteError('malformed_key', `${what} key is not name+hex8+base64`);
  if (first < 0 || second < 0) throw malformed;
  const name = text.slice(0, first);
  const hex = text.slice(first + 1, second);
  const key = decodeBase64(text.slice(second + 1));
  if (!isValidKeyName(name) || !HEX8.test(hex) || key === undefined) throw malformed;
  return { name, id: Number.parseInt(hex, 16), key };
}

function untypedKey(bytes: Uint8Array, what: string): Uint8Array {
  if (bytes[0] !== ALG_ED25519) throw new NoteError('malformed_key', `${what} key is not an Ed25519 (type 0x01) key`);
  if (bytes.length !== 1 + ED25519_KEY_SIZE) throw new NoteError('malformed_key', `${what} key has the wrong length`);
  return bytes.subarray(1);
}

function typedKey(key: Uint8Array): Uint8Array {
  return Uint8Array.of(ALG_ED25519, ...key);
}

function checkKeyId(name: string, id: number, publicKey: Uint8Array, what: string): void {
  if (keyId(name, publicKey) !== id) {
    throw new NoteError('key_id_mismatch', `${what} key id ${hex8(id)} is not the id of that name and key`);
  }
}

// ---- notes ----------------------------------------------------------------------

/** Signs `text` (which must end in a newline) with `signer` under the key name `keyName`. */
export function signNote(text: string, signer: SignerKey, keyName: string): string {
  if (!text.endsWith('\n')) throw new NoteError('malformed_note', 'note text must end with a newline');
  checkNoteCharacters(text);
  checkName(keyName, 'malformed_note');
  const signature = sign(null, utf8(text), privateKeyObject(signer.seed));
  const id = Buffer.alloc(4);
  id.writeUInt32BE(keyId(keyName, signer.publicKey));
  return `${text}\n${SIGNATURE_PREFIX}${keyName} ${encodeBase64(Buffer.concat([id, signature]))}\n`;
}

/**
 * Parses a signed note and checks its signatures against the known `verifiers`.
 * Follows the spec: signatures by unknown keys are ignored (reported as
 * unverified), a known key's bad signature rejects the whole note, and at least
 * one known key must have signed. Throws NoteError otherwise.
 */
export function openNote(message: string, verifiers: readonly VerifierKey[]): OpenedNote {
  checkNoteCharacters(message);
  // The text runs to the LAST blank line; the text itself may contain blank lines.
  const split = message.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('malformed_note', 'note has no blank line before its signatures');
  const text = message.slice(0, split + 1);
  const block = message.slice(split + 2);
  if (block === '' || !block.endsWith('\n')) {
    throw new NoteError('malformed_note', 'note must end with signature lines, each ending in a newline');
  }
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES)
    throw new NoteError('malformed_note', `note has over ${MAX_SIGNATURES} signatures`);

  const verified: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const { name, id, signature } = parseSignatureLine(line);
    const key = `${name}+${hex8(id)}`;
    const candidates = distinctKeys(verifiers.filter((v) => v.name === name && v.keyId === id));
    if (candidates.length > 1) throw new NoteError('ambiguous_key', `two verifier keys are both ${key}`);
    if (seen.has(key)) continue; // A repeated signature by one key counts once.
    seen.add(key);
    const verifier = candidates[0];
    if (verifier === undefined) {
      unverified.push({ name, keyId: id });
    } else if (verifyEd25519(verifier.publicKey, text, signature)) {
      verified.push({ name, keyId: id });
    } else {
      throw new NoteError('invalid_signature', `signature by ${key} does not verify`);
    }
  }
  if (verified.length === 0) throw new NoteError('unverified_note', 'note is not signed by any known key');
  return { text, verified, unverified };
}

function parseSignatureLine(line: string): { name: string; id: number; signature: Uint8Array } {
  const malformed = new NoteError('malformed_note', 'signature line is not "— <name> <base64>"');
  if (!line.startsWith(SIGNATURE_PREFIX)) throw malformed;
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space < 0) throw malformed;
  const name = rest.slice(0, space);
  const bytes = decodeBase64(rest.slice(space + 1));
  // Four bytes of key id and at least one of signature.
  if (!isValidKeyName(name) || bytes === undefined || bytes.length < 5) throw malformed;
  return { name, id: Buffer.from(bytes).readUInt32BE(0), signature: bytes.subarray(4) };
}

function distinctKeys(keys: readonly VerifierKey[]): VerifierKey[] {
  return keys.filter((k, i) => keys.findIndex((other) => equalBytes(other.publicKey, k.publicKey)) === i);
}

function verifyEd25519(publicKey: Uint8Array, text: string, signature: Uint8Array): boolean {
  try {
    return verify(null, utf8(text), publicKeyObject(publicKey), signature);
  } catch {
    return false; // A key or signature of the wrong shape is a signature that does not verify.
  }
}

function checkNoteCharacters(text: string): void {
  if (!text.isWellFormed() || CONTROL.test(text)) {
    throw new NoteError('malformed_note', 'note must be valid UTF-8 without control characters other than newline');
  }
}

// ---- checkpoints ----------------------------------------------------------------

/** The checkpoint's note text: origin, size and base64 root hash, each on its own line. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, root, extensions = [] } = checkpoint;
  const lines = [origin, ...extensions];
  if (lines.some((line) => line === '' || line.includes('\n') || CONTROL.test(line))) {
    throw new NoteError('malformed_checkpoint', 'origin and extension lines must be non-empty single lines');
  }
  if (!Number.isSafeInteger(size) || size < 0) throw new NoteError('malformed_checkpoint', `bad tree size ${size}`);
  if (root.length !== HASH_SIZE) throw new NoteError('malformed_checkpoint', 'root hash must be 32 bytes');
  return [origin, String(size), encodeBase64(root), ...extensions].map((line) => `${line}\n`).join('');
}

export function parseCheckpoint(text: string): Checkpoint {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : [];
  const [origin, sizeLine, rootLine, ...extensions] = lines;
  if (origin === undefined || sizeLine === undefined || rootLine === undefined) {
    throw new NoteError('malformed_checkpoint', 'checkpoint needs origin, size and root hash lines');
  }
  if (origin === '' || extensions.includes(''))
    throw new NoteError('malformed_checkpoint', 'checkpoint has an empty line');
  const size = Number(sizeLine);
  // Decimal without leading zeros, as the spec says, and small enough to count exactly.
  if (!/^(0|[1-9][0-9]*)$/.test(sizeLine) || !Number.isSafeInteger(size)) {
    throw new NoteError('malformed_checkpoint', `bad tree size "${sizeLine}"`);
  }
  const root = decodeBase64(rootLine);
  if (root === undefined || root.length !== HASH_SIZE) {
    throw new NoteError('malformed_checkpoint', 'root hash is not base64 of 32 bytes');
  }
  return extensions.length > 0 ? { origin, size, root, extensions } : { origin, size, root };
}

/** Signs a checkpoint with the key named by its origin, as DESIGN §3 and tlog-checkpoint say. */
export function signCheckpoint(checkpoint: Checkpoint, signer: SignerKey): string {
  return signNote(formatCheckpoint(checkpoint), signer, checkpoint.origin);
}

/** Opens a signed checkpoint: it must verify with a known key whose name is its origin. */
export function openCheckpoint(
  message: string,
  verifiers: readonly VerifierKey[],
): { checkpoint: Checkpoint; note: OpenedNote } {
  const note = openNote(message, verifiers);
  const checkpoint = parseCheckpoint(note.text);
  if (!note.verified.some((sig) => sig.name === checkpoint.origin)) {
    throw new NoteError('unverified_note', `checkpoint is not signed by a known key named ${checkpoint.origin}`);
  }
  return { checkpoint, note };
}

// ---- helpers --------------------------------------------------------------------

function privateKeyObject(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
}

function publicKeyObject(publicKey: Uint8Array): KeyObject {
  if (publicKey.length !== ED25519_KEY_SIZE) throw new RangeError('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519, publicKey]), format: 'der', type: 'spki' });
}

function checkName(name: string, code: NoteErrorCode): void {
  if (!isValidKeyName(name)) throw new NoteError(code, `invalid key name ${JSON.stringify(name)}`);
}

function hex8(id: number): string {
  return id.toString(16).padStart(8, '0');
}
