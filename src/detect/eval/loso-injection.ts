// Leave-one-source-out evaluation of prompt-injection detection on the development data written by other
// people (datasets/detect/injection/, SOURCES.md there). For every source family F: the model is trained
// without F, its threshold is tuned without F (leave-one-family-out inside the remaining families: each
// of their negatives is scored by a model that did not see its family), and then F is scored with the
// whole detector (cue rules, or the model at or over its threshold). The figures are those of sources
// the detector never saw; their macro-average over families is the headline figure.
//
// Ambiguous cases are never trained on and are reported apart. `extra` examples (e.g. generated text)
// may join every training set; they are never scored.

import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import * as injection from '../injection/index.ts';
import * as injectionModel from '../injection/model.ts';
import type { InjectionModel } from '../injection/model.ts';
import * as trainer from './injection-trainer.ts';
import type { ScoredNegative, TrainedModel, TrainingExample, TrainSettings } from './injection-trainer.ts';
import { wilson } from './score.ts';

const { detectInjection } = injection;
const { modelScore } = injectionModel;
const { DEFAULT_SETTINGS, featurize, pickThreshold, train } = trainer;

export interface InjectionDataCase {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  kind: string;
  lang: string;
  family: string;
  source: string;
  licence: string;
  ambiguous?: boolean;
}

/**
 * Families that are only ever scored: no fold trains or tunes on them, nor does the shipped model
 * (`trainingCases`). Held out, such a family is scored by the detector trained and tuned on every other
 * family — the shipped recipe — so its figure is that of text the model never saw, and the other families'
 * figures are those of a run without it. `fabric` (operators' system prompts, hard negatives): trained on, it
 * raised the folds' thresholds and cost the attack families' recall (three orders, with `ai-testing-guide`
 * trained on: 50.6 → 47.9 % over the ten before them, `pyrit` 47.9 → 32.7 %); scored only, it shows how often the
 * detector flags an operator's instructions (8.6 %).
 * `ai-testing-guide` (OWASP's AI Testing Guide): trained on, it moved the ten others' recall within the shuffle's
 * range (50.0 → 50.6 %) and lowered the shipped threshold (0.866 → 0.851: its 378 easy negatives widen the pooled
 * budget), which flagged two more of the shared corpus's 90 negatives (1 → 3). `hivetrace`, `pincer`, `deepteam` and
 * `spikee`, first only scored, are trained on: all four together, with the tuning budget of 0.75 %
 * (TUNING_FPR), raise the other families' recall and flag no more of the shared corpus's negatives
 * (docs/detection.md, "Prompt injection"). `LosoOptions.evaluationOnly` sets them per run.
 */
export const EVALUATION_ONLY: ReadonlySet<string> = new Set<string>(['ai-testing-guide', 'fabric']);

/** The cases a model may train or tune on: not ambiguous, not of an evaluation-only family. */
export function trainingCases<T extends { ambiguous?: boolean; family: string }>(
  cases: readonly T[],
  evaluationOnly: ReadonlySet<string> = EVALUATION_ONLY,
): T[] {
  return cases.filter((c) => !c.ambiguous && !evaluationOnly.has(c.family));
}

export const INJECTION_DATA = new URL('../../../datasets/detect/injection/cases.jsonl.gz', import.meta.url);

export function loadInjectionData(file: URL | string = INJECTION_DATA): InjectionDataCase[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as InjectionDataCase);
}

/**
 * False positives the model may add when tuning the threshold, on all benign texts and on all hard negatives
 * pooled over families (the target is 2 %; the rest is margin for unseen sources). A budget per family as
 * well (2 % of each) let the smallest family of write-ups decide the threshold alone: measured without it,
 * leave-one-source-out recall rose 3.8 points at 0.5 / 1.8 % false positives (docs/detection.md). 0.75 %
 * rather than 1 % since every family is trained on: at 1 % the model trained on all of them flagged one more
 * of the shared corpus's negatives (a persona prompt), at 0.75 % none, and it keeps most of their gain.
 */
export const TUNING_FPR = 0.0075;

