// A tool_output waits for its background scan sealed, never in clear (issue
// 16): it is encrypted (AES-256-GCM) with a key of its own, and that key is
// stored only wrapped by a key-encryption key derived from the service's
// secret, which is never in the database. The scan opens it, stores the
// redacted text and deletes ciphertext and wrapped key together
// (crypto-shredding). A copy of the database — its files, write-ahead log,
// a dump or a backup — thus never holds the raw text, and without the service
// secret cannot open what it holds.
//
// Trade-off: whoever holds both the service secret and an old copy of the
// database files (a WAL segment not yet recycled, a backup taken while the
// scan was pending) can still open that output. The service secret rotates
// with LEDGER_SIGNING_KEY: rotate it when no tool_output scan is pending, or
// the pending ones cannot be opened (their jobs fail and are kept).

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const IV = 12;
const TAG = 16;
const KEY = 32;

export interface SealedText {
  /** iv ‖ ciphertext ‖ tag, under the row's own key. */
  sealed: Buffer;
  /** The row's key: kek-id (8) ‖ iv ‖ encrypted key ‖ tag, under the key-encryption key. */
  wrappedKey: Buffer;
}

function encrypt(key: Uint8Array, plain: Uint8Array, aad: string): Buffer {
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  return Buffer.concat([iv, c.update(plain), c.final(), c.getAuthTag()]);
}

function decrypt(key: Uint8Array, box: Uint8Array, aad: string): Buffer {
  if (box.length < IV + TAG) throw new Error('sealed value too short');
  const b = Buffer.from(box);
  const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, IV));
  d.setAAD(Buffer.from(aad, 'utf8'));
  d.setAuthTag(b.subarray(b.length - TAG));
  return Buffer.concat([d.update(b.subarray(IV, b.length - TAG)), d.final()]);
}

/** Names a key-encryption key without revealing it, so a rotated one is told apart from a broken box. */
function kekId(kek: Uint8Array): Buffer {
  return createHash('sha256').update('agent-ledger kek id\u0000').update(kek).digest().subarray(0, 8);
}

/** Seals a text for one workspace (bound to it: another workspace's row cannot be swapped in). */
export function sealText(kek: Uint8Array, tenantId: string, text: string): SealedText {
  if (kek.length !== KEY) throw new RangeError('the key-encryption key must be 32 bytes');
  const key = randomBytes(KEY);
  try {
    return {
      sealed: encrypt(key, Buffer.from(text, 'utf8'), `tool_output\u0000${tenantId}`),
      wrappedKey: Buffer.concat([kekId(kek), encrypt(kek, key, `row key\u0000${tenantId}`)]),
    };
  } finally {
    key.fill(0);
  }
}

/** Opens a sealed text; throws when the key-encryption key is not the one it was sealed under, or the box was changed. */
export function openText(kek: Uint8Array, tenantId: string, s: { sealed: Uint8Array; wrappedKey: Uint8Array }): string {
  const wrapped = Buffer.from(s.wrappedKey);
  if (!wrapped.subarray(0, 8).equals(kekId(kek))) {
    throw new Error(
      'the tool_output was sealed under another service secret (LEDGER_SIGNING_KEY rotated while its scan was pending)',
    );
  }
  const key = decrypt(kek, wrapped.subarray(8), `row key\u0000${tenantId}`);
  try {
    return decrypt(key, s.sealed, `tool_output\u0000${tenantId}`).toString('utf8');
  } finally {
    key.fill(0);
  }
}
