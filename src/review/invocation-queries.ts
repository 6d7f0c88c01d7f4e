import type { Queryable } from '../db/index.ts';
import { evidenceIdOf } from '../ledger/index.ts';
import type { Finding } from '../policy/index.ts';
import { isoMicros, microsOf, type TimeKey, Where } from './cursor.ts';
import { oneInvocationTimeSql } from '../ingest/index.ts';

// The read side's queries of invocations, through ingest's read contract
// (the views ingest_read.*, migration 0089). Each runs in a tenant-scoped
// transaction (row-level security) and filters by tenant_id itself too. Lists are newest first with keyset paging on
// (created_at, invocation_id); each filter has an index that yields rows in
// that order (migrations/0060_review.sql), so a page reads limit+1 rows.

export interface InvocationFilters {
  agent_key?: string | undefined;
  verdict?: string | undefined;
  mode?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  correlation_id?: string | undefined;
  review_status?: string | undefined;
  occurred_from?: string | undefined;
  occurred_to?: string | undefined;
}

export interface InvocationRow {
  invocation_id: number;
  agent_key: string;
  mode: 'observed' | 'enforced' | 'shadow';
  outcome: string;
  duration_ms: number | null;
  principal_kind: 'user' | 'agent' | null;
  principal_id: string;
  parent_invocation_id: number | null;
  correlation_id: string | null;
  tool_name: string | null;
  verdict: 'allow' | 'flag_for_review' | 'deny';
  reasons: string[];
  policy_version: number;
  pii_count: number | null;
  review_status: 'pending' | 'approved' | 'rejected' | null;
  output_scan_verdict: 'allow' | 'flag_for_review' | 'deny' | null;
  log_index: number;
  created_at: Date;
  created_us: number;
  /** coalesce(occurred_at, created_at) in the read contract: never null, never after created_at. */
  occurred_at: Date;
}

export const INVOCATION_COLUMNS = `i.invocation_id, i.agent_key, i.mode, i.outcome, i.duration_ms, i.principal_kind, i.principal_id,
  i.parent_invocation_id, i.correlation_id, i.tool_name, i.verdict, i.reasons, i.policy_version, i.pii_count,
  i.review_status, i.output_scan_verdict, i.log_index, i.created_at, ${microsOf('i.created_at')} AS created_us,
  i.occurred_at`;

/**
 * The list query, as SQL and parameters (the benchmark explains exactly
 * this). It runs in two steps: the page's keys by an index-only scan (each
 * filter's index holds or includes every filtered column, so a combination
 * of filters is checked without reading the table), then those rows by
 * primary key. `extra` lets the review queue add its decision.
 */
export function invocationListQuery(
  tenantId: string,
  f: InvocationFilters,
  after: TimeKey | null,
  limit: number,
  extra: { columns?: string; join?: string } = {},
): { sql: string; params: unknown[] } {
  const w = new Where().add('tenant_id = ?', tenantId);
  if (f.agent_key !== undefined) w.add('agent_key = ?', f.agent_key);
  if (f.verdict !== undefined) w.add('verdict = ?', f.verdict);
  if (f.mode !== undefined) w.add('mode = ?', f.mode);
  if (f.correlation_id !== undefined) w.add('correlation_id = ?', f.correlation_id);
  if (f.review_status !== undefined) w.add('review_status = ?', f.review_status);
  if (f.since !== undefined) w.add('created_at >= ?::timestamptz', f.since);
  if (f.until !== undefined) w.add('created_at < ?::timestamptz', f.until);
  if (f.occurred_from !== undefined) {
    w.add('occurred_at >= ?::timestamptz', f.occurred_from);
    // Nothing is recorded before it happened (occurred_at <= created_at, ingest's rule): the same
    // bound on created_at lets the newest-first index scan stop there.
    w.add('created_at >= ?::timestamptz', f.occurred_from);
  }
  if (f.occurred_to !== undefined) w.add('occurred_at < ?::timestamptz', f.occurred_to);
  if (after) {
    // The plain bound repeats the row comparison's: PostgreSQL prunes months by it (a row comparison prunes
    // nothing), so a page after the first reads only the months up to its cursor.
    w.add('created_at <= ?::timestamptz', isoMicros(after.us));
    w.add('(created_at, invocation_id) < (?::timestamptz, ?::bigint)', isoMicros(after.us), after.id);
  }
  const lim = w.param(limit + 1);
  const sql = `SELECT ${INVOCATION_COLUMNS}${extra.columns ? `, ${extra.columns}` : ''}
FROM (
  SELECT tenant_id, invocation_id, created_at FROM ingest_read.invocations
  WHERE ${w.sql()}
  ORDER BY created_at DESC, invocation_id DESC
  LIMIT ${lim}
) k
JOIN ingest_read.invocations i ON i.tenant_id = k.tenant_id AND i.invocation_id = k.invocation_id AND i.created_at = k.created_at${extra.join ? `\n${extra.join}` : ''}
ORDER BY k.created_at DESC, k.invocation_id DESC`;
  return { sql, params: w.params };
}

