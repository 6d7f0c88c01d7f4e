import type { ComplianceReport } from './report.ts';

/** RFC 4180 field: quoted when it holds a comma, quote or line break; formula-leading text neutralized. */
function field(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  // A spreadsheet would run a cell starting with = + - @ as a formula (CSV injection).
  if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The report as flat rows `section,key,value`, one fact per line, for spreadsheets. */
export function reportCsv(r: ComplianceReport): string {
  const rows: Array<[string, string, string | number | null]> = [
    ['report', 'tenant_id', r.tenant_id],
    ['report', 'period_from', r.period.from],
    ['report', 'period_to', r.period.to],
    ['report', 'generated_at', r.generated_at],
    ['totals', 'invocations', r.totals.invocations],
    ['totals', 'rogue_events', r.totals.rogue_events],
    ['totals', 'injection_findings', r.totals.injection_findings],
  ];
  const maps: Array<[string, Record<string, number>]> = [
    ['invocations_by_agent', r.totals.invocations_by_agent],
    ['invocations_by_verdict', r.totals.invocations_by_verdict],
    ['invocations_by_mode', r.totals.invocations_by_mode],
    ['rogue_events_by_type', r.totals.rogue_events_by_type],
    ['pii_findings_by_type', r.totals.pii_findings_by_type],
    ['secret_findings_by_type', r.totals.secret_findings_by_type],
  ];
  for (const [section, m] of maps) for (const [k, v] of Object.entries(m)) rows.push([section, k, v]);
  rows.push(
    ['reviews', 'pending', r.reviews.pending],
    ['reviews', 'approved', r.reviews.approved],
    ['reviews', 'rejected', r.reviews.rejected],
  );
  for (const id of r.reviews.open_items) rows.push(['open_items', 'invocation_id', id]);
  for (const p of r.policy_versions)
    rows.push(['policy_versions', String(p.version), `${p.in_force_from ?? 'start'} .. ${p.in_force_until ?? 'now'}`]);
  rows.push(
    ['evidence', 'origin', r.evidence.origin],
    ['evidence', 'verifier_key', r.evidence.verifier_key],
    ['evidence', 'tree_size', r.evidence.tree_size],
    ['evidence', 'entries_start', r.entries?.start ?? null],
    ['evidence', 'entries_end', r.entries?.end ?? null],
    ['evidence', 'checkpoint', r.evidence.checkpoint],
  );
  return `section,key,value\r\n${rows.map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}
