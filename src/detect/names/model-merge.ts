// Persons and places of the named-entity model (models/ner.ts) merged with the rules' findings. A model
// span that no rule finding overlaps is added. One that overlaps only findings of its own type joins them
// into their union (the rules found "Nixon", the model "Richard M. Nixon": one person, not two). One that
// overlaps a finding of another type gives way: a cue, a label or a dictionary hit is stronger evidence
// than the model's reading of shape and context. The model's organisations are not findings of their
// own (the service has no such type); they only keep the model from calling that span a person or place.

import type { NerSpan } from '../models/ner.ts';
import type { Finding } from '../types.ts';

/** Confidence of a model span (below the rules' cue-backed 0.8-0.85, above their shape-only 0.55). */
export const MODEL_SCORE = { PER: 0.7, LOC: 0.65 } as const;
/**
 * The least margin (models/ner.ts) of a model span that stands alone, per type; one that joins a rule
 * finding of its type needs none. The margin is counted at the fixed weight scale of models/ner-train.ts
 * (`WEIGHT_AT_INT16_MAX`), so it means the same for the shipped model and every leave-one-source-out fold.
 * A person's was read from the spans of the development texts and the leave-one-source-out table: words
 * capitalised for other reasons ("Support" in "(Sales, Support)", "Macintosh" in a user agent) score below
 * it, names in running text well above. A place's is higher: trained on more languages, the model reads
 * more capitalised words as places ("Warehouse" in "Shipped from Warehouse B"), and 16,000 is the least
 * margin that keeps the places' precision where it was, chosen for each held-out family on the others (a
 * nested leave-one-source-out, every fold the same; docs/detection.md).
 */
export const MIN_MARGIN = { PER: 12000, LOC: 16000 } as const;
/** A union longer than this is not made (a model span bridging two findings far apart is not one name). */
const MAX_UNION = 80;
/** Rule findings open at once beyond which a model span is skipped (bounds the work on adversarial text). */
const MAX_OPEN = 16;

/** `ruleFindings` with the model's PERSON / LOCATION spans merged in (see the file's comment). */
export function mergeModelSpans(ruleFindings: readonly Finding[], spans: readonly NerSpan[]): Finding[] {
  if (spans.length === 0) return [...ruleFindings];
  const taken = [...ruleFindings].sort((a, b) => a.start - b.start);
  const dropped = new Set<Finding>();
  const added: Finding[] = [];
  let open: Finding[] = [];
  let k = 0;
  // spans come ascending and do not overlap each other: one sweep over the start-sorted findings
  for (const s of spans) {
    if (s.label === 'ORG') continue;
    while (k < taken.length && taken[k]!.start < s.end) open.push(taken[k++]!);
    open = open.filter((f) => f.end > s.start);
    const type = s.label === 'PER' ? 'PERSON' : 'LOCATION';
    if (open.length === 0) {
      if (s.margin < MIN_MARGIN[s.label]) continue;
      added.push({ type, start: s.start, end: s.end, score: MODEL_SCORE[s.label] });
      continue;
    }
    if (open.length > MAX_OPEN || open.some((f) => f.type !== type || dropped.has(f))) continue;
    let start = s.start;
    let end = s.end;
    let score = 0;
    for (const f of open) {
      start = Math.min(start, f.start);
      end = Math.max(end, f.end);
      score = Math.max(score, f.score);
    }
    if (end - start > MAX_UNION || (start === open[0]!.start && end === open[0]!.end && open.length === 1)) continue;
    for (const f of open) dropped.add(f);
    added.push({ type, start, end, score });
  }
  const out = dropped.size ? ruleFindings.filter((f) => !dropped.has(f)) : [...ruleFindings];
  for (const f of added) out.push(f);
  return out;
}
