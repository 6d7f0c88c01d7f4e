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
  private readonly perList = new Map<number, ListHits>();

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
   * `start` (or the `after` characters following `end`). One binary search in the list's hits.
   */
  has(list: KeywordList, start: number, end: number, before = 48, after = 0): boolean {
    const hits = this.listHits(list);
    if (hits.starts.length === 0) return false;
    if (hitWithin(hits, Math.max(0, start - before), start)) return true;
    return after > 0 && hitWithin(hits, end, end + after);
  }

  /** Every hit of the list's keywords, sorted by start (computed once per list and text). */
  private listHits(list: KeywordList): ListHits {
    let h = this.perList.get(list.id);
    if (h) return h;
    const hits = this.keywordHits();
    const spans: [number, number][] = [];
    for (const w of list.words) for (const p of hits.get(w) ?? []) spans.push([p, p + w.length]);
    spans.sort((a, b) => a[0] - b[0]);
    h = { starts: Int32Array.from(spans, (x) => x[0]), ends: Int32Array.from(spans, (x) => x[1]) };
    this.perList.set(list.id, h);
    return h;
  }
}

interface ListHits {
  starts: Int32Array;
  ends: Int32Array;
}

/** Does a hit lie entirely within [lo, hi)? Binary search to the first start >= lo, then a bounded walk. */
function hitWithin(h: ListHits, lo: number, hi: number): boolean {
  const { starts, ends } = h;
  let a = 0;
  let b = starts.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (starts[mid]! < lo) a = mid + 1;
    else b = mid;
  }
  for (let i = a; i < starts.length && starts[i]! < hi; i++) if (ends[i]! <= hi) return true;
  return false;
}

/** Single-entry cache so that detectors called one by one on the same text share the analysis. */
let lastCtx: TextContext | undefined;

export function textContext(text: string, tc?: TextContext): TextContext {
  if (tc && tc.text === text) return tc;
  if (lastCtx && lastCtx.text === text) return lastCtx;
  lastCtx = new TextContext(text);
  return lastCtx;
}
