import type { Queryable, Row, Statement } from '../db/index.ts';
import { epochSql } from '../changes/index.ts';
import type { RecordItem, StoredResponse } from './set-items.ts';
import { utcDay } from './utc-day.ts';

// What a set of events reads before it decides, in one statement, and the guard that what it
// assumed still holds when it was decided ahead of the lock.

/** What a set of events reads before it decides (stateSql's row). */
export interface StateRow {
  epoch: number;
  usage: Record<string, number>;
  known: string[];
  agents: number;
  keys: Array<[string, string, StoredResponse, string]>;
  last_ids: Record<string, number>;
  judged: boolean;
  /** The days whose usage was read (a day without a row has none). */
  days: string[];
  /** The idempotency keys looked up, and the time from which (ISO). */
  asked: string[];
  oldest: string;
}

/**
 * The one statement that reads what deciding a set needs, over SQL
 * expressions for the workspace, its days, the agents this node does not know,
 * the idempotency keys and the oldest time a key still answers.
 */
function stateSql(tenant: string, days: string, agents: string, keys: string, oldest: string): string {
  return `SELECT ${epochSql(tenant)} AS epoch,
           (SELECT coalesce(jsonb_object_agg(day::text, invocations), '{}'::jsonb) FROM usage_daily
             WHERE tenant_id = ${tenant} AND day = ANY(${days}::date[])) AS usage,
           (SELECT coalesce(array_agg(agent_key), '{}') FROM agents WHERE tenant_id = ${tenant} AND agent_key = ANY(${agents}::text[])) AS known,
           (CASE WHEN cardinality(${agents}::text[]) > 0 THEN (SELECT count(*)::int FROM agents WHERE tenant_id = ${tenant}) ELSE 0 END) AS agents,
           (SELECT coalesce(jsonb_agg(jsonb_build_array(key, encode(fingerprint, 'hex'), response, created_at)), '[]'::jsonb)
              FROM idempotency_keys WHERE tenant_id = ${tenant} AND key = ANY(${keys}::text[]) AND created_at > ${oldest}) AS keys,
           -- Per-workspace ids, taken gap-free: only this transaction (it holds the log head) moves them.
           (SELECT coalesce(jsonb_object_agg(kind, last_id), '{}'::jsonb) FROM event_ids WHERE tenant_id = ${tenant}) AS last_ids,
           -- The judges module's function (migration 0120): whether flags escalate to its panel.
           judge_panel_configured(${tenant}) AS judged,
           ${days}::date[]::text[] AS days,
           ${keys}::text[] AS asked,
           to_jsonb((${oldest})::timestamptz) AS oldest`;
}

const STATE_SQL = stateSql('$1', '$2', '$3', '$4', '$5');
/** The oldest time a key answers from, when no key is looked up. */
const EPOCH_ISO = new Date(0).toISOString();

/** The state statement for a set that brings no agent unknown to this node: the lock's read-ahead. */
export function openingState(
  tenantId: string,
  days: readonly string[],
  keys: readonly string[] = [],
  oldest?: Date,
): Statement {
  // No agents to count; with no keys to look up, no oldest time for them either.
  return { sql: STATE_SQL, params: [tenantId, days, [], keys, oldest?.toISOString() ?? EPOCH_ISO] };
}

export async function readState(
  tx: Queryable,
  tenantId: string,
  days: string[],
  agents: string[],
  keys: string[],
  oldest: Date,
): Promise<StateRow> {
  const [row] = await tx.query<StateRow & Row>(STATE_SQL, [tenantId, days, agents, keys, oldest.toISOString()]);
  return row!;
}

/** The UTC days of the invocations among items (the days their quota counts on). */
export function daysOf(items: readonly RecordItem[]): string[] {
  const days: string[] = [];
  // The items of a request share their time: each distinct one is looked at once.
  let last = Number.NaN;
  for (const i of items) {
    if (i.kind !== 'invocation' || i.now.getTime() === last) continue;
    last = i.now.getTime();
    const day = utcDay(i.now);
    if (!days.includes(day)) days.push(day);
  }
  return days;
}

/** Whether what the lock's round trip read is the state a set was decided against, as far as the set's days go. */
export function sameState(read: StateRow, basis: StateRow, days: readonly string[]): boolean {
  const id = (r: StateRow, kind: string) => Number(r.last_ids[kind] ?? 0);
  return (
    Number(read.epoch) === Number(basis.epoch) &&
    read.judged === basis.judged &&
    id(read, 'invocation') === id(basis, 'invocation') &&
    id(read, 'rogue_event') === id(basis, 'rogue_event') &&
    days.every((d) => read.days.includes(d) && Number(read.usage[d] ?? 0) === Number(basis.usage[d] ?? 0))
  );
}

/**
 * A statement that raises (log_expect, SQLSTATE AL001) unless sameState(read,
 * basis, days) would hold for what it reads: the epoch, the judge panel, the
 * last ids, the usage of the days.
 */
export function expectStateStatement(tenantId: string, basis: StateRow, days: readonly string[]): Statement {
  const id = (kind: string) => Number(basis.last_ids[kind] ?? 0);
  return {
    sql: EXPECT_STATE_SQL,
    params: [
      tenantId,
      Number(basis.epoch),
      basis.judged,
      id('invocation'),
      id('rogue_event'),
      days,
      days.map((d) => Number(basis.usage[d] ?? 0)),
    ],
  };
}

const EXPECT_STATE_SQL = `SELECT log_expect(
    ${epochSql('$1')} = $2
    AND judge_panel_configured($1::uuid) = $3
    AND coalesce((SELECT last_id FROM event_ids WHERE tenant_id = $1::uuid AND kind = 'invocation'), 0) = $4
    AND coalesce((SELECT last_id FROM event_ids WHERE tenant_id = $1::uuid AND kind = 'rogue_event'), 0) = $5
    AND NOT EXISTS (SELECT 1 FROM unnest($6::date[], $7::bigint[]) AS d(day, n)
      WHERE coalesce((SELECT u.invocations FROM usage_daily u WHERE u.tenant_id = $1::uuid AND u.day = d.day), 0) <> d.n),
    'the state the events were decided on')`;
