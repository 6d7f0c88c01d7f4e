import type { ErasableText } from '../ingest/index.ts';

// Deleting the judges' rationales (retention and data-subject erasure,
// src/retention), as review notes are deleted: a rationale is written from the
// invocation's content and may quote it. The verdicts, rubric points, the
// decision and the judge_verdict leaf stay; the salt goes with the text.

/** The rationales of judgements (eraseText); retention erases them by the judgement's finish time. */
export const JUDGE_RATIONALES: ErasableText = {
  table: 'judgements',
  key: ['invocation_id', 'attempt'],
  set: (
    at,
  ) => `judges = (SELECT coalesce(jsonb_agg(o - 'rationale' ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(t.judges) WITH ORDINALITY AS e(o, n)),
         salt = NULL, rationales_erased_at = ${at}`,
  pending: 'x.rationales_erased_at IS NULL AND x.judges IS NOT NULL',
  timeColumn: 'finished_at',
};
