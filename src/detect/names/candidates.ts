// The candidate scan: one loop over the text's code units that collects every name, address and place
// rule's candidate starts (see names/sticky.ts), and COUNTRY_RE's matches on the way.
//
// The candidate starts of every rule come from one loop over the text's code units (copied into a
// Uint16Array, see text/code-units.ts): at each word start of the folded text
// (cue words, honorifics, street types, capitalised words), at each space (number-led streets,
// street types before a number, place cues before a word), at each comma (postcodes), at each
// `:`/`=`/`|`/`,` (keys) and at a few letters (address cues, which may start inside a word). Literal
// lists are looked up by the two code units at a word's start or end (a flag table first, so that most
// positions cost one table read), then compared code unit by code unit.

import * as chars from '../text/chars.ts';
import * as codeUnitsModule from '../text/code-units.ts';
import * as namesAnchors from './anchors.ts';
import * as namesCapSeq from './cap-seq.ts';
import * as namesCharClasses from './char-classes.ts';
import * as namesCountries from './countries.ts';
import * as namesLexicon from './lexicon.ts';
import * as namesLiterals from './literals.ts';
import * as namesSticky from './sticky.ts';
import type { Candidates, Scan } from './scan-state.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { APOSTROPHE, DOT, HYPHEN, isAsciiDigit, isAsciiLower, isAsciiUpper, isJsSpace: isSpace, SPACE } = chars;
const { codeUnitReader } = codeUnitsModule;
const { addressCuesIn, atComma, atKeyAnchor, atSpace } = namesAnchors;
const { capSeqMayFollow, capSeqMayStart, capSeqNext } = namesCapSeq;
const { ASCII_CLASS, bmpClass, C_COMMA, C_DIGIT, C_KEY, C_SPACE, C_UPPER, isLetterUnit, U_ASTRAL_LU, U_LU } =
  namesCharClasses;
const { countryAt, countryEnd } = namesCountries;
const { loadDicts, wordHashSlot } = namesLexicon;
const {
  ADDRESS_LETTERS,
  ANY_FOURTH,
  E_PLACE,
  E_PLACE_HEAD,
  E_STRONG_PLACE,
  E_SUFFIX,
  foldedHas,
  keyAt,
  pairKey,
  start3,
  W_CUE,
  W_HONORIFIC,
  WORD_ENDS,
  WORD_START4,
  WORD_STARTS,
} = namesLiterals;
const { ascendingInPlace } = namesSticky;

/**
 * A lower-cased copy of the text, index for index, for case-insensitive literal prefilters: "İ"
 * (whose lower case is two units) is mapped to "i", and "ſ" to "s" (/iu matches it as "s"; the
 * Kelvin sign, the only other such letter, lower-cases to "k").
 */
function foldedCopy(text: string): string {
  let lo = text.toLowerCase();
  if (lo.length !== text.length) lo = text.replaceAll('\u0130', 'i').toLowerCase();
  if (lo.includes('\u017f')) lo = lo.replaceAll('\u017f', 's');
  return lo;
}
/** The text's code units (valid until this module's next call). */
const codeUnits = codeUnitReader();

export function scanCandidates(text: string): Candidates {
  const t = codeUnits(text);
  // the folded copy is read at non-ASCII code units only
  const lo = Buffer.byteLength(text, 'utf8') === text.length ? text : foldedCopy(text);
  const c: Candidates = {
    hasDigit: false,
    cue: [],
    capSeq: [],
    suffix: [],
    numberLed: [],
    contMil: [],
    beforeZip: [],
    zip: [],
    addressCue: [],
    strongPlace: [],
    lineEndsAfterWord: [],
    labelColons: [],
    place: [],
    placeHeads: [],
    locationKey: [],
    countries: [],
  };
  const st: Scan = {
    t,
    lo,
    firsts: loadDicts().countryFirsts,
    c,
    countries: [],
    countryFrom: 0,
    countryLater: false,
    astral: false,
  };
  c.hasDigit = scanText(st, text);
  ascendingInPlace(c.cue);
  ascendingInPlace(c.numberLed);
  ascendingInPlace(c.beforeZip);
  ascendingInPlace(c.addressCue);
  ascendingInPlace(c.strongPlace);
  ascendingInPlace(c.place);
  ascendingInPlace(c.locationKey);
  c.countries = st.astral ? undefined : st.countries;
  return c;
}

/** The loop of scanCandidates (a function of its own, so that the optimised loop returns before any code that runs once per call); says whether the text has a digit. */
function scanText(st: Scan, text: string): boolean {
  const { t, lo, c } = st;
  const n = t.length;
  let hasDigit = false;
  let i = 0;
  while (i < n) {
    const u = t[i]!;
    if (u < 128) {
      const cls = ASCII_CLASS[u]!;
      if (cls <= C_UPPER && cls !== 0) {
        i = scanWord(st, i);
        continue;
      }
      if (cls === C_SPACE) atSpace(t, lo, i, c);
      else if (cls === C_DIGIT) hasDigit = true;
      else if (cls === C_COMMA) {
        atComma(text, t, i, c);
        atKeyAnchor(t, lo, i, false, c);
      } else if (cls !== 0) atKeyAnchor(t, lo, i, cls === C_KEY, c);
      i++;
      continue;
    }
    const l = lo.charCodeAt(i); // "K" (Kelvin), "İ" and "ſ" fold to ASCII letters
    if (isAsciiLower(l)) {
      i = scanWord(st, i);
      continue;
    }
    atNonAscii(st, i, u);
    if (isSpace(u)) atSpace(t, lo, i, c);
    i++;
  }
  return hasDigit;
}

