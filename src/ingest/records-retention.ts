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
// transaction (a failed DROP, such as one given up at its lock timeout, rolls
// them back with it): one UPDATE per table for every workspace in the month.
// The counters force row-level security on their owner too, so that UPDATE
// runs as the maintenance role (migration 0216), whose policies let it read
// and update every workspace's counters and nothing else.
import type { Queryable } from '../db/index.ts';
import { invocationTimeSql } from './invocation-time.ts';

const DAY_MS = 86_400_000;

/** The role the counters' UPDATE runs as (migration 0216). */
export const MAINTENANCE_ROLE = 'agent_ledger_maintenance';

/** The time before which records go, for a retention of `days` (undefined: kept forever). */
export function recordsCutoff(days: number | undefined): ((now: Date) => Date | undefined) | undefined {
  return days === undefined ? undefined : (now) => new Date(now.getTime() - days * DAY_MS);
}

/**
 * Runs `sql` (which reads `relation`, only its rows before `before` when
 * given, as $1) as the maintenance role, then switches back. `relation` is a
 * partition (no row-level security of its own): the role is granted to read
 * it first, in this transaction, unless it may already.
 */
async function asMaintenance(tx: Queryable, relation: string, sql: string, before: Date | undefined): Promise<void> {
  // Granted only once to the default partition, which stays (a GRANT rewrites the table's catalogue row each time).
  const [granted] = await tx.query<{ ok: boolean }>("SELECT has_table_privilege($1, $2, 'SELECT') AS ok", [
    MAINTENANCE_ROLE,
    relation,
  ]);
  if (!granted?.ok) await tx.exec(`GRANT SELECT ON ${relation} TO ${MAINTENANCE_ROLE}`);
  const [was] = await tx.query<{ role: string }>(
    "SELECT current_setting('role') AS role, set_config('role', $1, true)",
    [MAINTENANCE_ROLE],
  );
  await tx.query(sql, before === undefined ? [] : [before.toISOString()]);
  await tx.query("SELECT set_config('role', $1, true)", [was!.role]);
}

const rowsOf = (relation: string, before: Date | undefined) =>
  `${relation}${before === undefined ? '' : ' WHERE created_at < $1'}`;

/** Takes the invocations of `relation` out of agent_activity (as the DELETE trigger would), every workspace at once. */
export async function uncountInvocations(tx: Queryable, relation: string, before?: Date): Promise<void> {
  await asMaintenance(
    tx,
    relation,
    `UPDATE agent_activity a SET
       invocations = a.invocations - d.n, pii_invocations = a.pii_invocations - d.pii_n, pii_findings = a.pii_findings - d.pii
     FROM (SELECT tenant_id, agent_key, verdict, mode, outcome, count(*) AS n,
                  count(*) FILTER (WHERE pii_count > 0) AS pii_n, coalesce(sum(pii_count), 0) AS pii
           FROM ${rowsOf(relation, before)} GROUP BY 1, 2, 3, 4, 5) d
     WHERE a.tenant_id = d.tenant_id AND a.agent_key = d.agent_key AND a.verdict = d.verdict
       AND a.mode = d.mode AND a.outcome = d.outcome`,
    before,
  );
}

/** Takes the rogue events of `relation` out of agent_rogue_activity (as the DELETE trigger would), every workspace at once. */
export async function uncountRogueEvents(tx: Queryable, relation: string, before?: Date): Promise<void> {
  await asMaintenance(
    tx,
    relation,
    `UPDATE agent_rogue_activity a SET events = a.events - d.n
     FROM (SELECT tenant_id, agent_key, event_type, count(*) AS n FROM ${rowsOf(relation, before)} GROUP BY 1, 2, 3) d
     WHERE a.tenant_id = d.tenant_id AND a.agent_key = d.agent_key AND a.event_type = d.event_type`,
    before,
  );
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
