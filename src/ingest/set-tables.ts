import type { IdempotencyClaim, RogueRecord, StoredResponse } from './set-items.ts';
import type { PreparedInvocation, StoredText } from './prepare.ts';
import { needsReview } from './escalation.ts';
import { isoTime } from './utc-day.ts';

// Each table a set of events writes, its columns declared once: a row's values, the unnest() arrays
// they travel in and the INSERT that takes them are all made from this. A new invocation column is
// one line in INVOCATIONS (and its migration).

/** A column a set writes: its name in the table, the element type of its array, its value for a row. */
export interface Column<R> {
  name: string;
  type: string;
  value(row: R): unknown;
  /** How the unnested value is inserted when not as it is: `$` stands for it. */
  as?: string;
}

/** A table a set writes through one data-modifying CTE; every row has the workspace ($1) as tenant_id. */
export interface SetTable<R> {
  /** The CTE's name in the log's statement. */
  cte: string;
  table: string;
  columns: readonly Column<R>[];
  /** Columns of the same SQL value in every row. */
  fixed?: Readonly<Record<string, string>>;
  /** The INSERT's ON CONFLICT clause. */
  conflict?: string;
}

const col = <R>(name: string, type: string, value: (row: R) => unknown, as?: string): Column<R> =>
  as === undefined ? { name, type, value } : { name, type, value, as };

/** A UTC day's invocations in a set, and the first and last id it gave out that day (reads by id find their months by them). */
export interface UsageRow {
  day: string;
  n: number;
  first: number;
  last: number;
}

export const USAGE_DAILY: SetTable<UsageRow> = {
  cte: 'usage',
  table: 'usage_daily',
  columns: [
    col('day', 'date', (r) => r.day),
    col('invocations', 'int', (r) => r.n),
    col('first_invocation_id', 'bigint', (r) => r.first),
    col('last_invocation_id', 'bigint', (r) => r.last),
  ],
  conflict: `ON CONFLICT (tenant_id, day) DO UPDATE SET invocations = usage_daily.invocations + EXCLUDED.invocations,
       first_invocation_id = least(usage_daily.first_invocation_id, EXCLUDED.first_invocation_id),
       last_invocation_id = greatest(usage_daily.last_invocation_id, EXCLUDED.last_invocation_id)`,
};

export const AGENTS: SetTable<{ key: string; now: Date }> = {
  cte: 'agent',
  table: 'agents',
  columns: [col('agent_key', 'text', (r) => r.key), col('first_seen_at', 'timestamptz', (r) => isoTime(r.now))],
  conflict: 'ON CONFLICT (tenant_id, agent_key) DO NOTHING',
};

export interface InvocationRow {
  id: number;
  index: number;
  p: PreparedInvocation;
  now: Date;
}

export const INVOCATIONS: SetTable<InvocationRow> = {
  cte: 'inv',
  table: 'invocations',
  columns: [
    col('invocation_id', 'bigint', (r) => r.id),
    col('agent_key', 'text', (r) => r.p.agentKey),
    col('mode', 'text', (r) => r.p.mode),
    col('outcome', 'text', (r) => r.p.outcome),
    col('duration_ms', 'bigint', (r) => r.p.durationMs ?? null),
    col('principal_kind', 'text', (r) => r.p.principalKind ?? null),
    col('principal_id', 'text', (r) => r.p.principalId),
    col('parent_invocation_id', 'bigint', (r) => r.p.parentInvocationId ?? null),
    col('correlation_id', 'text', (r) => r.p.correlationId ?? null),
    col('tool_name', 'text', (r) => r.p.toolName ?? null),
    col('verdict', 'text', (r) => r.p.decision.verdict),
    col('reasons', 'text', (r) => JSON.stringify(r.p.decision.reasons), '$::jsonb'),
    col('policy_version', 'int', (r) => r.p.policyVersion),
    col('pii_count', 'int', (r) => r.p.piiCount ?? null),
    col('log_index', 'bigint', (r) => r.index),
    // The service's clock; when the event happened is occurred_at.
    col('created_at', 'timestamptz', (r) => isoTime(r.now)),
    col('review_status', 'text', (r) => (needsReview(r.p.decision.verdict, r.p.mode) ? 'pending' : null)),
    col('meta_salt', 'bytea', (r) => r.p.metaSalt),
    col('occurred_at', 'timestamptz', (r) => r.p.occurredAt ?? null),
    col('recorded_by_token', 'uuid', (r) => r.p.recordedBy ?? null),
  ],
};

