// The learned part of prompt-injection detection: logistic regression over hashed features — character
// 4-grams of the normalised text, word unigrams, bigrams and skip-bigrams (a word and the word two before
// it: "ignore … previous" whatever filler stands between), word stems (the first STEM letters of longer
// words), character bigrams of CJK text, and shared concepts across languages (injection/concepts.ts:
// "ignoriere", "игнорируй", "忽略" -> IGNORE; one feature per concept, one per pair a few tokens apart) — with
// weights trained by scripts/detect/train-injection.ts (`npm run train:injection`) and shipped in
// src/detect/injection/model/. One pass over the text; each feature costs a hash and one lookup in a 256 Ki-entry
// int8 table (256 KB), so scoring is linear and memory-bound by the table, not by the text.
//
// Long texts are scored in windows: the features of each BLOCK-char block are summed; every block alone
// and every two adjacent blocks form a window whose score is bias + sum / sqrt(count); the text's score is
// the highest window's (windows with fewer than MIN_FEATURES features are skipped in texts of several
// blocks: a text's short tail says too little; a one-block text of fewer than MIN_TEXT_FEATURES is not
// scored at all). An instruction hidden in a long benign document is thus not diluted by the document.

import { readFileSync } from 'node:fs';
import * as codeUnits from '../text/code-units.ts';
import * as injectionConcepts from './concepts.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { codeUnitReader } = codeUnits;
const { conceptOf, STEM } = injectionConcepts;

const reader = codeUnitReader();

export const FEATURE_BITS = 18;
const MASK = (1 << FEATURE_BITS) - 1;
export const BLOCK = 128;
export const MIN_FEATURES = 48;
/**
 * Fewest features of a one-block text the model scores: a word or two ("OK", "hi") carries no
 * instruction, and over so few features bias + sum / sqrt(count) rests on one or two weights — "OK" read
 * 0.92 and crossed the threshold. Below it the model abstains (p = 0) and the cues alone decide.
 */
export const MIN_TEXT_FEATURES = 16;
/** Two concepts at most this many tokens apart form a pair feature (IGNORE … INSTRUCTIONS). */
const PAIR_SPAN = 8;

/** Lower case of every BMP code unit (toLowerCase when it maps to one unit); digits to '0'; whitespace to ' '. */
const NORM = (() => {
  const t = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    const s = String.fromCharCode(c);
    const l = s.toLowerCase();
    t[c] = l.length === 1 ? l.charCodeAt(0) : c;
  }
  for (let c = 48; c <= 57; c++) t[c] = 48;
  for (const c of [9, 10, 11, 12, 13, 0xa0, 0x2028, 0x2029, 0x3000, 0x202f, 0x205f, 0xfeff]) t[c] = 32;
  for (let c = 0x2000; c <= 0x200a; c++) t[c] = 32;
  return t;
})();

const ASCII_NORM = NORM.slice(0, 128);

/** 1: letter/digit of a space-separated script (part of a word); 2: CJK (its own token); 0: separator. */
const KIND = (() => {
  const t = new Uint8Array(0x10000);
  for (let c = 48; c <= 57; c++) t[c] = 1;
  for (let c = 65; c <= 90; c++) t[c] = 1;
  for (let c = 97; c <= 122; c++) t[c] = 1;
  t[39] = 1; // apostrophe inside words (don't, l'administrateur)
  const letter = /\p{L}|\p{M}|\p{N}/u;
  for (let c = 0xc0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (!letter.test(String.fromCharCode(c))) continue;
    const cjk =
      (c >= 0x3040 && c <= 0x30ff) ||
      (c >= 0x3400 && c <= 0x9fff) ||
      (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xf900 && c <= 0xfaff);
    t[c] = cjk ? 2 : 1;
  }
  return t;
})();

const P = 0x01000193; // FNV prime
/** Base of the rolling 4-gram value, and its cube. */
const B = 0x10003;
const B3 = Math.imul(Math.imul(B, B), B);

/**
 * Calls `emit(index, position)` for every feature of `text`, in text order. The one featuriser of both
 * training and inference.
 */
