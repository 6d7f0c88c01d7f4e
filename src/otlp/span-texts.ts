import type { Queryable } from '../db/index.ts';
import {
  type ContentSelector,
  type Redactor,
  redactMeta,
  SELECTED_INVOCATIONS,
  selectorParams,
} from '../ingest/index.ts';
import { JSON_COLUMNS, SPAN_TEXT_COLUMNS, type SpanTexts } from './schemas.ts';

// A span's texts are content: whatever a client put in its span name,
// operation, scope, model, provider, finish reasons, tool call id or
// conversation id (an e-mail address in a conversation id, a card number in a
// span name) is treated as the invocation's other content is. Stored redacted
// (the detectors' typed placeholders, as event metadata and review notes are),
// withheld from viewers, deleted by an erasure and by retention (the row stays,
// its texts null and marked erased). What the service itself writes — trace
// and span ids (checked hex), the span kind, the start time, token counts and
// the truncation marks — is not content and stays.

/** The span's texts as they are stored: each redacted (the memo of event metadata: model names and operations repeat). */
export function redactSpanTexts<T extends SpanTexts>(x: T, redact: Redactor): T {
  const out: Record<string, unknown> = { ...x };
  for (const c of SPAN_TEXT_COLUMNS) {
    const v = x[c];
    out[c] = v === null ? v : Array.isArray(v) ? v.map((t) => redactMeta(redact, t)) : redactMeta(redact, v);
  }
  return out as T; // a string stays a string: redaction only replaces what it finds
}

/** The texts of a span as a reader who may not see them gets them, and as erased ones are shown. */
export const NO_SPAN_TEXTS = Object.fromEntries(SPAN_TEXT_COLUMNS.map((c) => [c, null])) as {
  [K in keyof SpanTexts]: null;
};

/**
 * Erases the texts of at most `limit` spans of the selected invocations (the
 * erasure selector; retention passes `to`, the cutoff). Returns how many.
 */
export async function eraseSpanTexts(
  tx: Queryable,
  tenantId: string,
  sel: ContentSelector,
  now: Date,
  limit = 10_000,
): Promise<number> {
  const set = `${SPAN_TEXT_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, texts_erased_at = $4, texts_redacted = true`;
  if (sel.principalId === undefined && sel.agentKey === undefined) {
    // A period alone (retention): a span's created_at is its invocation's, so the spans are found by their own
    // time in the index of those not yet erased (otlp migration 0220), oldest first — each chunk starts at the
    // first still to erase, and no invocation is read.
    const rows = await tx.query(
      `UPDATE otel_spans s SET ${set}
       WHERE s.tenant_id = $1 AND s.texts_erased_at IS NULL
         AND ($2::timestamptz IS NULL OR s.created_at >= $2::timestamptz)
         AND ($3::timestamptz IS NULL OR s.created_at < $3::timestamptz)
         AND (s.trace_id, s.span_id, s.created_at) IN (
           SELECT x.trace_id, x.span_id, x.created_at FROM otel_spans x
           WHERE x.tenant_id = $1 AND x.texts_erased_at IS NULL
             AND ($2::timestamptz IS NULL OR x.created_at >= $2::timestamptz)
             AND ($3::timestamptz IS NULL OR x.created_at < $3::timestamptz)
           ORDER BY x.created_at LIMIT $5)
       RETURNING 1`,
      [tenantId, sel.from?.toISOString() ?? null, sel.to?.toISOString() ?? null, now.toISOString(), limit],
    );
    return rows.length;
  }
  const rows = await tx.query(
    `UPDATE otel_spans s
     SET ${set.replace('$4', '$7')}
     WHERE s.tenant_id = $1
       AND ($4::timestamptz IS NULL OR s.created_at >= $4::timestamptz)
       AND ($5::timestamptz IS NULL OR s.created_at < $5::timestamptz)
       AND (s.invocation_id, s.created_at) IN (
       SELECT x.invocation_id, x.created_at FROM otel_spans x
       WHERE x.tenant_id = $1 AND x.texts_erased_at IS NULL
         -- A span is in its invocation's month: a period reads only its months' partitions.
         AND ($4::timestamptz IS NULL OR x.created_at >= $4::timestamptz)
         AND ($5::timestamptz IS NULL OR x.created_at < $5::timestamptz)
         AND x.invocation_id IN (SELECT invocation_id FROM ${SELECTED_INVOCATIONS})
       LIMIT $6)
     RETURNING 1`,
    [...selectorParams(tenantId, sel), limit, now.toISOString()],
  );
  return rows.length;
}

/**
 * Redacts, where they are stored, the texts of at most `limit` spans written
 * before a span's texts were stored redacted (otlp migration 0131 marks them
 * `texts_redacted = false`; until then the read side redacts them as it reads
 * them). Run by the retention sweep until none is left. Returns how many.
 */
export async function redactLegacySpanTexts(
  tx: Queryable,
  tenantId: string,
  redact: Redactor,
  limit = 1_000,
): Promise<number> {
  // Only rows written before otlp migration 0204 can be unredacted: the months after it are not read.
  // created_at as text: to the microsecond, as it is matched below.
  const rows = await tx.query<SpanTexts & { trace_id: string; span_id: string; created_at: string }>(
    `SELECT trace_id, span_id, created_at::text AS created_at, ${SPAN_TEXT_COLUMNS.join(', ')} FROM otel_spans
     WHERE tenant_id = $1 AND NOT texts_redacted AND created_at < otel_spans_unredacted_before()
     LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [tenantId, limit],
  );
  if (rows.length === 0) return 0;
  const done = rows.map((r) => redactSpanTexts(r, redact));
  const cast = (c: string) => (JSON_COLUMNS.has(c) ? `r.${c}::jsonb` : `r.${c}`);
  await tx.query(
    `UPDATE otel_spans s
     SET ${SPAN_TEXT_COLUMNS.map((c) => `${c} = ${cast(c)}`).join(', ')}, texts_redacted = true
     FROM unnest($2::text[], $3::text[], $4::timestamptz[], ${SPAN_TEXT_COLUMNS.map((_, i) => `$${i + 5}::text[]`).join(', ')})
       AS r(trace_id, span_id, created_at, ${SPAN_TEXT_COLUMNS.join(', ')})
     WHERE s.tenant_id = $1 AND s.trace_id = r.trace_id AND s.span_id = r.span_id AND s.created_at = r.created_at
       AND s.created_at < otel_spans_unredacted_before()`,
    [
      tenantId,
      done.map((r) => r.trace_id),
      done.map((r) => r.span_id),
      done.map((r) => r.created_at),
      ...SPAN_TEXT_COLUMNS.map((c) =>
        done.map((r) => (JSON_COLUMNS.has(c) && r[c] !== null ? JSON.stringify(r[c]) : r[c])),
      ),
    ],
  );
  return rows.length;
}
