// The deployment's records retention (RECORDS_RETENTION_DAYS): invocations,
// their texts and rogue events are dropped by whole months once the month is
// past it — one setting for every workspace, so a month is past it for all of
// them at once. The log's leaves stay: proofs, evidence and earlier reports
// still verify; usage_daily stays too, so a dropped invocation's id is still
// known to have been given out, and the read side answers it as expired
// rather than unknown.
//
// The per-agent counters (agent_activity, agent_rogue_activity) are kept by
// triggers on the parents' INSERT and DELETE; a partition's DROP fires
// neither, so its rows are taken out of the counters first, in the same
// transaction, one workspace at a time under its row-level security.
import type { Queryable } from '../db/index.ts';
import { invocationTimeSql } from './invocation-time.ts';

const DAY_MS = 86_400_000;

/** The time before which records go, for a retention of `days` (undefined: kept forever). */
export function recordsCutoff(days: number | undefined): ((now: Date) => Date | undefined) | undefined {
  return days === undefined ? undefined : (now) => new Date(now.getTime() - days * DAY_MS);
}

/** Runs `fn` for each workspace with rows in `relation` (before `before`), scoped to it. */
async function perWorkspace(
  tx: Queryable,
  relation: string,
  before: Date | undefined,
  fn: (tenantId: string, where: string, params: unknown[]) => Promise<void>,
): Promise<void> {
  const cond = before === undefined ? 'true' : 'created_at < $1';
  const tenants = await tx.query<{ tenant_id: string }>(
    `SELECT DISTINCT tenant_id FROM ${relation} WHERE ${cond}`,
    before === undefined ? [] : [before.toISOString()],
  );
  for (const { tenant_id } of tenants) {
    await tx.query("SELECT set_config('app.tenant_id', $1, true)", [tenant_id]);
    await fn(
      tenant_id,
      `tenant_id = $1${before === undefined ? '' : ' AND created_at < $2'}`,
      before === undefined ? [tenant_id] : [tenant_id, before.toISOString()],
    );
  }
  await tx.query("SELECT set_config('app.tenant_id', '', true)");
}

/** Takes the invocations of `relation` out of agent_activity (as the DELETE trigger would). */
export async function uncountInvocations(tx: Queryable, relation: string, before?: Date): Promise<void> {
  await perWorkspace(tx, relation, before, async (_tenant, where, params) => {
    await tx.query(
      `UPDATE agent_activity a SET
         invocations = a.invocations - d.n, pii_invocations = a.pii_invocations - d.pii_n, pii_findings = a.pii_findings - d.pii
       FROM (SELECT tenant_id, agent_key, verdict, mode, outcome, count(*) AS n,
                    count(*) FILTER (WHERE pii_count > 0) AS pii_n, coalesce(sum(pii_count), 0) AS pii
             FROM ${relation} WHERE ${where} GROUP BY 1, 2, 3, 4, 5) d
       WHERE a.tenant_id = d.tenant_id AND a.agent_key = d.agent_key AND a.verdict = d.verdict
         AND a.mode = d.mode AND a.outcome = d.outcome`,
      params,
    );
  });
}

/** Takes the rogue events of `relation` out of agent_rogue_activity (as the DELETE trigger would). */
export async function uncountRogueEvents(tx: Queryable, relation: string, before?: Date): Promise<void> {
  await perWorkspace(tx, relation, before, async (_tenant, where, params) => {
    await tx.query(
      `UPDATE agent_rogue_activity a SET events = a.events - d.n
       FROM (SELECT tenant_id, agent_key, event_type, count(*) AS n FROM ${relation} WHERE ${where} GROUP BY 1, 2, 3) d
       WHERE a.tenant_id = d.tenant_id AND a.agent_key = d.agent_key AND a.event_type = d.event_type`,
      params,
    );
  });
}

/**
 * Whether invocation `id` of the workspace was recorded (a day gave it out)
 * but its row is gone: dropped by the records retention, the only way an
 * invocation row goes.
 */
export async function invocationExpired(tx: Queryable, tenantId: string, id: number): Promise<boolean> {
  const [row] = await tx.query<{ given: boolean; present: boolean }>(
    `SELECT ingest_read.invocations_from($1, ARRAY[$2::bigint]) IS NOT NULL AS given,
            EXISTS (SELECT 1 FROM ingest_read.invocations i WHERE i.tenant_id = $1 AND i.invocation_id = $2
                      AND ${invocationTimeSql('i', '$1', 'ARRAY[$2::bigint]')}) AS present`,
    [tenantId, id],
  );
  return row!.given && !row!.present;
}
