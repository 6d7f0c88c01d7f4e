// npm run train:injection — trains the prompt-injection model (src/detect/injection/model.ts) and
// writes src/detect/injection/model/injection-lr.bin (float32 weights), injection-lr.json (bias, threshold,
// settings, validation figures) and injection-training-manifest.json (what it was trained on: counts by
// source and licence, and a SHA-256 of the training texts). Deterministic: the same repository gives the
// same files.
//
// Training data: scripts/detect/injection-training-data.ts (never the untouched split, never
// ../shared/corpus, never a reserved source).
// Method: logistic regression, Adagrad, class-balanced loss (hard negatives weighted more), L2; the loss of
// a text is the loss of its highest-scoring window (as the shipped score is that window's). Five-fold
// cross-validation over template groups (a template's cases stay in one fold) scores every example by
// models that did not train on it; on those out-of-fold scores the script picks the L2 strength and the
// number of epochs (a small grid, by recall at the threshold) and the threshold: the lowest probability
// at which the whole detector (cues or model) keeps false positives at or under 1 % on benign texts and
// 1 % on each family of hard negatives: the dev ones (composed, written) and the training-only ones,
// scored out of fold by phrasing — the CV over dev templates over-promises on hard negatives it has not
// seen, and those out-of-fold training-only texts are the warning it does not give (with that family held
// to 1 % the grid picks a stronger L2: dev recall 89.3 % at 0.8 % dev hard-negative FPR, where without it
// 89.9 % at 0.8 % came with 1.2 % of the training-only ones). One validation fifth gave thresholds that moved with which
// templates it happened to hold; five folds pool every template. The final model is then trained on all
// of it with the picked settings.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BLOCK,
  FEATURE_BITS,
  forEachFeature,
  MIN_FEATURES,
  modelScore,
  quantise,
} from '../../src/detect/injection/model.ts';
import type { InjectionModel } from '../../src/detect/injection/model.ts';
import { rng } from './devset/build.ts';
import { detectInjection } from '../../src/detect/injection/index.ts';
import { collect, EXTRA_SOURCE } from './injection-training-data.ts';
import type { Example } from './injection-training-data.ts';
import { REPO } from './frozen.ts';

/**
 * The text's windows as the scorer forms them (src/detect/injection/model.ts: every BLOCK-char block alone
 * and with the next one; windows of fewer than MIN_FEATURES features skipped in texts of several blocks),
 * each as its feature indices. Training works on these windows, not on the whole text: the shipped score
 * is the highest window's, so an attack spliced into a long document must not teach the document's
 * other words as signs of an attack.
 */
function featurize(text: string): Int32Array[] {
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

interface Settings {
  l2: number;
  epochs: number;
}

const LR = 0.3;
/** Loss weight of a hard negative (5-fold cross-validation on the dev templates: 1, 2, 3, 4 gave 80.3, 81.9, 82.3, 82.4 % recall at the limits; with the training-only texts, 3 and 5 gave 89.4 and 89.9 %). */
const HARD_WEIGHT = Number(process.env.INJ_HARD_WEIGHT ?? 5);
/** The grid the validation part picks from: L2 strengths (3e-4 picked; 1e-3 scores lower), and the epochs after which each is scored. */
const L2S = [1e-5, 3e-5, 1e-4, 3e-4, 1e-3];
const EPOCHS = [2, 3];

type Trained = InjectionModel & { float: Float32Array };

/**
 * Trains with Adagrad; calls `at(epochs, model)` after each epoch listed in `checkpoints` (the weights so
 * far, as the shipped model would have them), so one run scores several epoch counts.
 */
function train(
  examples: Example[],
  feats: Int32Array[][],
  l2: number,
  checkpoints: readonly number[],
  at: (epochs: number, m: Trained) => void,
): void {
  const n = 1 << FEATURE_BITS;
  const w = new Float64Array(n);
  const g2 = new Float64Array(n).fill(1e-8);
  let b = 0;
  let gb = 1e-8;
  const pos = examples.filter((e) => e.y === 1).length;
  const neg = examples.length - pos;
  const cw = [examples.length / (2 * neg), examples.length / (2 * pos)];
  const r = rng(99);
  const order = examples.map((_, i) => i);
  const last = Math.max(...checkpoints);
  for (let ep = 1; ep <= last; ep++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) {
      // the loss is taken on the highest-scoring window, the one the shipped score is (max pooling)
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
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - examples[i]!.y) * cw[examples[i]!.y]! * (examples[i]!.kind === 'hard_negative' ? HARD_WEIGHT : 1);
      for (const k of x) {
        const gk = g * v + l2 * w[k]!;
        g2[k]! += gk * gk;
        w[k]! -= (LR * gk) / Math.sqrt(g2[k]!);
      }
      gb += g * g;
      b -= (LR * g) / Math.sqrt(gb);
    }
    if (checkpoints.includes(ep)) {
      const float = Float32Array.from(w);
      at(ep, { ...quantise(float), float, bias: b, threshold: 0.5 });
    }
  }
}

