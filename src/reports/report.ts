import type { AppContext } from '../core/index.ts';
import { formatVerifierKey, type LedgerModule, openPseudonyms, readHead } from '../ledger/index.ts';
import { factsFromTables } from './compliance.ts';
import type { Period, ReportFacts, ReportPseudonyms } from './facts.ts';

export interface ComplianceReport extends ReportFacts {
  report: 'agent-ledger compliance report';
  format_version: 2;
  /**
   * Openings of the pseudonyms the figures count by (leaf format v2): value →
   * base64 salt. The verifier recomputes each pseudonym to count the leaves
   * of an agent or a rogue event type.
   */
  pseudonyms: ReportPseudonyms;
  tenant_id: string;
  period: Period;
  generated_at: string;
  evidence: {
    origin: string;
    verifier_key: string;
    /** The signed checkpoint of the log size the facts describe (C2SP signed note). */
    checkpoint: string;
    tree_size: number;
  };
  how_to_verify: string;
}

export const HOW_TO_VERIFY =
  'Save this report as JSON, then run: agent-ledger verify --report FILE --url <service URL> --token <API token> --key <verifier_key>. ' +
  'It checks the checkpoint signature with the public key alone, recomputes the log root from every entry up to tree_size, ' +
  'and recounts every total of the report from the log leaves; any difference fails the verification.';

/**
 * Builds a report: facts from one database snapshot, and a checkpoint signed
 * for exactly the log size of that snapshot (older than the head if the log
 * grew meanwhile, which is just as verifiable).
 */
export async function buildReport(
  ctx: AppContext,
  ledger: LedgerModule,
  tenantId: string,
  period: Period,
): Promise<ComplianceReport> {
  const { facts, size, pseudonyms } = await ctx.db.snapshot(tenantId, async (tx) => {
    const head = await readHead(tx, tenantId);
    const facts = await factsFromTables(tx, tenantId, period, head.size, ledger.archive);
    const pseudonyms: ReportPseudonyms = {
      agent: await openPseudonyms(tx, tenantId, 'agent', Object.keys(facts.totals.invocations_by_agent)),
      rogue_event_type: await openPseudonyms(
        tx,
        tenantId,
        'rogue_event_type',
        Object.keys(facts.totals.rogue_events_by_type),
      ),
    };
    return { facts, size: head.size, pseudonyms };
  });
  const origin = ledger.origin(tenantId);
  const signed = await ctx.db.withTenant(tenantId, (tx) => ledger.checkpointOfSize(tx, tenantId, size));
  // Carries the witnesses' cosignatures of that exact size when they answer within a few seconds.
  const checkpoint = await ledger.cosignNow(tenantId, signed);
  return {
    report: 'agent-ledger compliance report',
    format_version: 2,
    tenant_id: tenantId,
    period,
    generated_at: ctx.now().toISOString(),
    ...facts,
    pseudonyms,
    evidence: { origin, verifier_key: formatVerifierKey(ledger.verifierKey(tenantId)), checkpoint, tree_size: size },
    how_to_verify: HOW_TO_VERIFY,
  };
}