export interface LosoOptions {
  /** always in training, never scored (generated or auxiliary text) */
  extra?: readonly TrainingExample[];
  settings?: TrainSettings;
  tuningFpr?: number;
  /** families only ever scored, never trained or tuned on (EVALUATION_ONLY when absent) */
  evaluationOnly?: readonly string[];
  /** hold out only these families (their figures are those of the full run) */
  families?: readonly string[];
  /**
   * Tune each fold's threshold on the other folds' own models (trained with the held-out family in) instead
   * of a model per pair: one training per family instead of one per pair, an approximation for iterating
   * whose figures are not the headline's.
   */
  approximate?: boolean;
  /** called after each held-out family (progress) */
  onFamily?: (family: string, done: number, of: number) => void;
}

export interface Rate {
  hit: number;
  n: number;
}

export interface FamilyResult {
  family: string;
  threshold: number;
  recall: Rate;
  byKind: Record<string, Rate>;
  benignFp: Rate;
  hardFp: Rate;
  /** ambiguous injections flagged (reported apart) */
  ambiguous: Rate;
}

/** What the caller needs to score a text with a model: the cues alone (precomputed) and the model's probability. */
export interface Prepared {
  c: InjectionDataCase;
  ex: TrainingExample;
  feats: Int32Array[];
  ruled: boolean;
}

function exampleOf(c: { text: string; label: string; kind: string }): TrainingExample {
  return { text: c.text, y: c.label === 'injection' ? 1 : 0, hard: c.kind === 'hard_negative' };
}

function fit(
  cases: readonly Prepared[],
  extra: readonly TrainingExample[],
  extraFeats: readonly Int32Array[][],
  s: TrainSettings,
): TrainedModel {
  // every case weighs alike: balancing families (by the square root of their sizes) read 1.3 points lower
  return train([...cases.map((p) => p.ex), ...extra], [...cases.map((p) => p.feats), ...extraFeats], s);
}

/**
 * The threshold for a model trained on `cases`: each family of `cases` is scored by a model trained on
 * the others (and `extra`), and the threshold keeps the benign texts and the hard negatives of all
 * families, pooled, within `rate` of false positives.
 */
export function tuneThreshold(
  cases: readonly Prepared[],
  extra: readonly TrainingExample[],
  extraFeats: readonly Int32Array[][],
  s: TrainSettings,
  rate: number,
): number {
  const families = [...new Set(cases.map((p) => p.c.family))];
  const benign: ScoredNegative[] = [];
  const hard: ScoredNegative[] = [];
  for (const g of families) {
    const negatives = cases.filter((p) => p.c.family === g && p.ex.y === 0);
    if (negatives.length === 0) continue;
    const m = fit(
      cases.filter((p) => p.c.family !== g),
      extra,
      extraFeats,
      s,
    );
    const scored = (xs: readonly Prepared[]) => xs.map((p) => ({ p: modelScore(m, p.c.text), ruled: p.ruled }));
    const b = scored(negatives.filter((p) => !p.ex.hard));
    const h = scored(negatives.filter((p) => p.ex.hard));
    benign.push(...b);
    hard.push(...h);
  }
  return pickThreshold([
    { xs: benign, rate },
    { xs: hard, rate },
  ]);
}

export function prepare(cases: readonly InjectionDataCase[]): Prepared[] {
  return cases.map((c) => ({
    c,
    ex: exampleOf(c),
    feats: featurize(c.text),
    ruled: detectInjection(c.text, { model: null }).detected,
  }));
}

/** A trained model with its tuned threshold, ready for detectInjection's `model` option. */
export function modelFor(
  cases: readonly Prepared[],
  opts: LosoOptions = {},
): { model: InjectionModel & { float: Float32Array }; threshold: number } {
  const s = opts.settings ?? DEFAULT_SETTINGS;
  const extra = opts.extra ?? [];
  const extraFeats = extra.map((e) => featurize(e.text));
  const evaluationOnly = new Set(opts.evaluationOnly ?? EVALUATION_ONLY);
  const usable = cases.filter((p) => !p.c.ambiguous && !evaluationOnly.has(p.c.family));
  const threshold = tuneThreshold(usable, extra, extraFeats, s, opts.tuningFpr ?? TUNING_FPR);
  const model = fit(usable, extra, extraFeats, s);
  return { model: { ...model, threshold }, threshold };
}

