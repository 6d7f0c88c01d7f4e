import { isInjectionType, isSecretType, mergeSpans, scan } from '../detect/index.ts';
import type { ContentField, Finding, FindingCategory } from '../policy/engine.ts';
import type { Scanner } from './prepare.ts';

export function categoryOf(type: string): FindingCategory {
  return isInjectionType(type) ? 'injection' : isSecretType(type) ? 'secret' : 'pii';
}

/**
 * Replaces PII and secret spans by typed placeholders (`<EMAIL_ADDRESS>`) and
 * returns, besides the text, every finding re-indexed into that text: a
 * redacted span becomes its placeholder's span, an injection finding moves
 * with the text around it. Stored offsets thus always point into stored text.
 */
export function redactWithOffsets(text: string, findings: readonly Finding[]): { stored: string; storedFindings: Finding[] } {
  const spans = mergeSpans(findings.filter((f) => f.category !== 'injection' && f.start >= 0 && f.end <= text.length));
  let stored = '';
  let pos = 0;
  const storedFindings: Finding[] = [];
  // (original end, shift after it), to move positions of unredacted findings.
  const shifts: Array<{ end: number; start: number; newStart: number; newEnd: number }> = [];
  for (const s of spans) {
    stored += text.slice(pos, s.start);
    const placeholder = `<${s.type}>`;
    const newStart = stored.length;
    stored += placeholder;
    shifts.push({ start: s.start, end: s.end, newStart, newEnd: stored.length });
    storedFindings.push({ type: s.type, start: newStart, end: stored.length, score: s.score, category: categoryOf(s.type) });
    pos = s.end;
  }
  stored += text.slice(pos);
  const move = (p: number): number => {
    // Binary search the last span starting at or before p.
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
    if (f.category === 'injection') storedFindings.push({ ...f, start: move(f.start), end: move(f.end) });
  }
  storedFindings.sort((a, b) => a.start - b.start || a.end - b.end);
  return { stored, storedFindings };
}

/** The detectors behind the ingest path. Injection findings are reported but not redacted. */
export const detectScanner: Scanner = (field: ContentField, text: string) => {
  const r = scan(text, { field });
  const findings: Finding[] = r.findings.map((f) => ({ ...f, category: categoryOf(f.type) }));
  return { findings, ...redactWithOffsets(text, findings), pii_count: r.pii_count };
};
