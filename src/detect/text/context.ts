// Shared helpers: character classes, bounded context windows.

import * as charsModule from './chars.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { isAsciiAlnum } = charsModule;

export { isAsciiAlnum, isAsciiDigit } from './chars.ts';

/** Letter or digit in any script (cheap ASCII path first). */
export function isWordChar(c: number): boolean {
  if (c < 128) return isAsciiAlnum(c) || c === 95;
  if (c >= 0xd800 && c <= 0xdfff) return false;
  return /[\p{L}\p{N}]/u.test(String.fromCharCode(c));
}

/** Lower-cased window of at most `before` chars ending at `start`. */
export function windowBefore(text: string, start: number, before = 48): string {
  return text.slice(Math.max(0, start - before), start).toLowerCase();
}

export function windowAfter(text: string, end: number, after = 24): string {
  return text.slice(end, Math.min(text.length, end + after)).toLowerCase();
}

/** Does any keyword occur within the bounded window before (or just after) the span? */
export function hasContext(
  text: string,
  start: number,
  end: number,
  words: readonly string[],
  before = 48,
  after = 0,
): boolean {
  if (words.length === 0) return false;
  const w = windowBefore(text, start, before) + (after > 0 ? ' ' + windowAfter(text, end, after) : '');
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

/** A list of lower-case context keywords (substring semantics, as in hasContext). */
export interface KeywordList {
  readonly words: readonly string[];
}

/** A keyword list, lower-cased once (at module load). */
export function keywordList(words: readonly string[]): KeywordList {
  return { words: words.map((w) => w.toLowerCase()) };
}

/** Lower-cases without changing string length (so that indices stay valid). */
export function lowerSameLength(text: string): string {
  const l = text.toLowerCase();
  if (l.length === text.length) return l;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const lc = c.toLowerCase();
    out += lc.length === 1 ? lc : c;
  }
  return out;
}

/**
 * Per-text analysis shared by the detectors: the lower-cased text (same length, so indices stay valid),
 * computed at most once, and context-keyword look-ups in bounded windows of it.
 */
export class TextContext {
  readonly text: string;
  private lowerText: string | undefined;
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

  /**
   * Same as hasContext(): a keyword of the list lies entirely within the `before` characters preceding
   * `start` (or the `after` characters following `end`). Read off those windows of the lower-cased text:
   * detectors ask about a few candidates per text, which costs less than a keyword pass over all of it.
   */
  has(list: KeywordList, start: number, end: number, before = 48, after = 0): boolean {
    const lower = this.lower;
    if (keywordIn(lower.slice(Math.max(0, start - before), start), list.words)) return true;
    return after > 0 && keywordIn(lower.slice(end, end + after), list.words);
  }
}

function keywordIn(window: string, words: readonly string[]): boolean {
  for (const k of words) {
    if (k.length === 0) continue;
    // a word written "^word" counts at the start of a word only (numbers/cues.ts)
    if (k.charCodeAt(0) !== 94) {
      if (window.includes(k)) return true;
      continue;
    }
    const w = k.slice(1);
    for (let i = window.indexOf(w); i >= 0; i = window.indexOf(w, i + 1))
      if (i === 0 || !/[\p{L}\p{M}]/u.test(window[i - 1]!)) return true;
  }
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
