// Context keywords of the numeric rules, looked up in a short window before (or after) a value: keyword lists
// indexed by their first chars, an ASCII window read in place with case folded.

import * as charsModule from '../text/chars.ts';
import type { KeywordList } from '../text/context.ts';
import * as context from '../text/context.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { CR, isAsciiLower, LF, lowerAscii } = charsModule;
const { isAsciiDigit } = context;

/**
 * A keyword with the bit of the list it belongs to. A list's word written with a leading '^' matches only
 * at the start of a word (not after a letter): a short cue that other words contain ("tel" in "hotel",
 * "gsm" in "spørgsmål", "liga" in "obligatorisk", "cep" in "except").
 */
interface Keyword {
  word: string;
  bit: number;
  wordStart: boolean;
}

/** A word-start keyword as its list writes it. */
const WORD_START = '^';

/** The keyword a list's word stands for, without its word-start mark. */
export function keywordText(word: string): string {
  return word.startsWith(WORD_START) ? word.slice(1) : word;
}

/** Is `c` (a code unit before a keyword) a letter? ASCII by range, the rest as Unicode says (cold: only at a match). */
function isLetterUnit(c: number): boolean {
  if (c < 128) return (c | 32) >= 97 && (c | 32) <= 122;
  return LETTER.test(String.fromCharCode(c));
}
const LETTER = /\p{L}|\p{M}/u;

/** Does `k` stand at `p`, as far as its word-start mark goes? (`at(p - 1)` is the char before) */
function startsWordOk(k: Keyword, p: number, before: number): boolean {
  return !k.wordStart || p === 0 || !isLetterUnit(before);
}

/** Keyword lists indexed by first char, for looking their keywords up in one short window. */
export interface Matcher {
  /** [c1 * 128 + c2] is 1 when a keyword starts with the ASCII chars c1 c2 in either case (or is the single char c1, any c2) */
  pairs: Uint8Array;
  ascii: Keyword[][];
  other: Map<number, Keyword[]>;
}

/** A matcher for `lists`, the i-th list reported as bit 1 << i. */
export function matcherFor(lists: readonly KeywordList[]): Matcher {
  const m: Matcher = {
    pairs: new Uint8Array(128 * 128),
    ascii: Array.from({ length: 128 }, () => []),
    other: new Map(),
  };
  lists.forEach((list, i) => {
    for (const listed of list.words) {
      const word = keywordText(listed);
      if (word.length === 0) continue;
      const k = { word, bit: 1 << i, wordStart: word !== listed };
      const c = word.charCodeAt(0);
      if (c < 128) {
        const c2 = word.length > 1 ? word.charCodeAt(1) : -1;
        for (const u of asciiCases(c)) {
          if (c2 < 0) m.pairs.fill(1, u * 128, u * 128 + 128);
          else if (c2 < 128) for (const d of asciiCases(c2)) m.pairs[u * 128 + d] = 1;
        }
        m.ascii[c]!.push(k);
      } else {
        const arr = m.other.get(c) ?? [];
        arr.push(k);
        m.other.set(c, arr);
      }
    }
  });
  return m;
}

/** One-list matchers, by list. */
const MATCHERS = new WeakMap<KeywordList, Matcher>();

export function matcherOf(list: KeywordList): Matcher {
  let m = MATCHERS.get(list);
  if (!m) MATCHERS.set(list, (m = matcherFor([list])));
  return m;
}

/** The ASCII chars that fold to the lower-case char `c` (itself, and its capital for a letter). */
function asciiCases(c: number): number[] {
  return isAsciiLower(c) ? [c, c - 32] : [c];
}