/** Folds of the cross-validation, by a hash of the group: a template's cases are all in one fold. */
const FOLDS = 5;

function foldOf(group: string): number {
  return (
    createHash('sha256')
      .update('val:' + group)
      .digest()[0]! % FOLDS
  );
}

interface Validation {
  threshold: number;
  recall: number;
  false_positive_rate: number;
  hard_negative_false_positive_rate: number;
  injections: number;
  benign: number;
  hard_negatives: number;
  dev_templates: {
    recall: number;
    false_positive_rate: number;
    hard_negative_false_positive_rate: number;
    composed_hard: number;
    written_hard: number;
  };
  extra: { recall: number; hard_negative_false_positive_rate: number };
}

/** Validation false positives allowed: on benign texts, on hard negatives (the targets are 2 %; the rest is margin). */
const MAX_FPR = 0.01;
const MAX_HARD_FPR = Number(process.env.INJ_MAX_HARD_FPR ?? 0.01);
/**
 * The training-only hard negatives' own limit (1: none), pooled over their files. Their easy families
 * (injection-training-indirect.ts's twins, flagged at 0.2 %) dilute the pool: the texts that quote
 * attacks (injection-training-extra.ts's "about") stay near 2 % at any threshold worth having, so a limit
 * per file is out of reach.
 */
const EXTRA_FAMILY_FPR = Number(process.env.INJ_EXTRA_FAMILY_FPR ?? 0.01);

/**
 * The threshold — the lowest probability at which the whole detector (the cue rules, or the model at or
 * over it) keeps validation false positives within MAX_FPR on benign texts and MAX_HARD_FPR on each
 * family of hard negatives (hand-written, composed from parts) — and the figures at it. `scores[i]`: the
 * model's probability for examples[i] from a model that did not train on it; `ruled[i]`: do the cues
 * alone flag it?
 */
function validate(examples: readonly Example[], scores: Float64Array, ruled: readonly boolean[]): Validation {
  const scored = examples.map((e, i) => ({ e, p: scores[i]!, rule: ruled[i]! }));
  const neg = scored.filter((s) => s.e.y === 0 && s.e.kind !== 'hard_negative');
  const hard = scored.filter((s) => s.e.kind === 'hard_negative');
  const pos = scored.filter((s) => s.e.y === 1);
  // the lowest threshold at which the number of flagged negatives (by the cues or the model) stays in budget
  const lowest = (xs: typeof neg, rate: number) => {
    const budget = Math.floor(xs.length * rate) - xs.filter((s) => s.rule).length;
    const ps = xs
      .filter((s) => !s.rule)
      .map((s) => s.p)
      .sort((a, b) => b - a);
    return budget < 0 ? 0.95 : (ps[budget] ?? 0.1);
  };
  // hard negatives per family, so that many easy composed ones cannot hide a hand-written family's false
  // positives; the training-only generated ones (injection-training-extra.ts) are a family of their own
  const extra = hard.filter((s) => s.e.source.startsWith(EXTRA_SOURCE));
  const dev = hard.filter((s) => !s.e.source.startsWith(EXTRA_SOURCE));
  const composed = dev.filter((s) => s.e.group.startsWith('generated (composed)'));
  const written = dev.filter((s) => !s.e.group.startsWith('generated (composed)'));
  // the training-only benign texts teach, they do not set the threshold (as the training-only hard negatives)
  const families = [
    lowest(
      neg.filter((s) => !s.e.source.startsWith(EXTRA_SOURCE)),
      MAX_FPR,
    ),
    lowest(composed, MAX_HARD_FPR),
    lowest(written, MAX_HARD_FPR),
    ...(extra.length > 0 && EXTRA_FAMILY_FPR < 1 ? [lowest(extra, EXTRA_FAMILY_FPR)] : []),
  ];
  const threshold = Math.min(0.95, Math.max(0.1, ...families) + 1e-6);
  if (process.env.INJ_DEBUG)
    console.log(
      `    family thresholds: benign ${families[0]!.toFixed(3)}, composed ${families[1]!.toFixed(3)}, written ${families[2]!.toFixed(3)}${families[3] !== undefined ? `, extra ${families[3].toFixed(3)}` : ''}`,
    );
  const rate = (xs: typeof neg) => xs.filter((s) => s.rule || s.p >= threshold).length / Math.max(1, xs.length);
  // the same figures on the development set's own texts alone (what the earlier models were judged by)
  const isDev = (s: (typeof neg)[number]) => s.e.source.startsWith('devset injection');
  return {
    threshold,
    recall: rate(pos),
    false_positive_rate: rate(neg),
    hard_negative_false_positive_rate: rate(hard),
    injections: pos.length,
    benign: neg.length,
    hard_negatives: hard.length,
    dev_templates: {
      recall: rate(pos.filter(isDev)),
      false_positive_rate: rate(neg.filter(isDev)),
      hard_negative_false_positive_rate: rate(hard.filter(isDev)),
      composed_hard: rate(composed.filter(isDev)),
      written_hard: rate(written.filter(isDev)),
    },
    extra: {
      recall: rate(pos.filter((s) => s.e.source.startsWith(EXTRA_SOURCE))),
      hard_negative_false_positive_rate: rate(extra),
    },
  };
}

