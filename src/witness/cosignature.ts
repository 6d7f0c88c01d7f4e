// Witness cosignatures in the C2SP tlog-cosignature v1 Ed25519 format
// (c2sp.org/tlog-cosignature), the statement "as of time T, this is the
// largest consistent tree I have seen for this origin":
//
//   key id    = SHA-256(name ‖ "\n" ‖ 0x04 ‖ 32-byte Ed25519 public key)[:4]
//   message   = "cosignature/v1\n" + "time " + T + "\n" + the checkpoint's note text
//   line      = "— " + name + " " + base64(key id ‖ u64 big-endian T ‖ 64-byte signature) + "\n"
//   verifier  = name + "+" + hex8(key id) + "+" + base64(0x04 ‖ public key)   (a signed-note vkey)
//
// A witness keeps an ordinary note signer key (`agent-ledger keygen`): the same
// 32-byte seed, signing under type 0x04 instead of 0x01, so the two kinds of
// signature never verify as each other.

import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { decodeBase64, encodeBase64, isValidKeyName, NoteError, type SignerKey, utf8 } from '../ledger/index.ts';

export const COSIGNATURE_V1 = 0x04;
const ED25519_SIG_SIZE = 64;
const SIGNATURE_PREFIX = '\u2014 ';
const HEX8 = /^[0-9a-fA-F]{8}$/;
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');
// POSIX seconds must fit a u64 below 2^63 (the spec's bound); JS numbers are exact to 2^53.
const MAX_TIME = Number.MAX_SAFE_INTEGER;

/** A witness's public identity: its name and Ed25519 key, as clients pin it. */
export interface CosignerKey {
  readonly name: string;
  readonly keyId: number;
  readonly publicKey: Uint8Array;
}

/** A witness the service submits checkpoints to (config: WITNESS_URLS, WITNESS_KEYS). */
export interface WitnessConfig {
  /** The submission prefix: POST <url>/add-checkpoint. */
  url: string;
  /** The witness's cosigner verifier key (name+hex8+base64(0x04 ‖ key)). */
  key: CosignerKey;
}

/** A cosignature that verified: who, and the time it states. */
export interface Cosignature {
  readonly name: string;
  readonly keyId: number;
  /** POSIX seconds. */
  readonly time: number;
  /** The signature line as it appears in the note, with its newline. */
  readonly line: string;
}

export function cosignerKeyId(name: string, publicKey: Uint8Array): number {
  return createHash('sha256')
    .update(utf8(name))
    .update(Uint8Array.of(0x0a, COSIGNATURE_V1))
    .update(publicKey)
    .digest()
    .readUInt32BE(0);
}

/** The cosigner identity of a note signer key (the witness's own key file). */
export function cosignerKeyOf(signer: SignerKey, name = signer.name): CosignerKey {
  return { name, keyId: cosignerKeyId(name, signer.publicKey), publicKey: signer.publicKey };
}

export function formatCosignerKey(key: CosignerKey): string {
  return `${key.name}+${hex8(key.keyId)}+${encodeBase64(Uint8Array.of(COSIGNATURE_V1, ...key.publicKey))}`;
}

/** Parses a cosigner verifier key (type 0x04); its key id must be the hash of its name and key. */
export function parseCosignerKey(text: string): CosignerKey {
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  const bad = (why: string) => new NoteError('malformed_key', `cosigner key ${why}`);
  if (first < 0 || second < 0) throw bad('is not name+hex8+base64');
  const name = text.slice(0, first);
  const hex = text.slice(first + 1, second);
  const key = decodeBase64(text.slice(second + 1));
  if (!isValidKeyName(name) || !HEX8.test(hex) || key === undefined) throw bad('is not name+hex8+base64');
  if (key[0] !== COSIGNATURE_V1 || key.length !== 33) throw bad('is not a cosignature/v1 (type 0x04) Ed25519 key');
  const publicKey = key.subarray(1);
  try {
    createPublicKey({ key: Buffer.concat([SPKI_ED25519, publicKey]), format: 'der', type: 'spki' });
  } catch {
    throw bad('is not a valid Ed25519 public key');
  }
  const keyId = Number.parseInt(hex, 16);
  if (cosignerKeyId(name, publicKey) !== keyId) {
    throw new NoteError('key_id_mismatch', `cosigner key id ${hex} is not the id of that name and key`);
  }
  return { name, keyId, publicKey };
}

