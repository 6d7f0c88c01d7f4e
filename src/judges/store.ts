import type { Queryable } from '../db/index.ts';

// The judgements table (migrations/0120). Every function needs a transaction
// scoped to the tenant (row-level security) and filters by tenant too.

export type JudgementStatus = 'pending' | 'done' | 'quota_exhausted' | 'failed';
export type PanelDecision = 'allow' | 'deny' | 'uncertain';

/** One judge's answer as stored. */
export interface StoredOpinion {
  name: string;
  verdict: PanelDecision | 'abstained';
  /** Absent once erased (erasure.ts). */
  rationale?: string;
  rubric_points: string[];
  calls: number;
  error?: string;
}

export interface JudgementRow {
  invocation_id: number;
  attempt: number;
  trigger: 'flag' | 'on_demand';
  status: JudgementStatus;
  decision: PanelDecision | null;
  unanimous: boolean | null;
  judges: StoredOpinion[] | null;
  log_index: number | null;
  auto_resolved: boolean;
  requested_at: Date;
  finished_at: Date | null;
  rationales_erased_at: Date | null;
}

const COLUMNS =
  'invocation_id, attempt, trigger, status, decision, unanimous, judges, log_index, auto_resolved, requested_at, finished_at, rationales_erased_at';

export async function judgementAt(
  tx: Queryable,
  tenantId: string,
  invocationId: number,
  attempt: number,
): Promise<JudgementRow | null> {
  const [row] = await tx.query<JudgementRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM judgements WHERE tenant_id = $1 AND invocation_id = $2 AND attempt = $3 FOR UPDATE`,
    [tenantId, invocationId, attempt],
  );
  return row ?? null;
}

/**
 * A new pending attempt, numbered after the invocation's last one; null when
 * one is pending already (the partial unique index decides, on every node),
 * or, for an automatic escalation ('flag'), when the invocation has had one
 * (checked under the lock below, so two escalation jobs never both judge).
 * `jobId`: the automatic escalation's job, so its retries find this attempt.
 */
export async function insertPending(
  tx: Queryable,
  tenantId: string,
  invocationId: number,
  input: { trigger: 'flag' | 'on_demand'; by: string | null; jobId: number | null; now: Date },
): Promise<number | null> {
  // Serializes the numbering of one invocation's attempts.
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('agent-ledger judgement ' || $1 || ' ' || $2))", [
    tenantId,
    String(invocationId),
  ]);
  const [row] = await tx.query<{ attempt: number }>(
    `INSERT INTO judgements (tenant_id, invocation_id, attempt, trigger, status, requested_by, requested_at, job_id)
     SELECT $1, $2, coalesce(max(attempt), 0) + 1, $3, 'pending', $4, $5, $6 FROM judgements WHERE tenant_id = $1 AND invocation_id = $2
     HAVING $3::text <> 'flag' OR coalesce(bool_and(trigger <> 'flag'), true)
     ON CONFLICT DO NOTHING RETURNING attempt`,
    [tenantId, invocationId, input.trigger, input.by, input.now, input.jobId],
  );
  return row?.attempt ?? null;
}

/** The attempt an automatic escalation's job made earlier (a retry after a crash), if any. */
export async function attemptOfJob(
  tx: Queryable,
  tenantId: string,
  jobId: number,
): Promise<{ attempt: number; invocation_id: number } | null> {
  const [row] = await tx.query<{ attempt: number; invocation_id: number }>(
    'SELECT attempt, invocation_id FROM judgements WHERE tenant_id = $1 AND job_id = $2',
    [tenantId, jobId],
  );
  return row ?? null;
}

/** Ends a pending attempt with its outcome. */
export async function finishJudgement(
  tx: Queryable,
  tenantId: string,
  invocationId: number,
  attempt: number,
  out: {
    status: Exclude<JudgementStatus, 'pending'>;
    decision: PanelDecision | null;
    unanimous: boolean | null;
    judges: StoredOpinion[] | null;
    salt: Uint8Array | null;
    logIndex: number | null;
    autoResolved: boolean;
    now: Date;
  },
): Promise<void> {
  await tx.query(
    `UPDATE judgements SET status = $4, decision = $5, unanimous = $6, judges = $7, salt = $8, log_index = $9, auto_resolved = $10, finished_at = $11
     WHERE tenant_id = $1 AND invocation_id = $2 AND attempt = $3`,
    [
      tenantId,
      invocationId,
      attempt,
      out.status,
      out.decision,
      out.unanimous,
      out.judges === null ? null : JSON.stringify(out.judges),
      out.salt === null ? null : Buffer.from(out.salt),
      out.logIndex,
      out.autoResolved,
      out.now,
    ],
  );
}