/**
 * One training the folds need: the model trained on every usable case outside `without`. Trained without
 * a pair {f, g}, it tunes fold f's threshold (scoring g's negatives) and fold g's (scoring f's): the
 * training set is the same, and training is deterministic, so one model serves both folds. Trained
 * without one family, it is that fold's model.
 */
export interface FoldTask {
  without: string[];
  /** the excluded families whose negatives are scored (for the other's threshold) */
  score: string[];
  /** keep the model (a fold's own) */
  keep: boolean;
}

export interface TaskResult {
  without: string[];
  negatives: Record<string, { benign: ScoredNegative[]; hard: ScoredNegative[] }>;
  model?: { weights: Int8Array; scale: number; bias: number };
}

/** The trainings the folds of `selected` need: one per fold, one per pair of a fold and a family with negatives. */
export function foldTasks(
  prepared: readonly Prepared[],
  selected: readonly string[],
  approximate = false,
  evaluationOnly: ReadonlySet<string> = EVALUATION_ONLY,
): FoldTask[] {
  const families = [...new Set(prepared.map((p) => p.c.family))].sort();
  const withNegatives = new Set(
    prepared.filter((p) => !p.c.ambiguous && p.ex.y === 0 && !evaluationOnly.has(p.c.family)).map((p) => p.c.family),
  );
  if (approximate)
    return families
      .filter((f) => selected.includes(f) || withNegatives.has(f))
      .map((f) => ({ without: [f], score: withNegatives.has(f) ? [f] : [], keep: selected.includes(f) }));
  const tasks: FoldTask[] = selected.map((f) => ({ without: [f], score: [], keep: true }));
  const pairs = new Map<string, FoldTask>();
  for (const f of selected) {
    for (const g of families) {
      if (g === f || !withNegatives.has(g)) continue;
      const without = [f, g].sort();
      const key = without.join('\u0000');
      const t = pairs.get(key) ?? { without, score: [], keep: false };
      if (!t.score.includes(g)) t.score.push(g);
      pairs.set(key, t);
    }
  }
  return [...tasks, ...pairs.values()];
}

export function runTask(
  prepared: readonly Prepared[],
  extra: readonly TrainingExample[],
  extraFeats: readonly Int32Array[][],
  s: TrainSettings,
  task: FoldTask,
  evaluationOnly: ReadonlySet<string> = EVALUATION_ONLY,
): TaskResult {
  const m = fit(
    prepared.filter((p) => !p.c.ambiguous && !evaluationOnly.has(p.c.family) && !task.without.includes(p.c.family)),
    extra,
    extraFeats,
    s,
  );
  const negatives: TaskResult['negatives'] = {};
  for (const g of task.score) {
    const xs = prepared.filter((p) => p.c.family === g && !p.c.ambiguous && p.ex.y === 0);
    const scored = (ys: readonly Prepared[]) => ys.map((p) => ({ p: modelScore(m, p.c.text), ruled: p.ruled }));
    negatives[g] = { benign: scored(xs.filter((p) => !p.ex.hard)), hard: scored(xs.filter((p) => p.ex.hard)) };
  }
  return {
    without: task.without,
    negatives,
    ...(task.keep ? { model: { weights: m.weights, scale: m.scale, bias: m.bias } } : {}),
  };
}

/** Fold f's threshold from the pair trainings' scores: as tuneThreshold on every case outside f (approximately: from each other family's own fold). */
function foldThreshold(
  f: string,
  results: readonly TaskResult[],
  families: readonly string[],
  rate: number,
  approximate: boolean,
): number {
  const benign: ScoredNegative[] = [];
  const hard: ScoredNegative[] = [];
  for (const g of families) {
    if (g === f) continue;
    const r = approximate
      ? results.find((x) => x.without.length === 1 && x.without[0] === g)
      : results.find((x) => x.without.length === 2 && x.without.includes(f) && x.without.includes(g));
    const n = r?.negatives[g];
    if (!n) continue;
    benign.push(...n.benign);
    hard.push(...n.hard);
  }
  return pickThreshold([
    { xs: benign, rate },
    { xs: hard, rate },
  ]);
}

