import { type Db, pgErrorCode, type Queryable } from '../db/index.ts';
import { enqueue, type JobBatchHandler, JUDGE_JOB, judgeJobPayload } from '../jobs/index.ts';
import type { OpenAppend } from '../ledger/index.ts';
import type { ContentField, FieldFindings, Finding } from '../policy/index.ts';
import { invocationTimeSql } from './invocation-time.ts';
import { escalatesToJudge, type OutputScanDeps, scanLeaf } from './output-scan.ts';
import { planScans, readScanState, writePlannedScans } from './output-scan-ahead.ts';
import type { ScanResult } from './prepare.ts';
import { openText } from './sealed-output.ts';

// The tool_output scans of one workspace's due jobs, together. A workspace's
// log appends one transaction at a time, and every event of the workspace
// waits for the transaction in front of it: scans one at a time (outputScanHandler)
// held it once each, with eight statements and the scan itself inside. Here
// the texts are read, opened and scanned before the transaction; inside it,
// a fixed handful of statements for all of them, each text written only if
// it is still waiting for its scan (an erasure or another node may have come
// first). They are decided before the transaction too and written by one
// guarded statement (output-scan-ahead.ts); only when what they were decided
// on moved are they decided again inside it, on the invocation's row, the
// policy and the persona in force then.

const IDS = '$2::bigint[]';

interface Scanned {
  result: ScanResult;
  /** The findings of the invocation's other texts. */
  otherFindings: FieldFindings[];
}

