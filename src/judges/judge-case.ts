import type { Queryable } from '../db/index.ts';
import { personaOfAgent } from '../personas/index.ts';
import { oneInvocationTimeSql } from '../ingest/index.ts';

// What a judge is shown about an invocation, read through the owners' read
// contracts: ingest's views (ingest_read.*, which hold the REDACTED stored
// text, never the raw one) and the personas module's store. Free-form
// metadata a client sent (principal_id, correlation_id) is left out: it may
// name a person, and the judge does not need it to judge.

/** The case as judge-runner's runPanel takes it (src/judges/panel.ts JudgeCase). */
export interface CaseForJudges {
  persona: { id: string; version: number; name: string; description: string; rubric: string } | null;
  invocation: Record<string, unknown>;
  content: { field: string; text: string }[];
  findings: { type: string; field: string; start?: number; end?: number }[];
}

export type LoadedCase =
  | { found: false }
  /** A tool_output is still sealed, awaiting its scan: judging waits for the redacted text. */
  | { found: true; scanPending: true }
  | { found: true; scanPending: false; reviewStatus: string | null; case: CaseForJudges };

interface InvocationRow {
  invocation_id: number;
  agent_key: string;
  mode: string;
  outcome: string;
  duration_ms: number | null;
  principal_kind: string | null;
  tool_name: string | null;
  verdict: string;
  reasons: string[];
  policy_version: number;
  review_status: string | null;
  output_scan_verdict: string | null;
  output_scan_reasons: string[] | null;
  created_at: Date;
}

export async function loadCase(tx: Queryable, tenantId: string, invocationId: number): Promise<LoadedCase> {
  const [inv] = await tx.query<InvocationRow & Record<string, unknown>>(
    `SELECT invocation_id, agent_key, mode, outcome, duration_ms, principal_kind, tool_name, verdict, reasons, policy_version,
       review_status, output_scan_verdict, output_scan_reasons, created_at
     FROM ingest_read.invocations WHERE tenant_id = $1 AND invocation_id = $2
       AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`,
    [tenantId, invocationId],
  );
  if (!inv) return { found: false };
  const content = await tx.query<{
    field: string;
    body: string;
    findings: { type: string; start?: number; end?: number }[] | null;
    erased_at: Date | null;
  }>(
    `SELECT field, body, findings, erased_at FROM ingest_read.invocation_content
     WHERE tenant_id = $1 AND invocation_id = $2 AND created_at = $3 ORDER BY field`,
    [tenantId, invocationId, inv.created_at],
  );
  const kept = content.filter((c) => c.erased_at === null);
  // An unscanned tool_output's row holds the text as sent (sealed or not): never shown.
  if (kept.some((c) => c.findings === null)) return { found: true, scanPending: true };
  const persona = await personaOfAgent(tx, tenantId, inv.agent_key);
  return {
    found: true,
    scanPending: false,
    reviewStatus: inv.review_status,
    case: {
      persona: persona && {
        id: persona.persona_id,
        version: persona.version,
        name: persona.name,
        description: persona.description,
        rubric: persona.rubric,
      },
      invocation: {
        invocation_id: inv.invocation_id,
        agent_key: inv.agent_key,
        tool_name: inv.tool_name,
        mode: inv.mode,
        outcome: inv.outcome,
        duration_ms: inv.duration_ms,
        principal_kind: inv.principal_kind,
        verdict: inv.verdict,
        reasons: inv.reasons,
        policy_version: inv.policy_version,
        output_scan_verdict: inv.output_scan_verdict,
        output_scan_reasons: inv.output_scan_reasons,
        created_at: new Date(inv.created_at).toISOString(),
      },
      content: kept.map((c) => ({ field: c.field, text: c.body })),
      findings: kept.flatMap((c) =>
        (c.findings ?? []).map((f) => ({
          type: f.type,
          field: c.field,
          ...(f.start !== undefined ? { start: f.start, end: f.end! } : {}),
        })),
      ),
    },
  };
}