export const INVOCATION_CONTENT: SetTable<{ id: number; c: StoredText; now: Date }> = {
  cte: 'content',
  table: 'invocation_content',
  columns: [
    col('invocation_id', 'bigint', (r) => r.id),
    col('field', 'text', (r) => r.c.field),
    col('body', 'text', (r) => r.c.body),
    col('salt', 'bytea', (r) => r.c.salt),
    col('findings', 'text', (r) => (r.c.findings === null ? null : JSON.stringify(r.c.findings)), '$::jsonb'),
    col('sealed', 'bytea', (r) => r.c.sealed?.sealed ?? null),
    col('sealed_key', 'bytea', (r) => r.c.sealed?.wrappedKey ?? null),
    // Its invocation's created_at: the partition key both tables share.
    col('created_at', 'timestamptz', (r) => isoTime(r.now)),
  ],
};

export interface RogueRow {
  id: number;
  index: number;
  e: RogueRecord;
  salt: Uint8Array;
  now: Date;
}

export const ROGUE_EVENTS: SetTable<RogueRow> = {
  cte: 'rogue',
  table: 'rogue_events',
  columns: [
    col('rogue_event_id', 'bigint', (r) => r.id),
    col('event_type', 'text', (r) => r.e.event_type),
    col('agent_key', 'text', (r) => r.e.agent_key),
    col('actor_agent_key', 'text', (r) => r.e.actor_agent_key ?? null),
    col('tool', 'text', (r) => r.e.tool ?? null),
    col('user_id', 'text', (r) => r.e.user_id ?? null),
    col('severity', 'text', (r) => r.e.severity ?? null),
    col('source', 'text', (r) => r.e.source ?? null),
    col('invocation_id', 'bigint', (r) => r.e.invocation_id ?? null),
    col('log_index', 'bigint', (r) => r.index),
    col('created_at', 'timestamptz', (r) => isoTime(r.now)),
    col('meta_salt', 'bytea', (r) => r.salt),
  ],
};

/** The workspace's last id of a kind, when a set took any. */
export const EVENT_IDS: SetTable<readonly [kind: string, last: number]> = {
  cte: 'ids',
  table: 'event_ids',
  columns: [col('kind', 'text', (r) => r[0]), col('last_id', 'bigint', (r) => r[1])],
  conflict: 'ON CONFLICT (tenant_id, kind) DO UPDATE SET last_id = EXCLUDED.last_id',
};

export const IDEMPOTENCY_KEYS: SetTable<{ claim: IdempotencyClaim; response: StoredResponse; now: Date }> = {
  cte: 'idem',
  table: 'idempotency_keys',
  columns: [
    col('key', 'text', (r) => r.claim.key),
    col('fingerprint', 'text', (r) => r.claim.fingerprint, "decode($, 'hex')"),
    col('response', 'text', (r) => JSON.stringify(r.response), '$::jsonb'),
    col('created_at', 'timestamptz', (r) => isoTime(r.now)),
  ],
  // An expired key is a row of an older day (the lookup ignored it); its successor is a row of its own.
  conflict: `ON CONFLICT (tenant_id, key, created_at) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
       response = EXCLUDED.response, created_at = EXCLUDED.created_at`,
};

export interface ApprovalRow {
  approvalId: string;
  invocationId: number;
  p: PreparedInvocation;
  now: Date;
  expiresAt: string;
  index: number;
}

export const APPROVALS: SetTable<ApprovalRow> = {
  cte: 'approval',
  table: 'approvals',
  columns: [
    col('approval_id', 'uuid', (r) => r.approvalId),
    col('invocation_id', 'bigint', (r) => r.invocationId),
    col('agent_key', 'text', (r) => r.p.agentKey),
    col('tool_name', 'text', (r) => r.p.toolName ?? null),
    col('requested_by_token', 'uuid', (r) => r.p.recordedBy ?? null),
    col('created_at', 'timestamptz', (r) => isoTime(r.now)),
    col('expires_at', 'timestamptz', (r) => r.expiresAt),
    col('log_index', 'bigint', (r) => r.index),
  ],
  fixed: { status: "'pending'" },
};

/**
 * A table's CTE: its rows come as one array parameter a column, `$_` each in
 * turn (numbered by the statement that holds it), `$1` the workspace.
 */
export function insertCte(t: SetTable<never>): string {
  const fixed = Object.entries(t.fixed ?? {});
  const names = t.columns.map((c) => c.name);
  const values = t.columns.map((c) => (c.as === undefined ? `r.${c.name}` : c.as.replace('$', `r.${c.name}`)));
  return `${t.cte} AS (
     INSERT INTO ${t.table} (tenant_id, ${[...names, ...fixed.map(([n]) => n)].join(', ')})
     SELECT $1, ${[...values, ...fixed.map(([, v]) => v)].join(', ')}
     FROM unnest(${t.columns.map((c) => `$_::${c.type}[]`).join(', ')}) AS r(${names.join(', ')})
     ${t.conflict ?? ''}
   )`;
}
