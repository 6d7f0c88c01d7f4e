// One numeric chunk: a run of digit groups joined by 1-3 separator chars, read into reused typed arrays (no
// allocation per digit run), and the geometry of its windows (where a window of groups a..b starts and
// ends, its digits, whether it is a piece of a longer run). A Candidate (strings) is only built for windows
// that a rule or the phone check can still accept.

import * as charsModule from '../text/chars.ts';
import * as context from '../text/context.ts';
import * as numericChunks from './chunks.ts';
import * as numericPhoneRules from './phone-rules.ts';
import type { Candidate } from './rule.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { CLOSE_PAREN, DIGIT_0, OPEN_PAREN, PLUS } = charsModule;
const { isAsciiDigit } = context;
const { asciiDashes, continuesRun, isWord, sepCodeOf, SPACE } = numericChunks;
const { dateValues } = numericPhoneRules;

/** The group arrays, reused by the next call (typed arrays this size live outside the heap: costly per call). */
const groupArrays = { gs: new Int32Array(32), ge: new Int32Array(32), sep: new Int32Array(32) };

export class NumericChunk {
  readonly text: string;
  /** the text's UTF-16 code units (see text/code-units.ts) */
  readonly units: Uint16Array;
  // group g spans [gs[g], ge[g]); sep[g] is the code of the separator after it
  gs = groupArrays.gs;
  ge = groupArrays.ge;
  sep = groupArrays.sep;
  count = 0;
  chunkStart = 0;
  /** a '+' precedes the first group (the chunk starts with "+" or "(+") */
  plusPrefix = false;
  /** a word char touches the last group on the right */
  glued = false;

  constructor(text: string, units: Uint16Array) {
    this.text = text;
    this.units = units;
  }

  /** Reads the chunk whose first digit is at `i` into the group arrays; returns the end of its last group. */
  read(i: number): number {
    const { text, units } = this;
    const n = text.length;
    // include "+" / "(" / "(+" prefixes
    const p = i > 0 ? units[i - 1]! : 0;
    let chunkStart = i;
    if (p === PLUS || p === OPEN_PAREN) {
      chunkStart = i - 1;
      if (p === PLUS && chunkStart > 0 && units[chunkStart - 1]! === OPEN_PAREN) chunkStart--;
    }
    this.chunkStart = chunkStart;
    this.plusPrefix = p === PLUS;
    let g = 0;
    let j = i;
    for (;;) {
      if (g === this.gs.length) this.grow();
      this.gs[g] = j;
      while (j < n && isAsciiDigit(units[j]!)) j++;
      this.ge[g] = j;
      g++;
      // separator of 1..3 chars (at most two spaces) followed by a digit
      let k = j;
      let spaces = 0;
      let code = 0;
      for (let mul = 1; k < n && k - j < 3; mul *= 8) {
        const c = units[k]!;
        const s = sepCodeOf(c);
        if (s === 0) break;
        if (s === SPACE) spaces++;
        code += s * mul;
        k++;
      }
      if (k > j && k < n && isAsciiDigit(units[k]!) && spaces <= 2) {
        this.sep[g - 1] = code;
        j = k;
        continue;
      }
      break;
    }
    this.count = g;
    this.glued = j < n && isWord(units[j]!);
    return j;
  }

  private grow(): void {
    const size = this.gs.length * 2;
    for (const k of ['gs', 'ge', 'sep'] as const) {
      const a = new Int32Array(size);
      a.set(this[k]);
      this[k] = groupArrays[k] = a;
    }
  }

  /** The number of digits of group g. */
  len(g: number): number {
    return this.ge[g]! - this.gs[g]!;
  }

  /** Where a candidate of groups a.. starts: with the chunk's "+"/"(" prefix, or an opening parenthesis. */
  startOf(a: number): number {
    const gsa = this.gs[a]!;
    if (a === 0) return this.chunkStart;
    return this.units[gsa - 1]! === OPEN_PAREN ? gsa - 1 : gsa;
  }

  /** Where a candidate ending with group b ends: a closing parenthesis belongs to it only if it opened one. */
  endOf(start: number, b: number): number {
    const { text, units } = this;
    const end = this.ge[b]!;
    if (end >= text.length || units[end]! !== CLOSE_PAREN) return end;
    let open = false;
    for (let p = start; p < end; p++) {
      const c = units[p]!;
      if (c === CLOSE_PAREN) return end;
      if (c === OPEN_PAREN) open = true;
    }
    return open ? end + 1 : end;
  }

  /** The `k`-th digit (char code) of the concatenated groups a..; k is within them. */
  private digitAt(a: number, k: number): number {
    let g = a;
    for (let len = this.ge[g]! - this.gs[g]!; k >= len; len = this.ge[g]! - this.gs[g]!) {
      k -= len;
      g++;
    }
    return this.units[this.gs[g]! + k]!;
  }

  /** A "+"/"00" international prefix: a '+' before the first group, or leading "00" on more than 9 digits. */
  hasPlus(a: number, nd: number): boolean {
    if (a === 0 && this.plusPrefix) return true;
    return nd > 9 && this.ge[a]! - this.gs[a]! <= 4 && this.digitAt(a, 0) === DIGIT_0 && this.digitAt(a, 1) === DIGIT_0;
  }

  /** Do groups a, a+1, a+2 read as a date, by their lengths and values (phone-rules.ts dateValues)? */
  isDate(a: number): boolean {
    const { gs, ge } = this;
    return dateValues(
      ge[a]! - gs[a]!,
      ge[a + 1]! - gs[a + 1]!,
      ge[a + 2]! - gs[a + 2]!,
      this.value(a),
      this.value(a + 1),
      this.value(a + 2),
    );
  }

  /** The value of group g's digits (the first 9 of them). */
  private value(g: number): number {
    const units = this.units;
    let v = 0;
    for (let p = this.gs[g]!, e = Math.min(this.ge[g]!, p + 9); p < e; p++) v = v * 10 + (units[p]! - DIGIT_0);
    return v;
  }

  allSameDigit(a: number, b: number): boolean {
    const units = this.units;
    const d0 = units[this.gs[a]!]!;
    for (let g = a; g <= b; g++) for (let p = this.gs[g]!; p < this.ge[g]!; p++) if (units[p]! !== d0) return false;
    return true;
  }

  /** The candidate of groups a..b, which spans [start, end) (startOf(a), endOf(start, b)). */
  makeCandidate(a: number, b: number, start: number, end: number): Candidate {
    const { text, gs, ge } = this;
    let digits = '';
    const lens: number[] = [];
    const seps: string[] = [];
    for (let g = a; g <= b; g++) {
      digits += text.slice(gs[g]!, ge[g]!);
      lens.push(ge[g]! - gs[g]!);
      if (g < b) seps.push(asciiDashes(text.slice(ge[g]!, gs[g + 1]!)));
    }
    const plusSign = a === 0 && this.plusPrefix;
    const plus = this.hasPlus(a, digits.length);
    const gluedRight = b === this.count - 1 && this.glued;
    return { start, end, digits, groups: lens, seps, plus, plusSign, gluedRight, raw: text.slice(start, end) };
  }

  /** Is the window [a, b] part of a longer run of groups joined by the same separator (e.g. the first 12 digits of "4567-8901-2345-6789")? */
  isFragment(a: number, b: number): boolean {
    const inner = b > a ? this.sep[a]! : 0;
    return (
      (a > 0 && continuesRun(this.sep[a - 1]!, inner)) || (b < this.count - 1 && continuesRun(this.sep[b]!, inner))
    );
  }
}
