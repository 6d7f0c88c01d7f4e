// Scoring rules of the shared corpus README: overlap matching of same-type spans, each label matched
// at most once, false positives only for types listed in the case's checked_types, ambiguous cases
// reported apart. Pure functions; no I/O.

export interface Span {
  type: string;
  start: number;
  end: number;
}

export interface SpanCase {
  id?: string;
  text: string;
  entities: Span[];
  checked_types: string[];
  ambiguous?: boolean;
}

export interface TypeCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface TypeMetrics extends TypeCounts {
  precision: number | null;
  recall: number | null;
  support: number;
}

export interface SpanReport {
  headline: Record<string, TypeMetrics>;
  ambiguous: Record<string, TypeMetrics>;
}

/** Counts TP/FP/FN for one case. Predictions are matched in order of start offset to the unmatched label of the same type with the largest overlap. */
export function matchCase(labels: readonly Span[], predicted: readonly Span[], checkedTypes: readonly string[]): Map<string, TypeCounts> {
  const counts = new Map<string, TypeCounts>();
  const get = (t: string) => {
    let c = counts.get(t);
    if (!c) {
      c = { tp: 0, fp: 0, fn: 0 };
      counts.set(t, c);
    }
    return c;
  };
  const checked = new Set(checkedTypes);
  const used = new Array<boolean>(labels.length).fill(false);
  const preds = [...predicted].sort((a, b) => a.start - b.start || a.end - b.end);
  for (const p of preds) {
    let best = -1;
    let bestOverlap = 0;
    for (let i = 0; i < labels.length; i++) {
      const l = labels[i]!;
      if (used[i] || l.type !== p.type) continue;
      const ov = Math.min(l.end, p.end) - Math.max(l.start, p.start);
      if (ov > bestOverlap) {
        bestOverlap = ov;
        best = i;
      }
    }
    if (best >= 0) {
      used[best] = true;
      get(p.type).tp++;
    } else if (checked.has(p.type)) {
      get(p.type).fp++;
    }
  }
  for (let i = 0; i < labels.length; i++) if (!used[i]) get(labels[i]!.type).fn++;
  return counts;
}

export function metrics(c: TypeCounts): TypeMetrics {
  const support = c.tp + c.fn;
  return {
    ...c,
    precision: c.tp + c.fp > 0 ? c.tp / (c.tp + c.fp) : null,
    recall: support > 0 ? c.tp / support : null,
    support,
  };
}

function add(into: Map<string, TypeCounts>, from: Map<string, TypeCounts>): void {
  for (const [t, c] of from) {
    const x = into.get(t) ?? { tp: 0, fp: 0, fn: 0 };
    x.tp += c.tp;
    x.fp += c.fp;
    x.fn += c.fn;
    into.set(t, x);
  }
}

/** Scores span predictions over cases; `predict` returns spans for a text. */
export function scoreSpans(cases: readonly SpanCase[], predict: (text: string) => readonly Span[]): SpanReport {
  const head = new Map<string, TypeCounts>();
  const amb = new Map<string, TypeCounts>();
  for (const c of cases) {
    const counts = matchCase(c.entities, predict(c.text), c.checked_types);
    add(c.ambiguous ? amb : head, counts);
  }
  const toObj = (m: Map<string, TypeCounts>) => Object.fromEntries([...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([t, c]) => [t, metrics(c)]));
  return { headline: toObj(head), ambiguous: toObj(amb) };
}

export interface InjectionCase {
  id?: string;
  text: string;
  label: "injection" | "benign";
  kind: string;
  ambiguous?: boolean;
}

export interface BinaryMetrics {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  false_positive_rate: number | null;
  support: number;
}

export interface InjectionReport {
  headline: BinaryMetrics;
  recall_by_kind: Record<string, { detected: number; total: number; recall: number }>;
  hard_negative_false_positive_rate: number | null;
  ambiguous: BinaryMetrics;
}

export function binary(pairs: readonly { label: boolean; predicted: boolean }[]): BinaryMetrics {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (const p of pairs) {
    if (p.label && p.predicted) tp++;
    else if (p.label) fn++;
    else if (p.predicted) fp++;
    else tn++;
  }
  const precision = tp + fp > 0 ? tp / (tp + fp) : null;
  const recall = tp + fn > 0 ? tp / (tp + fn) : null;
  const f1 = precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : null;
  return { tp, fp, tn, fn, precision, recall, f1, false_positive_rate: fp + tn > 0 ? fp / (fp + tn) : null, support: tp + fn };
}

export function scoreInjection(cases: readonly InjectionCase[], predict: (text: string) => boolean): InjectionReport {
  const head: { label: boolean; predicted: boolean; kind: string }[] = [];
  const amb: { label: boolean; predicted: boolean }[] = [];
  for (const c of cases) {
    const r = { label: c.label === "injection", predicted: predict(c.text), kind: c.kind };
    (c.ambiguous ? amb : head).push(r);
  }
  const byKind: Record<string, { detected: number; total: number; recall: number }> = {};
  for (const r of head) {
    if (!r.label) continue;
    let k = byKind[r.kind];
    if (!k) {
      k = { detected: 0, total: 0, recall: 0 };
      byKind[r.kind] = k;
    }
    k.total++;
    if (r.predicted) k.detected++;
  }
  for (const k of Object.values(byKind)) k.recall = k.total > 0 ? k.detected / k.total : 0;
  const hard = head.filter((r) => r.kind === "hard_negative");
  const hardFp = hard.filter((r) => r.predicted).length;
  return {
    headline: binary(head),
    recall_by_kind: byKind,
    hard_negative_false_positive_rate: hard.length > 0 ? hardFp / hard.length : null,
    ambiguous: binary(amb),
  };
}

/** Wilson score interval (95 %) of k successes in n trials; null when n is 0. */
export function wilson(k: number, n: number, z = 1.96): [number, number] | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const d = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