function scoreFold(prepared: readonly Prepared[], f: string, model: InjectionModel): FamilyResult {
  const r: FamilyResult = {
    family: f,
    threshold: model.threshold,
    recall: { hit: 0, n: 0 },
    byKind: {},
    benignFp: { hit: 0, n: 0 },
    hardFp: { hit: 0, n: 0 },
    ambiguous: { hit: 0, n: 0 },
  };
  for (const p of prepared) {
    if (p.c.family !== f) continue;
    // the whole detector as shipped: the cues, or the model (on the text and on the payloads it decodes)
    const flagged = p.ruled || detectInjection(p.c.text, { model }).detected;
    const add = (x: Rate) => {
      x.n++;
      if (flagged) x.hit++;
    };
    if (p.c.ambiguous) add(r.ambiguous);
    else if (p.ex.y === 1) {
      add(r.recall);
      add((r.byKind[p.c.kind] ??= { hit: 0, n: 0 }));
    } else add(p.ex.hard ? r.hardFp : r.benignFp);
  }
  return r;
}

function selectedFamilies(cases: readonly InjectionDataCase[], only?: readonly string[]): string[] {
  const families = [...new Set(cases.map((c) => c.family))].sort();
  if (!only) return families;
  const unknown = only.filter((f) => !families.includes(f));
  if (unknown.length > 0) throw new Error(`no such family: ${unknown.join(', ')} (families: ${families.join(', ')})`);
  return families.filter((f) => only.includes(f));
}

function assemble(
  prepared: readonly Prepared[],
  selected: readonly string[],
  results: readonly TaskResult[],
  opts: LosoOptions,
): FamilyResult[] {
  const families = [...new Set(prepared.map((p) => p.c.family))].sort();
  return selected.map((f, i) => {
    const threshold = foldThreshold(f, results, families, opts.tuningFpr ?? TUNING_FPR, opts.approximate ?? false);
    const m = results.find((x) => x.without.length === 1 && x.without[0] === f)!.model!;
    const r = scoreFold(prepared, f, { ...m, threshold });
    opts.onFamily?.(f, i + 1, selected.length);
    return r;
  });
}

/**
 * Leaves each family (or each of `opts.families`) out in turn. The figures are those of training and tuning
 * every fold on its own (`modelFor` on the cases outside it); the trainings that folds share are made once.
 */
export function losoInjection(cases: readonly InjectionDataCase[], opts: LosoOptions = {}): FamilyResult[] {
  const s = opts.settings ?? DEFAULT_SETTINGS;
  const extra = opts.extra ?? [];
  const extraFeats = extra.map((e) => featurize(e.text));
  const prepared = prepare(cases);
  const selected = selectedFamilies(cases, opts.families);
  const evaluationOnly = new Set(opts.evaluationOnly ?? EVALUATION_ONLY);
  const results = foldTasks(prepared, selected, opts.approximate, evaluationOnly).map((t) =>
    runTask(prepared, extra, extraFeats, s, t, evaluationOnly),
  );
  return assemble(prepared, selected, results, opts);
}

/** As losoInjection, the trainings spread over `jobs` worker threads (same figures). */
export async function losoInjectionInWorkers(
  cases: readonly InjectionDataCase[],
  jobs: number,
  opts: LosoOptions = {},
): Promise<FamilyResult[]> {
  const prepared = prepare(cases);
  const selected = selectedFamilies(cases, opts.families);
  const evaluationOnly = [...(opts.evaluationOnly ?? EVALUATION_ONLY)];
  const tasks = foldTasks(prepared, selected, opts.approximate, new Set(evaluationOnly));
  const shares = Array.from({ length: Math.max(1, Math.min(jobs, tasks.length)) }, (_, j) =>
    tasks.filter((_, i) => i % jobs === j),
  );
  const data = { cases, extra: opts.extra ?? [], settings: opts.settings ?? DEFAULT_SETTINGS, evaluationOnly };
  const parts = await Promise.all(
    shares.map(
      (share) =>
        new Promise<TaskResult[]>((resolve, reject) => {
          const w = new Worker(new URL('./loso-injection-worker.ts', import.meta.url), {
            workerData: { ...data, tasks: share },
          });
          w.once('message', (r: TaskResult[]) => resolve(r));
          w.once('error', reject);
          w.once('exit', (code) => code !== 0 && reject(new Error(`loso worker exited with ${code}`)));
        }),
    ),
  );
  return assemble(prepared, selected, parts.flat(), opts);
}