/** The bytes a cosignature signs: the v1 header, the time, then the checkpoint text. */
export function cosignedMessage(checkpointText: string, time: number): Uint8Array {
  return utf8(`cosignature/v1\ntime ${time}\n${checkpointText}`);
}

/** A cosignature line over a checkpoint's note text (which ends in a newline) at `time`. */
export function cosign(checkpointText: string, signer: SignerKey, name: string, time: number): string {
  if (!checkpointText.endsWith('\n')) throw new NoteError('malformed_note', 'note text must end with a newline');
  if (!Number.isSafeInteger(time) || time < 0 || time > MAX_TIME) throw new RangeError(`bad cosignature time ${time}`);
  if (!isValidKeyName(name)) throw new NoteError('malformed_key', `invalid key name ${JSON.stringify(name)}`);
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, signer.seed]), format: 'der', type: 'pkcs8' });
  const signature = sign(null, cosignedMessage(checkpointText, time), key);
  const head = Buffer.alloc(12);
  head.writeUInt32BE(cosignerKeyId(name, signer.publicKey), 0);
  head.writeBigUInt64BE(BigInt(time), 4);
  return `${SIGNATURE_PREFIX}${name} ${encodeBase64(Buffer.concat([head, signature]))}\n`;
}

/** A note split at its last blank line: the text and its signature lines (each with its newline). */
export function splitNote(note: string): { text: string; lines: string[] } {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('malformed_note', 'note has no signature block');
  const text = note.slice(0, split + 1);
  const lines = note
    .slice(split + 2, -1)
    .split('\n')
    .map((l) => `${l}\n`);
  return { text, lines };
}

/**
 * The cosignatures in `note` by the given witnesses that verify. Lines by other
 * keys are ignored (as the signed-note spec says); a line that names a known
 * witness and its key id but does not verify throws, like a bad signature by a
 * known key in openNote.
 */
export function verifyCosignatures(note: string, witnesses: readonly CosignerKey[]): Cosignature[] {
  const { text, lines } = splitNote(note);
  const found = new Map<string, Cosignature>();
  for (const line of lines) {
    const parsed = parseLine(line);
    if (parsed === undefined) continue;
    const witness = witnesses.find((w) => w.name === parsed.name && w.keyId === parsed.keyId);
    if (witness === undefined) continue;
    if (parsed.bytes.length !== 4 + 8 + ED25519_SIG_SIZE) {
      throw new NoteError('invalid_signature', `cosignature by ${witness.name} has the wrong length`);
    }
    const time = Buffer.from(parsed.bytes).readBigUInt64BE(4);
    if (time > BigInt(MAX_TIME))
      throw new NoteError('invalid_signature', `cosignature by ${witness.name} has a bad time`);
    const ok = verifyEd25519(witness.publicKey, cosignedMessage(text, Number(time)), parsed.bytes.subarray(12));
    if (!ok)
      throw new NoteError('invalid_signature', `cosignature by ${witness.name}+${hex8(witness.keyId)} does not verify`);
    const key = `${witness.name}+${hex8(witness.keyId)}`;
    if (!found.has(key)) found.set(key, { name: witness.name, keyId: witness.keyId, time: Number(time), line });
  }
  return [...found.values()];
}

function parseLine(line: string): { name: string; keyId: number; bytes: Uint8Array } | undefined {
  if (!line.startsWith(SIGNATURE_PREFIX) || !line.endsWith('\n')) return undefined;
  const rest = line.slice(SIGNATURE_PREFIX.length, -1);
  const space = rest.indexOf(' ');
  if (space < 0) return undefined;
  const bytes = decodeBase64(rest.slice(space + 1));
  if (bytes === undefined || bytes.length < 5) return undefined;
  return { name: rest.slice(0, space), keyId: Buffer.from(bytes).readUInt32BE(0), bytes };
}

function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, publicKey]), format: 'der', type: 'spki' });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

function hex8(id: number): string {
  return id.toString(16).padStart(8, '0');
}
