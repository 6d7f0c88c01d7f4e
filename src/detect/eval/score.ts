// Scoring rules of the shared corpus README: overlap matching of same-type spans, each label matched
// at most once, false positives only for types listed in the case's checked_types (cli.ts leaves
// ambiguous cases out). Pure functions; no I/O.

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

/** Counts TP/FP/FN for one case. Predictions are matched in order of start offset to the unmatched label of the same type with the largest overlap. */
export function matchCase(
  labels: readonly Span[],
  predicted: readonly Span[],
  checkedTypes: readonly string[],
): Map<string, TypeCounts> {
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

export interface InjectionCase {
  id?: string;
  text: string;
  label: 'injection' | 'benign';
  kind: string;
  ambiguous?: boolean;
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