export function forEachFeature(text: string, emit: (index: number, pos: number) => void): void {
  const n = text.length;
  let c1 = 32;
  let c2 = 32;
  let c3 = 32;
  let prevSpace = true;
  let word = 0x811c9dc5;
  let inWord = false;
  let prevWord = 0;
  let prevWord2 = 0;
  let prevCjk = 0;
  // concepts (injection/concepts.ts): the stem of the current word, its length, the token count, and
  // the last concept seen with its token number
  let stem = 0x811c9dc5;
  let wlen = 0;
  let tok = 0;
  let lastConcept = 0;
  let lastTok = -100;
  let letters = 0;
  let r3 = Math.imul(Math.imul(32, B) + 32, B) + 32;
  for (let i = 0; i < n; i++) {
    const c = NORM[text.charCodeAt(i)]!;
    if (c === 32) {
      if (prevSpace) continue; // runs of whitespace count as one space
      prevSpace = true;
    } else prevSpace = false;
    const k = KIND[c]!;
    // character 4-gram ending here, when one of its chars is a letter (runs of digits, spaces and
    // punctuation say little and are most of a log line)
    letters = ((letters << 1) | (k !== 0 ? 1 : 0)) & 15;
    // the 4-gram (c1, c2, c3, c) as a polynomial rolling value: r3 holds c1·B² + c2·B + c3
    const v = Math.imul(r3, B) + c;
    if (letters !== 0) {
      const h4 = Math.imul(v ^ (v >>> 15), P);
      emit((h4 ^ (h4 >>> 16)) & MASK, i);
    }
    r3 = v - Math.imul(c1, B3);
    c1 = c2;
    c2 = c3;
    c3 = c;
    if (k === 1) {
      word = Math.imul(word ^ c, P);
      if (wlen < STEM) stem = Math.imul(stem ^ c, P);
      wlen++;
      inWord = true;
    } else if (inWord) {
      const u = Math.imul(word ^ 0x5bd1e995, P);
      emit((u ^ (u >>> 15)) & MASK, i);
      if (wlen > STEM) {
        const st = Math.imul(stem ^ 0x3c6ef372, P);
        emit((st ^ (st >>> 15)) & MASK, i);
      }
      const cid = conceptOf(stem);
      if (cid !== 0) {
        const cf = Math.imul(cid ^ 0x7f4a7c15, P);
        emit((cf ^ (cf >>> 11)) & MASK, i);
        if (tok - lastTok <= PAIR_SPAN) {
          const pf = Math.imul(Math.imul(lastConcept, 0x165667b1) ^ cid ^ 0x1b873593, P);
          emit((pf ^ (pf >>> 12)) & MASK, i);
        }
        lastConcept = cid;
        lastTok = tok;
      }
      tok++;
      stem = 0x811c9dc5;
      wlen = 0;
      if (prevWord !== 0) {
        const b = Math.imul(Math.imul(prevWord, 0x2c1b3c6d) ^ word, P);
        emit((b ^ (b >>> 13)) & MASK, i);
      }
      if (prevWord2 !== 0) {
        const sk = Math.imul(Math.imul(prevWord2, 0x68e31da4) ^ word, P);
        emit((sk ^ (sk >>> 12)) & MASK, i);
      }
      prevWord2 = prevWord;
      prevWord = word;
      word = 0x811c9dc5;
      inWord = false;
    }
    if (k === 2) {
      if (prevCjk !== 0) {
        const b = Math.imul(Math.imul(prevCjk ^ 0x27d4eb2f, P) ^ c, P);
        emit((b ^ (b >>> 14)) & MASK, i);
        const cid = conceptOf(b);
        if (cid !== 0) {
          const cf = Math.imul(cid ^ 0x7f4a7c15, P);
          emit((cf ^ (cf >>> 11)) & MASK, i);
          if (tok - lastTok <= PAIR_SPAN) {
            const pf = Math.imul(Math.imul(lastConcept, 0x165667b1) ^ cid ^ 0x1b873593, P);
            emit((pf ^ (pf >>> 12)) & MASK, i);
          }
          lastConcept = cid;
          lastTok = tok;
        }
      }
      tok++;
      prevCjk = c;
    } else if (c !== 32) prevCjk = 0;
  }
  if (inWord) {
    const u = Math.imul(word ^ 0x5bd1e995, P);
    emit((u ^ (u >>> 15)) & MASK, n);
    if (wlen > STEM) {
      const st = Math.imul(stem ^ 0x3c6ef372, P);
      emit((st ^ (st >>> 15)) & MASK, n);
    }
    const cid = conceptOf(stem);
    if (cid !== 0) {
      const cf = Math.imul(cid ^ 0x7f4a7c15, P);
      emit((cf ^ (cf >>> 11)) & MASK, n);
      if (tok - lastTok <= PAIR_SPAN) {
        const pf = Math.imul(Math.imul(lastConcept, 0x165667b1) ^ cid ^ 0x1b873593, P);
        emit((pf ^ (pf >>> 12)) & MASK, n);
      }
    }
    if (prevWord !== 0) {
      const b = Math.imul(Math.imul(prevWord, 0x2c1b3c6d) ^ word, P);
      emit((b ^ (b >>> 13)) & MASK, n);
    }
    if (prevWord2 !== 0) {
      const sk = Math.imul(Math.imul(prevWord2, 0x68e31da4) ^ word, P);
      emit((sk ^ (sk >>> 12)) & MASK, n);
    }
  }
}

