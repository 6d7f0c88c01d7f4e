// The named-entity model at scan time: persons, locations and organisations found by an averaged
// perceptron (ner-train.ts) over hashed token features (ner-features.ts), decoded with Viterbi
// (ner-decode.ts). Trained by `npm run train:ner` on public annotated corpora (datasets/detect/ner/).
//
// Cost: a feature row read is a cache miss in a 3.7 MB table, far too slow for every token at the scan's
// throughput. So the model reads windows of text around anchors (a word starting with a capital that is
// not a frequent word, or an ideograph) and scores only the tokens that can start or continue a name
// (capitalised or non-Latin letters); every other token is tagged O without reading the table. Names in
// lower case (tweets) are therefore out of its reach, as they are out of the rules'. Linear: every
// window is at most WINDOW_MAX characters and windows do not overlap.

import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { gunzipSync } from 'node:zlib';
import * as nerDecodeModule from './ner-decode.ts';
import type { NerLabel, Weights } from './ner-decode.ts';
import * as nerFeaturesModule from './ner-features.ts';
import type { Gazetteer } from './ner-features.ts';
import * as nerTokensModule from './ner-tokens.ts';
import * as lexiconModule from '../names/lexicon.ts';
// Bound once (../README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { emissions, tagSpans, viterbi } = nerDecodeModule;
const { featurize, N_TAGS, START, TABLE_BITS, tokenView } = nerFeaturesModule;
const { tokenize } = nerTokensModule;
const { PARTICLES } = lexiconModule;

export interface NerSpan {
  start: number;
  end: number;
  label: NerLabel;
  /**
   * How far the span's tags lead O: the largest, over its tokens, of the tag's score minus O's (from the
   * token features alone, in units of the int16 weights; a name's later tokens lean on the transition
   * from its first, so the strongest token speaks for the span). A threshold trades recall for precision.
   */
  margin: number;
}

export interface NerModel {
  weights: Weights;
  gazetteer: Gazetteer;
  /** Lower-cased words whose capital does not make them an anchor (they may still be tagged inside a window). */
  stopwords: ReadonlySet<string>;
}

const MODEL_FILE = new URL('./ner.bin.gz', import.meta.url);

/** Reads the shipped weights (int16, gzipped). */
export function loadNerWeights(file: URL | string = MODEL_FILE): Int16Array {
  const raw = gunzipSync(readFileSync(file));
  const expected = (1 << TABLE_BITS) * N_TAGS * 2;
  if (raw.length !== expected) throw new Error(`ner model: ${raw.length} bytes, expected ${expected}`);
  if (endianness() === 'LE') return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
  const w = new Int16Array(raw.length / 2);
  for (let j = 0; j < w.length; j++) w[j] = raw.readInt16LE(j * 2);
  return w;
}

/** The weights as written to ner.bin.gz. */
export function encodeNerWeights(w: Int16Array): Buffer {
  const buf = Buffer.alloc(w.length * 2);
  for (let j = 0; j < w.length; j++) buf.writeInt16LE(w[j]!, j * 2);
  return buf;
}

const BEFORE = 24;
const AFTER = 40;
const WINDOW_MAX = 4000;

function isCjk(u: number): boolean {
  return (u >= 0x3040 && u < 0x3100) || (u >= 0x4e00 && u < 0xa000) || (u >= 0x3400 && u < 0x4dc0);
}

const LETTER = 1;
const LOWER = 2;
const UPPER = 4;
/** LETTER, LOWER and UPPER of the code units above ASCII, filled 256 at a time, as a text first uses them. */
const unitClasses = new Uint8Array(0x10000);
const blockFilled = new Uint8Array(256);
/**
 * The classes of `u` (above ASCII), by the definitions below: a case mapping that changes it, or an
 * ideograph. A string and its case mappings per unit cost more than the rest of a text in another script;
 * by 256-unit block, a text pays only for the blocks of its scripts, once per process.
 */
function classesAboveAscii(u: number): number {
  const block = u >> 8;
  if (blockFilled[block] === 0) {
    for (let v = block << 8; v < (block + 1) << 8; v++) {
      const ch = String.fromCharCode(v);
      const lower = ch.toLowerCase();
      const upper = ch.toUpperCase();
      unitClasses[v] =
        (lower !== upper || isCjk(v) ? LETTER : 0) | (ch !== upper ? LOWER : 0) | (ch !== lower ? UPPER : 0);
    }
    blockFilled[block] = 1;
  }
  return unitClasses[u]!;
}