/** Does keyword `w` occur at `p` of the text's code units, ignoring ASCII case? (false at any non-ASCII char) */
function asciiMatchAt(units: Uint16Array, p: number, w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = units[p + i]!;
    if (c >= 128 || lowerAscii(c) !== w.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The lists (bits) with a keyword entirely within [lo, start) of the lower-cased text, as tc.has() would
 * say; stops once all the `want` bits are found.
 */
export function cuesIn(lower: string, m: Matcher, lo: number, start: number, want: number): number {
  let found = 0;
  for (let p = lo; p < start; p++) {
    const c = lower.charCodeAt(p);
    const ks = c < 128 ? m.ascii[c] : m.other.get(c);
    if (!ks) continue;
    for (const k of ks)
      if (
        (found & k.bit) === 0 &&
        p + k.word.length <= start &&
        lower.startsWith(k.word, p) &&
        startsWordOk(k, p, p > 0 ? lower.charCodeAt(p - 1) : 0)
      )
        found |= k.bit;
    if ((found & want) === want) return found;
  }
  return found;
}

/** Context keywords are looked for this many chars before a value. */
export const CONTEXT_BEFORE = 40;

/** A keyword may also follow the value ("199109242397 är mitt pnr", "… is my SSN") within this many chars. */
const CONTEXT_AFTER = 24;

/** Positions of a window where a keyword's first two chars occur (asciiCues). */
const pairHits = new Int32Array(Math.max(CONTEXT_BEFORE, CONTEXT_AFTER) + 1);

/**
 * The lists (bits) of `m` with a keyword entirely within [lo, hi) of an ASCII window, read in place with
 * ASCII case folded (what toLowerCase() does to ASCII chars); stops once all the `want` bits are found.
 * -1 when the window holds a non-ASCII char (the callers then read the lower-cased text, which finds the
 * same keywords and maybe more, so their yes/no answers agree). The positions where a keyword's first two
 * chars occur are collected without a branch per char (a branch there is often mispredicted in prose),
 * then the keywords are compared there in order.
 */
export function asciiCues(units: Uint16Array, m: Matcher, lo: number, hi: number, want: number): number {
  const pairs = m.pairs;
  let n = 0;
  let all = 0; // every char or-ed: >= 128 when one is not ASCII
  let c = units[lo]!;
  for (let p = lo; p < hi; p++) {
    const d = p + 1 < hi ? units[p + 1]! : 0; // 0 past the window
    all |= c;
    pairHits[n] = p;
    n += pairs[((c << 7) | d) & 0x3fff]!;
    c = d;
  }
  if (all >= 128) return -1;
  let found = 0;
  for (let i = 0; i < n; i++) {
    const p = pairHits[i]!;
    for (const k of m.ascii[lowerAscii(units[p]!)]!)
      if (
        (found & k.bit) === 0 &&
        p + k.word.length <= hi &&
        asciiMatchAt(units, p, k.word) &&
        startsWordOk(k, p, p > 0 ? units[p - 1]! : 0)
      )
        found |= k.bit;
    if ((found & want) === want) return found;
  }
  return found;
}

/**
 * A keyword of the list right after the value: within CONTEXT_AFTER chars, on its line and before the next
 * digit (a label after another number belongs to that number).
 */
export function cueAfter(text: string, units: Uint16Array, list: KeywordList, end: number): boolean {
  let stop = end;
  const max = Math.min(text.length, end + CONTEXT_AFTER);
  while (stop < max) {
    const c = units[stop]!;
    if (c === LF || c === CR || isAsciiDigit(c)) break;
    stop++;
  }
  if (stop === end) return false;
  // an ASCII window lower-cases char by char; another one as toLowerCase() does it (its length may change)
  const found = asciiCues(units, matcherOf(list), end, stop, 1);
  if (found >= 0) return found !== 0;
  const window = text.slice(end, stop).toLowerCase();
  for (const k of list.words) {
    const w = keywordText(k);
    if (w.length === 0) continue;
    for (let i = window.indexOf(w); i >= 0; i = window.indexOf(w, i + 1))
      if (w === k || !isLetterUnit(i > 0 ? window.charCodeAt(i - 1) : units[end - 1]!)) return true;
  }
  return false;
}
