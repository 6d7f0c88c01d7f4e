// Shared helpers: character classes, bounded context windows.

export function isAsciiDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isAsciiAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export function isAsciiAlnum(c: number): boolean {
  return isAsciiDigit(c) || isAsciiAlpha(c);
}

/** Letter or digit in any script (cheap ASCII path first). */
export function isWordChar(c: number): boolean {
  if (c < 128) return isAsciiAlnum(c) || c === 95;
  if (c >= 0xd800 && c <= 0xdfff) return false;
  return /[\p{L}\p{N}]/u.test(String.fromCharCode(c));
}

/** True when `text[start-1]` and `text[end]` are not word characters. */
export function atWordBoundary(text: string, start: number, end: number): boolean {
  return (start === 0 || !isWordChar(text.charCodeAt(start - 1))) && (end >= text.length || !isWordChar(text.charCodeAt(end)));
}

/** Lower-cased window of at most `before` chars ending at `start`. */
export function windowBefore(text: string, start: number, before = 48): string {
  return text.slice(Math.max(0, start - before), start).toLowerCase();
}

export function windowAfter(text: string, end: number, after = 24): string {
  return text.slice(end, Math.min(text.length, end + after)).toLowerCase();
}

/** Does any keyword occur within the bounded window before (or just after) the span? */
export function hasContext(text: string, start: number, end: number, words: readonly string[], before = 48, after = 0): boolean {
  if (words.length === 0) return false;
  const w = windowBefore(text, start, before) + (after > 0 ? " " + windowAfter(text, end, after) : "");
  for (const k of words) if (w.includes(k)) return true;
  return false;
}

