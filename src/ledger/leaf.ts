// What a log leaf is made of. A leaf is the RFC 8785 (JCS) canonical JSON of an
// entry, so anyone can rebuild its exact bytes from the same data, and it holds
// salted commitments to text instead of the text: erasing a stored text and its
// salt leaves every leaf, hash and proof intact, yet a kept text can still be
// shown to match its leaf.

import { hash, randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import { prefixedUtf8 } from './bytes.ts';
import { canonicalJson } from './canonical-json.ts';
import { leafHashOfText } from './merkle.ts';

export const SALT_SIZE = 32;

/**
 * The leaf format written now, as `v` in every leaf of an event. v2 (issue 16)
 * holds no value a client sent: agent keys and rogue event types as
 * pseudonyms (pseudonyms.ts), other metadata in one salted commitment. Leaves
 * without `v` are v1 and stay valid: verification reads both.
 */
export const LEAF_VERSION = 2;

/** The entry cannot be a leaf; `path` is a JSON pointer to the offending value. */
export class LeafEncodingError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`${path || 'entry'}: ${problem}`);
    this.name = 'LeafEncodingError';
    this.path = path;
  }
}

/**
 * The RFC 8785 canonical JSON of an entry. Only plain JSON is accepted: an
 * undefined, a Date, a function or a NaN would otherwise be dropped or
 * converted silently, and the leaf would not say what the caller meant.
 */
export function encodeLeaf(entry: Readonly<Record<string, unknown>>): string {
  if (!isPlainObject(entry)) throw new LeafEncodingError('', 'must be a plain object');
  // Checked and written in one pass; only when that declines, the checks
  // again with the paths that name the problem (building a JSON pointer for
  // every value cost more than the rest of the leaf on the ingest path).
  const text = canonicalJson(entry);
  if (text !== undefined) return text;
  checkJson(entry, '', new Set());
  // Plain JSON nested deeper than canonicalJson goes.
  const deep = canonicalize(entry);
  if (deep === undefined) throw new LeafEncodingError('', 'has no JSON form');
  return deep;
}

/** The Merkle leaf hash of a leaf's text: SHA-256(0x00 ‖ UTF-8 bytes). */
export function leafHashOf(leaf: string): Uint8Array {
  if (!leaf.isWellFormed()) throw new LeafEncodingError('', 'leaf text is not valid Unicode');
  return leafHashOfText(leaf);
}

/** Random bytes fetched a page at a time: one call into the CSPRNG serves 128 salts. */
const SALT_POOL = SALT_SIZE * 128;
let pool = Buffer.alloc(0);
let used = 0;

export function newSalt(): Uint8Array {
  if (used + SALT_SIZE > pool.length) {
    // A new page each time, never a refill: salts handed out are views into theirs.
    pool = randomBytes(SALT_POOL);
    used = 0;
  }
  const salt = pool.subarray(used, used + SALT_SIZE);
  used += SALT_SIZE;
  return salt;
}

/** "sha256:" + base64(SHA-256(salt ‖ UTF-8 text)): commits to a text without revealing it. */
export function commitment(salt: Uint8Array, text: string): string {
  // A short salt makes a short text guessable from its commitment.
  if (salt.length !== SALT_SIZE) throw new RangeError(`salt must be ${SALT_SIZE} bytes`);
  // UTF-8 encoding would replace a lone surrogate with U+FFFD, committing to other text.
  if (!text.isWellFormed()) throw new RangeError('text is not valid Unicode');
  // salt ‖ UTF-8 text written into one buffer (encoding then concatenating copied the text twice).
  return `sha256:${hash('sha256', prefixedUtf8(salt, text), 'base64')}`;
}

function checkJson(value: unknown, path: string, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'boolean':
      return;
    case 'string':
      if (!value.isWellFormed()) throw new LeafEncodingError(path, 'string has a lone surrogate');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new LeafEncodingError(path, `${value} is not a JSON number`);
      return;
    case 'object':
      break;
    default:
      throw new LeafEncodingError(path, `a ${typeof value} is not JSON`);
  }
  if (value === null) return;
  if (ancestors.has(value)) throw new LeafEncodingError(path, 'circular reference');
  ancestors.add(value);
  if (Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw new LeafEncodingError(`${path}/${i}`, 'array hole');
      checkJson(value[i], `${path}/${i}`, ancestors);
    }
  } else if (isPlainObject(value)) {
    if (Object.getOwnPropertySymbols(value).length > 0) throw new LeafEncodingError(path, 'symbol keys are not JSON');
    for (const [key, member] of Object.entries(value)) {
      const at = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (!key.isWellFormed()) throw new LeafEncodingError(at, 'key has a lone surrogate');
      checkJson(member, at, ancestors);
    }
  } else {
    throw new LeafEncodingError(path, 'only plain objects and arrays are JSON');
  }
  ancestors.delete(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
