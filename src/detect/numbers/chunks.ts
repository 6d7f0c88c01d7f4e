// Numeric chunks: the separator codes between digit groups, which code units glue a number to a word, and
// the regex that finds the chunks worth reading.

import * as context from '../text/context.ts';
import type { RuleTable } from './rule-table.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { isWordChar } = context;

/** Separator characters between digit groups, coded 1..7 (0: not a separator). */
export const SEP_CODE = new Uint8Array(0xa1);
export const SPACE = 1;
export const DASH = 2;
export const DOT = 3;
export const SLASH = 4;
for (const [ch, code] of [
  [' ', SPACE],
  ['-', DASH],
  ['.', DOT],
  ['/', SLASH],
  ['(', 5],
  [')', 6],
  ['\u00a0', 7],
] as const)
  SEP_CODE[ch.charCodeAt(0)] = code;

/**
 * The separator code of a code unit: SEP_CODE's, and DASH for the dashes word processors put between digit
 * groups ("123–45–6789": hyphen, non-breaking hyphen, figure dash, en dash, minus sign).
 */
export function sepCodeOf(c: number): number {
  if (c <= 0xa0) return SEP_CODE[c]!;
  return (c >= 0x2010 && c <= 0x2013) || c === 0x2212 ? DASH : 0;
}

/** A typographic dash (see sepCodeOf) written as "-" in a candidate's separators, so that every rule reads it as one. */
export function asciiDashes(sep: string): string {
  // (a separator is 1-3 chars, almost always ASCII: no regex for those)
  for (let k = 0; k < sep.length; k++)
    if (sep.charCodeAt(k) >= 0x2010) return sep.replace(/[\u2010-\u2013\u2212]/g, '-');
  return sep;
}

/** A separator (1-3 chars) is kept as one number, c1 + 8*c2 + 64*c3: equal strings have equal codes, single chars codes below 8. */
export const SINGLE_CHAR_SEP = 8;

/**
 * Letters of the scripts written without a space before or after a number: Thai, Hangul (its particles
 * follow a number: "010-2000-9812로"), kana and the CJK ideographs ("请拨打131 2345 4797联系我"). They do not
 * glue a number to a word.
 */
export function isUnspacedScript(c: number): boolean {
  return (
    (c >= 0x0e00 && c <= 0x0e7f) ||
    (c >= 0x1100 && c <= 0x11ff) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x3130 && c <= 0x318f) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af)
  );
}

/** isWordChar() remembered per UTF-16 code unit (its non-ASCII path tests a Unicode regex); see isUnspacedScript. */
const WORD_CACHE = new Uint8Array(0x10000); // 0: not yet known, 1: word char, 2: not
export function isWord(c: number): boolean {
  if (c < 128) return isWordChar(c);
  let v = WORD_CACHE[c]!;
  if (v === 0) WORD_CACHE[c] = v = isWordChar(c) && !isUnspacedScript(c) ? 1 : 2;
  return v === 1;
}

/** A phone number has at least this many digits. */
const PHONE_MIN_DIGITS = 7;

const CHUNK_RES = new Map<number, RegExp>();

/**
 * The start of every chunk with at least as many digits as the shortest rule (or phone) accepts: a digit
 * not preceded by an ASCII word char, followed by more digits each after 0-3 separator chars. A chunk
 * with fewer digits yields nothing; no match starts inside a chunk that does not match at its own start
 * (the digits reachable from a later position are reachable from the start too). Runs in linear time: the
 * separators and digits are disjoint classes, so each repetition has one way to match.
 */
export function chunkStartRe(table: RuleTable): RegExp {
  const min = Math.min(PHONE_MIN_DIGITS, table.minDigits);
  let re = CHUNK_RES.get(min);
  if (!re) {
    re = new RegExp(`(?<![A-Za-z0-9_])[0-9](?:[ \\-./()\u00a0\u2010-\u2013\u2212]{0,3}[0-9]){${min - 1}}`, 'g');
    CHUNK_RES.set(min, re);
  }
  return re;
}

/** A separator of dates ("2024-01-15", "15.01.24", "1/2/2024"). */
export function isDateSep(s: number): boolean {
  return s === DASH || s === DOT || s === SLASH;
}

/** Does separator `s` continue the run of window separators `inner` (or, for a one-group window, a date-like run)? */
export function continuesRun(s: number, inner: number): boolean {
  return inner ? s === inner : isDateSep(s);
}