export interface InjectionModel {
  /** The weights quantised to int8 (a 256 KB table, mostly in L2 cache); the real weight is q * scale. */
  weights: Int8Array;
  scale: number;
  bias: number;
  /** Decision threshold on the probability, chosen on the dev split at training time. */
  threshold: number;
}

export function loadModel(dir = new URL('./model/', import.meta.url)): InjectionModel | undefined {
  try {
    const meta = JSON.parse(readFileSync(new URL('injection-lr.json', dir), 'utf8')) as {
      bias: number;
      threshold: number;
      feature_bits: number;
    };
    if (meta.feature_bits !== FEATURE_BITS) return undefined;
    const buf = readFileSync(new URL('injection-lr.bin', dir));
    const f = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    if (f.length !== 1 << FEATURE_BITS) return undefined;
    return { ...quantise(f), bias: meta.bias, threshold: meta.threshold };
  } catch {
    return undefined;
  }
}

/** int8 weights and their scale: the largest magnitude maps to 127. */
export function quantise(f: Float32Array): { weights: Int8Array; scale: number } {
  let max = 0;
  for (const x of f) max = Math.max(max, Math.abs(x));
  const scale = max > 0 ? max / 127 : 1;
  const weights = new Int8Array(f.length);
  for (let i = 0; i < f.length; i++) weights[i] = Math.round(f[i]! / scale);
  return { weights, scale };
}

/** Per-block sums, reused from call to call (grown when a longer text comes). */
let sums = new Float64Array(256);
let counts = new Int32Array(256);

export interface ModelVerdict {
  /** The model's probability of a prompt injection in the highest-scoring window. */
  p: number;
  /** That window's span in the text. */
  start: number;
  end: number;
}

/** The model's probability that `text` holds a prompt injection: the highest of its windows'. */
export function modelScore(model: InjectionModel, text: string): number {
  return modelVerdict(model, text).p;
}

