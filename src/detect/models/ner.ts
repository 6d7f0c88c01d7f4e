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
// Bound once (../README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { emissions, tagSpans, viterbi } = nerDecodeModule;
const { featurize, N_TAGS, TABLE_BITS, tokenView } = nerFeaturesModule;
const { tokenize } = nerTokensModule;

export interface NerSpan {
  start: number;
  end: number;
  label: NerLabel;
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

const BEFORE = 40;
const AFTER = 80;
const WINDOW_MAX = 4000;

function isCjk(u: number): boolean {
  return (u >= 0x3040 && u < 0x3100) || (u >= 0x4e00 && u < 0xa000) || (u >= 0x3400 && u < 0x4dc0);
}

function isLetterUnit(u: number): boolean {
  if (u < 128) return (u >= 65 && u <= 90) || (u >= 97 && u <= 122) || (u >= 48 && u <= 57);
  const ch = String.fromCharCode(u);
  return ch.toLowerCase() !== ch.toUpperCase() || isCjk(u);
}

/** Is the unit at i an upper-case letter (non-ASCII: one whose lower case differs)? */
function isUpperUnit(u: number): boolean {
  if (u < 128) return u >= 65 && u <= 90;
  const ch = String.fromCharCode(u);
  return ch !== ch.toLowerCase();
}

/** Windows [from, to) around the anchors, ascending, non-overlapping, each at most WINDOW_MAX long. */
function windows(text: string, stopwords: ReadonlySet<string>): number[] {
  const n = text.length;
  const out: number[] = [];
  let curFrom = -1;
  let curTo = -1;
  for (let i = 0; i < n; i++) {
    const u = text.charCodeAt(i);
    if (u < 65) continue;
    const cjk = u >= 0x3040 && isCjk(u);
    if (!cjk) {
      if (!isUpperUnit(u) || (i > 0 && isLetterUnit(text.charCodeAt(i - 1)))) continue;
      // the word: its lower case decides whether it is a frequent word
      let j = i + 1;
      while (j < n && j - i < 24 && isLetterUnit(text.charCodeAt(j))) j++;
      if (j - i >= 2 && j - i < 24 && stopwords.has(text.slice(i, j).toLowerCase())) {
        i = j;
        continue;
      }
    }
    const from = Math.max(0, i - BEFORE);
    const to = Math.min(n, i + AFTER);
    if (curTo >= 0 && from <= curTo && to - curFrom <= WINDOW_MAX) curTo = to;
    else {
      if (curTo >= 0) out.push(curFrom, curTo);
      curFrom = Math.max(from, curTo < 0 ? 0 : curTo);
      curTo = to;
    }
  }
  if (curTo >= 0) out.push(curFrom, curTo);
  return out;
}

/** May the token be (part of) a name: upper-case or ideographic first letter, or a name particle between two such. */
function scorable(text: string, start: number): boolean {
  const u = text.charCodeAt(start);
  return isUpperUnit(u) || isCjk(u);
}

let featBuf: Int32Array = new Int32Array(0);
let emitBuf: Float64Array = new Float64Array(0);

/** Spans the model finds in text. */
export function nerSpans(model: NerModel, text: string): NerSpan[] {
  const out: NerSpan[] = [];
  const ws = windows(text, model.stopwords);
  for (let k = 0; k < ws.length; k += 2) {
    let from = ws[k]!;
    const to = ws[k + 1]!;
    // start at a token boundary: a window cut through a word would make a token of its tail
    while (from > 0 && from < to && isLetterUnit(text.charCodeAt(from - 1)) && isLetterUnit(text.charCodeAt(from)))
      from++;
    const toks = tokenize(text, from, to);
    // the last token may be cut by the window's end: it is context only
    const n = toks.n;
    if (n === 0) continue;
    const mask = new Uint8Array(n);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (scorable(text, toks.starts[i]!) && !(toks.ends[i] === to && to < text.length)) {
        mask[i] = 1;
        any = true;
      }
    }
    if (!any) continue;
    const v = tokenView(text, toks, model.gazetteer);
    featBuf = featurize(text, toks, v, featBuf, mask);
    emitBuf = emissions(model.weights, featBuf, n, emitBuf, mask);
    const tags = new Uint8Array(n);
    viterbi(model.weights, emitBuf, v.shapes, n, tags);
    for (const s of tagSpans(toks.starts, toks.ends, tags, n)) out.push(s);
  }
  return out;
}
