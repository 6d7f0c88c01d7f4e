import type { Queryable } from '../db/index.ts';
import type { Redactor } from '../ingest/index.ts';
import {
  JSON_COLUMNS,
  type OtelDetails,
  type OtelExtras,
  SPAN_TEXT_COLUMNS,
  type SpanTexts,
  type SpanTextsState,
} from './schemas.ts';
import { NO_SPAN_TEXTS, redactSpanTexts } from './span-texts.ts';

// The otel_spans table (this module's own): which spans are recorded, as
// which invocation, and the OTLP facts that have no column on an invocation.
//
// The table is partitioned by month of created_at, its invocation's (otlp
// migration 0204), and a span's ids carry no time: every lookup by ids names
// the months it can be in, so it reads those partitions' indexes, not one per
// month of history. A span's row is written when it is recorded, which is
// after it started (its time, as eventTime takes it: the start when the
// service can take it at its word, the receipt otherwise): a lookup reads from
// that time less SPAN_CLOCK_MARGIN_MS on. A span re-sent while its idempotency
// key answers (25 hours) is answered with its first invocation whatever this
// lookup finds; after that only a span whose client clock ran more than the
// margin ahead, re-sent more than the margin later, would be recorded again.

const DAY_MS = 86_400_000;

/**
 * How long before a span's time its row may have been written: clocks of
 * nodes and of clients a little ahead, and a re-send of a span whose start
 * the service could not take at its word (its time is then its receipt).
 */
export const SPAN_CLOCK_MARGIN_MS = 2 * DAY_MS;

/**
 * How long before a child started a parent that was recorded first may have
 * started. A parent usually ends, and is recorded, after its children; one
 * that ended first (work it started and did not wait for) and started more
 * than this before the child is not linked to it. Children waiting for a
 * parent started after it, so they are found from the parent's time on.
 */
export const PARENT_WINDOW_MS = 31 * DAY_MS;

export interface SpanKey {
  traceId: string;
  spanId: string;
}

/** A span with its time (eventTime): its row, if any, was written after `at` less the margin. */
export interface TimedSpanKey extends SpanKey {
  at: Date;
}

export const keyOf = (k: SpanKey) => `${k.traceId}/${k.spanId}`;

/**
 * The earliest any of these spans' rows can have been written (`more` earlier
 * still). One bound for the statement, not one per span: PostgreSQL prunes the
 * months once when execution starts; a bound per span made it prune again at
 * every probe of the loop, which cost an export's database work 1.42x the
 * unpartitioned table's time, one bound 1.08x (510 spans, 100k rows, same run).
 */
const since = (spans: ReadonlyArray<{ at: Date }>, more = 0) =>
  new Date(Math.min(...spans.map((s) => s.at.getTime())) - SPAN_CLOCK_MARGIN_MS - more).toISOString();
/** No row was written after `now` (a node's clock ahead of this one's by less than the margin). */
const until = (now: Date) => new Date(now.getTime() + SPAN_CLOCK_MARGIN_MS).toISOString();

/** The invocation each of these spans became, for those already recorded (as of `now`). */
export async function recordedSpans(
  tx: Queryable,
  tenantId: string,
  keys: readonly TimedSpanKey[],
  now: Date,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (keys.length === 0) return out;
  const rows = await tx.query<{ trace_id: string; span_id: string; invocation_id: string | number }>(
    // One primary-key lookup per key (LATERAL, fenced with OFFSET 0 so the planner
    // cannot flatten it: the keys drive the join), so
    // the cost follows the keys asked for, not the workspace's spans, however
    // stale the table's statistics are (see spanLinks); in the months from the
    // earliest key's time on.
    `SELECT k.trace_id, k.span_id, s.invocation_id
     FROM unnest($2::text[], $3::text[]) AS k(trace_id, span_id)
     CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = k.span_id
         AND created_at >= $4 AND created_at < $5 OFFSET 0) s`,
    [tenantId, keys.map((k) => k.traceId), keys.map((k) => k.spanId), since(keys), until(now)],
  );
  for (const r of rows) out.set(`${r.trace_id}/${r.span_id}`, Number(r.invocation_id));
  return out;
}

export interface SpanRow {
  invocationId: number;
  /** The invocation's created_at: the row's partition key. */
  recordedAt: Date;
  /** The span's time (eventTime). */
  at: Date;
  parentSpanId: string | null;
  extras: OtelExtras;
}

/**
 * otel_spans' columns as a span's row fills them, declared once: the INSERT's
 * column list, its unnest parameters and their values are made from it.
 */
const SPAN_COLUMNS: ReadonlyArray<
  readonly [name: string, type: 'text' | 'bigint' | 'timestamptz', value: (r: SpanRow) => unknown]
> = [
  ['trace_id', 'text', (r) => r.extras.trace_id],
  ['span_id', 'text', (r) => r.extras.span_id],
  ['parent_span_id', 'text', (r) => r.parentSpanId],
  ['invocation_id', 'bigint', (r) => r.invocationId],
  ['span_kind', 'text', (r) => r.extras.span_kind],
  ['start_time_unix_nano', 'bigint', (r) => r.extras.start_time_unix_nano],
  ['usage', 'text', (r) => r.extras.usage],
  ['truncated', 'text', (r) => r.extras.truncated],
  ['created_at', 'timestamptz', (r) => r.recordedAt.toISOString()],
  ...SPAN_TEXT_COLUMNS.map((c) => [c, 'text', (r: SpanRow) => r.extras[c]] as const),
];

