import { type BundleEntry, type Failure, openCheckpoint, parseVerifierKey, verifyBundle } from '../ledger/index.ts';
import { compareFacts, type Period, recountFacts, type ReportFacts, type ReportPseudonyms } from '../reports/index.ts';

export interface ReportFile extends ReportFacts {
  report: string;
  tenant_id: string;
  period: Period;
  evidence: { origin: string; verifier_key: string; checkpoint: string; tree_size: number };
  /** Since format_version 2: openings of the pseudonyms v2 leaves name agents and rogue event types by. */
  pseudonyms?: Partial<ReportPseudonyms>;
}

/** Parses a report file; returns an error message when it is not one. */
export function parseReport(text: string): ReportFile | string {
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    return 'the report is not JSON (download it with format=json)';
  }
  const o = r as Partial<ReportFile>;
  if (
    o?.report !== 'agent-ledger compliance report' ||
    typeof o.period?.from !== 'string' ||
    typeof o.period?.to !== 'string' ||
    typeof o.evidence?.checkpoint !== 'string' ||
    !Number.isSafeInteger(o.evidence?.tree_size) ||
    typeof o.totals !== 'object' ||
    typeof o.reviews !== 'object' ||
    !Array.isArray(o.policy_versions) ||
    (o.pseudonyms !== undefined && (typeof o.pseudonyms !== 'object' || o.pseudonyms === null))
  ) {
    return 'the file is not an agent-ledger compliance report';
  }
  return o as ReportFile;
}

/**
 * Checks a report against log entries (at least up to the report's checkpoint
 * size) with the given verifier keys. Returns the failures, each naming what
 * disagrees.
 */
export function checkReport(report: ReportFile, keys: readonly string[], entries: readonly BundleEntry[]): Failure[] {
  const failures: Failure[] = [];
  let size: number;
  try {
    const { checkpoint } = openCheckpoint(report.evidence.checkpoint, keys.map(parseVerifierKey));
    size = checkpoint.size;
    if (checkpoint.origin !== report.evidence.origin || !checkpoint.origin.endsWith(`/${report.tenant_id}`)) {
      failures.push({
        kind: 'report',
        message: `report: its checkpoint is for ${checkpoint.origin}, not workspace ${report.tenant_id}`,
      });
    }
  } catch (err) {
    return [
      { kind: 'report', message: `report: its checkpoint does not verify with the key: ${(err as Error).message}` },
    ];
  }
  if (size !== report.evidence.tree_size) {
    failures.push({
      kind: 'report',
      message: `report: tree_size ${report.evidence.tree_size} is not its checkpoint's size ${size}`,
    });
  }
  const cited = entries.filter((e) => e.index < size);
  for (const f of verifyBundle({
    verifierKeys: [...keys],
    checkpoint: report.evidence.checkpoint,
    entries: cited,
    complete: true,
  })) {
    failures.push({ ...f, message: `report checkpoint: ${f.message}` });
  }
  if (failures.length > 0) return failures;
  for (const d of compareFacts(
    report,
    recountFacts(
      [...cited].sort((a, b) => a.index - b.index),
      report.period,
      report.pseudonyms,
    ),
  )) {
    failures.push({ kind: 'report', message: `report: ${d}` });
  }
  return failures;
}
