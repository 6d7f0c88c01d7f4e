// The candidate scan at spaces, commas and key separators: number-led streets, place cues, postcodes, keys,
// the street before a postcode, and the address cues inside a word.

import * as chars from '../text/chars.ts';
const COLON = 58;
import * as namesAddressRules from './places/address-rules.ts';
import type { Candidates } from './scan-state.ts';
import * as namesCharClasses from './char-classes.ts';
import * as namesLiterals from './literals.ts';
import * as namesSticky from './sticky.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { APOSTROPHE, asciiSet, isAsciiDigit, isAsciiLetter, isAsciiUpper, isJsSpace: isSpace, LF, QUOTE } = chars;
const { isAsciiLetterAt, isDigitAt } = namesAddressRules;
const { ASCII_CLASS, C_LOWER, C_UPPER } = namesCharClasses;
const {
  ADDRESS_CUE_LETTERS,
  ADDRESS_CUES,
  ADDRESS_CUES_BY_LW,
  E_CUE_KEY,
  E_LOCATION_KEY,
  E_PLACE,
  E_PLACE_HEAD,
  E_STRONG_PLACE,
  E_SUFFIX,
  endingAt,
  foldedHas,
  keyAt,
  pairKey,
  WORD_ENDS,
} = namesLiterals;
const { pushAscending } = namesSticky;

const STREET_WORD_PUNCT = asciiSet("'-.");

/** ASCII characters that STREET_BEFORE_ZIP_RE's street words and the spaces between them may hold. */
function streetWordChar(c: number): boolean {
  return c >= 0x80 || isSpace(c) || STREET_WORD_PUNCT.has(c) || isAsciiLetter(c);
}

/**
 * Starts of STREET_BEFORE_ZIP_RE before the comma at `comma` ("Hauptstr. 5, 80331 München"): capital
 * letters (or non-ASCII) after a delimiter, a space or a tab, in the street words before the number.
 */
const STREET_START_AFTER = asciiSet(',;:(\n" \t');

function streetBeforeZipStarts(text: string, comma: number, out: number[]): void {
  let r = comma - 1;
  if (r >= 0 && isAsciiLetterAt(text, r)) r--;
  if (r < 0 || !isDigitAt(text, r)) return;
  while (r > 0 && isDigitAt(text, r - 1)) r--;
  r--; // the space before the number
  if (r < 1 || !isSpace(text.charCodeAt(r))) return;
  // at most 31 + 3 * 31 characters of words and spaces before that space
  for (let p = r - 1, stop = Math.max(0, r - 130); p >= stop; p--) {
    const c = text.charCodeAt(p);
    if (!streetWordChar(c)) break;
    if (isAsciiUpper(c) || c >= 0x80) {
      // ^, [,;:(\n"] or [ \t] before it
      if (p === 0 || STREET_START_AFTER.has(text.charCodeAt(p - 1))) out.push(p);
    }
  }
}
/** A colon after a letter (or a letter and a space) and before a possible capital: a candidate for a place-list label (names/places/cues.ts). */
function colonAfterWord(t: Uint16Array, q: number, c: Candidates): void {
  let e = q;
  if (e > 0 && t[e - 1] === 32) e--;
  const u = e > 0 ? t[e - 1]! : 0;
  if (u < 128 ? !((u | 32) >= 97 && (u | 32) <= 122) : false) return;
  if (e === 0) return;
  let a = q + 1;
  while (a < t.length && a - q <= 3 && (t[a] === 32 || t[a] === 9)) a++;
  const v = a < t.length ? t[a]! : 0;
  if (v < 128 ? v >= 65 && v <= 90 : true) c.labelColons.push(q);
}

/** A newline whose line ends in a letter (after any ",", "!", spaces, CR: each belongs to this line only, so linear): a candidate for names/sign-offs.ts. */
function newlineAfterWord(t: Uint16Array, i: number, c: Candidates): void {
  let e = i;
  while (e > 0 && (t[e - 1] === 44 || t[e - 1] === 33 || t[e - 1] === 32 || t[e - 1] === 9 || t[e - 1] === 13)) e--;
  const u = e > 0 ? t[e - 1]! : 0;
  if (u < 128 ? u >= 97 && u <= 122 : u !== 0) c.lineEndsAfterWord.push(i);
}