/** What every role may see of an invocation. */
export function invocationSummary(r: InvocationRow) {
  return {
    invocation_id: r.invocation_id,
    agent_key: r.agent_key,
    mode: r.mode,
    outcome: r.outcome,
    duration_ms: r.duration_ms,
    principal_kind: r.principal_kind,
    principal_id: r.principal_id,
    parent_invocation_id: r.parent_invocation_id,
    correlation_id: r.correlation_id,
    tool_name: r.tool_name,
    verdict: r.verdict,
    reasons: r.reasons,
    policy_version: r.policy_version,
    pii_count: r.pii_count,
    review_status: r.review_status,
    output_scan_verdict: r.output_scan_verdict,
    evidence_id: evidenceIdOf(r.log_index),
    created_at: r.created_at,
    occurred_at: r.occurred_at,
  };
}

export async function listInvocations(
  tx: Queryable,
  tenantId: string,
  f: InvocationFilters,
  after: TimeKey | null,
  limit: number,
) {
  const q = invocationListQuery(tenantId, f, after, limit);
  return tx.query<InvocationRow & Record<string, unknown>>(q.sql, q.params);
}

export interface InvocationDetailRow extends InvocationRow {
  output_scan_reasons: string[] | null;
  output_scanned_at: Date | null;
}

export async function findInvocation(tx: Queryable, tenantId: string, id: number): Promise<InvocationDetailRow | null> {
  const [row] = await tx.query<InvocationDetailRow & Record<string, unknown>>(
    `SELECT ${INVOCATION_COLUMNS}, i.output_scan_reasons, i.output_scanned_at
     FROM ingest_read.invocations i WHERE i.tenant_id = $1 AND i.invocation_id = $2
       AND ${oneInvocationTimeSql('i', '$1', '$2::bigint')}`,
    [tenantId, id],
  );
  return row ?? null;
}

export interface ContentRow {
  field: 'prompt' | 'response' | 'context' | 'tool_input' | 'tool_output';
  /** null when the caller may not see stored text (the query does not read it). */
  body: string | null;
  findings: Finding[] | null;
  /** Set when retention or an erasure deleted the text (src/ingest/erasure.ts). */
  erased_at: Date | null;
}

const FIELD_ORDER = ['prompt', 'response', 'context', 'tool_input', 'tool_output'];

/** The stored fields of an invocation; the text itself only when withText. */
export async function invocationContent(
  tx: Queryable,
  tenantId: string,
  id: number,
  withText: boolean,
): Promise<ContentRow[]> {
  const rows = await tx.query<ContentRow & Record<string, unknown>>(
    `SELECT field, ${withText ? 'body' : 'NULL::text AS body'}, findings, erased_at
     FROM ingest_read.invocation_content WHERE tenant_id = $1 AND invocation_id = $2
       AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`,
    [tenantId, id],
  );
  return rows.sort((a, b) => FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field));
}

export interface TraceRow {
  rel: 'parent' | 'child' | 'sibling';
  invocation_id: number;
  parent_invocation_id: number | null;
  agent_key: string;
  tool_name: string | null;
  mode: 'observed' | 'enforced' | 'shadow';
  outcome: string;
  verdict: 'allow' | 'flag_for_review' | 'deny';
  log_index: number;
  created_at: Date;
  created_us: number;
}

/** Most children and siblings a record lists. */
export const TRACE_LIMIT = 100;

/**
 * An invocation's trace in one round trip: its parent, its children (by
 * parent_invocation_id) and the other invocations of its correlation_id,
 * oldest first, each list cut at TRACE_LIMIT (one more is read to tell).
 */
export async function invocationTrace(
  tx: Queryable,
  tenantId: string,
  inv: { invocation_id: number; parent_invocation_id: number | null; correlation_id: string | null },
): Promise<TraceRow[]> {
  const cols = `invocation_id, parent_invocation_id, agent_key, tool_name, mode, outcome, verdict, log_index, created_at,
    ${microsOf('created_at')} AS created_us`;
  const rows = await tx.query<TraceRow & Record<string, unknown>>(
    `(SELECT 'parent' AS rel, ${cols} FROM ingest_read.invocations WHERE tenant_id = $1 AND invocation_id = $3::bigint
       AND ${oneInvocationTimeSql('', '$1', '$3::bigint')})
     UNION ALL
     (SELECT 'child', ${cols} FROM ingest_read.invocations WHERE tenant_id = $1 AND parent_invocation_id = $2
      ORDER BY created_at, invocation_id LIMIT $5)
     UNION ALL
     (SELECT 'sibling', ${cols} FROM ingest_read.invocations WHERE tenant_id = $1 AND correlation_id = $4::text AND invocation_id <> $2
      ORDER BY created_at, invocation_id LIMIT $5)`,
    [tenantId, inv.invocation_id, inv.parent_invocation_id, inv.correlation_id, TRACE_LIMIT + 1],
  );
  // UNION ALL promises no order of its own.
  return rows.sort((a, b) => a.created_us - b.created_us || a.invocation_id - b.invocation_id);
}
