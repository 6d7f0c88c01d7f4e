import type { Queryable, Row, Statement } from '../db/index.ts';
import { enqueueJobsSql } from '../jobs/index.ts';
import {
  commitment,
  LEAF_VERSION,
  newSalt,
  type OpenAppend,
  type RideAlong,
  type SetJob,
  writeRideAlong,
} from '../ledger/index.ts';
import { OUTPUT_SCAN_JOB } from './escalation.ts';
import { invocationTimeSql } from './invocation-time.ts';
import { sealText } from './sealed-output.ts';
import { DAY_MS } from './utc-day.ts';

// A tool's result attached to the invocation already recorded for the call
// (an MCP gate records the call before it runs, its result after): stored
// sealed like a tool_output sent with the invocation, scanned by the same
// background job (tool_output_scan leaf, output_scan.flagged), and committed
// to by a `tool_output_attached` leaf. It is no new invocation: quotas and
// usage do not count it. Several results go in one transaction with a fixed
// handful of statements (the texts sealed before it), so a burst of them
// holds the workspace's log up once.

/** The leaf kind that commits to an attached tool_output, as sent. */
export const TOOL_OUTPUT_ATTACHED = 'tool_output_attached';

export type AttachResult = { ok: true; logIndex: number } | { ok: false; reason: 'not_found' | 'conflict' | 'erased' };

/** One result to attach, sealed before the log's transaction. */
export interface AttachItem {
  invocationId: number;
  /** An ingress token may attach only to the invocations it recorded (another's is not found); null: an account of the workspace. */
  token: string | null;
  salt: Uint8Array;
  /** The commitment to the text as sent (the leaf's). */
  commitment: string;
  sealed: Uint8Array;
  wrappedKey: Uint8Array;
}

/** Seals `text` for the invocation's tool_output: done before the transaction, it costs the log nothing. */
export function attachItem(
  kek: Uint8Array,
  tenantId: string,
  invocationId: number,
  text: string,
  token: string | null,
) {
  const salt = newSalt();
  const sealed = sealText(kek, tenantId, text);
  return {
    invocationId,
    token,
    salt,
    commitment: commitment(salt, text),
    sealed: sealed.sealed,
    wrappedKey: sealed.wrappedKey,
  } satisfies AttachItem;
}

export interface AttachOptions {
  now: Date;
  /**
   * The workspace's content retention in days as an SQL expression of its id
   * (retention's contentDaysSql): attaching to an invocation older than that
   * is refused as erased, as the retention sweep has erased its month's texts
   * and does not read them again (retention_sweeps). Undefined: no retention.
   */
  contentDaysSql?: (tenant: string) => string;
}

const IDS = '$2::bigint[]';

/** What attaching reads before it writes: one row, whatever the ids found. */
interface AttachState {
  /** The invocation ids it looked for. */
  asked: Array<string | number>;
  /** Each found invocation's row (locked): who recorded it, when, whether it has a tool_output or erased content. */
  found: Array<{
    invocation_id: string | number;
    recorded_by_token: string | null;
    created_at: string;
    has_output: boolean;
    erased: boolean;
  }> | null;
  content_days: number | null;
}

/**
 * The statement that reads what attaching to `ids` decides on (AttachState):
 * sent with the log's lock when an attach opens its transaction (SetJob.opening),
 * else as the transaction's first read. The rows come as one JSON array, so the
 * answer says which ids it looked for even when it found none.
 */
function attachStateStatement(
  tenantId: string,
  ids: readonly number[],
  opts: Pick<AttachOptions, 'contentDaysSql'>,
): Statement {
  return {
    sql: `WITH found AS (
       SELECT i.invocation_id, i.recorded_by_token, i.created_at,
              EXISTS (SELECT 1 FROM invocation_content c WHERE c.tenant_id = i.tenant_id
                        AND c.invocation_id = i.invocation_id AND c.created_at = i.created_at AND c.field = 'tool_output') AS has_output,
              EXISTS (SELECT 1 FROM invocation_content c WHERE c.tenant_id = i.tenant_id
                        AND c.invocation_id = i.invocation_id AND c.created_at = i.created_at AND c.erased_at IS NOT NULL) AS erased
       FROM invocations i
       WHERE i.tenant_id = $1 AND i.invocation_id = ANY(${IDS}) AND ${invocationTimeSql('i', '$1', IDS)}
       FOR UPDATE OF i)
     SELECT ${IDS} AS asked, (SELECT json_agg(found) FROM found) AS found,
            ${opts.contentDaysSql ? opts.contentDaysSql('$1') : 'NULL::int'} AS content_days`,
    params: [tenantId, ids],
  };
}

/** The state read with the lock, when it looked for every one of `ids`. */
function readAhead(opened: Row[] | undefined, ids: readonly number[]): AttachState | undefined {
  const state = opened?.[0] as AttachState | undefined;
  if (!state || !Array.isArray(state.asked)) return undefined;
  const asked = new Set(state.asked.map(Number));
  return ids.every((id) => asked.has(id)) ? state : undefined;
}

