import type { Queryable } from '../db/index.ts';
import { enqueue, type JobHandler, JUDGE_JOB, judgeJobPayload } from '../jobs/index.ts';
import { commitment, LEAF_VERSION, type LogWriter, newSalt } from '../ledger/index.ts';
import {
  type ContentField,
  type Decision,
  type Facts,
  type FieldFindings,
  type Finding,
  OUT_OF_SCOPE_REASON,
  type PersonaFacts,
} from '../policy/index.ts';
import type { PreparedInvocation, ScanResult, Scanner } from './prepare.ts';
import { escalatesToJudges, needsReview } from './escalation.ts';
import { oneInvocationTimeSql } from './invocation-time.ts';
import { countByType } from './leaves.ts';
import { openText } from './sealed-output.ts';

/** One invocation (or its texts) by workspace and id, read in its month only. */
const BY_ID = `tenant_id = $1 AND invocation_id = $2 AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`;

/**
 * IngestDeps.afterInvocation: wakes the job worker when an acknowledged invocation left a tool_output
 * sealed for its background scan (its job was enqueued in the invocation's transaction).
 */
export function wakeOnPendingScan(jobs: {
  poke(): void;
}): (tenantId: string, invocationId: number, prepared: PreparedInvocation) => void {
  return (_tenantId, _invocationId, prepared) => {
    if (prepared.content.some((c) => c.findings === null)) jobs.poke();
  };
}

export interface OutputScanDeps {
  writer: LogWriter;
  scan: Scanner;
  /** Opens the sealed tool_output (sealed-output.ts). */
  outputKek: Uint8Array;
  /** The policy in force, read in the scan's transaction (policy module: cached while the change epoch holds). */
  policyInTx(tx: Queryable, tenantId: string): Promise<{ version: number; decide(facts: Facts): Decision }>;
  /** The agent's persona, read in the scan's transaction (policy module). */
  personaInTx(tx: Queryable, tenantId: string, agentKey: string): Promise<PersonaFacts | undefined>;
  now(): Date;
}

export interface InvocationRow {
  agent_key: string;
  tool_name: string | null;
  mode: Facts['mode'];
  outcome: string;
  principal_kind: 'user' | 'agent' | null;
  principal_id: string;
  reasons: string[];
  review_status: string | null;
  output_scanned_at: Date | null;
}

/**
 * The background scan of a stored tool_output: redact it, record what was
 * found, decide again with every finding of the invocation, put it in the
 * review queue when policy says so, and append a tool_output_scan leaf — all
 * in one transaction with the job's own deletion, so a crash anywhere makes
 * the whole scan run again and a finished scan never runs twice.
 */
export function outputScanHandler(deps: OutputScanDeps): JobHandler {
  return async (job, claim) => {
    const tenantId = job.tenant_id;
    const invocationId = Number(job.payload.invocation_id);
    await deps.writer.submit(
      tenantId,
      async (tx, log) => {
        if (!(await claim(tx))) return;
        const inv = await loadInvocation(tx, tenantId, invocationId, deps.outputKek);
        if (!inv || inv.row.output_scanned_at !== null || inv.output === null) return;
        // Read here, not before the transaction: a policy changed on another node a moment ago decides this scan.
        const policy = await deps.policyInTx(tx, tenantId);
        const r = deps.scan('tool_output', inv.output);
        const { decision, review, newlyFlagged } = decideAfterScan(
          policy,
          inv.row,
          withOutputFindings(inv.otherFindings, r.findings),
          await deps.personaInTx(tx, tenantId, inv.row.agent_key),
        );
        const now = deps.now();
        const salt = newSalt();
        await tx.query(
          // The redacted text replaces the sealed one; ciphertext and wrapped key go (crypto-shredding).
          `UPDATE invocation_content SET body = $3, salt = $4, findings = $5, sealed = NULL, sealed_key = NULL
         WHERE ${BY_ID} AND field = 'tool_output'`,
          [tenantId, invocationId, r.stored, Buffer.from(salt), JSON.stringify(r.storedFindings)],
        );
        await tx.query(
          `UPDATE invocations SET output_scan_verdict = $3, output_scan_reasons = $4, output_scanned_at = $5, review_status = $6
         WHERE ${BY_ID}`,
          [tenantId, invocationId, decision.verdict, JSON.stringify(decision.reasons), now, review],
        );
        if (escalatesToJudge(decision, inv.row.mode, newlyFlagged)) {
          const [p] = await tx.query<{ judged: boolean }>('SELECT judge_panel_configured($1) AS judged', [tenantId]);
          if (p!.judged) await enqueue(tx, tenantId, JUDGE_JOB, [judgeJobPayload(invocationId, decision)]);
        }
        const scanIndex = log.add(scanLeaf(invocationId, salt, r, decision, policy.version), now);
        // When this output's findings became final, for readers that fold scans by log position (reports' roll-ups).
        await tx.query('INSERT INTO output_scans (tenant_id, log_index, invocation_id) VALUES ($1, $2, $3)', [
          tenantId,
          scanIndex,
          invocationId,
        ]);
      },
      { background: true },
    );
  };
}

