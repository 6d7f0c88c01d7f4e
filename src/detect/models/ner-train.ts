// Training of the named-entity model: an averaged structured perceptron (Collins 2002) over the hashed
// features of ner-features.ts with Viterbi decoding (ner-decode.ts). Pure and deterministic: the same
// examples, epochs and seed give the same weights. Used by scripts/detect/train-ner.ts and by the
// leave-one-source-out evaluation (src/detect/eval/loso-ner.ts), which retrains without each source.

import * as nerDecodeModule from './ner-decode.ts';
import * as nerFeaturesModule from './ner-features.ts';
import type { Gazetteer } from './ner-features.ts';
import * as nerTokensModule from './ner-tokens.ts';
// Bound once (../README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { emissions, shapeRowsOf, viterbi } = nerDecodeModule;
const { FEATURES_PER_TOKEN, featurize, N_TAGS, START, TABLE_BITS, tokenView, transRow } = nerFeaturesModule;
const { tokenize } = nerTokensModule;

export interface NerSentence {
  text: string;
  spans: Array<[number, number, 'PER' | 'LOC' | 'ORG']>;
  lang?: string;
}

export interface Example {
  n: number;
  feats: Int32Array;
  shapes: string[];
  gold: Uint8Array;
}

const B_TAG = { PER: 1, LOC: 3, ORG: 5 } as const;

/** Tokens, features and gold tags of a labelled sentence: a token starting inside a span takes its type. */
export function prepare(s: NerSentence, g: Gazetteer): Example {
  const toks = tokenize(s.text);
  const v = tokenView(s.text, toks, g);
  const gold = new Uint8Array(toks.n);
  let k = 0;
  const spans = [...s.spans].sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < toks.n; i++) {
    const st = toks.starts[i]!;
    while (k < spans.length && spans[k]![1] <= st) k++;
    const sp = spans[k];
    if (!sp || st < sp[0]) continue;
    const b = B_TAG[sp[2]];
    gold[i] = i > 0 && toks.starts[i - 1]! >= sp[0] && gold[i - 1] !== 0 ? b + 1 : b;
  }
  return { n: toks.n, feats: featurize(s.text, toks, v), shapes: v.shapes, gold };
}

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TrainOptions {
  epochs: number;
  seed: number;
}

/** Averaged perceptron weights, (2^TABLE_BITS rows) × N_TAGS. */
export function trainNer(examples: readonly Example[], opt: TrainOptions): Float32Array {
  const size = (1 << TABLE_BITS) * N_TAGS;
  const w = new Float32Array(size);
  // u accumulates c · update, so that the average of w over all steps is w - u / c (the lazy average)
  const u = new Float32Array(size);
  let c = 1;
  const order = examples.map((_, i) => i);
  const rand = rng(opt.seed);
  const pred = new Uint8Array(4096);
  let emit: Float64Array = new Float64Array(0);
  const add = (row: number, tag: number, d: number) => {
    const j = row * N_TAGS + tag;
    w[j]! += d;
    u[j]! += c * d;
  };
  for (let ep = 0; ep < opt.epochs; ep++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const idx of order) {
      const ex = examples[idx]!;
      const n = Math.min(ex.n, pred.length);
      if (n === 0) continue;
      emit = emissions(w, ex.feats, n, emit);
      viterbi(w, emit, ex.shapes, n, pred);
      for (let i = 0; i < n; i++) {
        const gp = i === 0 ? START : ex.gold[i - 1]!;
        const pp = i === 0 ? START : pred[i - 1]!;
        const gt = ex.gold[i]!;
        const pt = pred[i]!;
        if (gt === pt && gp === pp) continue;
        if (gt !== pt) {
          const fo = i * FEATURES_PER_TOKEN;
          for (let k = 0; k < FEATURES_PER_TOKEN; k++) {
            const r = ex.feats[fo + k]!;
            if (r < 0) continue;
            add(r, gt, 1);
            add(r, pt, -1);
          }
        }
        add(transRow(gp), gt, 1);
        add(transRow(pp), pt, -1);
        const rows = shapeRowsOf(ex.shapes[i]!);
        add(rows[gp]!, gt, 1);
        add(rows[pp]!, pt, -1);
      }
      c++;
    }
  }
  for (let j = 0; j < size; j++) w[j] = w[j]! - u[j]! / c;
  return w;
}

/**
 * The float weight that int16's largest value stands for. Fixed, not each training's own largest weight:
 * a span's margin (models/ner.ts) is counted in int16 units, and the merge's least margin
 * (names/model-merge.ts) must mean the same for every model trained by this recipe — the shipped one and
 * each leave-one-source-out fold's. With a per-training scale, two trainings were read at different
 * effective thresholds. The value is the largest weight of the model shipped when the scale was fixed (so
 * that model's int16 weights, and the least margin read from them, stayed as they were); a larger weight
 * of a later training is clipped.
 */
export const WEIGHT_AT_INT16_MAX = 52.135231018066406;

/** Weights as shipped: int16 at the fixed scale above. */
export function quantize(w: Float32Array): Int16Array {
  const k = 32767 / WEIGHT_AT_INT16_MAX;
  const q = new Int16Array(w.length);
  for (let j = 0; j < w.length; j++) q[j] = Math.max(-32767, Math.min(32767, Math.round(w[j]! * k)));
  return q;
}