/** At a non-ASCII code unit: an upper-case letter may start a capitalised sequence or a country. */
function atNonAscii(st: Scan, i: number, u: number): void {
  const k = bmpClass(u);
  if ((k & (U_LU | U_ASTRAL_LU)) !== 0) {
    if (capSeqMayStart(st.t, i)) st.c.capSeq.push(i);
    if ((k & U_LU) !== 0 && i >= st.countryFrom) st.countryFrom = countryAt(st, i);
  }
  if (u >= 0xd800 && u <= 0xdfff) st.astral = true;
}

/**
 * A word of the folded text (a run of a-z) from s: what may start there (cue words, honorifics, street
 * types; a capitalised sequence or a country after an ASCII capital), and the address cues inside it
 * (only when it has their letters). Returns its end.
 */
function scanWord(st: Scan, s: number): number {
  const { t, lo } = st;
  const n = t.length;
  let mask = 0; // the letters of the word, 1 << (code & 31)
  let ascii = true;
  let i = s;
  for (;;) {
    let u = 0;
    while (i < n && (((u = t[i]!) | 32) - 97) >>> 0 < 26) {
      mask |= 1 << (u & 31);
      i++;
    }
    if (i >= n || u < 128) break;
    const l = lo.charCodeAt(i);
    if (!isAsciiLower(l)) break;
    atNonAscii(st, i, u);
    ascii = false;
    mask |= 1 << (l & 31);
    i++;
  }
  const k0 = keyAt(t, lo, s);
  const k1 = s + 1 < n ? keyAt(t, lo, s + 1) : 0;
  const fourth = WORD_START4[start3(k0, k1, s + 2 < n ? keyAt(t, lo, s + 2) : 0)]!;
  if (fourth !== 0 && (fourth === ANY_FOURTH || (s + 3 < n && fourth === (keyAt(t, lo, s + 3) & 31) + 1)))
    wordStart(t, lo, s, pairKey(k0, k1), st.c);
  const u0 = t[s]!;
  if (isAsciiUpper(u0)) capitalWord(st, s, i, ascii);
  if (i - s >= 4 && (mask & ADDRESS_LETTERS) !== 0) addressCuesIn(t, lo, s, i, mask, st.c.addressCue);
  // the space after a word of two ASCII letters or more matters only after the ending of a literal
  if (ascii && i < n && t[i] === SPACE && i - s >= 2) {
    // (only the endings atSpace reads there: place cues and nouns of a place before a capital, street types before a
    // digit; the keys' endings matter before ":" or "="; most words are followed by a lower-case word, and read nothing)
    if (i + 1 < n && isAsciiLower(t[i + 1]!)) return i + 1;
    if (
      (WORD_ENDS.kinds[pairKey(t[i - 1]! | 32, t[i - 2]! | 32)]! &
        (E_SUFFIX | E_PLACE | E_STRONG_PLACE | E_PLACE_HEAD)) !==
      0
    )
      atSpace(t, lo, i, st.c);
    return i + 1;
  }
  return i;
}

/**
 * At an ASCII capital that starts the word [s, e) (`ascii` when the word has no non-ASCII letters): a capitalised
 * sequence or a country may start there. The common word, [A-Z][a-z]+ before an ASCII code unit that no rule
 * reads as part of it, is checked from what the word scan already knows.
 */
function capitalWord(st: Scan, s: number, e: number, ascii: boolean): void {
  const t = st.t;
  const n = t.length;
  let simple = ascii && e - s <= 48 && (e >= n || (t[e]! < 128 && t[e] !== APOSTROPHE && t[e] !== HYPHEN));
  let h = t[s]! | 32; // the word's hash, as countryFrom computes it
  for (let j = s + 1; simple && j < e; j++) {
    const u = t[j]!;
    if (u < 97) simple = false;
    h = (Math.imul(h, 31) + u) | 0;
  }
  if (!simple) {
    if (capSeqMayStart(t, s)) st.c.capSeq.push(s);
    if (s >= st.countryFrom) st.countryFrom = countryAt(st, s);
    return;
  }
  if (
    e - s >= 2 &&
    e < n &&
    isSpace(t[e]!) &&
    capSeqMayFollow(t, s) &&
    (capSeqNext(t, e + 1) || (e + 1 < n && isSpace(t[e + 1]!) && capSeqNext(t, e + 2)))
  )
    st.c.capSeq.push(s);
  if (s >= st.countryFrom && e - s >= 3 && e - s <= 21 && !(s > 0 && isLetterUnit(t[s - 1]!))) {
    const end = countryEnd(st, e);
    if (st.firsts[wordHashSlot(h)] === 1 || st.countryLater) st.countries.push(s, end);
    st.countryFrom = end;
  }
}

/** At a word start of the folded text (a-z after another code unit) whose first two code units begin a literal: cue words, honorifics, street types. */
function wordStart(t: Uint16Array, lo: string, i: number, key: number, c: Candidates): void {
  const list = WORD_STARTS.lists[key];
  if (list === undefined) return; // (WORD_START4 folds code units together)
  let cue = false;
  for (const { w, kind } of list) {
    if (!foldedHas(t, lo, i, w)) continue;
    const after = i + w.length < t.length ? t[i + w.length]! : -1;
    if (kind === W_CUE) cue = true;
    else if (kind === W_HONORIFIC) cue ||= after === DOT || isSpace(after);
    else if (isSpace(after) && !(i > 0 && isAsciiDigit(t[i - 1]!))) c.contMil.push(i);
  }
  if (cue) c.cue.push(i);
}
