import type { Queryable } from '../db/index.ts';
import { claimJobsSql, enqueueJobsSql, JUDGE_JOB, type Job, judgeJobPayload } from '../jobs/index.ts';
import { newSalt, type OpenAppend, type RideAlong, writeRideAlong } from '../ledger/index.ts';
import { epochSql, readEpoch } from '../changes/index.ts';
import type { PersonaFacts } from '../policy/index.ts';
import { invocationTimeSql } from './invocation-time.ts';
import {
  decideAfterScan,
  escalatesToJudge,
  type InvocationRow,
  type OutputScanDeps,
  scanLeaf,
  withOutputFindings,
} from './output-scan.ts';
import type { ScanResult } from './prepare.ts';

// A workspace's scans decided before the log's lock and written under it in
// one statement. Every event of the workspace waits for the transaction in
// front of it, and deciding under the lock (output-scan-many.ts) held it for
// eight statements: a decision arriving meanwhile waited 5-18 ms. Here the
// rows, the change epoch, the policy and the personas are read with the
// texts, the scans decided then, and under the lock one statement (the log's
// own, when it can) claims the jobs and writes texts, verdicts, roll-up rows
// and judges' jobs — guarded:
// it raises (log_expect, SQLSTATE AL001) and writes nothing unless every job
// was still there, every text still waited for its scan, every invocation
// still had the review status it was decided on, and the change epoch (the
// policy, the personas) had not moved. Then it is decided again under the
// lock, as before.

const IDS = '$2::bigint[]';

/** What deciding the scans needs, read before the lock. */
export interface ScanState {
  epoch: number;
  policy: Awaited<ReturnType<OutputScanDeps['policyInTx']>>;
  rows: Map<number, InvocationRow>;
  personas: Map<string, PersonaFacts | undefined>;
}

/**
 * Reads the invocations still unscanned and what decides them: before the
 * lock, in the transaction that reads the texts; under it (`lock`: their rows
 * locked) when they are decided again there.
 */
export async function readScanState(
  tx: Queryable,
  deps: OutputScanDeps,
  tenantId: string,
  ids: readonly number[],
  opts: { lock?: boolean } = {},
): Promise<ScanState> {
  // The epoch first: a policy or persona changed after it moves it, and the write's guard sees that.
  const epoch = await readEpoch(tx, tenantId);
  const rows = await tx.query<InvocationRow & { invocation_id: string | number } & Record<string, unknown>>(
    `SELECT invocation_id, agent_key, tool_name, mode, outcome, principal_kind, principal_id, reasons, review_status,
            output_scanned_at
     FROM invocations
     WHERE tenant_id = $1 AND invocation_id = ANY(${IDS}) AND ${invocationTimeSql('', '$1', IDS)}
       AND output_scanned_at IS NULL${opts.lock ? ' ORDER BY invocation_id FOR UPDATE' : ''}`,
    [tenantId, ids],
  );
  const policy = await deps.policyInTx(tx, tenantId);
  const personas = new Map<string, PersonaFacts | undefined>();
  for (const agent of new Set(rows.map((r) => r.agent_key))) {
    personas.set(agent, await deps.personaInTx(tx, tenantId, agent));
  }
  return { epoch, policy, rows: new Map(rows.map((r) => [Number(r.invocation_id), r])), personas };
}

/** The scans decided on `state`: one plan per unscanned invocation whose text was scanned. */
export function planScans(
  state: ScanState,
  scanned: ReadonlyMap<number, { result: ScanResult; otherFindings: Parameters<typeof withOutputFindings>[0] }>,
) {
  const plans = [];
  for (const [id, row] of state.rows) {
    const s = scanned.get(id);
    if (!s) continue;
    const decided = decideAfterScan(
      state.policy,
      row,
      withOutputFindings(s.otherFindings, s.result.findings),
      state.personas.get(row.agent_key),
    );
    plans.push({ id, row, result: s.result, salt: newSalt(), ...decided });
  }
  return plans;
}