function isLetterUnit(u: number): boolean {
  if (u < 128) return (u >= 65 && u <= 90) || (u >= 97 && u <= 122) || (u >= 48 && u <= 57);
  return (classesAboveAscii(u) & LETTER) !== 0;
}

function isLowerUnit(u: number): boolean {
  if (u < 128) return u >= 97 && u <= 122;
  return (classesAboveAscii(u) & LOWER) !== 0;
}

/** Is the unit at i an upper-case letter (non-ASCII: one whose lower case differs)? */
function isUpperUnit(u: number): boolean {
  if (u < 128) return u >= 65 && u <= 90;
  return (classesAboveAscii(u) & UPPER) !== 0;
}

/** A span already found (by the rules): anchors inside it open no window. */
export interface Covered {
  start: number;
  end: number;
}

/**
 * Tokens a text may have scored: past it, the rest of the text is left to the rules. It bounds the
 * model's cost on a text of nothing but capitalised words (32,000 chars: about 5,000 such tokens).
 */
export const TOKEN_BUDGET = 600;

// . ! ? line breaks, the openers of quoted or bulleted text, and of a table cell, a value or a bracket
const SENTENCE_OPENERS = new Set([46, 33, 63, 10, 13, 34, 42, 45, 0x2022, 124, 58, 61, 40, 91, 123, 9]);

/** Does a sentence (or a line, or the text) start before position i, white space aside? */
function sentenceStartBefore(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && j > i - 8 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j--;
  if (j < 0) return true;
  const u = text.charCodeAt(j);
  // . ! ? newline, and the openers of quoted or bulleted text
  return SENTENCE_OPENERS.has(u);
}

/** An ASCII capital or a code unit above ASCII (a surrogate too, as the loop below reads it). */
const MAY_ANCHOR = /[A-Z\u0080-\uffff]/g;

/**
 * Windows [from, to) around the anchors, ascending, non-overlapping, each at most WINDOW_MAX long. An
 * anchor is an ideograph or kana, or a word in title case (upper then lower: "IBAN", "AWS_REGION" are
 * not) that is not a frequent word and, at a sentence's start, where every word has a capital, is in
 * the name dictionaries. Most capitals of ordinary text are thus skipped without reading the model.
 */
function windows(
  text: string,
  model: NerModel,
  covered: readonly Covered[],
  open: (from: number, to: number) => boolean,
): void {
  const { stopwords, gazetteer: g } = model;
  const n = text.length;
  let curFrom = -1;
  let curTo = -1;
  let c = 0;
  let coveredTo = -1;
  for (let i = 0; i < n; i++) {
    let u = text.charCodeAt(i);
    // only an ASCII capital or a unit above ASCII may be an anchor: the rest of ASCII is skipped by a native
    // scan (a unit above ASCII is read here, so that a text in another script makes no call per unit)
    if (u < 65 || (u > 90 && u < 128)) {
      MAY_ANCHOR.lastIndex = i + 1;
      if (!MAY_ANCHOR.test(text)) break;
      i = MAY_ANCHOR.lastIndex - 1;
      u = text.charCodeAt(i);
    }
    // an anchor inside a finding the rules already made is left to them
    while (c < covered.length && covered[c]!.start <= i) coveredTo = Math.max(coveredTo, covered[c++]!.end);
    if (i < coveredTo) continue;
    let j = i + 1;
    const cjk = u >= 0x3040 && isCjk(u);
    if (!cjk) {
      if (!isUpperUnit(u) || (i > 0 && isLetterUnit(text.charCodeAt(i - 1)))) continue;
      if (i + 1 >= n || !isLowerUnit(text.charCodeAt(i + 1))) continue;
      while (j < n && j - i < 24 && isLetterUnit(text.charCodeAt(j))) j++;
      if (j - i >= 24) {
        i = j;
        continue;
      }
      const lo = text.slice(i, j).toLowerCase();
      if (stopwords.has(lo)) {
        i = j;
        continue;
      }
      if (
        sentenceStartBefore(text, i) &&
        !(g.first.has(lo) || g.last.has(lo) || g.places.has(lo) || g.countries.has(lo))
      ) {
        i = j;
        continue;
      }
    }
    const from = Math.max(0, i - BEFORE);
    const to = Math.min(n, j + AFTER);
    if (curTo >= 0 && from <= curTo && to - curFrom <= WINDOW_MAX) curTo = to;
    else {
      if (curTo >= 0 && !open(curFrom, curTo)) return;
      curFrom = Math.max(from, curTo < 0 ? 0 : curTo);
      curTo = to;
    }
    i = j - 1;
  }
  if (curTo >= 0) open(curFrom, curTo);
}