/** The tool_output_scan leaf: a commitment to the text as stored (redacted), what was found, the new verdict. */
export function scanLeaf(
  invocationId: number,
  salt: Uint8Array,
  r: Pick<ScanResult, 'stored' | 'storedFindings'>,
  decision: Decision,
  policyVersion: number,
) {
  return {
    v: LEAF_VERSION,
    kind: 'tool_output_scan',
    invocation_id: invocationId,
    content: { tool_output: commitment(salt, r.stored) },
    findings: countByType(r.storedFindings),
    verdict: decision.verdict,
    reasons: decision.reasons,
    policy_version: policyVersion,
  };
}

/** The findings of the invocation's other texts, with the tool_output's own when it has any. */
export function withOutputFindings(other: readonly FieldFindings[], output: readonly Finding[]): FieldFindings[] {
  return output.length > 0 ? [...other, { field: 'tool_output', findings: [...output] }] : [...other];
}

/**
 * A scanned tool_output decided again with every finding of its invocation:
 * the decision, the review status it leaves, and whether that puts it in the
 * review queue now.
 */
export function decideAfterScan(
  policy: { decide(facts: Facts): Decision },
  row: InvocationRow,
  findings: FieldFindings[],
  persona: PersonaFacts | undefined,
): { decision: Decision; review: string | null; newlyFlagged: boolean } {
  const decision = policy.decide({
    agent_key: row.agent_key,
    tool_name: row.tool_name ?? undefined,
    mode: row.mode,
    outcome: row.outcome,
    principal_kind: row.principal_kind ?? undefined,
    principal_id: row.principal_id,
    findings,
    tool_in_scope: row.reasons.includes(OUT_OF_SCOPE_REASON) ? false : undefined,
    persona,
    // The call has run: a hold rule can stop nothing now, so it gives its verdict like any rule.
    after_call: true,
  });
  const review = row.review_status === null && needsReview(decision.verdict, row.mode) ? 'pending' : row.review_status;
  return { decision, review, newlyFlagged: review === 'pending' && row.review_status === null };
}

/**
 * Flagged by its tool_output, or a rule asking for the panel fired: escalated
 * like at write time (the job checks the plan's calls). A flag at write time
 * was escalated then; a rule that asked then and asks again here makes a
 * second job, which the judge job skips (one automatic judgement per
 * invocation).
 */
export function escalatesToJudge(decision: Decision, mode: string, newlyFlagged: boolean): boolean {
  return escalatesToJudges(decision, mode) && (newlyFlagged || decision.judge);
}

async function loadInvocation(tx: Queryable, tenantId: string, invocationId: number, kek: Uint8Array) {
  const [row] = await tx.query<InvocationRow & Record<string, unknown>>(
    `SELECT agent_key, tool_name, mode, outcome, principal_kind, principal_id, reasons, review_status, output_scanned_at
     FROM invocations WHERE ${BY_ID} FOR UPDATE`,
    [tenantId, invocationId],
  );
  if (!row) return null;
  const content = await tx.query<{
    field: ContentField;
    body: string;
    findings: Finding[] | null;
    sealed: Uint8Array | null;
    sealed_key: Uint8Array | null;
  }>(`SELECT field, body, findings, sealed, sealed_key FROM invocation_content WHERE ${BY_ID}`, [
    tenantId,
    invocationId,
  ]);
  const pending = content.find((c) => c.field === 'tool_output' && c.findings === null);
  // Rows from before sealing (migration 0036) hold the text in body.
  const output =
    pending === undefined
      ? null
      : pending.sealed !== null && pending.sealed_key !== null
        ? openText(kek, tenantId, { sealed: pending.sealed, wrappedKey: pending.sealed_key })
        : pending.body;
  const otherFindings = content
    .filter((c) => c.field !== 'tool_output' && c.findings && c.findings.length > 0)
    .map((c) => ({ field: c.field, findings: c.findings! }));
  return { row, output, otherFindings };
}
