// API token format (DESIGN §5; research accounts-and-stack §2.4).
//
//   <prefix><30 random base62 chars><6-char base62 CRC32 of the 30 random chars>
//
// e.g. svc_live_ + 36 chars = 45 characters. The random part carries
// 30 * log2(62) ≈ 178.6 bits. The checksum lets parseToken() reject junk and
// typos without touching the database. Only SHA-256(token) is ever stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const TOKEN_PREFIXES = ['svc_live_', 'svc_ingress_', 'svc_session_'] as const;
export type TokenPrefix = (typeof TOKEN_PREFIXES)[number];

export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const RANDOM_LENGTH = 30;
export const CHECKSUM_LENGTH = 6;
/** Random chars shown after the prefix in displayPrefix. */
const DISPLAY_RANDOM_CHARS = 4;

/** Largest multiple of 62 that fits in a byte: bytes >= this are rejected. */
const REJECT_FROM = 256 - (256 % 62); // 248
const BODY_RE = /^[0-9A-Za-z]+$/;

export interface NewToken {
  /** The full secret: show it once, never store it. */
  token: string;
  /** SHA-256 of the whole token: what the database stores. */
  hash: Buffer;
  /** prefix + first 4 random chars, e.g. `svc_live_AbC1`: safe to show. */
  displayPrefix: string;
}

export interface ParsedToken {
  prefix: TokenPrefix;
  hash: Buffer;
}

/**
 * `length` uniformly distributed base62 chars from the CSPRNG. Bytes >= 248 are
 * discarded (rejection sampling), so `byte % 62` has no modulo bias.
 * `source` exists only so tests can feed chosen bytes.
 */
export function randomBase62(length: number, source: (n: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < length) {
    // 248/256 of bytes are accepted; ask for a little more than needed.
    const need = length - out.length;
    const buf = source(need + (need >> 2) + 4);
    for (const byte of buf) {
      if (byte >= REJECT_FROM) continue;
      out += BASE62_ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Base62 (big-endian) of an unsigned 32-bit value, left-padded with '0' to 6 chars. */
export function checksum(random: string): string {
  let n = crc32(random) >>> 0;
  let out = '';
  while (n > 0) {
    out = BASE62_ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(CHECKSUM_LENGTH, '0');
}

/** SHA-256 of a secret, as a Buffer. */
export function hashSecret(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/**
 * Constant-time comparison of two secrets. Both sides are hashed first, so the
 * comparison always runs over 32 bytes and the lengths do not leak.
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hashSecret(a), hashSecret(b));
}

export function newToken(prefix: TokenPrefix): NewToken {
  if (!(TOKEN_PREFIXES as readonly string[]).includes(prefix)) {
    throw new TypeError(`unknown token prefix: ${String(prefix)}`);
  }
  const random = randomBase62(RANDOM_LENGTH);
  const token = prefix + random + checksum(random);
  return {
    token,
    hash: hashSecret(token),
    displayPrefix: prefix + random.slice(0, DISPLAY_RANDOM_CHARS),
  };
}

/**
 * Cheap structural check (prefix, length, alphabet, CRC32) to run BEFORE any
 * database lookup. Returns null for anything that cannot be a token we issued.
 * A non-null result only means "well formed": the hash must still be looked up.
 */
export function parseToken(s: unknown): ParsedToken | null {
  if (typeof s !== 'string') return null;
  const prefix = TOKEN_PREFIXES.find((p) => s.startsWith(p));
  if (prefix === undefined) return null;
  if (s.length !== prefix.length + RANDOM_LENGTH + CHECKSUM_LENGTH) return null;
  const body = s.slice(prefix.length);
  if (!BODY_RE.test(body)) return null;
  const random = body.slice(0, RANDOM_LENGTH);
  if (body.slice(RANDOM_LENGTH) !== checksum(random)) return null;
  return { prefix, hash: hashSecret(s) };
}
