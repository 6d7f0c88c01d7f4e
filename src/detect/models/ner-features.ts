// Features of the named-entity model (ner.ts): for every token, a fixed number of hashed feature ids
// (FEATURES_PER_TOKEN; an absent feature is -1), read from the token, its neighbours, the name
// dictionaries and the cross-language word classes of its neighbours (ner-concepts.ts). Hashing (FNV-1a
// over a template id and the feature's characters, no string built) folds the open vocabulary into a
// table of 2^TABLE_BITS rows; the same function serves training and scanning, so the two cannot drift
// apart.

import type { Tokens } from './ner-tokens.ts';
import * as nerConceptsModule from './ner-concepts.ts';
// Bound once (../README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { conceptOf } = nerConceptsModule;

export const TAGS = ['O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC', 'B-ORG', 'I-ORG'] as const;
export type Tag = (typeof TAGS)[number];
export const N_TAGS = TAGS.length;
/** The "previous tag" of the first token. */
export const START = N_TAGS;

export const TABLE_BITS = 18;
export const TABLE_MASK = (1 << TABLE_BITS) - 1;

/** Name dictionaries (lower-cased words), as the names detector loads them. */
export interface Gazetteer {
  first: ReadonlySet<string>;
  last: ReadonlySet<string>;
  places: ReadonlySet<string>;
  countries: ReadonlySet<string>;
}

const FNV = 0x811c9dc5;
const PRIME = 0x01000193;

function mixStr(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h;
}
function mixInt(h: number, x: number): number {
  h = Math.imul(h ^ (x & 0xff), PRIME);
  h = Math.imul(h ^ ((x >>> 8) & 0xff), PRIME);
  return h;
}
const fin = (h: number) => (h ^ (h >>> 15)) & TABLE_MASK;
/** mixStr of s.slice(from, to), without the slice. */
function mixRange(h: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME);
  return h;
}
/** mixStr of '|', the separator of a feature's parts. */
const mixBar = (h: number) => Math.imul(h ^ 124, PRIME);
/** Is there a line break in text[from, to)? */
function lineBreakIn(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) return true;
  return false;
}

// template ids: a feature's hash starts from its template's, so "w=paris" and "w-1=paris" differ
const T_BIAS = 1;
const T_W = 2;
const T_WP1 = 3;
const T_WN1 = 4;
const T_WP2 = 5;
const T_WN2 = 6;
const T_SHAPE = 7;
const T_SHAPE_P1 = 8;
const T_SHAPE_N1 = 9;
const T_PRE2 = 10;
const T_PRE3 = 11;
const T_SUF2 = 12;
const T_SUF3 = 13;
const T_SUF4 = 14;
const T_GAZ = 15;
const T_GAZ_SHAPE = 16;
const T_GAZ_P1 = 17;
const T_GAZ_N1 = 18;
const T_SHAPES3 = 19;
const T_WP1_SHAPE = 20;
const T_SHAPE_WN1 = 21;
const T_POS_SHAPE = 22;
const T_SCRIPT = 23;
const T_LEN = 24;
const T_WORD_EXACT = 25;
const T_WP1_W = 26;
export const T_TRANS = 27;
export const T_TRANS_SHAPE = 28;

// the class (ner-concepts.ts) of the word before, with the sentence position and this token's shape; of the word after
const T_CPT_P1 = 32;
const T_CPT_N1 = 33;

export const FEATURES_PER_TOKEN = 28;

// each template's hash state before the feature's characters (mixInt(FNV, template)), computed once
const BIAS_ID = fin(mixInt(FNV, T_BIAS));
const S_W = mixInt(FNV, T_W);
const S_WORD_EXACT = mixInt(FNV, T_WORD_EXACT);
const S_WP1 = mixInt(FNV, T_WP1);
const S_WN1 = mixInt(FNV, T_WN1);
const S_WP2 = mixInt(FNV, T_WP2);
const S_WN2 = mixInt(FNV, T_WN2);
const S_SHAPE = mixInt(FNV, T_SHAPE);
const S_SHAPE_P1 = mixInt(FNV, T_SHAPE_P1);
const S_SHAPE_N1 = mixInt(FNV, T_SHAPE_N1);
const S_PRE2 = mixInt(FNV, T_PRE2);
const S_PRE3 = mixInt(FNV, T_PRE3);
const S_SUF2 = mixInt(FNV, T_SUF2);
const S_SUF3 = mixInt(FNV, T_SUF3);
const S_SUF4 = mixInt(FNV, T_SUF4);
const S_GAZ = mixInt(FNV, T_GAZ);
const S_GAZ_SHAPE = mixInt(FNV, T_GAZ_SHAPE);
const S_GAZ_P1 = mixInt(FNV, T_GAZ_P1);
const S_GAZ_N1 = mixInt(FNV, T_GAZ_N1);
const S_SHAPES3 = mixInt(FNV, T_SHAPES3);
const S_WP1_SHAPE = mixInt(FNV, T_WP1_SHAPE);
const S_SHAPE_WN1 = mixInt(FNV, T_SHAPE_WN1);
const S_POS_SHAPE = mixInt(FNV, T_POS_SHAPE);
const S_SCRIPT = mixInt(FNV, T_SCRIPT);
const S_LEN = mixInt(FNV, T_LEN);
const S_WP1_W = mixInt(FNV, T_WP1_W);
const S_CPT_P1 = mixInt(FNV, T_CPT_P1);
const S_CPT_N1 = mixInt(FNV, T_CPT_N1);