/**
 * Under the lock: the leaves appended, then one guarded statement that claims
 * `jobs` and writes every plan — the log's own statement when this is the last
 * work of its transaction (one round trip less under the lock). Raises AL001,
 * having written nothing, when what the plans were decided on moved.
 */
export async function writePlannedScans(
  tx: Queryable,
  log: OpenAppend,
  now: Date,
  tenantId: string,
  jobs: readonly Job[],
  state: ScanState,
  plans: ReturnType<typeof planScans>,
): Promise<void> {
  const indexes = plans.map((p) => log.add(scanLeaf(p.id, p.salt, p.result, p.decision, state.policy.version), now));
  const judged = plans.filter((p) => escalatesToJudge(p.decision, p.row.mode, p.newlyFlagged));
  const rows: RideAlong = {
    // The guard is the roll-up rows' condition: a data-modifying CTE always runs, and its
    // condition reads the others' counts, so each has run whole before anything commits.
    ctes: `claimed AS (
       ${claimJobsSql('$1', '$3::bigint[]')}
     ), texts AS (
       UPDATE invocation_content c
       SET body = u.body, salt = decode(u.salt, 'hex'), findings = u.findings::jsonb, sealed = NULL, sealed_key = NULL
       FROM unnest(${IDS}, $4::text[], $5::text[], $6::text[]) AS u(id, body, salt, findings)
       WHERE c.tenant_id = $1 AND c.invocation_id = u.id AND c.field = 'tool_output' AND c.findings IS NULL
         AND ${invocationTimeSql('c', '$1', IDS)}
       RETURNING c.invocation_id
     ), verdicts AS (
       UPDATE invocations i
       SET output_scan_verdict = u.verdict, output_scan_reasons = u.reasons::jsonb, output_scanned_at = $7,
           review_status = u.review
       FROM unnest(${IDS}, $8::text[], $9::text[], $10::text[], $11::text[]) AS u(id, verdict, reasons, review, was)
       WHERE i.tenant_id = $1 AND i.invocation_id = u.id AND ${invocationTimeSql('i', '$1', IDS)}
         AND i.output_scanned_at IS NULL AND i.review_status IS NOT DISTINCT FROM u.was
       RETURNING i.invocation_id
     ), judges AS (
       -- The judges module's function (migration 0120): whether flags escalate to its panel.
       ${enqueueJobsSql('$1', '$13', '$14', 'judge_panel_configured($1)')}
     ), rollups AS (
       -- When each output's findings became final, for readers that fold scans by log position (reports' roll-ups).
       INSERT INTO output_scans (tenant_id, log_index, invocation_id)
       SELECT $1, x.log_index, x.id FROM unnest($12::bigint[], ${IDS}) AS x(log_index, id)
       WHERE (SELECT log_expect(
         (SELECT count(*) FROM claimed) = $15 AND (SELECT count(*) FROM texts) = $16
           AND (SELECT count(*) FROM verdicts) = $16 AND ${epochSql('$1')} = $17,
         'the scans were decided on a state that has moved'))
     )`,
    params: [
      tenantId,
      plans.map((p) => p.id),
      jobs.map((j) => j.job_id),
      plans.map((p) => p.result.stored),
      plans.map((p) => Buffer.from(p.salt).toString('hex')),
      plans.map((p) => JSON.stringify(p.result.storedFindings)),
      now,
      plans.map((p) => p.decision.verdict),
      plans.map((p) => JSON.stringify(p.decision.reasons)),
      plans.map((p) => p.review),
      plans.map((p) => p.row.review_status),
      indexes,
      JUDGE_JOB,
      judged.map((p) => JSON.stringify(judgeJobPayload(p.id, p.decision))),
      jobs.length,
      plans.length,
      state.epoch,
    ],
  };
  if (log.lastWork && plans.length > 0) log.rideAlong(rows);
  else await writeRideAlong(tx, rows);
}
