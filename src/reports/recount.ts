import { categoryOf } from '../detect/index.ts';
import { pseudonymIndex } from '../ledger/index.ts';
import {
  bump,
  emptyTotals,
  inPeriod,
  normalizeTotals,
  OPEN_ITEMS_LIMIT,
  type Period,
  type PolicyInForce,
  type ReportFacts,
  type ReportPseudonyms,
} from './facts.ts';

type Leaf = Record<string, unknown> & { kind: string; time: string };
type FindingCounts = Record<string, Record<string, number>>;

function addFindings(
  totals: ReturnType<typeof emptyTotals>,
  byField: FindingCounts | Record<string, number> | undefined,
  nested: boolean,
) {
  if (!byField) return;
  const maps = nested ? Object.values(byField as FindingCounts) : [byField as Record<string, number>];
  for (const counts of maps) {
    for (const [type, n] of Object.entries(counts)) {
      const c = categoryOf(type);
      if (c === 'injection') totals.injection_findings += n;
      else bump(c === 'secret' ? totals.secret_findings_by_type : totals.pii_findings_by_type, type, n);
    }
  }
}

/**
 * The facts of a period, from the leaves of a log alone (entries 0..size-1 in
 * order). This is the auditor's side of a compliance report. Leaves of format
 * v2 name agents and rogue event types by pseudonym: those the report opens
 * are counted under their value, any other under the pseudonym itself (so a
 * report that leaves one out disagrees with the log). v1 leaves (no `v`) name
 * them in clear.
 */
export function recountFacts(
  entries: ReadonlyArray<{ index: number; leaf: string }>,
  period: Period,
  openings?: Partial<ReportPseudonyms>,
): ReportFacts {
  const agents = pseudonymIndex(openings?.agent);
  const types = pseudonymIndex(openings?.rogue_event_type);
  const v2 = (leaf: Leaf) => leaf.v !== undefined;
  const totals = emptyTotals();
  const flagged = new Map<number, boolean>(); // invocation id → in the review queue (before decisions)
  const mode = new Map<number, string>();
  const decided = new Map<number, 'approved' | 'rejected'>();
  const inRange = new Set<number>();
  const policies: Array<{ version: number; time: string }> = [];
  let start: number | null = null;
  let end: number | null = null;

  for (const e of entries) {
    const leaf = JSON.parse(e.leaf) as Leaf;
    const inside = inPeriod(leaf.time, period);
    if (inside) {
      start ??= e.index;
      end = e.index + 1;
    }
    switch (leaf.kind) {
      case 'invocation': {
        const id = leaf.invocation_id as number;
        mode.set(id, leaf.mode as string);
        flagged.set(id, leaf.verdict === 'flag_for_review' && leaf.mode !== 'shadow');
        if (!inside) break;
        inRange.add(id);
        totals.invocations++;
        const agent = v2(leaf)
          ? (agents.get(leaf.agent as string) ?? (leaf.agent as string))
          : (leaf.agent_key as string);
        bump(totals.invocations_by_agent, agent);
        bump(totals.invocations_by_verdict, leaf.verdict as string);
        bump(totals.invocations_by_mode, leaf.mode as string);
        addFindings(totals, leaf.findings as FindingCounts, true);
        break;
      }
      case 'tool_output_scan': {
        const id = leaf.invocation_id as number;
        if (leaf.verdict === 'flag_for_review' && mode.get(id) !== 'shadow') flagged.set(id, true);
        if (inRange.has(id)) addFindings(totals, leaf.findings as Record<string, number>, false);
        break;
      }
      case 'review': {
        const id = leaf.invocation_id as number;
        decided.set(id, leaf.decision === 'approve' ? 'approved' : 'rejected');
        break;
      }
      case 'rogue': {
        if (!inside) break;
        totals.rogue_events++;
        const type = v2(leaf) ? (types.get(leaf.type as string) ?? (leaf.type as string)) : (leaf.event_type as string);
        bump(totals.rogue_events_by_type, type);
        break;
      }
      case 'policy_change':
        policies.push({ version: leaf.version as number, time: leaf.time });
        break;
      default:
        break;
    }
  }

  const reviews = { pending: 0, approved: 0, rejected: 0, open_items: [] as number[] };
  for (const id of [...inRange].sort((a, b) => a - b)) {
    const d = decided.get(id);
    if (d) reviews[d]++;
    else if (flagged.get(id)) {
      reviews.pending++;
      if (reviews.open_items.length < OPEN_ITEMS_LIMIT) reviews.open_items.push(id);
    }
  }
  return {
    totals: normalizeTotals(totals),
    reviews,
    policy_versions: policiesInForce(policies, period),
    entries: start === null || end === null ? null : { start, end },
  };
}

/** Versions in force at some time in the period; version 0 is the built-in default before the first. */
export function policiesInForce(
  versions: ReadonlyArray<{ version: number; time: string }>,
  period: Period,
): PolicyInForce[] {
  const sorted = [{ version: 0, time: null as string | null }, ...[...versions].sort((a, b) => a.version - b.version)];
  const out: PolicyInForce[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const from = sorted[i]!.time;
    const until = sorted[i + 1]?.time ?? null;
    const startsBeforeEnd = from === null || Date.parse(from) < Date.parse(period.to);
    const endsAfterStart = until === null || Date.parse(until) > Date.parse(period.from);
    if (startsBeforeEnd && endsAfterStart) {
      out.push({ version: sorted[i]!.version, in_force_from: from, in_force_until: until });
    }
  }
  return out;
}
