import type { Queryable } from '../db/index.ts';
import { enqueue } from '../jobs/index.ts';
import { commitment, LEAF_VERSION, newSalt, type OpenAppend, type SetJob } from '../ledger/index.ts';
import { OUTPUT_SCAN_JOB } from './escalation.ts';
import { invocationTimeSql } from './invocation-time.ts';
import { sealText } from './sealed-output.ts';

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
  /** The time before which the workspace's content is past retention: attaching there is refused as erased. */
  contentDueBefore?: (tx: Queryable, tenantId: string, now: Date) => Promise<Date>;
}

const IDS = '$2::bigint[]';

/**
 * Attaches each item's text as its invocation's tool_output in the log's
 * transaction, in order: one answer per item. A second result for the same
 * invocation (in this set or before) is a conflict.
 */
export async function attachOutputs(
  tx: Queryable,
  log: OpenAppend,
  tenantId: string,
  items: readonly AttachItem[],
  opts: AttachOptions,
): Promise<AttachResult[]> {
  const ids = [...new Set(items.map((i) => i.invocationId))];
  const rows = await tx.query<{
    invocation_id: string | number;
    recorded_by_token: string | null;
    created_at: Date;
    has_output: boolean;
    erased: boolean;
  }>(
    `SELECT i.invocation_id, i.recorded_by_token, i.created_at,
            EXISTS (SELECT 1 FROM invocation_content c WHERE c.tenant_id = i.tenant_id
                      AND c.invocation_id = i.invocation_id AND c.created_at = i.created_at AND c.field = 'tool_output') AS has_output,
            EXISTS (SELECT 1 FROM invocation_content c WHERE c.tenant_id = i.tenant_id
                      AND c.invocation_id = i.invocation_id AND c.created_at = i.created_at AND c.erased_at IS NOT NULL) AS erased
     FROM invocations i
     WHERE i.tenant_id = $1 AND i.invocation_id = ANY(${IDS}) AND ${invocationTimeSql('i', '$1', IDS)}
     FOR UPDATE OF i`,
    [tenantId, ids],
  );
  const found = new Map(rows.map((r) => [Number(r.invocation_id), r]));
  // Past retention: the sweep has erased its month's texts and does not read them again (retention_sweeps).
  const due = found.size > 0 ? await opts.contentDueBefore?.(tx, tenantId, opts.now) : undefined;
  const attached = new Set<number>();
  const accepted: Array<{ item: AttachItem; createdAt: Date }> = [];
  const results: Array<AttachResult | 'accepted'> = items.map((item) => {
    const row = found.get(item.invocationId);
    if (!row || (item.token !== null && row.recorded_by_token !== item.token))
      return { ok: false, reason: 'not_found' };
    // One tool_output per invocation; none either once its content was erased (retention, a data subject's request).
    if (row.has_output || attached.has(item.invocationId)) return { ok: false, reason: 'conflict' };
    if (row.erased || (due !== undefined && new Date(row.created_at) < due)) return { ok: false, reason: 'erased' };
    attached.add(item.invocationId);
    accepted.push({ item, createdAt: row.created_at });
    return 'accepted';
  });
  if (accepted.length === 0) return results as AttachResult[];
  await tx.query(
    // Each in its invocation's month (the partition key is the invocation's created_at); its body empty until the
    // scan stores it redacted, as a tool_output sent with the invocation (prepare.ts).
    `INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, sealed, sealed_key, created_at)
     SELECT $1, x.id, 'tool_output', '', decode(x.salt, 'hex'), NULL, decode(x.sealed, 'hex'), decode(x.sealed_key, 'hex'), x.created_at
     FROM unnest(${IDS}, $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS x(id, salt, sealed, sealed_key, created_at)`,
    [
      tenantId,
      accepted.map((a) => a.item.invocationId),
      accepted.map((a) => hex(a.item.salt)),
      accepted.map((a) => hex(a.item.sealed)),
      accepted.map((a) => hex(a.item.wrappedKey)),
      accepted.map((a) => a.createdAt),
    ],
  );
  await enqueue(
    tx,
    tenantId,
    OUTPUT_SCAN_JOB,
    accepted.map((a) => ({ invocation_id: a.item.invocationId })),
  );
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

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** attachOutputs as a set job: the results of concurrent requests to one workspace go in one transaction. */
export function attachOutputSet(
  opts: Omit<AttachOptions, 'now'> & { now: () => Date },
): SetJob<AttachItem, AttachResult> {
  return {
    // Answered for already (the call ran): a decision waiting behind it goes first, and
    // between parts of a burst (16 results, a transaction of about 3 ms on PostgreSQL).
    background: true,
    maxItems: 16,
    // A text's weight in a transaction (LogWriter's maxWeight), as the events' sealed outputs weigh.
    weight: (item) => item.sealed.length,
    run: (tx, log, items) =>
      attachOutputs(tx, log, log.tenantId, items, {
        now: opts.now(),
        ...(opts.contentDueBefore ? { contentDueBefore: opts.contentDueBefore } : {}),
      }),
  };
}