/** Runs the scans of several tool_output_scan jobs of one workspace in one log transaction. */
export function outputScanBatchHandler(deps: OutputScanDeps & { db: Db }): JobBatchHandler {
  return async (jobs, claim) => {
    const tenantId = jobs[0]!.tenant_id;
    const ids = [...new Set(jobs.map((j) => Number(j.payload.invocation_id)))];
    // Outside the log's lock: the costly part (reading, opening and scanning the texts) and what decides them.
    const { texts, state } = await deps.db.withTenant(tenantId, async (tx) => ({
      texts: await pendingOutputs(tx, tenantId, ids, deps.outputKek),
      state: await readScanState(tx, deps, tenantId, ids),
    }));
    const scanned = new Map<number, Scanned>();
    for (const [id, t] of texts) {
      scanned.set(id, { result: deps.scan('tool_output', t.output), otherFindings: t.otherFindings });
      // A turn of the event loop between texts (each up to 32,000 characters): requests are served meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const plans = planScans(state, scanned);
    try {
      await deps.writer.submit(
        tenantId,
        (tx, log) => writePlannedScans(tx, log, deps.now(), tenantId, jobs, state, plans),
        { background: true },
      );
      return;
    } catch (err) {
      if (pgErrorCode(err) !== 'AL001') throw err;
    }
    // What they were decided on moved (a person's review, a policy, another node's scan): decided again under the lock.
    await deps.writer.submit(
      tenantId,
      async (tx, log) => {
        const claimed = await claim(tx);
        const todo = [
          ...new Set(jobs.filter((j) => claimed.has(Number(j.job_id))).map((j) => Number(j.payload.invocation_id))),
        ].filter((id) => scanned.has(id));
        if (todo.length === 0) return;
        const { policyVersion, plans } = await decideScans(tx, deps, tenantId, todo, scanned);
        if (plans.length > 0) await writeScans(tx, log, deps, tenantId, plans, policyVersion);
      },
      { background: true },
    );
  };
}

type ScanPlan = Awaited<ReturnType<typeof decideScans>>['plans'][number];

/** Each still unscanned invocation's row (locked), decided again with its scan's findings by the policy and persona in force. */
async function decideScans(
  tx: Queryable,
  deps: OutputScanDeps,
  tenantId: string,
  todo: readonly number[],
  scanned: ReadonlyMap<number, Scanned>,
) {
  const state = await readScanState(tx, deps, tenantId, todo, { lock: true });
  return { policyVersion: state.policy.version, plans: planScans(state, scanned) };
}

/** Writes the scans whose texts still wait for them: the redacted texts, the verdicts, the judges' jobs, the leaves. */
async function writeScans(
  tx: Queryable,
  log: OpenAppend,
  deps: OutputScanDeps,
  tenantId: string,
  plans: readonly ScanPlan[],
  policyVersion: number,
): Promise<void> {
  // The redacted text replaces the sealed one (ciphertext and wrapped key go: crypto-shredding), where it
  // is still waiting for its scan; an erasure that came first left its findings set, and it is skipped.
  const written = await tx.query<{ invocation_id: string | number }>(
    `UPDATE invocation_content c
     SET body = u.body, salt = decode(u.salt, 'hex'), findings = u.findings::jsonb, sealed = NULL, sealed_key = NULL
     FROM unnest(${IDS}, $3::text[], $4::text[], $5::text[]) AS u(id, body, salt, findings)
     WHERE c.tenant_id = $1 AND c.invocation_id = u.id AND c.field = 'tool_output' AND c.findings IS NULL
       AND ${invocationTimeSql('c', '$1', IDS)}
     RETURNING c.invocation_id`,
    [
      tenantId,
      plans.map((p) => p.id),
      plans.map((p) => p.result.stored),
      plans.map((p) => Buffer.from(p.salt).toString('hex')),
      plans.map((p) => JSON.stringify(p.result.storedFindings)),
    ],
  );
  const done = new Set(written.map((w) => Number(w.invocation_id)));
  const kept = plans.filter((p) => done.has(p.id));
  if (kept.length === 0) return;
  const now = deps.now();
  await tx.query(
    `UPDATE invocations i
     SET output_scan_verdict = u.verdict, output_scan_reasons = u.reasons::jsonb, output_scanned_at = $3,
         review_status = u.review
     FROM unnest(${IDS}, $4::text[], $5::text[], $6::text[]) AS u(id, verdict, reasons, review)
     WHERE i.tenant_id = $1 AND i.invocation_id = u.id AND ${invocationTimeSql('i', '$1', IDS)}`,
    [
      tenantId,
      kept.map((p) => p.id),
      now,
      kept.map((p) => p.decision.verdict),
      kept.map((p) => JSON.stringify(p.decision.reasons)),
      kept.map((p) => p.review),
    ],
  );
  const judged = kept.filter((p) => escalatesToJudge(p.decision, p.row.mode, p.newlyFlagged));
  if (judged.length > 0) {
    const [panel] = await tx.query<{ judged: boolean }>('SELECT judge_panel_configured($1) AS judged', [tenantId]);
    if (panel!.judged) {
      await enqueue(
        tx,
        tenantId,
        JUDGE_JOB,
        judged.map((p) => judgeJobPayload(p.id, p.decision)),
      );
    }
  }
  const indexes = kept.map((p) => log.add(scanLeaf(p.id, p.salt, p.result, p.decision, policyVersion), now));
  // When each output's findings became final, for readers that fold scans by log position (reports' roll-ups).
  await tx.query(
    `INSERT INTO output_scans (tenant_id, log_index, invocation_id)
     SELECT $1, x.log_index, x.invocation_id FROM unnest($2::bigint[], $3::bigint[]) AS x(log_index, invocation_id)`,
    [tenantId, indexes, kept.map((p) => p.id)],
  );
}

/** The tool_outputs still waiting for their scan, opened, with the findings of each invocation's other texts. */
async function pendingOutputs(
  tx: Queryable,
  tenantId: string,
  ids: readonly number[],
  kek: Uint8Array,
): Promise<Map<number, { output: string; otherFindings: FieldFindings[] }>> {
  const rows = await tx.query<{
    invocation_id: string | number;
    field: ContentField;
    body: string | null;
    findings: Finding[] | null;
    sealed: Uint8Array | null;
    sealed_key: Uint8Array | null;
  }>(
    `SELECT invocation_id, field, body, findings, sealed, sealed_key FROM invocation_content
     WHERE tenant_id = $1 AND invocation_id = ANY(${IDS}) AND ${invocationTimeSql('', '$1', IDS)}`,
    [tenantId, ids],
  );
  const out = new Map<number, { output: string; otherFindings: FieldFindings[] }>();
  const other = new Map<number, FieldFindings[]>();
  for (const r of rows) {
    const id = Number(r.invocation_id);
    if (r.field === 'tool_output') {
      if (r.findings !== null) continue;
      // Rows from before sealing (migration 0036) hold the text in body.
      const output =
        r.sealed !== null && r.sealed_key !== null
          ? openText(kek, tenantId, { sealed: r.sealed, wrappedKey: r.sealed_key })
          : r.body;
      if (output !== null) out.set(id, { output, otherFindings: [] });
    } else if (r.findings && r.findings.length > 0) {
      const list = other.get(id) ?? [];
      list.push({ field: r.field, findings: r.findings });
      other.set(id, list);
    }
  }
  for (const [id, o] of out) o.otherFindings = other.get(id) ?? [];
  return out;
}
