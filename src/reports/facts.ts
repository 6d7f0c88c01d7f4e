// What a compliance report states about a period. The service computes it
// from its tables; `agent-ledger verify --report` recomputes it from the log's
// leaves alone (recount.ts). Both produce this shape, so a report verifies
// exactly when the tables and the tamper-evident log agree.

export interface Period {
  from: string;
  to: string;
}

export interface ReportTotals {
  invocations: number;
  invocations_by_agent: Record<string, number>;
  invocations_by_verdict: Record<string, number>;
  invocations_by_mode: Record<string, number>;
  rogue_events: number;
  rogue_events_by_type: Record<string, number>;
  pii_findings_by_type: Record<string, number>;
  secret_findings_by_type: Record<string, number>;
  injection_findings: number;
}

export interface ReportReviews {
  pending: number;
  approved: number;
  rejected: number;
  /** Invocation ids still pending review, oldest first, at most OPEN_ITEMS_LIMIT. */
  open_items: number[];
}

export interface PolicyInForce {
  version: number;
  in_force_from: string | null;
  in_force_until: string | null;
}

export interface ReportFacts {
  totals: ReportTotals;
  reviews: ReportReviews;
  policy_versions: PolicyInForce[];
  /** Log entries whose time falls in the period: [start, end), or null when there are none. */
  entries: { start: number; end: number } | null;
}

/** Openings of pseudonyms (value → base64 salt) by kind; see ledger/pseudonyms.ts. */
export interface ReportPseudonyms {
  agent: Record<string, string>;
  rogue_event_type: Record<string, string>;
}

export const OPEN_ITEMS_LIMIT = 1000;

export function inPeriod(iso: string, p: Period): boolean {
  const t = Date.parse(iso);
  return t >= Date.parse(p.from) && t < Date.parse(p.to);
}

export function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

/** Sorted keys, so that two computations of the same facts serialize alike. */
export function sortKeys(map: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function emptyTotals(): ReportTotals {
  return {
    invocations: 0,
    invocations_by_agent: {},
    invocations_by_verdict: {},
    invocations_by_mode: {},
    rogue_events: 0,
    rogue_events_by_type: {},
    pii_findings_by_type: {},
    secret_findings_by_type: {},
    injection_findings: 0,
  };
}

export function normalizeTotals(t: ReportTotals): ReportTotals {
  return {
    ...t,
    invocations_by_agent: sortKeys(t.invocations_by_agent),
    invocations_by_verdict: sortKeys(t.invocations_by_verdict),
    invocations_by_mode: sortKeys(t.invocations_by_mode),
    rogue_events_by_type: sortKeys(t.rogue_events_by_type),
    pii_findings_by_type: sortKeys(t.pii_findings_by_type),
    secret_findings_by_type: sortKeys(t.secret_findings_by_type),
  };
}

/** The differences between what a report states and what was recomputed, one line each. */
export function compareFacts(stated: ReportFacts, recomputed: ReportFacts): string[] {
  const out: string[] = [];
  const s = normalizeTotals(stated.totals);
  const r = normalizeTotals(recomputed.totals);
  for (const key of Object.keys(r) as Array<keyof ReportTotals>) {
    if (JSON.stringify(s[key]) !== JSON.stringify(r[key])) {
      out.push(`totals.${key}: the report says ${JSON.stringify(s[key])}, the log says ${JSON.stringify(r[key])}`);
    }
  }
  for (const key of ['pending', 'approved', 'rejected', 'open_items'] as const) {
    if (JSON.stringify(stated.reviews[key]) !== JSON.stringify(recomputed.reviews[key])) {
      out.push(
        `reviews.${key}: the report says ${JSON.stringify(stated.reviews[key])}, the log says ${JSON.stringify(recomputed.reviews[key])}`,
      );
    }
  }
  if (JSON.stringify(stated.policy_versions) !== JSON.stringify(recomputed.policy_versions)) {
    out.push(
      `policy_versions: the report says ${JSON.stringify(stated.policy_versions)}, the log says ${JSON.stringify(recomputed.policy_versions)}`,
    );
  }
  if (JSON.stringify(stated.entries) !== JSON.stringify(recomputed.entries)) {
    out.push(
      `entries: the report says ${JSON.stringify(stated.entries)}, the log says ${JSON.stringify(recomputed.entries)}`,
    );
  }
  return out;
}