const INSERT_SPANS = (() => {
  const names = SPAN_COLUMNS.map(([n]) => n);
  return `INSERT INTO otel_spans (tenant_id, ${names.join(', ')})
     SELECT $1, ${names.map((n) => (JSON_COLUMNS.has(n) ? `r.${n}::jsonb` : `r.${n}`)).join(', ')}
     FROM unnest(${SPAN_COLUMNS.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')}) AS r(${names.join(', ')})
     ON CONFLICT DO NOTHING`;
})();

/** One statement for the whole export; a span stored meanwhile (a concurrent export of it) keeps its row. */
export async function insertSpans(tx: Queryable, tenantId: string, rows: readonly SpanRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(INSERT_SPANS, [
    tenantId,
    ...SPAN_COLUMNS.map(([name, , value]) =>
      rows.map((r) => {
        const v = value(r);
        return JSON_COLUMNS.has(name) && v !== null ? JSON.stringify(v) : v;
      }),
    ),
  ]);
}

/**
 * The parent links these (just stored) spans complete, in either direction:
 * each span to its stored parent, and stored children that were waiting for
 * it (a parent usually arrives after its children: spans are exported when
 * they end). One statement.
 */
export async function spanLinks(
  tx: Queryable,
  tenantId: string,
  spans: readonly SpanRow[],
  now: Date,
): Promise<Array<{ child: number; parent: number }>> {
  if (spans.length === 0) return [];
  // The export's keys drive every lookup (LATERAL, fenced with OFFSET 0 so the
  // planner cannot flatten it into a join of its choosing), through the primary key
  // and the parent index: with a fast-growing table's stale statistics the
  // planner otherwise read the workspace's spans once per key (a join like
  // this one took 2 s for 340 links among 28,000 rows). Each names its months:
  // the spans' own rows between the earliest and latest created_at given them,
  // their parents from PARENT_WINDOW_MS before the earliest span's time, their
  // children from that time.
  const rows = await tx.query<{ child: string | number; parent: string | number }>(
    `WITH k AS (SELECT * FROM unnest($2::text[], $3::text[]) AS k(trace_id, span_id))
     SELECT c.invocation_id AS child, p.invocation_id AS parent
     FROM k CROSS JOIN LATERAL (SELECT invocation_id, parent_span_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = k.span_id
         AND created_at >= $4 AND created_at <= $5 OFFSET 0) c
     CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = c.parent_span_id
         AND created_at >= $6 AND created_at < $8 OFFSET 0) p
     UNION
     SELECT c.invocation_id, p.invocation_id
     FROM k CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = k.span_id
         AND created_at >= $4 AND created_at <= $5 OFFSET 0) p
     CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND parent_span_id = k.span_id
         AND created_at >= $7 AND created_at < $8 OFFSET 0) c`,
    [
      tenantId,
      spans.map((r) => r.extras.trace_id),
      spans.map((r) => r.extras.span_id),
      new Date(Math.min(...spans.map((r) => r.recordedAt.getTime()))).toISOString(),
      new Date(Math.max(...spans.map((r) => r.recordedAt.getTime()))).toISOString(),
      since(spans, PARENT_WINDOW_MS),
      since(spans),
      until(now),
    ],
  );
  return rows.map((r) => ({ child: Number(r.child), parent: Number(r.parent) }));
}

/**
 * What an invocation recorded from a span keeps of it; null for one that came
 * in as JSON. Read by its invocation's created_at (within the millisecond a
 * Date holds of it): one month's partition. The span's texts only `withTexts` (a role that reads stored
 * content); a row written before texts were stored redacted is redacted as it
 * is read.
 */
export async function otelDetails(
  tx: Queryable,
  tenantId: string,
  invocation: { id: number; createdAt: Date },
  withTexts: boolean,
  redact: Redactor,
): Promise<OtelDetails | null> {
  const [r] = await tx.query<Record<string, unknown>>(
    `SELECT trace_id, span_id, parent_span_id, span_kind, start_time_unix_nano::text AS start_ns, usage, truncated,
       ${SPAN_TEXT_COLUMNS.join(', ')}, texts_erased_at IS NOT NULL AS erased, texts_redacted
     FROM otel_spans WHERE tenant_id = $1 AND invocation_id = $2
       AND created_at >= $3 AND created_at <= $4`,
    [
      tenantId,
      invocation.id,
      new Date(invocation.createdAt.getTime() - 1).toISOString(),
      new Date(invocation.createdAt.getTime() + 1).toISOString(),
    ],
  );
  if (!r) return null;
  const ns = BigInt(r.start_ns as string);
  const texts: SpanTextsState = r.erased === true ? 'erased' : withTexts ? 'stored' : 'withheld';
  const stored = Object.fromEntries(SPAN_TEXT_COLUMNS.map((c) => [c, r[c] ?? null])) as SpanTexts;
  return {
    trace_id: r.trace_id as string,
    span_id: r.span_id as string,
    parent_span_id: (r.parent_span_id as string | null) ?? null,
    span_kind: r.span_kind as string,
    start_time: new Date(Number(ns / 1_000_000n)).toISOString(),
    start_time_unix_nano: ns.toString(),
    usage: (r.usage as Record<string, number> | null) ?? null,
    truncated: (r.truncated as Record<string, number> | null) ?? null,
    ...(texts !== 'stored' ? NO_SPAN_TEXTS : r.texts_redacted === true ? stored : redactSpanTexts(stored, redact)),
    texts,
  };
}