/** The span is essentially the whole text (a bare field value), allowing surrounding quotes/space/punctuation. */
export function isStandalone(text: string, start: number, end: number): boolean {
  if (text.length - (end - start) > 6) return false;
  const rest = text.slice(0, start) + text.slice(end);
  return /^[\s"'`.,;:()[\]{}]*$/.test(rest);
}

export function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

// ---------------------------------------------------------------- shared per-text analysis

/** A registered list of lower-case context keywords (substring semantics, as in hasContext). */
export interface KeywordList {
  readonly id: number;
  readonly words: readonly string[];
}

const REGISTRY: string[] = [];
const REGISTERED = new Set<string>();
const LISTS: KeywordList[] = [];
let compiled: { re: RegExp; prefixes: Map<string, string[]> } | undefined;

/** Registers a keyword list (at module load) so that one pass over a text finds every keyword of every list. */
export function keywordList(words: readonly string[]): KeywordList {
  const list: KeywordList = { id: LISTS.length, words: words.map((w) => w.toLowerCase()) };
  LISTS.push(list);
  for (const w of list.words) {
    if (w.length > 0 && !REGISTERED.has(w)) {
      REGISTERED.add(w);
      REGISTRY.push(w);
      compiled = undefined;
    }
  }
  return list;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function compile(): { re: RegExp; prefixes: Map<string, string[]> } {
  if (compiled) return compiled;
  // longest first, so that a match is the longest keyword at its position; shorter keywords that are
  // prefixes of it are recorded from `prefixes`, keywords starting later are found by stepping one char.
  const words = [...REGISTRY].sort((a, b) => b.length - a.length);
  const prefixes = new Map<string, string[]>();
  for (const w of words) prefixes.set(w, words.filter((v) => v !== w && w.startsWith(v)));
  compiled = { re: new RegExp(words.map(escapeRe).join("|"), "g"), prefixes };
  return compiled;
}

/** Lower-cases without changing string length (so that indices stay valid). */
export function lowerSameLength(text: string): string {
  const l = text.toLowerCase();
  if (l.length === text.length) return l;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const lc = c.toLowerCase();
    out += lc.length === 1 ? lc : c;
  }
  return out;
}

/**
 * Per-text analysis shared by the detectors: the lower-cased text and the positions of every registered
 * context keyword, each computed at most once (lazily) in one linear pass.
 */
export class TextContext {
  readonly text: string;
  private lowerText: string | undefined;
  private hits: Map<string, number[]> | undefined;
  private digitFlag: number = -1;

  constructor(text: string) {
    this.text = text;
  }

  get lower(): string {
    if (this.lowerText === undefined) this.lowerText = lowerSameLength(this.text);
    return this.lowerText;
  }

  /** Does the text contain an ASCII digit? */
  get hasDigit(): boolean {
    if (this.digitFlag < 0) this.digitFlag = /\d/.test(this.text) ? 1 : 0;
    return this.digitFlag === 1;
  }

  private keywordHits(): Map<string, number[]> {
    if (this.hits) return this.hits;
    const { re, prefixes } = compile();
    const hits = new Map<string, number[]>();
    const add = (w: string, i: number) => {
      const arr = hits.get(w);
      if (arr) arr.push(i);
      else hits.set(w, [i]);
    };
    const lower = this.lower;
    re.lastIndex = 0;
    for (let m = re.exec(lower); m; m = re.exec(lower)) {
      add(m[0], m.index);
      for (const p of prefixes.get(m[0]) ?? []) add(p, m.index);
      re.lastIndex = m.index + 1;
    }
    this.hits = hits;
    return hits;
  }

  /** Does any keyword of the list occur anywhere in the text? */
  any(list: KeywordList): boolean {
    const hits = this.keywordHits();
    for (const w of list.words) if (hits.has(w)) return true;
    return false;
  }

  /** Sorted start positions of the list's keywords (for windows after a cue). */
  positions(list: KeywordList): { start: number; end: number }[] {
    const hits = this.keywordHits();
    const out: { start: number; end: number }[] = [];
    for (const w of list.words) for (const p of hits.get(w) ?? []) out.push({ start: p, end: p + w.length });
    return out.sort((a, b) => a.start - b.start);
  }

  /**
   * Same as hasContext(): a keyword of the list lies entirely within the `before` characters preceding
   * `start` (or the `after` characters following `end`). Binary search per keyword.
   */
  has(list: KeywordList, start: number, end: number, before = 48, after = 0): boolean {
    const hits = this.keywordHits();
    for (const w of list.words) {
      const arr = hits.get(w);
      if (!arr) continue;
      if (firstAtLeast(arr, Math.max(0, start - before), start - w.length)) return true;
      if (after > 0 && firstAtLeast(arr, end, end + after - w.length)) return true;
    }
    return false;
  }
}

/**
 * One linear pass over a text, shared by the detectors: where ASCII word runs and digit runs start and
 * end, and a prefix count of ASCII digits (so that "are there k digits in [a, b)" is one subtraction).
 * The arrays live in module scratch buffers, reused by the next call with another text: use the
 * result synchronously, do not keep it. No per-character allocation.
 */
export interface Tokens {
  readonly text: string;
  /** digitPrefix[i] = number of ASCII digits in text[0, i). */
  readonly digitPrefix: Int32Array;
  /**
   * Starts of [A-Za-z0-9_] runs (not preceded by [A-Za-z0-9_]), plus Ä/Ö/Ü not preceded by one, in
   * increasing order; wordEnds[k] is where the [A-Za-z0-9_] run from wordStarts[k] ends.
   */
  readonly wordStarts: Int32Array;
  readonly wordEnds: Int32Array;
  readonly wordCount: number;
  /** Starts of ASCII digit runs (not preceded by a digit), in increasing order. */
  readonly digitRunStarts: Int32Array;
  readonly digitRunCount: number;
  readonly digitCount: number;
}

let scratch: Tokens | undefined;

export function tokenize(text: string): Tokens {
  if (scratch && scratch.text === text) return scratch;
  const n = text.length;
  const old = scratch;
  const digitPrefix = old && old.digitPrefix.length > n ? old.digitPrefix : new Int32Array(Math.max(n + 1, 8192));
  const cap = Math.max((n >> 1) + 2, 4096);
  const wordStarts = old && old.wordStarts.length >= cap ? old.wordStarts : new Int32Array(cap);
  const wordEnds = old && old.wordEnds.length >= cap ? old.wordEnds : new Int32Array(cap);
  const digitRunStarts = old && old.digitRunStarts.length >= cap ? old.digitRunStarts : new Int32Array(cap);
  let wordCount = 0;
  let digitRunCount = 0;
  let digits = 0;
  let prevW = false;
  let prevD = false;
  digitPrefix[0] = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const d = c >= 48 && c <= 57;
    const w = d || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (d) {
      digits++;
      if (!prevD) digitRunStarts[digitRunCount++] = i;
    }
    if (!prevW) {
      if (w || c === 0xc4 || c === 0xd6 || c === 0xdc) {
        if (wordCount > 0 && wordEnds[wordCount - 1]! < 0) wordEnds[wordCount - 1] = i;
        wordStarts[wordCount] = i;
        wordEnds[wordCount++] = w ? -1 : i;
      }
    } else if (!w) wordEnds[wordCount - 1] = i;
    digitPrefix[i + 1] = digits;
    prevW = w;
    prevD = d;
  }
  if (wordCount > 0 && wordEnds[wordCount - 1]! < 0) wordEnds[wordCount - 1] = n;
  scratch = { text, digitPrefix, wordStarts, wordEnds, wordCount, digitRunStarts, digitRunCount, digitCount: digits };
  return scratch;
}



/** Is there a value v in sorted `arr` with lo <= v <= hi? */
function firstAtLeast(arr: readonly number[], lo: number, hi: number): boolean {
  if (hi < lo) return false;
  let a = 0;
  let b = arr.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (arr[mid]! < lo) a = mid + 1;
    else b = mid;
  }
  return a < arr.length && arr[a]! <= hi;
}

/** Single-entry cache so that detectors called one by one on the same text share the analysis. */
let lastCtx: TextContext | undefined;

export function textContext(text: string, tc?: TextContext): TextContext {
  if (tc && tc.text === text) return tc;
  if (lastCtx && lastCtx.text === text) return lastCtx;
  lastCtx = new TextContext(text);
  return lastCtx;
}
