// Findings of the name detectors as sorted spans: is a span taken, and merging a type's overlapping spans.

import type { Finding } from '../types.ts';

/** Binary search in findings sorted by start: does [s, e) overlap one? */
export function occupied(sorted: readonly Finding[], s: number, e: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.end <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]!.start < e;
}
export function dedupe(fs: Finding[]): Finding[] {
  fs.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  // the last span of each type: a span of another type between two overlapping ones of a type ("Poblado
  // Agustín Avilés, 0 Esc. 829" with a place inside it, then "0 Esc. 829") does not keep them apart
  // (the name detectors' types are few: a short list of the last span of each)
  const last: Finding[] = [];
  for (const f of fs) {
    let k = 0;
    while (k < last.length && last[k]!.type !== f.type) k++;
    const prev = last[k];
    if (prev && f.start < prev.end) {
      if (f.end > prev.end) prev.end = f.end;
      prev.score = Math.max(prev.score, f.score);
      continue;
    }
    out.push(f);
    last[k] = f;
  }
  return out;
}
