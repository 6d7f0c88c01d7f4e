// Leave-one-source-out evaluation of the names detector on the named-entity data (datasets/detect/ner/):
// for every source family, the named-entity model is trained anew without it (same settings as
// `npm run train:ner`) and scored on it, three ways: the rules alone (before the model), the model alone,
// and the detector as shipped (rules and model merged, names-model.ts). The macro-average over families
// is the figure "on sources the detectors never saw": the rules were never tuned on any of them, the
// model never trained on the one it is scored on.
//
// Scoring as the shared corpus's: overlap matching per type, every PER / LOC label of a sentence
// checked (the corpora label every name), so a PERSON or LOCATION found where none is labelled is a
// false positive. PER maps to PERSON, LOC to LOCATION; ORG is scored for the model alone.

import { detectNamesWith } from '../names/index.ts';
import { readFileSync } from 'node:fs';
import { defaultNerModel, nerGazetteer, NER_EPOCHS, NER_SEED } from '../models/ner-default.ts';
import { nerSpans } from '../models/ner.ts';
import type { NerModel } from '../models/ner.ts';
import { prepare, quantize, trainNer } from '../models/ner-train.ts';
import type { Example } from '../models/ner-train.ts';
import { COMMON_WORDS } from '../names/lexicon.ts';
import { loadNerData, readNerManifest } from './ner-data.ts';
import { cachedFold } from './ner-fold-cache.ts';
import type { NerSourceData } from './ner-data.ts';
import { matchCase, wilson } from './score.ts';
import type { Span, SpanCase, TypeCounts } from './score.ts';

const TYPE_OF = { PER: 'PERSON', LOC: 'LOCATION', ORG: 'ORGANIZATION' } as const;
export const LOSO_TYPES = ['PERSON', 'LOCATION'] as const;
export type Variant = 'rules' | 'model' | 'shipped';
export const VARIANTS: readonly Variant[] = ['rules', 'model', 'shipped'];

export interface FamilyResult {
  family: string;
  sentences: number;
  counts: Record<Variant, Map<string, TypeCounts>>;
  trainMs: number;
}

function tally(into: Map<string, TypeCounts>, c: Map<string, TypeCounts>): void {
  for (const [t, k] of c) {
    const x = into.get(t) ?? { tp: 0, fp: 0, fn: 0 };
    x.tp += k.tp;
    x.fp += k.fp;
    x.fn += k.fn;
    into.set(t, x);
  }
}

/** Scores span predictions of every case into per-type counts. */
export function scoreCases(
  cases: readonly SpanCase[],
  predict: (text: string) => Span[],
  types: readonly string[],
): Map<string, TypeCounts> {
  const counts = new Map<string, TypeCounts>();
  const keep = new Set(types);
  for (const c of cases) {
    if (c.ambiguous) continue;
    const labels = c.entities.filter((e) => keep.has(e.type));
    const preds = predict(c.text).filter((p) => keep.has(p.type));
    tally(counts, matchCase(labels, preds, c.checked_types));
  }
  return counts;
}

const SHIPPED_MANIFEST = new URL('../models/ner.json', import.meta.url);

/** Was the shipped model trained on exactly these sources, as their files are now? */
function shippedWasTrainedOn(ids: readonly string[]): boolean {
  const shipped = (
    JSON.parse(readFileSync(SHIPPED_MANIFEST, 'utf8')) as { sources: Record<string, { sha256: string }> }
  ).sources;
  const data = readNerManifest();
  const names = Object.keys(shipped);
  return names.length === ids.length && ids.every((id) => shipped[id]?.sha256 === data[id]?.sha256);
}

export interface LosoNerOptions {
  /** Families to score (each still trained on every other source); all when absent. */
  families?: readonly string[];
  /** A folder keeping each fold's trained weights (ner-fold-cache.ts): a second run only scores. */
  cacheDir?: string;
  onFamily?: (r: FamilyResult) => void;
}

/** The families of the data, in the table's order. */
export function nerFamilies(data: readonly NerSourceData[] = loadNerData()): string[] {
  return [...new Set(data.map((d) => d.family))];
}

/**
 * Runs the leave-one-source-out evaluation in this thread (training one model per family: about a minute
 * of CPU each). A subset of families gives the same figures for those families as the full run.
 */