export function modelVerdict(model: InjectionModel, text: string): ModelVerdict {
  const n = text.length;
  const blocks = Math.max(1, Math.ceil(n / BLOCK));
  if (blocks > sums.length) {
    sums = new Float64Array(blocks * 2);
    counts = new Int32Array(blocks * 2);
  }
  const s = sums;
  const k = counts;
  s.fill(0, 0, blocks);
  k.fill(0, 0, blocks);
  const w = model.weights;
  const units = reader(text);
  // forEachFeature, inlined (a call per feature costs as much as the rest): the same features, summed
  // per block; injection/model.test.ts checks that both give the same sums
  let c1 = 32;
  let c2 = 32;
  let c3 = 32;
  let prevSpace = true;
  let word = 0x811c9dc5;
  let inWord = false;
  let prevWord = 0;
  let prevWord2 = 0;
  let prevCjk = 0;
  // concepts (injection/concepts.ts): the stem of the current word, its length, the token count, and
  // the last concept seen with its token number
  let stem = 0x811c9dc5;
  let wlen = 0;
  let tok = 0;
  let lastConcept = 0;
  let lastTok = -100;
  let letters = 0;
  let r3 = Math.imul(Math.imul(32, B) + 32, B) + 32;
  let sum = 0;
  let cnt = 0;
  let blockEnd = BLOCK;
  let b = 0;
  for (let i = 0; i < n; i++) {
    if (i >= blockEnd) {
      s[b] = sum;
      k[b] = cnt;
      sum = 0;
      cnt = 0;
      b++;
      blockEnd += BLOCK;
    }
    const u0 = units[i]!;
    const c = u0 < 128 ? ASCII_NORM[u0]! : NORM[u0]!;
    if (c === 32) {
      if (prevSpace) continue;
      prevSpace = true;
    } else prevSpace = false;
    const kind = KIND[c]!;
    letters = ((letters << 1) | (kind !== 0 ? 1 : 0)) & 15;
    const v = Math.imul(r3, B) + c;
    if (letters !== 0) {
      const h4 = Math.imul(v ^ (v >>> 15), P);
      sum += w[(h4 ^ (h4 >>> 16)) & MASK]!;
      cnt++;
    }
    r3 = v - Math.imul(c1, B3);
    c1 = c2;
    c2 = c3;
    c3 = c;
    if (kind === 1) {
      word = Math.imul(word ^ c, P);
      if (wlen < STEM) stem = Math.imul(stem ^ c, P);
      wlen++;
      inWord = true;
    } else if (inWord) {
      const u = Math.imul(word ^ 0x5bd1e995, P);
      sum += w[(u ^ (u >>> 15)) & MASK]!;
      cnt++;
      if (wlen > STEM) {
        const st = Math.imul(stem ^ 0x3c6ef372, P);
        sum += w[(st ^ (st >>> 15)) & MASK]!;
        cnt++;
      }
      const cid = conceptOf(stem);
      if (cid !== 0) {
        const cf = Math.imul(cid ^ 0x7f4a7c15, P);
        sum += w[(cf ^ (cf >>> 11)) & MASK]!;
        cnt++;
        if (tok - lastTok <= PAIR_SPAN) {
          const pf = Math.imul(Math.imul(lastConcept, 0x165667b1) ^ cid ^ 0x1b873593, P);
          sum += w[(pf ^ (pf >>> 12)) & MASK]!;
          cnt++;
        }
        lastConcept = cid;
        lastTok = tok;
      }
      tok++;
      stem = 0x811c9dc5;
      wlen = 0;
      if (prevWord !== 0) {
        const bg = Math.imul(Math.imul(prevWord, 0x2c1b3c6d) ^ word, P);
        sum += w[(bg ^ (bg >>> 13)) & MASK]!;
        cnt++;
      }
      if (prevWord2 !== 0) {
        const sk = Math.imul(Math.imul(prevWord2, 0x68e31da4) ^ word, P);
        sum += w[(sk ^ (sk >>> 12)) & MASK]!;
        cnt++;
      }
      prevWord2 = prevWord;
      prevWord = word;
      word = 0x811c9dc5;
      inWord = false;
    }
    if (kind === 2) {
      if (prevCjk !== 0) {
        const bg = Math.imul(Math.imul(prevCjk ^ 0x27d4eb2f, P) ^ c, P);
        sum += w[(bg ^ (bg >>> 14)) & MASK]!;
        cnt++;
        const cid = conceptOf(bg);
        if (cid !== 0) {
          const cf = Math.imul(cid ^ 0x7f4a7c15, P);
          sum += w[(cf ^ (cf >>> 11)) & MASK]!;
          cnt++;
          if (tok - lastTok <= PAIR_SPAN) {
            const pf = Math.imul(Math.imul(lastConcept, 0x165667b1) ^ cid ^ 0x1b873593, P);
            sum += w[(pf ^ (pf >>> 12)) & MASK]!;
            cnt++;
          }
          lastConcept = cid;
          lastTok = tok;
        }
      }
      tok++;
      prevCjk = c;
    } else if (c !== 32) prevCjk = 0;
  }
  if (inWord) {
    const u = Math.imul(word ^ 0x5bd1e995, P);
    sum += w[(u ^ (u >>> 15)) & MASK]!;
    cnt++;
    if (wlen > STEM) {
      const st = Math.imul(stem ^ 0x3c6ef372, P);
      sum += w[(st ^ (st >>> 15)) & MASK]!;
      cnt++;
    }
    const cid = conceptOf(stem);
    if (cid !== 0) {
      const cf = Math.imul(cid ^ 0x7f4a7c15, P);
      sum += w[(cf ^ (cf >>> 11)) & MASK]!;
      cnt++;
      if (tok - lastTok <= PAIR_SPAN) {
        const pf = Math.imul(Math.imul(lastConcept, 0x165667b1) ^ cid ^ 0x1b873593, P);
        sum += w[(pf ^ (pf >>> 12)) & MASK]!;
        cnt++;
      }
    }
    if (prevWord !== 0) {
      const bg = Math.imul(Math.imul(prevWord, 0x2c1b3c6d) ^ word, P);
      sum += w[(bg ^ (bg >>> 13)) & MASK]!;
      cnt++;
    }
    if (prevWord2 !== 0) {
      const sk = Math.imul(Math.imul(prevWord2, 0x68e31da4) ^ word, P);
      sum += w[(sk ^ (sk >>> 12)) & MASK]!;
      cnt++;
    }
  }
  s[b] = (s[b] ?? 0) + sum;
  k[b] = (k[b] ?? 0) + cnt;
  let best = -Infinity;
  let bestBlock = 0;
  let bestLen = 1;
  for (let b = 0; b < blocks; b++) {
    // the block alone, and the block with the next one
    for (let len = 1; len <= 2 && b + len <= blocks; len++) {
      const sum = len === 1 ? s[b]! : s[b]! + s[b + 1]!;
      const cnt = len === 1 ? k[b]! : k[b]! + k[b + 1]!;
      if (cnt < (blocks > 1 ? MIN_FEATURES : MIN_TEXT_FEATURES)) continue;
      const z = model.bias + (sum * model.scale) / Math.sqrt(cnt);
      if (z > best) {
        best = z;
        bestBlock = b;
        bestLen = len;
      }
    }
  }
  const p = best === -Infinity ? 0 : 1 / (1 + Math.exp(-best));
  return { p, start: bestBlock * BLOCK, end: Math.min(text.length, (bestBlock + bestLen) * BLOCK) };
}
