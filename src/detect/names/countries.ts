// COUNTRY_RE's global scan reproduced inside the candidate scan: capitalised words, at most three, whose
// first word, or a later one, may begin a country name (by a hash slot of the dictionary's first words).

import * as chars from '../text/chars.ts';
import type { Scan } from './scan-state.ts';
import * as namesCharClasses from './char-classes.ts';
import * as namesLexicon from './lexicon.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { isJsSpace: isSpace } = chars;
const { ASCII_CLASS, bmpClass, C_LOWER, C_UPPER, isLetterUnit, U_LL, U_LU } = namesCharClasses;
const { wordHashSlot } = namesLexicon;

/** The end of COUNTRY_RE's word at p (an upper-case letter, 2 to 20 lower-case ones, then no letter), or -1. */
function titleWordEnd(t: Uint16Array, p: number): number {
  const n = t.length;
  if (p >= n) return -1;
  const u0 = t[p]!;
  if (u0 < 128 ? ASCII_CLASS[u0] !== C_UPPER : (bmpClass(u0) & U_LU) === 0) return -1;
  let j = p + 1;
  for (; j < n && j - p <= 21; j++) {
    const u = t[j]!;
    if (u < 128 ? ASCII_CLASS[u] !== C_LOWER : (bmpClass(u) & U_LL) === 0) break;
  }
  const run = j - p - 1;
  if (run < 2 || run > 20 || (j < n && isLetterUnit(t[j]!))) return -1;
  return j;
}

/**
 * COUNTRY_RE's match at i, if there is one (its global scan being at st.countryFrom <= i): kept when its first
 * word may begin a country name. Returns where the scan goes on.
 */
export function countryAt(st: Scan, i: number): number {
  const { t } = st;
  if (i > 0 && isLetterUnit(t[i - 1]!)) return st.countryFrom;
  const first = titleWordEnd(t, i);
  return first < 0 ? st.countryFrom : countryFrom(st, i, first);
}

/** countryAt once COUNTRY_RE's first word [i, first) has matched. */
export function countryFrom(st: Scan, i: number, first: number): number {
  const t = st.t;
  const e = countryEnd(st, first);
  let h = 0;
  for (let j = i; j < first; j++) {
    const u = t[j]!;
    if (u >= 128) {
      st.countries.push(i, e); // (a non-ASCII first word: always looked up)
      return e;
    }
    h = (Math.imul(h, 31) + (u | 32)) | 0;
  }
  if (st.firsts[wordHashSlot(h)] === 1 || st.countryLater) st.countries.push(i, e);
  return e;
}

/** The end of COUNTRY_RE's match whose first word ends at `first`: up to two more words after a space each. */
export function countryEnd(st: Scan, first: number): number {
  const { t } = st;
  let e = first;
  st.countryLater = false;
  // (words on one line: "Berlin\nGermany" is a town's line and a country's)
  for (let k = 0; k < 2 && e < t.length && isSpace(t[e]!) && t[e] !== 10 && t[e] !== 13; k++) {
    const next = titleWordEnd(t, e + 1);
    if (next < 0) break;
    // a later word may begin a country too: the match is looked up from each of its words (names/places/locations.ts)
    if (!st.countryLater) st.countryLater = mayBeginCountry(st, e + 1, next);
    e = next;
  }
  return e;
}

/** Does the word [s, e) hash to a slot of the countries' first words (a non-ASCII word: maybe)? */
function mayBeginCountry(st: Scan, s: number, e: number): boolean {
  const t = st.t;
  let h = 0;
  for (let j = s; j < e; j++) {
    const u = t[j]!;
    if (u >= 128) return true;
    h = (Math.imul(h, 31) + (u | 32)) | 0;
  }
  return st.firsts[wordHashSlot(h)] === 1;
}