/** May the token be (part of) a name: upper-case or ideographic first letter, or a name particle between two such. */
function scorable(text: string, start: number): boolean {
  const u = text.charCodeAt(start);
  return isUpperUnit(u) || isCjk(u);
}

let featBuf: Int32Array = new Int32Array(0);
let emitBuf: Float64Array = new Float64Array(0);

/** Spans the model finds in text; `covered` (sorted by start) are spans the rules found already. */
export function nerSpans(model: NerModel, text: string, covered: readonly Covered[] = []): NerSpan[] {
  const out: NerSpan[] = [];
  let budget = TOKEN_BUDGET;
  let c = 0;
  let coveredTo = -1;
  const scoreWindow = (wFrom: number, to: number): void => {
    let from = wFrom;
    // start at a token boundary: a window cut through a word would make a token of its tail
    while (from > 0 && from < to && isLetterUnit(text.charCodeAt(from - 1)) && isLetterUnit(text.charCodeAt(from)))
      from++;
    const toks = tokenize(text, from, to);
    // the last token may be cut by the window's end: it is context only
    const n = toks.n;
    if (n === 0) return;
    const mask = new Uint8Array(n);
    let any = false;
    for (let i = 0; i < n; i++) {
      // a token inside a rule's finding is not scored: the rules have it (it is context only)
      const st = toks.starts[i]!;
      while (c < covered.length && covered[c]!.start <= st) coveredTo = Math.max(coveredTo, covered[c++]!.end);
      if (st < coveredTo) continue;
      if (budget > 0 && scorable(text, st) && !(toks.ends[i] === to && to < text.length)) {
        mask[i] = 1;
        any = true;
        budget--;
      }
    }
    // a lower-case particle between two scorable tokens may be inside a name ("Yusof bin Ishak")
    for (let i = 1; i + 1 < n; i++)
      if (!mask[i] && mask[i - 1] && mask[i + 1] && PARTICLES.has(text.slice(toks.starts[i]!, toks.ends[i]!)))
        mask[i] = 1;
    if (!any) return;
    const v = tokenView(text, toks, model.gazetteer, mask);
    featBuf = featurize(text, toks, v, featBuf, mask);
    emitBuf = emissions(model.weights, featBuf, n, emitBuf, mask);
    // decoded from the first scorable token to the one after the last: the tokens outside are O, and
    // an O before the first is what the decoder resumes from
    let lo = 0;
    while (!mask[lo]) lo++;
    let hi = n - 1;
    while (!mask[hi]) hi--;
    hi = Math.min(n, hi + 2);
    const tags = new Uint8Array(n);
    viterbi(
      model.weights,
      emitBuf.subarray(lo * N_TAGS),
      lo === 0 ? v.shapes : v.shapes.slice(lo, hi),
      hi - lo,
      tags.subarray(lo),
      lo === 0 ? START : 0,
    );
    let t = 0;
    for (const s of tagSpans(toks.starts, toks.ends, tags, n)) {
      while (toks.starts[t]! < s.start) t++;
      let margin = -Infinity;
      for (let i = t; i < n && toks.starts[i]! < s.end; i++)
        margin = Math.max(margin, emitBuf[i * N_TAGS + tags[i]!]! - emitBuf[i * N_TAGS]!);
      out.push({ ...s, margin });
    }
  };
  // each window as windows() closes it; once the budget is spent, no further window is looked for
  windows(text, model, covered, (wFrom, to) => {
    scoreWindow(wFrom, to);
    return budget > 0;
  });
  return out;
}
