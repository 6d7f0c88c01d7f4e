import type { Queryable } from '../db/index.ts';
import { JUDGE_JOB, queuedFor } from '../jobs/index.ts';
import { evidenceIdOf } from '../ledger/index.ts';
import type { JudgementRow } from './store.ts';

// The `judgement` of an invocation as the API shows it (in GET
// /api/v1/invocations/{id}, the review queue and POST .../judge): the latest
// attempt, or `pending` while an automatic escalation's job waits to start;
// null when the invocation was never sent to the panel. Rationales are
// written from the stored content, so only roles that may read content get
// them (viewers see verdicts only).

export interface JudgementView {
  status: 'pending' | 'done' | 'quota_exhausted' | 'failed';
  decision: 'allow' | 'deny' | 'uncertain' | null;
  unanimous: boolean | null;
  attempt: number | null;
  trigger: 'flag' | 'on_demand';
  auto_resolved: boolean;
  rationales_erased: boolean;
  judges: {
    name: string;
    verdict: 'allow' | 'deny' | 'uncertain' | 'abstained';
    rationale: string | null;
    rubric_points: string[];
  }[];
  evidence_id: number | null;
  requested_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS =
  'invocation_id, attempt, trigger, status, decision, unanimous, judges, log_index, auto_resolved, requested_at, finished_at, rationales_erased_at';

export function viewOf(r: JudgementRow, withRationale: boolean): JudgementView {
  return {
    status: r.status,
    decision: r.decision,
    unanimous: r.unanimous,
    attempt: r.attempt,
    trigger: r.trigger,
    auto_resolved: r.auto_resolved,
    rationales_erased: r.rationales_erased_at !== null,
    judges: (r.judges ?? []).map((j) => ({
      name: j.name,
      verdict: j.verdict,
      rationale: withRationale ? (j.rationale ?? null) : null,
      rubric_points: j.rubric_points,
    })),
    evidence_id: r.log_index === null ? null : evidenceIdOf(Number(r.log_index)),
    requested_at: r.requested_at,
    finished_at: r.finished_at,
  };
}

const QUEUED: JudgementView = {
  status: 'pending',
  decision: null,
  unanimous: null,
  attempt: null,
  trigger: 'flag',
  auto_resolved: false,
  rationales_erased: false,
  judges: [],
  evidence_id: null,
  requested_at: null,
  finished_at: null,
};

/** The judgements of a page of invocations, in one round trip per table; absent ids were never judged. */
export async function judgementsOf(
  tx: Queryable,
  tenantId: string,
  ids: readonly number[],
  withRationale: boolean,
): Promise<Map<number, JudgementView>> {
  const out = new Map<number, JudgementView>();
  if (ids.length === 0) return out;
  const rows = await tx.query<JudgementRow & Record<string, unknown>>(
    `SELECT DISTINCT ON (invocation_id) ${COLUMNS} FROM judgements
     WHERE tenant_id = $1 AND invocation_id = ANY($2::bigint[]) ORDER BY invocation_id, attempt DESC`,
    [tenantId, ids],
  );
  for (const r of rows) out.set(Number(r.invocation_id), viewOf(r, withRationale));
  const rest = ids.filter((id) => !out.has(id));
  for (const id of await queuedFor(tx, tenantId, JUDGE_JOB, 'invocation_id', rest)) out.set(Number(id), QUEUED);
  return out;
}

export async function judgementOf(
  tx: Queryable,
  tenantId: string,
  id: number,
  withRationale: boolean,
): Promise<JudgementView | null> {
  return (await judgementsOf(tx, tenantId, [id], withRationale)).get(id) ?? null;
}
