import * as types from './types.ts';
import type { Finding } from './types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { categoryOf, isInjectionType } = types;

/**
 * Merges overlapping findings into disjoint spans. The merged span covers the union; its type is the
 * type of the preferred member: the longer span, then the higher score (Presidio's rule for overlaps).
 */
export function mergeSpans(findings: readonly Finding[]): Finding[] {
  const fs = findings.filter((f) => f.end > f.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  let cur: Finding | undefined;
  let best: Finding | undefined;
  for (const f of fs) {
    if (cur && best && f.start < cur.end) {
      cur.end = Math.max(cur.end, f.end);
      const lf = f.end - f.start;
      const lb = best.end - best.start;
      if (lf > lb || (lf === lb && f.score > best.score)) best = f;
      cur.type = best.type;
      cur.score = Math.max(cur.score, f.score);
      continue;
    }
    if (cur) out.push(cur);
    cur = { ...f };
    best = f;
  }
  if (cur) out.push(cur);
  return out;
}

/** Replaces each PII / secret span by `<TYPE>`; overlapping spans are merged first. Injection findings are kept as is. */
export function redact(text: string, findings: readonly Finding[]): string {
  const spans = mergeSpans(findings.filter((f) => !isInjectionType(f.type) && f.start >= 0 && f.end <= text.length));
  let out = '';
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + '<' + s.type + '>';
    pos = s.end;
  }
  return out + text.slice(pos);
}

/**
 * What storage keeps of a text: PII and secret spans replaced by typed placeholders (`<EMAIL_ADDRESS>`),
 * and every finding re-indexed into that text: a redacted span becomes its placeholder's span (merged
 * spans become one), an injection finding moves with the text around it. Stored offsets thus always
 * point into stored text. Findings are read by their `category` when set, else by `categoryOf(type)`.
 */
export function redactWithOffsets(
  text: string,
  findings: readonly Finding[],
): { stored: string; storedFindings: Finding[] } {
  const isInjection = (f: Finding) => (f.category ?? categoryOf(f.type)) === 'injection';
  const spans = mergeSpans(findings.filter((f) => !isInjection(f) && f.start >= 0 && f.end <= text.length));
  let stored = '';
  let pos = 0;
  const storedFindings: Finding[] = [];
  // original span and its placeholder's span, to move the positions of unredacted findings
  const shifts: Array<{ end: number; start: number; newStart: number; newEnd: number }> = [];
  for (const s of spans) {
    stored += text.slice(pos, s.start);
    const placeholder = `<${s.type}>`;
    const newStart = stored.length;
    stored += placeholder;
    shifts.push({ start: s.start, end: s.end, newStart, newEnd: stored.length });
    storedFindings.push({
      type: s.type,
      start: newStart,
      end: stored.length,
      score: s.score,
      category: categoryOf(s.type),
    });
    pos = s.end;
  }
  stored += text.slice(pos);
  const move = (p: number): number => {
    // the last span starting at or before p (binary search)
    let lo = 0;
    let hi = shifts.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (shifts[mid]!.start <= p) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (last < 0) return p;
    const s = shifts[last]!;
    if (p < s.end) return p === s.start ? s.newStart : s.newEnd; // inside a redacted span
    return p - s.end + s.newEnd;
  };
  for (const f of findings) {
    if (isInjection(f)) storedFindings.push({ ...f, start: move(f.start), end: move(f.end) });
  }
  storedFindings.sort((a, b) => a.start - b.start || a.end - b.end);
  return { stored, storedFindings };
}