/**
 * Attaches each item's text as its invocation's tool_output in the log's
 * transaction, in order: one answer per item. A second result for the same
 * invocation (in this set or before) is a conflict. `opened`: what the
 * round trip that took the lock read (attachStateStatement), used when it
 * covers every item. The rows ride in the log's own statement when this is
 * the transaction's last work: with the read ahead, two round trips in all
 * under the lock (lock and read; write and commit).
 */
export async function attachOutputs(
  tx: Queryable,
  log: OpenAppend,
  tenantId: string,
  items: readonly AttachItem[],
  opts: AttachOptions,
  opened?: Row[],
): Promise<AttachResult[]> {
  const ids = [...new Set(items.map((i) => i.invocationId))];
  let state = readAhead(opened, ids);
  if (!state) {
    const read = attachStateStatement(tenantId, ids, opts);
    [state] = (await tx.query(read.sql, read.params)) as unknown as AttachState[];
  }
  const found = new Map((state!.found ?? []).map((r) => [Number(r.invocation_id), r]));
  const days = state!.content_days;
  const due = days === null ? undefined : opts.now.getTime() - days * DAY_MS;
  const attached = new Set<number>();
  const accepted: Array<{ item: AttachItem; createdAt: string }> = [];
  const results: Array<AttachResult | 'accepted'> = items.map((item) => {
    const row = found.get(item.invocationId);
    if (!row || (item.token !== null && row.recorded_by_token !== item.token))
      return { ok: false, reason: 'not_found' };
    // One tool_output per invocation; none either once its content was erased (retention, a data subject's request).
    if (row.has_output || attached.has(item.invocationId)) return { ok: false, reason: 'conflict' };
    if (row.erased || (due !== undefined && Date.parse(row.created_at) < due)) return { ok: false, reason: 'erased' };
    attached.add(item.invocationId);
    accepted.push({ item, createdAt: row.created_at });
    return 'accepted';
  });
  if (accepted.length === 0) return results as AttachResult[];
  const rows = attachRows(tenantId, accepted);
  // The last work of its transaction leaves its rows to the log's statement: one round trip less.
  if (log.lastWork) log.rideAlong(rows);
  else await writeRideAlong(tx, rows);
  let next = 0;
  return results.map((r) => {
    if (r !== 'accepted') return r;
    const { item } = accepted[next++]!;
    const logIndex = log.add(
      {
        v: LEAF_VERSION,
        kind: TOOL_OUTPUT_ATTACHED,
        invocation_id: item.invocationId,
        content: { tool_output: item.commitment },
      },
      opts.now,
    );
    return { ok: true, logIndex };
  });
}

/**
 * The accepted texts' rows and their scans' jobs, as data-modifying CTEs:
 * each text in its invocation's month (the partition key is the invocation's
 * created_at), its body empty until the scan stores it redacted, as a
 * tool_output sent with the invocation (prepare.ts).
 */
function attachRows(tenantId: string, accepted: ReadonlyArray<{ item: AttachItem; createdAt: string }>): RideAlong {
  return {
    ctes: `attached AS (
       INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, sealed, sealed_key, created_at)
       SELECT $1, x.id, 'tool_output', '', decode(x.salt, 'hex'), NULL, decode(x.sealed, 'hex'), decode(x.sealed_key, 'hex'), x.created_at
       FROM unnest(${IDS}, $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(id, salt, sealed, sealed_key, created_at)
     ), attached_scans AS (${enqueueJobsSql('$1', '$7::text', '$8')})`,
    params: [
      tenantId,
      accepted.map((a) => a.item.invocationId),
      accepted.map((a) => hex(a.item.salt)),
      accepted.map((a) => hex(a.item.sealed)),
      accepted.map((a) => hex(a.item.wrappedKey)),
      accepted.map((a) => a.createdAt),
      OUTPUT_SCAN_JOB,
      accepted.map((a) => JSON.stringify({ invocation_id: a.item.invocationId })),
    ],
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** attachOutputs as a set job: the results of concurrent requests to one workspace go in one transaction. */
export function attachOutputSet(
  opts: Omit<AttachOptions, 'now'> & { now: () => Date },
): SetJob<AttachItem, AttachResult> {
  const options = opts.contentDaysSql ? { contentDaysSql: opts.contentDaysSql } : {};
  return {
    // Answered for already (the call ran): a decision waiting behind it goes first, and
    // between parts of a burst (16 results, a transaction of about 3 ms on PostgreSQL).
    background: true,
    maxItems: 16,
    // A text's weight in a transaction (LogWriter's maxWeight), as the events' sealed outputs weigh.
    weight: (item) => item.sealed.length,
    // Read in the round trip that takes the lock: nothing is left to read under it.
    opening: (tenantId, items) =>
      attachStateStatement(tenantId, [...new Set(items.map((i) => i.invocationId))], options),
    run: (tx, log, items, opened) =>
      attachOutputs(tx, log, log.tenantId, items, { now: opts.now(), ...options }, opened),
  };
}