export interface MacroRate {
  mean: number;
  ci: [number, number];
  families: number;
}

/**
 * The macro-average of a rate over the families that have cases for it, with a 95 % interval: the
 * families' rates are independent binomials, so the variance of their mean is the sum of their variances
 * over K² (each from the Agresti-Coull estimate (k+2)/(n+4), which stays honest at 0 % and 100 %).
 */
export function macro(rates: readonly Rate[]): MacroRate | null {
  const xs = rates.filter((r) => r.n > 0);
  if (xs.length === 0) return null;
  const k = xs.length;
  const mean = xs.reduce((a, r) => a + r.hit / r.n, 0) / k;
  const v = xs.reduce((a, r) => {
    const p = (r.hit + 2) / (r.n + 4);
    return a + (p * (1 - p)) / (r.n + 4);
  }, 0);
  const half = (1.96 * Math.sqrt(v)) / k;
  return { mean, ci: [Math.max(0, mean - half), Math.min(1, mean + half)], families: k };
}

const pct = (r: Rate) => (r.n === 0 ? '     -' : ((100 * r.hit) / r.n).toFixed(1).padStart(6));
const ci = (r: Rate) => {
  const w = wilson(r.hit, r.n);
  return (w ? `[${(w[0] * 100).toFixed(0)}-${(w[1] * 100).toFixed(0)}]` : '').padEnd(9);
};

/** The attack families of the first rounds: their macro-average stays comparable as families are added. */
export const FIRST_ATTACK_FAMILIES = ['cyberseceval', 'gptfuzz', 'llm-security', 'payload-lists', 'pyrit'];

/** The per-family table and the macro-averages, as printed by `npm run eval`. */
export function losoTable(results: readonly FamilyResult[]): string[] {
  const kinds = ['direct', 'indirect', 'jailbreak'];
  const lines = [
    'Prompt injection, leave one source out (datasets/detect/injection/: each family scored by a detector trained and tuned without it)',
    `  ${'family'.padEnd(18)} ${'recall'.padStart(6)} ${'95% CI'.padEnd(9)} ${'n'.padStart(4)}  ${kinds.map((k) => k.padStart(9)).join(' ')}   ${'FPR benign'.padStart(10)} ${'95% CI'.padEnd(9)} ${'n'.padStart(4)}  ${'FPR hard'.padStart(8)} ${'95% CI'.padEnd(9)} ${'n'.padStart(4)}  ${'ambig.'.padStart(6)} ${'thr'.padStart(5)}`,
  ];
  for (const r of results) {
    lines.push(
      `  ${r.family.padEnd(18)} ${pct(r.recall)} ${ci(r.recall)} ${String(r.recall.n).padStart(4)}  ${kinds.map((k) => `${pct(r.byKind[k] ?? { hit: 0, n: 0 })}%${String((r.byKind[k]?.n ?? 0) || '').padStart(2)}`.padStart(9)).join(' ')}   ${pct(r.benignFp).padStart(10)} ${ci(r.benignFp)} ${String(r.benignFp.n).padStart(4)}  ${pct(r.hardFp).padStart(8)} ${ci(r.hardFp)} ${String(r.hardFp.n).padStart(4)}  ${pct(r.ambiguous)} ${r.threshold.toFixed(2).padStart(5)}`,
    );
  }
  const m = (xs: Rate[]) => {
    const x = macro(xs);
    return x
      ? `${(100 * x.mean).toFixed(1)} % [${(100 * x.ci[0]).toFixed(1)}-${(100 * x.ci[1]).toFixed(1)}] over ${x.families} families`
      : '-';
  };
  lines.push(
    `  macro-average: recall ${m(results.map((r) => r.recall))}`,
    `    over the first five attack families (${FIRST_ATTACK_FAMILIES.join(', ')}): ${m(results.filter((r) => FIRST_ATTACK_FAMILIES.includes(r.family)).map((r) => r.recall))}`,
    ...(EVALUATION_ONLY.size > 0
      ? [
          `    over the families trained on (without the evaluation-only ${[...EVALUATION_ONLY].join(', ')}): ${m(results.filter((r) => !EVALUATION_ONLY.has(r.family)).map((r) => r.recall))}`,
        ]
      : []),
    ...kinds.map((k) => `    ${k.padEnd(10)} ${m(results.map((r) => r.byKind[k] ?? { hit: 0, n: 0 }))}`),
    `  FPR on benign ${m(results.map((r) => r.benignFp))}`,
    `  FPR on hard negatives ${m(results.map((r) => r.hardFp))}`,
  );
  return lines;
}