/** At a space: number-led streets (a number before it), street types before a number, place cues before a word. */
export function atSpace(t: Uint16Array, lo: string, i: number, c: Candidates): void {
  const n = t.length;
  if (i === 0 || i + 1 >= n) return;
  if (t[i] === LF) newlineAfterWord(t, i, c);
  const next = t[i + 1]!;
  const prev = t[i - 1]!;
  if (next >= 128 || ASCII_CLASS[next] === C_LOWER || ASCII_CLASS[next] === C_UPPER) {
    // a number, or a number and a letter ("12A Main St"), before the space
    if (
      prev < 128 && ASCII_CLASS[prev] !== 0
        ? isAsciiDigit(prev) || (ASCII_CLASS[prev]! <= C_UPPER && i >= 2 && isAsciiDigit(t[i - 2]!))
        : (prev === 0x17f || prev === 0x212a) && i >= 2 && isAsciiDigit(t[i - 2]!)
    ) {
      numberLedAt(t, i, c.numberLed);
    }
    // place cues are followed by a capital (PLACE_CUE_RE, STRONG_PLACE_RE): most spaces before a lower-case word end here
    if (i >= 2 && ASCII_CLASS[next] !== C_LOWER) {
      const key = pairKey(keyAt(t, lo, i - 1), keyAt(t, lo, i - 2));
      const kinds = WORD_ENDS.kinds[key]!;
      if ((kinds & (E_STRONG_PLACE | E_PLACE | E_PLACE_HEAD)) !== 0) placeCuesBefore(t, lo, i, key, c);
    }
  } else if (isAsciiDigit(next)) {
    endingAt(t, lo, i, E_SUFFIX, false, c.suffix);
  }
}

/** The place cues (PLACE_CUE_RE's, STRONG_PLACE_RE's) that end before the space at i; `key`: their last two code units. */
function placeCuesBefore(t: Uint16Array, lo: string, i: number, key: number, c: Candidates): void {
  for (const { w, kind } of WORD_ENDS.lists[key]!) {
    if ((kind & (E_STRONG_PLACE | E_PLACE | E_PLACE_HEAD)) === 0 || !foldedHas(t, lo, i - w.length, w)) continue;
    if (kind === E_PLACE_HEAD) c.placeHeads.push(i, w.length);
    else (kind === E_PLACE ? c.place : c.strongPlace).push(i - w.length);
  }
}

/** Starts of number-led streets whose first word follows the space at i: the number before it, or the first of two numbers. */
function numberLedAt(t: Uint16Array, i: number, out: number[]): void {
  let r = i - 1;
  if (!isAsciiDigit(t[r]!)) r--; // the letter after the house number: "12A Main St"
  while (r > 0 && isAsciiDigit(t[r - 1]!)) r--;
  pushAscending(out, r);
  // "12 34 Main": the optional second number
  let k = r - 1;
  if (k < 1 || !isSpace(t[k]!)) return;
  k--;
  const u = t[k]!;
  if (
    !isAsciiDigit(u) &&
    ((u < 128 && (ASCII_CLASS[u] === C_LOWER || ASCII_CLASS[u] === C_UPPER)) || u === 0x17f || u === 0x212a)
  )
    k--;
  if (k < 0 || !isAsciiDigit(t[k]!)) return;
  while (k > 0 && isAsciiDigit(t[k - 1]!)) k--;
  pushAscending(out, k);
}

/** At a comma: a postcode after it and at most two spaces (ZIP_CITY_RE), the street before it (STREET_BEFORE_ZIP_RE). */
export function atComma(text: string, t: Uint16Array, i: number, c: Candidates): void {
  const n = t.length;
  let k = i + 1;
  while (k < n && k - i - 1 < 2 && isSpace(t[k]!)) k++;
  if (k >= n) return;
  const u = t[k]!;
  const digit = isAsciiDigit(u);
  if (!digit && !isAsciiUpper(u)) return;
  if (k - i > 1) streetBeforeZipStarts(text, i, c.beforeZip);
  if (digit) c.zip.push(k);
}

/** At a `:`, `=`, `|` or `,`: the keys before it (CUE_SCAN_RE's, and KEY_VALUE_RE's before `:` or `=`), spaces and a quote between. */
export function atKeyAnchor(t: Uint16Array, lo: string, q: number, colonOrEquals: boolean, c: Candidates): void {
  if (t[q] === COLON) colonAfterWord(t, q, c);
  let e = q;
  while (e > 0 && isSpace(t[e - 1]!)) e--;
  if (e > 0 && (t[e - 1] === QUOTE || t[e - 1] === APOSTROPHE)) e--;
  if (
    e < 2 ||
    (WORD_ENDS.kinds[pairKey(keyAt(t, lo, e - 1), keyAt(t, lo, e - 2))]! & (E_CUE_KEY | E_LOCATION_KEY)) === 0
  )
    return;
  endingAt(t, lo, e, E_CUE_KEY, true, c.cue);
  if (colonOrEquals) endingAt(t, lo, e, E_LOCATION_KEY, true, c.locationKey);
}

/** The address cues that start in the word [s, e) of the folded text (whose letters are `mask`). */
export function addressCuesIn(t: Uint16Array, lo: string, s: number, e: number, mask: number, out: number[]): void {
  for (let ks = ADDRESS_CUES_BY_LW[(mask >>> 12) & 0xfff]!; ks !== 0; ks &= ks - 1) {
    const k = 31 - Math.clz32(ks & -ks); // (cues in list order)
    if ((mask & ADDRESS_CUE_LETTERS[k]!) !== ADDRESS_CUE_LETTERS[k]) continue;
    const w = ADDRESS_CUES[k]!.w;
    for (let p = s; p < e; p++) if (foldedHas(t, lo, p, w)) out.push(p);
  }
}