export function losoNer(opts: LosoNerOptions = {}): FamilyResult[] {
  const data = loadNerData();
  const g = nerGazetteer();
  // features of the training sources, made once, when a fold first trains (an evaluation-only family
  // scored by the shipped model trains nothing)
  const examples = new Map<string, Example[]>();
  const examplesOf = (d: NerSourceData) => {
    let e = examples.get(d.id);
    if (!e) examples.set(d.id, (e = d.sentences.map((s) => prepare(s, g))));
    return e;
  };
  const all = nerFamilies(data);
  const unknown = (opts.families ?? []).filter((f) => !all.includes(f));
  if (unknown.length) throw new Error(`loso-ner: no family ${unknown.join(', ')} (families: ${all.join(', ')})`);
  const families = opts.families ? all.filter((f) => opts.families!.includes(f)) : all;
  const results: FamilyResult[] = [];
  for (const fam of families) {
    const t0 = performance.now();
    const sources = data.filter((d) => d.family !== fam && d.train);
    const trainFold = () => quantize(trainNer(sources.flatMap(examplesOf), { epochs: NER_EPOCHS, seed: NER_SEED }));
    // a family held out of all training (evaluation only) is scored by the model trained on every other
    // source: the shipped one, when it was trained on exactly these files (same recipe, same weights)
    const model: NerModel = shippedWasTrainedOn(sources.map((d) => d.id))
      ? defaultNerModel()
      : {
          weights: opts.cacheDir
            ? cachedFold(
                opts.cacheDir,
                sources.map((d) => d.id),
                trainFold,
              )
            : trainFold(),
          gazetteer: g,
          stopwords: COMMON_WORDS,
        };
    const trainMs = performance.now() - t0;
    const cases: SpanCase[] = data
      .filter((d) => d.family === fam)
      .flatMap((d) =>
        d.sentences.map((s) => ({
          text: s.text,
          entities: s.spans.map(([start, end, t]) => ({ type: TYPE_OF[t], start, end })),
          checked_types: ['PERSON', 'LOCATION', 'ORGANIZATION'],
        })),
      );
    const modelOnly = (t: string) =>
      nerSpans(model, t).map((s) => ({ type: TYPE_OF[s.label], start: s.start, end: s.end }));
    const r: FamilyResult = {
      family: fam,
      sentences: cases.length,
      trainMs,
      counts: {
        rules: scoreCases(cases, (t) => detectNamesWith(t, undefined), LOSO_TYPES),
        model: scoreCases(cases, modelOnly, [...LOSO_TYPES, 'ORGANIZATION']),
        shipped: scoreCases(cases, (t) => detectNamesWith(t, model), LOSO_TYPES),
      },
    };
    opts.onFamily?.(r);
    results.push(r);
  }
  return results;
}

const pct = (k: number, n: number) => (n ? ((100 * k) / n).toFixed(1).padStart(5) : '    -');
const ci = (k: number, n: number) => {
  const w = wilson(k, n);
  return (w ? `[${(w[0] * 100).toFixed(0)}-${(w[1] * 100).toFixed(0)}]` : '').padEnd(9);
};

function cell(c: TypeCounts | undefined): string {
  const k = c ?? { tp: 0, fp: 0, fn: 0 };
  return `${pct(k.tp, k.tp + k.fp)} ${ci(k.tp, k.tp + k.fp)} ${pct(k.tp, k.tp + k.fn)} ${ci(k.tp, k.tp + k.fn)}`;
}

/** The per-family table and its macro-average, for each variant. */
export function losoLines(results: readonly FamilyResult[]): string[] {
  const head = `  ${'source (left out)'.padEnd(18)} ${'sent'.padStart(5)}  ${LOSO_TYPES.map((t) => `${t.padEnd(9)} P  95% CI      R  95% CI  `).join('  ')}`;
  const out: string[] = [];
  for (const v of VARIANTS) {
    out.push(
      v === 'rules'
        ? 'rules alone (before the model):'
        : v === 'model'
          ? 'named-entity model alone (trained without the source):'
          : 'names detector as shipped (rules + model trained without the source):',
      head,
    );
    const macro = new Map<string, { p: number; r: number; np: number; nr: number }>();
    for (const r of results) {
      const cells = LOSO_TYPES.map((t) => cell(r.counts[v].get(t)));
      out.push(
        `  ${r.family.padEnd(18)} ${String(r.sentences).padStart(5)}  ${cells.map((c) => c.padEnd(35)).join('  ')}`,
      );
      for (const t of LOSO_TYPES) {
        const k = r.counts[v].get(t);
        if (!k) continue;
        const m = macro.get(t) ?? { p: 0, r: 0, np: 0, nr: 0 };
        if (k.tp + k.fp) {
          m.p += k.tp / (k.tp + k.fp);
          m.np++;
        }
        if (k.tp + k.fn) {
          m.r += k.tp / (k.tp + k.fn);
          m.nr++;
        }
        macro.set(t, m);
      }
    }
    out.push(
      `  ${'macro-average'.padEnd(18)} ${''.padStart(5)}  ${LOSO_TYPES.map((t) => {
        const m = macro.get(t);
        const p = m && m.np ? ((100 * m.p) / m.np).toFixed(1).padStart(5) : '    -';
        const rr = m && m.nr ? ((100 * m.r) / m.nr).toFixed(1).padStart(5) : '    -';
        return `${p} ${''.padEnd(9)} ${rr} ${''.padEnd(9)}`.padEnd(35);
      }).join('  ')}`,
    );
    if (v === 'model') {
      const org = { tp: 0, fp: 0, fn: 0 };
      for (const r of results) {
        const k = r.counts.model.get('ORGANIZATION');
        if (!k) continue;
        org.tp += k.tp;
        org.fp += k.fp;
        org.fn += k.fn;
      }
      out.push(`  (ORGANIZATION, pooled over sources: ${cell(org)})`);
    }
    out.push('');
  }
  return out;
}

/** Macro-averaged precision and recall of a variant per type (the README's headline figures). */
export function losoMacro(
  results: readonly FamilyResult[],
  v: Variant,
): Record<string, { precision: number; recall: number }> {
  const out: Record<string, { precision: number; recall: number }> = {};
  for (const t of LOSO_TYPES) {
    const ps: number[] = [];
    const rs: number[] = [];
    for (const r of results) {
      const k = r.counts[v].get(t);
      if (!k) continue;
      if (k.tp + k.fp) ps.push(k.tp / (k.tp + k.fp));
      if (k.tp + k.fn) rs.push(k.tp / (k.tp + k.fn));
    }
    out[t] = {
      precision: ps.reduce((a, b) => a + b, 0) / ps.length,
      recall: rs.reduce((a, b) => a + b, 0) / rs.length,
    };
  }
  return out;
}
