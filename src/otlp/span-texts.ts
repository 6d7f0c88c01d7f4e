import type { Queryable } from '../db/index.ts';
import {
  type ContentSelector,
  type Redactor,
  redactMeta,
  SELECTED_INVOCATIONS,
  selectorParams,
} from '../ingest/index.ts';
import type { OtelExtras } from './mapping.ts';

// A span's texts are content: whatever a client put in its span name,
// operation, scope, model, provider, finish reasons, tool call id or
// conversation id (an e-mail address in a conversation id, a card number in a
// span name) is treated as the invocation's other content is. Stored redacted
// (the detectors' typed placeholders, as event metadata and review notes are),
// withheld from viewers, deleted by an erasure and by retention (the row stays,
// its texts null and marked erased). What the service itself writes — trace
// and span ids (checked hex), the span kind, the start time, token counts and
// the truncation marks — is not content and stays.

/** The otel_spans columns that hold a span's texts. */
export const SPAN_TEXT_COLUMNS = [
  'span_name',
  'operation',
  'model',
  'provider',
  'finish_reasons',
  'tool_call_id',
  'conversation_id',
  'scope',
] as const;

/** A span's texts (a span always has a name and an operation; they are null once erased or withheld). */
export type SpanTexts = { [K in (typeof SPAN_TEXT_COLUMNS)[number]]: OtelExtras[K] | null };

/**
 * Whether a reader sees a span's texts: `stored` (shown, redacted), `withheld`
 * (a viewer, who reads no stored content), `erased` (retention or an erasure
 * deleted them).
 */
export type SpanTextsState = 'stored' | 'withheld' | 'erased';

/** The span's texts as they are stored: each redacted (the memo of event metadata: model names and operations repeat). */
export function redactSpanTexts<T extends SpanTexts>(x: T, redact: Redactor): T {
  // A string stays a string: redaction only replaces what it finds.
  const one = <V extends string | null>(v: V): V => (v === null ? v : (redactMeta(redact, v) as V));
  return {
    ...x,
    span_name: one(x.span_name),
    operation: one(x.operation),
    model: one(x.model),
    provider: one(x.provider),
    finish_reasons: x.finish_reasons === null ? null : x.finish_reasons.map((r) => redactMeta(redact, r)),
    tool_call_id: one(x.tool_call_id),
    conversation_id: one(x.conversation_id),
    scope: one(x.scope),
  };
}

/** The texts of a span as a reader who may not see them gets them, and as erased ones are shown. */
export const NO_SPAN_TEXTS: SpanTexts = {
  span_name: null,
  operation: null,
  model: null,
  provider: null,
  finish_reasons: null,
  tool_call_id: null,
  conversation_id: null,
  scope: null,
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
  const rows = await tx.query(
    `UPDATE otel_spans s
     SET ${SPAN_TEXT_COLUMNS.map((c) => `${c} = NULL`).join(', ')}, texts_erased_at = $7, texts_redacted = true
     WHERE s.tenant_id = $1 AND s.invocation_id IN (
       SELECT x.invocation_id FROM otel_spans x
       WHERE x.tenant_id = $1 AND x.texts_erased_at IS NULL
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
  const rows = await tx.query<SpanTexts & { trace_id: string; span_id: string }>(
    `SELECT trace_id, span_id, ${SPAN_TEXT_COLUMNS.join(', ')} FROM otel_spans
     WHERE tenant_id = $1 AND NOT texts_redacted LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [tenantId, limit],
  );
  if (rows.length === 0) return 0;
  const done = rows.map((r) => redactSpanTexts(r, redact));
  const col = <T>(f: (r: (typeof done)[number]) => T) => done.map(f);
  await tx.query(
    `UPDATE otel_spans s
     SET span_name = r.span_name, operation = r.operation, model = r.model, provider = r.provider,
       finish_reasons = r.finish_reasons::jsonb, tool_call_id = r.tool_call_id, conversation_id = r.conversation_id,
       scope = r.scope, texts_redacted = true
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::text[])
       AS r(trace_id, span_id, span_name, operation, model, provider, finish_reasons, tool_call_id, conversation_id, scope)
     WHERE s.tenant_id = $1 AND s.trace_id = r.trace_id AND s.span_id = r.span_id`,
    [
      tenantId,
      col((r) => r.trace_id),
      col((r) => r.span_id),
      col((r) => r.span_name),
      col((r) => r.operation),
      col((r) => r.model),
      col((r) => r.provider),
      col((r) => (r.finish_reasons === null ? null : JSON.stringify(r.finish_reasons))),
      col((r) => r.tool_call_id),
      col((r) => r.conversation_id),
      col((r) => r.scope),
    ],
  );
  return rows.length;
}
