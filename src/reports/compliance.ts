import type { Queryable } from '../db/index.ts';
import { categoryOf } from '../detect/index.ts';
import { entryRange } from '../ledger/index.ts';
import { policyVersions } from '../policy/index.ts';
import { bump, emptyTotals, normalizeTotals, OPEN_ITEMS_LIMIT, type Period, type ReportFacts } from './facts.ts';
import { policiesInForce } from './recount.ts';

// The service's side of a compliance report: the facts of a period computed
// from the tables, inside one snapshot that also fixes the log size they
// describe (the caller signs a checkpoint of exactly that size).

export async function factsFromTables(
  tx: Queryable,
  tenantId: string,
  period: Period,
  logSize: number,
): Promise<ReportFacts> {
  const args = [tenantId, period.from, period.to, logSize];
  // Rows whose leaf lies beyond logSize are not yet part of the signed log the report states.
  const invWhere = 'i.tenant_id = $1 AND i.created_at >= $2 AND i.created_at < $3 AND i.log_index < $4';
  const totals = emptyTotals();

  const groups = await tx.query<{ agent_key: string; verdict: string; mode: string; n: number }>(
    `SELECT agent_key, verdict, mode, count(*)::int AS n FROM ingest_read.invocations i WHERE ${invWhere} GROUP BY 1, 2, 3`,
    args,
  );
  for (const g of groups) {
    totals.invocations += g.n;
    bump(totals.invocations_by_agent, g.agent_key, g.n);
    bump(totals.invocations_by_verdict, g.verdict, g.n);
    bump(totals.invocations_by_mode, g.mode, g.n);
  }

  const rogue = await tx.query<{ event_type: string; n: number }>(
    `SELECT event_type, count(*)::int AS n FROM ingest_read.rogue_events
     WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3 AND log_index < $4 GROUP BY 1`,
    args,
  );
  for (const r of rogue) {
    totals.rogue_events += r.n;
    bump(totals.rogue_events_by_type, r.event_type, r.n);
  }

  const findings = await tx.query<{ type: string; n: number }>(
    `SELECT f->>'type' AS type, count(*)::int AS n
     FROM ingest_read.invocations i
     JOIN ingest_read.invocation_content c ON c.tenant_id = i.tenant_id AND c.invocation_id = i.invocation_id
     CROSS JOIN LATERAL jsonb_array_elements(COALESCE(c.findings, '[]'::jsonb)) AS f
     WHERE ${invWhere} GROUP BY 1`,
    args,
  );
  for (const f of findings) {
    const c = categoryOf(f.type);
    if (c === 'injection') totals.injection_findings += f.n;
    else bump(c === 'secret' ? totals.secret_findings_by_type : totals.pii_findings_by_type, f.type, f.n);
  }

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
  const entries = await entryRange(tx, tenantId, period.from, period.to, logSize);
  return {
    totals: normalizeTotals(totals),
    reviews,
    policy_versions: policiesInForce(
      versions.map((v) => ({ version: v.version, time: v.created_at.toISOString() })),
      period,
    ),
    entries,
  };
}