/** Word shape: X upper, x lower, d digit, other chars as themselves; runs folded to two; at most 6 classes. */
export function shapeOf(w: string): string {
  if (ASCII_WORD.test(w)) return asciiShape(w);
  let out = '';
  let last = '';
  let run = 0;
  for (let i = 0; i < w.length && out.length < 8; i++) {
    const ch = w[i]!;
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    const c = lo !== up ? (ch === up ? 'X' : 'x') : ch >= '0' && ch <= '9' ? 'd' : ch;
    if (c === last) {
      if (++run >= 2) continue;
    } else run = 0;
    out += c;
    last = c;
  }
  return out;
}

const ASCII_WORD = /^[A-Za-z0-9]+$/;

function asciiShape(w: string): string {
  let out = '';
  let last = 0;
  let run = 0;
  for (let i = 0; i < w.length && out.length < 8; i++) {
    const u = w.charCodeAt(i);
    const c = u >= 97 ? 120 : u >= 65 ? 88 : 100; // x, X, d
    if (c === last) {
      if (++run >= 2) continue;
    } else run = 0;
    out += c === 120 ? 'x' : c === 88 ? 'X' : 'd';
    last = c;
  }
  return out;
}

/** A coarse script class of the token's first character: Latin, Cyrillic, Greek, CJK, Arabic, Hebrew, other. */
function scriptOf(c: number): number {
  if (c < 0x250) return 1;
  if (c >= 0x370 && c < 0x400) return 2;
  if (c >= 0x400 && c < 0x530) return 3;
  if (c >= 0x590 && c < 0x600) return 4;
  if (c >= 0x600 && c < 0x700) return 5;
  if (c >= 0x3040 && c < 0x3100) return 6;
  if (c >= 0x4e00 && c < 0xa000) return 7;
  if (c >= 0xac00 && c < 0xd7b0) return 8;
  return 9;
}

const SENTENCE_END = new Set([
  '.',
  '!',
  '?',
  '。',
  '！',
  '？',
  ':',
  ';',
  '"',
  '“',
  '”',
  '«',
  '»',
  '(',
  '[',
  '-',
  '—',
  '–',
  '*',
  '#',
  '>',
  '|',
]);

function gazBits(g: Gazetteer, lower: string): number {
  return (
    (g.first.has(lower) ? 1 : 0) |
    (g.last.has(lower) ? 2 : 0) |
    (g.places.has(lower) ? 4 : 0) |
    (g.countries.has(lower) ? 8 : 0)
  );
}

export interface TokenView {
  words: string[];
  lowers: string[];
  shapes: string[];
  gaz: Uint8Array;
}

/** The per-token strings the features read (built once per token). */
export function tokenView(text: string, toks: Tokens, g: Gazetteer, mask?: Uint8Array): TokenView {
  const words = new Array<string>(toks.n).fill('');
  const lowers = new Array<string>(toks.n).fill('');
  const shapes = new Array<string>(toks.n).fill('');
  const gaz = new Uint8Array(toks.n);
  // with a mask, only the tokens the masked-in ones read (two either side) are built
  for (let i = 0, lastIn = -3; i < toks.n; i++) {
    if (mask) {
      if (mask[i]) lastIn = i;
      const ahead = mask[i + 1] || mask[i + 2];
      if (i - lastIn > 2 && !ahead) continue;
    }
    const w = text.slice(toks.starts[i]!, toks.ends[i]!);
    const lo = w.toLowerCase();
    words[i] = w;
    lowers[i] = lo;
    shapes[i] = shapeOf(w);
    gaz[i] = lo.length > 1 && lo !== w ? gazBits(g, lo) : 0;
  }
  return { words, lowers, shapes, gaz };
}

/**
 * Feature ids of every token: out[i * FEATURES_PER_TOKEN + k], -1 where absent. `out` is reused when large
 * enough; with a mask, only the masked-in tokens' ids are written. Whether a token starts a sentence is read from the token before it (or the window's start).
 */
