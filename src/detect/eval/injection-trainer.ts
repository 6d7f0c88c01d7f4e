// Training of the prompt-injection model (injection-model.ts), shared by `npm run train:injection` and the
// leave-one-source-out evaluation (loso-injection.ts), which trains it once per held-out source family.
//
// Logistic regression over the scorer's hashed features, Adagrad, class-balanced loss with hard negatives
// weighted more, L2, one epoch (three fit the training families better and read 1.3-1.4 points lower on
// families left out). The loss of a text is the loss of its highest-scoring window, as the shipped score is
// that window's (max pooling): an attack spliced into a long document must not teach the document's
// other words as signs of an attack. Deterministic: the same examples give the same weights.

import * as injectionModel from '../injection/model.ts';
import type { InjectionModel } from '../injection/model.ts';

const { BLOCK, FEATURE_BITS, forEachFeature, MIN_FEATURES, quantise } = injectionModel;

export interface TrainingExample {
  text: string;
  y: 0 | 1;
  /** hard negatives weigh `hardWeight` times a benign text in the loss */
  hard: boolean;
  /** a further weight (1 when absent): balances families of very different sizes */
  weight?: number;
}

/**
 * The text's windows as the scorer forms them (every BLOCK-char block alone and with the next one;
 * windows of fewer than MIN_FEATURES features skipped in texts of several blocks), each as its feature
 * indices.
 */
export function featurize(text: string): Int32Array[] {
  const blocks = Math.max(1, Math.ceil(text.length / BLOCK));
  const per: number[][] = Array.from({ length: blocks }, () => []);
  forEachFeature(text, (i, pos) => per[Math.min(blocks - 1, Math.floor(pos / BLOCK))]!.push(i));
  const windows: Int32Array[] = [];
  for (let b = 0; b < blocks; b++) {
    for (let len = 1; len <= 2 && b + len <= blocks; len++) {
      const xs = len === 1 ? per[b]! : [...per[b]!, ...per[b + 1]!];
      if ((xs.length < MIN_FEATURES && blocks > 1) || xs.length === 0) continue;
      windows.push(Int32Array.from(xs));
    }
  }
  return windows;
}

export interface TrainSettings {
  l2: number;
  epochs: number;
  /** Adagrad's learning rate */
  lr: number;
  hardWeight: number;
  /** seed of the example order */
  seed: number;
}

export const DEFAULT_SETTINGS: TrainSettings = { l2: 1e-4, epochs: 1, lr: 0.3, hardWeight: 3, seed: 99 };

export type TrainedModel = InjectionModel & { float: Float32Array };

/** A seeded generator (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Trains on `examples` (their windows in `feats`, from featurize). The returned model's threshold is 0.5;
 * the caller sets the one it tuned.
 */
export function train(
  examples: readonly TrainingExample[],
  feats: readonly Int32Array[][],
  s: TrainSettings = DEFAULT_SETTINGS,
): TrainedModel {
  const n = 1 << FEATURE_BITS;
  const w = new Float64Array(n);
  const g2 = new Float64Array(n).fill(1e-8);
  let b = 0;
  let gb = 1e-8;
  let pos = 0;
  let neg = 0;
  for (const e of examples) {
    if (e.y === 1) pos += e.weight ?? 1;
    else neg += (e.weight ?? 1) * (e.hard ? s.hardWeight : 1);
  }
  const total = pos + neg;
  const cw = [total / (2 * Math.max(neg, 1e-9)), total / (2 * Math.max(pos, 1e-9))];
  const r = seeded(s.seed);
  const order = examples.map((_, i) => i);
  for (let ep = 1; ep <= s.epochs; ep++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) {
      let x: Int32Array | undefined;
      let v = 0;
      let z = -Infinity;
      for (const win of feats[i]!) {
        const vw = 1 / Math.sqrt(win.length);
        let zw = b;
        for (const k of win) zw += w[k]! * vw;
        if (zw > z) {
          z = zw;
          x = win;
          v = vw;
        }
      }
      if (!x) continue;
      const e = examples[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - e.y) * cw[e.y]! * (e.hard ? s.hardWeight : 1) * (e.weight ?? 1);
      for (const k of x) {
        const gk = g * v + s.l2 * w[k]!;
        g2[k]! += gk * gk;
        w[k]! -= (s.lr * gk) / Math.sqrt(g2[k]!);
      }
      gb += g * g;
      b -= (s.lr * g) / Math.sqrt(gb);
    }
  }
  const float = Float32Array.from(w);
  return { ...quantise(float), float, bias: b, threshold: 0.5 };
}

export interface ScoredNegative {
  /** the model's probability, from a model that did not train on the text */
  p: number;
  /** do the cue rules alone flag it? */
  ruled: boolean;
}

/**
 * The lowest threshold at which the model (at or over it) adds at most `rate` false positives to what the
 * cue rules flag, in every group of negatives; `floor` and `ceiling` bound it. The rules are judged on
 * their own (a rule that is not precise across sources is removed, not compensated by a blind model).
 */
export function pickThreshold(
  groups: ReadonlyArray<{ xs: readonly ScoredNegative[]; rate: number }>,
  floor = 0.1,
  ceiling = 0.99,
): number {
  let t = floor;
  for (const { xs, rate } of groups) {
    if (xs.length === 0) continue;
    const budget = Math.floor(xs.length * rate);
    const ps = xs
      .filter((s) => !s.ruled)
      .map((s) => s.p)
      .sort((a, b) => b - a);
    const lowest = ps[budget] === undefined ? floor : ps[budget]! + 1e-6;
    t = Math.max(t, lowest);
  }
  return Math.min(ceiling, t);
}
