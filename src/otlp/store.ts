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

export interface SpanKey {
  traceId: string;
  spanId: string;
}

export const keyOf = (k: SpanKey) => `${k.traceId}/${k.spanId}`;

/** The invocation each of these spans became, for those already recorded. */
export async function recordedSpans(
  tx: Queryable,
  tenantId: string,
  keys: readonly SpanKey[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (keys.length === 0) return out;
  const rows = await tx.query<{ trace_id: string; span_id: string; invocation_id: string | number }>(
    // One primary-key lookup per key (LATERAL, fenced with OFFSET 0 so the planner
    // cannot flatten it: the keys drive the join), so
    // the cost follows the keys asked for, not the workspace's spans, however
    // stale the table's statistics are (see spanLinks).
    `SELECT k.trace_id, k.span_id, s.invocation_id
     FROM unnest($2::text[], $3::text[]) AS k(trace_id, span_id)
     CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = k.span_id OFFSET 0) s`,
    [tenantId, keys.map((k) => k.traceId), keys.map((k) => k.spanId)],
  );
  for (const r of rows) out.set(`${r.trace_id}/${r.span_id}`, Number(r.invocation_id));
  return out;
}

export interface SpanRow {
  invocationId: number;
  parentSpanId: string | null;
  extras: OtelExtras;
}

/**
 * otel_spans' columns as a span's row fills them, declared once: the INSERT's
 * column list, its unnest parameters and their values are made from it.
 */
const SPAN_COLUMNS: ReadonlyArray<readonly [name: string, type: 'text' | 'bigint', value: (r: SpanRow) => unknown]> = [
  ['trace_id', 'text', (r) => r.extras.trace_id],
  ['span_id', 'text', (r) => r.extras.span_id],
  ['parent_span_id', 'text', (r) => r.parentSpanId],
  ['invocation_id', 'bigint', (r) => r.invocationId],
  ['span_kind', 'text', (r) => r.extras.span_kind],
  ['start_time_unix_nano', 'bigint', (r) => r.extras.start_time_unix_nano],
  ['usage', 'text', (r) => r.extras.usage],
  ['truncated', 'text', (r) => r.extras.truncated],
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
  spans: readonly SpanKey[],
): Promise<Array<{ child: number; parent: number }>> {
  if (spans.length === 0) return [];
  // The export's keys drive every lookup (LATERAL, fenced with OFFSET 0 so the
  // planner cannot flatten it into a join of its choosing), through the primary key
  // and the parent index: with a fast-growing table's stale statistics the
  // planner otherwise read the workspace's spans once per key (a join like
  // this one took 2 s for 340 links among 28,000 rows).
  const rows = await tx.query<{ child: string | number; parent: string | number }>(
    `WITH k AS (SELECT * FROM unnest($2::text[], $3::text[]) AS k(trace_id, span_id))
     SELECT c.invocation_id AS child, p.invocation_id AS parent
     FROM k CROSS JOIN LATERAL (SELECT invocation_id, parent_span_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = k.span_id OFFSET 0) c
     CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = c.parent_span_id OFFSET 0) p
     UNION
     SELECT c.invocation_id, p.invocation_id
     FROM k CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND span_id = k.span_id OFFSET 0) p
     CROSS JOIN LATERAL (SELECT invocation_id FROM otel_spans
       WHERE tenant_id = $1 AND trace_id = k.trace_id AND parent_span_id = k.span_id OFFSET 0) c`,
    [tenantId, spans.map((k) => k.traceId), spans.map((k) => k.spanId)],
  );
  return rows.map((r) => ({ child: Number(r.child), parent: Number(r.parent) }));
}

/**
 * What an invocation recorded from a span keeps of it; null for one that came
 * in as JSON. The span's texts only `withTexts` (a role that reads stored
 * content); a row written before texts were stored redacted is redacted as it
 * is read.
 */
export async function otelDetails(
  tx: Queryable,
  tenantId: string,
  invocationId: number,
  withTexts: boolean,
  redact: Redactor,
): Promise<OtelDetails | null> {
  const [r] = await tx.query<Record<string, unknown>>(
    `SELECT trace_id, span_id, parent_span_id, span_kind, start_time_unix_nano::text AS start_ns, usage, truncated,
       ${SPAN_TEXT_COLUMNS.join(', ')}, texts_erased_at IS NOT NULL AS erased, texts_redacted
     FROM otel_spans WHERE tenant_id = $1 AND invocation_id = $2`,
    [tenantId, invocationId],
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