const pct = (x: number) => (x * 100).toFixed(1) + '%';

function main(): void {
  const t0 = performance.now();
  const all = collect();
  const feats = all.map((e) => featurize(e.text));
  const ruled = all.map((e) => detectInjection(e.text, { model: null }).detected);
  const fold = all.map((e) => foldOf(e.group));
  const ruleRate = (f: (e: Example) => boolean) =>
    pct(all.filter((e, i) => f(e) && ruled[i]).length / Math.max(1, all.filter(f).length));
  console.log(
    `examples: ${all.length} (${all.filter((e) => e.y === 1).length} injections); cue rules alone: recall ${ruleRate((e) => e.y === 1)}, FPR ${ruleRate((e) => e.y === 0 && e.kind !== 'hard_negative')}, hard-negative FPR ${ruleRate((e) => e.kind === 'hard_negative')}`,
  );
  // out-of-fold scores of every setting: each example scored by the models that did not train on its fold
  const oof = new Map<string, Float64Array>();
  for (let k = 0; k < FOLDS; k++) {
    const tr = all.flatMap((_, i) => (fold[i] !== k ? [i] : []));
    const te = all.flatMap((_, i) => (fold[i] === k ? [i] : []));
    for (const l2 of L2S) {
      train(
        tr.map((i) => all[i]!),
        tr.map((i) => feats[i]!),
        l2,
        EPOCHS,
        (epochs, m) => {
          const key = `${l2}/${epochs}`;
          const scores = oof.get(key) ?? new Float64Array(all.length);
          for (const i of te) scores[i] = modelScore(m, all[i]!.text);
          oof.set(key, scores);
        },
      );
    }
  }
  if (process.env.INJ_DEBUG) {
    // out-of-fold scores of the training-only texts (INJ_DEBUG_ALL=1: and every hard negative; =all: every
    // example, with its kind and cross-validation group), for reading what the model gets wrong on them
    const sc = oof.get(process.env.INJ_DEBUG)!;
    const rows = all.flatMap((e, i) =>
      e.source.startsWith(EXTRA_SOURCE) ||
      (e.kind === 'hard_negative' && process.env.INJ_DEBUG_ALL) ||
      process.env.INJ_DEBUG_ALL === 'all'
        ? [
            `${sc[i]!.toFixed(3)}\t${e.y}\t${ruled[i] ? 'R' : '-'}\t${e.kind}\t${e.group}\t${e.source}\t${JSON.stringify(e.text).slice(0, 400)}`,
          ]
        : [],
    );
    writeFileSync('/tmp/inj-oof.tsv', rows.sort().reverse().join('\n') + '\n');
  }
  const pick: { best?: { s: Settings; v: Validation } } = {};
  for (const l2 of L2S) {
    for (const epochs of EPOCHS) {
      const v = validate(all, oof.get(`${l2}/${epochs}`)!, ruled);
      const d = v.dev_templates;
      console.log(
        `  L2 ${l2}, ${epochs} epochs: threshold ${v.threshold.toFixed(3)}, recall ${pct(v.recall)}, FPR ${pct(v.false_positive_rate)}, hard-negative FPR ${pct(v.hard_negative_false_positive_rate)}; dev texts: recall ${pct(d.recall)}, FPR ${pct(d.false_positive_rate)}, hard ${pct(d.hard_negative_false_positive_rate)} (composed ${pct(d.composed_hard)}, written ${pct(d.written_hard)}); training-only texts: recall ${pct(v.extra.recall)}, hard ${pct(v.extra.hard_negative_false_positive_rate)}`,
      );
      // ties go to the earlier (weaker L2, fewer epochs) setting
      if (!pick.best || v.dev_templates.recall > pick.best.v.dev_templates.recall + 1e-9)
        pick.best = { s: { l2, epochs }, v };
    }
  }
  if (!pick.best) throw new Error('no setting scored');
  const { s: settings, v: validation } = pick.best;
  const threshold = validation.threshold;
  console.log(
    `picked L2 ${settings.l2}, ${settings.epochs} epochs; out of fold (${validation.injections} injections, ${validation.benign} benign, ${validation.hard_negatives} hard): recall ${pct(validation.recall)} at threshold ${threshold.toFixed(3)}; dev texts: recall ${pct(validation.dev_templates.recall)}, hard-negative FPR ${pct(validation.dev_templates.hard_negative_false_positive_rate)}`,
  );
  const final: { m?: Trained } = {};
  train(all, feats, settings.l2, [settings.epochs], (_, trained) => (final.m = trained));
  const m = final.m;
  if (!m) throw new Error('no model trained');
  const dir = join(REPO, 'src/detect/injection/model');
  writeFileSync(join(dir, 'injection-lr.bin'), Buffer.from(m.float.buffer));
  writeFileSync(
    join(dir, 'injection-lr.json'),
    JSON.stringify(
      {
        model: 'logistic regression over hashed features (src/detect/injection/model.ts)',
        feature_bits: FEATURE_BITS,
        block: BLOCK,
        bias: m.bias,
        threshold,
        training: {
          examples: all.length,
          epochs: settings.epochs,
          optimizer: `Adagrad lr ${LR}, L2 ${settings.l2}, class-balanced, hard negatives weighted ${HARD_WEIGHT}`,
          picked_from: {
            l2: L2S,
            epochs: EPOCHS,
            by: `recall at the threshold, ${FOLDS}-fold cross-validation over template groups`,
          },
          command: 'npm run train:injection',
        },
        cross_validation: { ...validation, threshold: undefined },
      },
      null,
      2,
    ) + '\n',
  );
  const bySource = new Map<string, { count: number; injections: number; licence: Set<string> }>();
  for (const e of all) {
    const key = e.source.startsWith('README of npm package')
      ? 'READMEs of npm packages in node_modules'
      : e.source.startsWith(EXTRA_SOURCE)
        ? e.source.replace(/ in carrier .*/, ' (alone or in a carrier)')
        : e.source;
    const s = bySource.get(key) ?? { count: 0, injections: 0, licence: new Set<string>() };
    s.count++;
    s.injections += e.y;
    s.licence.add(e.licence);
    bySource.set(key, s);
  }
  const hash = createHash('sha256');
  for (const e of all) hash.update(e.y + '\t' + e.text + '\n');
  writeFileSync(
    join(dir, 'injection-training-manifest.json'),
    JSON.stringify(
      {
        command: 'npm run train:injection',
        excluded: [
          "the development set's untouched split",
          '../shared/corpus',
          'every source the issue reserves for independent evaluation',
        ],
        examples: all.length,
        injections: all.filter((e) => e.y === 1).length,
        sha256_of_texts: hash.digest('hex'),
        sources: Object.fromEntries(
          [...bySource].map(([k, v]) => [
            k,
            { count: v.count, injections: v.injections, licences: [...v.licence].sort() },
          ]),
        ),
        readme_packages: [
          ...new Set(
            all.filter((e) => e.kind === 'readme').map((e) => e.source.slice('README of npm package '.length)),
          ),
        ],
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote src/detect/injection/model/ in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

main();