export function featurize(text: string, toks: Tokens, v: TokenView, out?: Int32Array, mask?: Uint8Array): Int32Array {
  const n = toks.n;
  const F = FEATURES_PER_TOKEN;
  const f = out && out.length >= n * F ? out : new Int32Array(n * F);
  const { words, lowers, shapes, gaz } = v;
  for (let i = 0; i < n; i++) {
    if (mask && !mask[i]) continue;
    const lo = lowers[i]!;
    const sh = shapes[i]!;
    const lp1 = i > 0 ? lowers[i - 1]! : '<s>';
    const ln1 = i + 1 < n ? lowers[i + 1]! : '</s>';
    const lp2 = i > 1 ? lowers[i - 2]! : '<s>';
    const ln2 = i + 2 < n ? lowers[i + 2]! : '</s>';
    const sp1 = i > 0 ? shapes[i - 1]! : '<s>';
    const sn1 = i + 1 < n ? shapes[i + 1]! : '</s>';
    const g = gaz[i]!;
    const gp1 = i > 0 ? gaz[i - 1]! : 16;
    const gn1 = i + 1 < n ? gaz[i + 1]! : 16;
    // a gap of a line break or more between tokens also starts a sentence (lists, headers, CSV rows)
    let pos = 0;
    if (i === 0) pos = 1;
    else if (SENTENCE_END.has(words[i - 1]!)) pos = 2;
    else if (lineBreakIn(text, toks.ends[i - 1]!, toks.starts[i]!)) pos = 3;
    const o = i * F;
    const len = lo.length;
    let k = 0;
    f[o + k++] = BIAS_ID;
    f[o + k++] = fin(mixStr(S_W, lo));
    f[o + k++] = fin(mixStr(S_WORD_EXACT, words[i]!));
    f[o + k++] = fin(mixStr(S_WP1, lp1));
    f[o + k++] = fin(mixStr(S_WN1, ln1));
    f[o + k++] = fin(mixStr(S_WP2, lp2));
    f[o + k++] = fin(mixStr(S_WN2, ln2));
    f[o + k++] = fin(mixStr(S_SHAPE, sh));
    f[o + k++] = fin(mixStr(S_SHAPE_P1, sp1));
    f[o + k++] = fin(mixStr(S_SHAPE_N1, sn1));
    // affixes, separators and the gap's line break hashed in place: the strings they were built as cost more than the rest
    f[o + k++] = len > 2 ? fin(mixRange(S_PRE2, lo, 0, 2)) : -1;
    f[o + k++] = len > 3 ? fin(mixRange(S_PRE3, lo, 0, 3)) : -1;
    f[o + k++] = len > 2 ? fin(mixRange(S_SUF2, lo, len - 2, len)) : -1;
    f[o + k++] = len > 3 ? fin(mixRange(S_SUF3, lo, len - 3, len)) : -1;
    f[o + k++] = len > 4 ? fin(mixRange(S_SUF4, lo, len - 4, len)) : -1;
    f[o + k++] = fin(mixInt(S_GAZ, g));
    f[o + k++] = fin(mixStr(mixInt(S_GAZ_SHAPE, g | (pos << 5)), sh));
    f[o + k++] = fin(mixInt(S_GAZ_P1, gp1 | (g << 5)));
    f[o + k++] = fin(mixInt(S_GAZ_N1, gn1 | (g << 5)));
    f[o + k++] = fin(mixStr(mixBar(mixStr(mixBar(mixStr(S_SHAPES3, sp1)), sh)), sn1));
    f[o + k++] = fin(mixStr(mixBar(mixStr(S_WP1_SHAPE, lp1)), sh));
    f[o + k++] = fin(mixStr(mixBar(mixStr(S_SHAPE_WN1, sh)), ln1));
    f[o + k++] = fin(mixStr(mixInt(S_POS_SHAPE, pos), sh));
    f[o + k++] = fin(mixInt(S_SCRIPT, scriptOf(words[i]!.charCodeAt(0))));
    f[o + k++] = fin(mixInt(S_LEN, Math.min(len, 12)));
    f[o + k++] = fin(mixStr(mixBar(mixStr(S_WP1_W, lp1)), lo));
    f[o + k++] = fin(mixStr(mixInt(S_CPT_P1, conceptOf(lp1) | (pos << 4)), sh));
    f[o + k++] = fin(mixStr(mixInt(S_CPT_N1, conceptOf(ln1)), sh));
    while (k < F) f[o + k++] = -1;
  }
  return f;
}

/** Row of the transition feature (previous tag, tag): the tag's weight is the row's column. */
export function transRow(prev: number): number {
  return fin(mixInt(mixInt(FNV, T_TRANS), prev));
}

/** Row of the feature (previous tag, this token's shape). */
export function transShapeRow(prev: number, shape: string): number {
  return fin(mixStr(mixInt(mixInt(FNV, T_TRANS_SHAPE), prev), shape));
}