/**
 * The same leave-one-source-out run repeated with other example orders (`--seeds`): each family's recall and
 * the macro-averages per order, their mean and range. One epoch of Adagrad depends on the order it sees the
 * examples in (seeds 99 / 7 / 1 of the shipped recipe read 51.5 / 49.8 / 53.3 %), so a change worth less than
 * that range is not shown by one order.
 */
export function seedSpread(runs: ReadonlyArray<{ seed: number; results: readonly FamilyResult[] }>): string[] {
  const pct = (x: number) => (100 * x).toFixed(1);
  const stats = (xs: number[]) => {
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    return `${pct(mean).padStart(5)} (${pct(Math.min(...xs))}-${pct(Math.max(...xs))})`;
  };
  const lines = [
    `Prompt injection, leave one source out, over ${runs.length} example orders (seeds ${runs.map((r) => r.seed).join(', ')}): mean (range)`,
  ];
  const families = runs[0]?.results.filter((r) => r.recall.n > 0).map((r) => r.family) ?? [];
  for (const f of families) {
    const xs = runs.map((r) => {
      const x = r.results.find((y) => y.family === f)!.recall;
      return x.hit / x.n;
    });
    lines.push(`  ${f.padEnd(18)} recall ${stats(xs)}`);
  }
  const of = (pick: (r: FamilyResult) => Rate) => stats(runs.map((r) => macro(r.results.map(pick))?.mean ?? 0));
  lines.push(
    `  macro-average: recall ${of((r) => r.recall)}; FPR on benign ${of((r) => r.benignFp)}; on hard negatives ${of((r) => r.hardFp)}`,
  );
  return lines;
}

/** `npm run eval`'s leave-one-source-out section: the table's lines and its figures as JSON. */
export async function injectionLosoSection(
  opts: LosoOptions & { jobs?: number; seeds?: readonly number[] } = {},
): Promise<{ lines: string[]; json: unknown }> {
  const cases = loadInjectionData();
  const t0 = performance.now();
  const run = (o: LosoOptions) =>
    (opts.jobs ?? 1) > 1 ? losoInjectionInWorkers(cases, opts.jobs!, o) : Promise.resolve(losoInjection(cases, o));
  const results = await run(opts);
  const base = opts.settings ?? DEFAULT_SETTINGS;
  const runs = [{ seed: base.seed, results }];
  for (const seed of opts.seeds ?? [])
    if (seed !== base.seed) runs.push({ seed, results: await run({ ...opts, settings: { ...base, seed } }) });
  const families = new Set(cases.map((c) => c.family)).size;
  const lines = [
    ...losoTable(results),
    ...(runs.length > 1 ? seedSpread(runs) : []),
    `  (${cases.length} cases of ${families} families${opts.families ? `; ${results.length} held out, the macro-averages are over these only` : ''}${opts.approximate ? '; APPROXIMATE thresholds (--approximate), not the headline figures' : ''}; ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
    '',
  ];
  const m = (xs: Rate[]) => macro(xs);
  return {
    lines,
    json: {
      families: results,
      macro: {
        recall: m(results.map((r) => r.recall)),
        recall_first_five: m(results.filter((r) => FIRST_ATTACK_FAMILIES.includes(r.family)).map((r) => r.recall)),
        recall_trained_on: m(results.filter((r) => !EVALUATION_ONLY.has(r.family)).map((r) => r.recall)),
        benign_fpr: m(results.map((r) => r.benignFp)),
        hard_negative_fpr: m(results.map((r) => r.hardFp)),
      },
      ...(runs.length > 1
        ? {
            seeds: runs.map((r) => ({
              seed: r.seed,
              recall: m(r.results.map((x) => x.recall)),
              benign_fpr: m(r.results.map((x) => x.benignFp)),
              hard_negative_fpr: m(r.results.map((x) => x.hardFp)),
            })),
          }
        : {}),
    },
  };
}
