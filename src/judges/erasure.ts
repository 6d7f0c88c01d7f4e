import type { Queryable } from '../db/index.ts';
import { type ContentSelector, SELECTED_INVOCATIONS, selectorParams } from '../ingest/index.ts';

// Deleting the judges' rationales (retention and data-subject erasure,
// src/retention), as review notes are deleted: a rationale is written from the
// invocation's content and may quote it. The verdicts, rubric points, the
// decision and the judge_verdict leaf stay; the salt goes with the text.

/**
 * Erases the rationales of judgements of the selected invocations
 * (`from`/`to` bound the invocation's time), or — with `finishedBefore` — of
 * judgements finished before then (retention). Returns how many judgements.
 */
export async function eraseJudgeRationales(
  tx: Queryable,
  tenantId: string,
  sel: ContentSelector & { finishedBefore?: Date },
  now: Date,
  limit = 10_000,
): Promise<number> {
  const rows = await tx.query(
    `UPDATE judgements j
     SET judges = (SELECT coalesce(jsonb_agg(o - 'rationale' ORDER BY n), '[]'::jsonb) FROM jsonb_array_elements(j.judges) WITH ORDINALITY AS e(o, n)),
         salt = NULL, rationales_erased_at = $8
     WHERE j.tenant_id = $1 AND (j.invocation_id, j.attempt) IN (
       SELECT x.invocation_id, x.attempt FROM judgements x
       WHERE x.tenant_id = $1 AND x.rationales_erased_at IS NULL AND x.judges IS NOT NULL
         AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
         AND ($6::timestamptz IS NULL OR x.finished_at < $6)
       LIMIT $7)
     RETURNING 1`,
    [...selectorParams(tenantId, sel), sel.finishedBefore?.toISOString() ?? null, limit, now.toISOString()],
  );
  return rows.length;
}
