import type { ComplianceReport } from './report.ts';

// CSV injection (OWASP "CSV Injection"): a spreadsheet runs a cell whose text
// starts with = + - @ (or a tab or carriage return before one) as a formula.
// A cell can start anywhere a spreadsheet may split a line: besides this
// file's commas, at the semicolons, tabs and pipes other locales and import
// dialogs use, and at line breaks; leading spaces and quotes may be dropped
// first. So every such start inside a string is neutralized with a ' (which
// shows the text and runs nothing), whichever separator a reader picks, and a
// string holding any separator is quoted so readers that honour RFC 4180
// quoting keep it one cell. Numbers are ours, never text: -3 stays a number.

/**
 * Before a character that could lead a formula, where a spreadsheet may start
 * a cell: the start of the text or after a separator, past spaces and double
 * quotes (a ' there already makes the cell text). Zero-width, so a tab or
 * carriage return is both a separator and a lead; the lookahead comes first,
 * so the lookbehind runs only at lead characters and the scan stays linear.
 */
const CELL_START = /(?=[=+\-@\t\r])(?<=(?:^|[,;|\t\r\n])[ "]*)/g;
/** Characters some reader may split at or that RFC 4180 requires quoting for. */
const NEEDS_QUOTES = /[",;|\t\r\n]/;

/** A string with a ' before every character that could lead a formula cell. */
export function neutralizeFormulas(s: string): string {
  return s.replace(CELL_START, "'");
}

/** RFC 4180 field: strings neutralized against formulas, quoted when they hold a separator, quote or line break. */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  const s = neutralizeFormulas(v);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
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
  return `section,key,value\r\n${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}
