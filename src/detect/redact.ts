import { isInjectionType } from "./types.ts";
import type { Finding } from "./types.ts";

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
  let out = "";
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + "<" + s.type + ">";
    pos = s.end;
  }
  return out + text.slice(pos);
}
