import type { Queryable } from '../db/index.ts';
import { categoryOf } from '../detect/index.ts';
import { entryRange, type LogArchive } from '../ledger/index.ts';
import { policyVersions } from '../policy/index.ts';
import {
  bump,
  emptyTotals,
  normalizeTotals,
  OPEN_ITEMS_LIMIT,
  type Period,
  type ReportFacts,
  type ReportTotals,
} from './facts.ts';
import { policiesInForce } from './recount.ts';
import { periodCounts, rogueGroups, splitPeriod } from './rollups.ts';

// The service's side of a compliance report: the facts of a period computed
// from the tables, inside one snapshot that also fixes the log size they
// describe (the caller signs a checkpoint of exactly that size). `archive`:
// finds the period's entries among those pruned from the database too.

export async function factsFromTables(
  tx: Queryable,
  tenantId: string,
  period: Period,
  logSize: number,
  archive?: LogArchive,
): Promise<ReportFacts> {
  const args = [tenantId, period.from, period.to, logSize];
  // Rows whose leaf lies beyond logSize are not yet part of the signed log the report states.
  const invWhere = 'i.tenant_id = $1 AND i.created_at >= $2 AND i.created_at < $3 AND i.log_index < $4';
  const totals = await periodTotals(tx, tenantId, period, logSize);

  const reviewRows = await tx.query<{ review_status: 'pending' | 'approved' | 'rejected'; n: number }>(
    `SELECT review_status, count(*)::int AS n FROM ingest_read.invocations i WHERE ${invWhere} AND review_status IS NOT NULL GROUP BY 1`,
    args,
  );
  const open = await tx.query<{ invocation_id: number }>(
    `SELECT invocation_id FROM ingest_read.invocations i WHERE ${invWhere} AND review_status = 'pending' ORDER BY invocation_id LIMIT $5`,
    [...args, OPEN_ITEMS_LIMIT],
  );
  const reviews = { pending: 0, approved: 0, rejected: 0, open_items: open.map((o) => o.invocation_id) };
  for (const r of reviewRows) reviews[r.review_status] = r.n;

  const versions = await policyVersions(tx, tenantId);
  const entries = await entryRange(tx, tenantId, period.from, period.to, logSize, archive);
  return {
    totals,
    reviews,
    policy_versions: policiesInForce(
      versions.map((v) => ({ version: v.version, time: v.created_at.toISOString() })),
      period,
    ),
    entries,
  };
}

/** The totals of a period (invocations, rogue events, findings), read as of logSize. */
export async function periodTotals(
  tx: Queryable,
  tenantId: string,
  period: Period,
  logSize: number,
): Promise<ReportTotals> {
  const totals = emptyTotals();
  // Whole UTC days from the daily roll-ups, the rest counted live (rollups.ts): the same figures as counting every row.
  const split = await splitPeriod(tx, tenantId, new Date(period.from), new Date(period.to));
  const counts = await periodCounts(tx, tenantId, split, logSize);
  for (const g of counts.invocations) {
    totals.invocations += g.n;
    bump(totals.invocations_by_agent, g.agent_key, g.n);
    bump(totals.invocations_by_verdict, g.verdict, g.n);
    bump(totals.invocations_by_mode, g.mode, g.n);
  }
  for (const r of await rogueGroups(tx, tenantId, split, logSize)) {
    totals.rogue_events += r.n;
    bump(totals.rogue_events_by_type, r.event_type, r.n);
  }
  for (const f of counts.findings) {
    const c = categoryOf(f.type);
    if (c === 'injection') totals.injection_findings += f.n;
    else bump(c === 'secret' ? totals.secret_findings_by_type : totals.pii_findings_by_type, f.type, f.n);
  }
  return normalizeTotals(totals);
}
