// Where CAP_SEQ_RE (capitalised First [Middle] Last sequences) can start, by char codes.

import type { AsciiSet } from '../text/chars.ts';
import * as chars from '../text/chars.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { APOSTROPHE, asciiSet, code, HYPHEN, isAsciiLower, isAsciiUpper, isJsSpace: isSpace } = chars;

/**
 * Can CAP_SEQ_RE match at i (an upper-case letter, or the lead surrogate of one)? Not after [A-Za-z0-9_@.]; then
 * 1 to 24 characters of its first word (lower-case ASCII, ', - or any non-ASCII code unit, two for an
 * astral one), one or two spaces and an upper-case (or non-ASCII) letter or a particle.
 */
export function capSeqMayStart(t: Uint16Array, i: number): boolean {
  const n = t.length;
  if (!capSeqMayFollow(t, i)) return false;
  for (let j = i + 1; j < n && j <= i + 48; j++) {
    const u = t[j]!;
    if (!(u >= 128 || isAsciiLower(u) || u === APOSTROPHE || u === HYPHEN)) return false;
    let q = j + 1;
    if (q < n && isSpace(t[q]!)) {
      q++;
      if (capSeqNext(t, q) || (q < n && isSpace(t[q]!) && capSeqNext(t, q + 1))) return true;
    }
  }
  return false;
}

const CAP_SEQ_NOT_AFTER = asciiSet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@.');

/** CAP_SEQ_RE's look-behind at i: not after [A-Za-z0-9_@.]. */
export function capSeqMayFollow(t: Uint16Array, i: number): boolean {
  if (i === 0) return true;
  const b = t[i - 1]!;
  return !CAP_SEQ_NOT_AFTER.has(b);
}

/** An upper-case (or non-ASCII) letter or the first letters of a particle of CAP_SEQ_RE at q. */
export function capSeqNext(t: Uint16Array, q: number): boolean {
  if (q >= t.length) return false;
  const u = t[q]!;
  if (isAsciiUpper(u) || (u >= 128 && !(u >= 0xdc00 && u <= 0xdfff))) return true;
  const second = u < 128 ? PARTICLE_SECOND[u] : undefined;
  return second !== undefined && q + 1 < t.length && second.has(t[q + 1]!);
}

/** CAP_SEQ_RE's lower-case particles by their first letter: the letters that may follow it. */
const PARTICLE_SECOND: Array<AsciiSet | undefined> = Array.from({ length: 128 }, () => undefined);
PARTICLE_SECOND[code('v')] = asciiSet('ao'); // van, von
PARTICLE_SECOND[code('d')] = asciiSet('eaio'); // de, der, del, da, di, dos
PARTICLE_SECOND[code('b')] = asciiSet('i'); // bin
PARTICLE_SECOND[code('l')] = asciiSet('ae'); // la, le
