import { type Static, Type } from 'typebox';

// What the service keeps of a recorded span, declared once: the response
// schema of GET /api/v1/invocations/{id}'s `otel` block, and from it the
// types the mapping fills (OtelExtras), the store writes and reads, and the
// span's texts (span-texts.ts) that are treated as content.

const NullableString = (description?: string) =>
  Type.Union([Type.String(), Type.Null()], description === undefined ? {} : { description });

/** What the service keeps of a span as sent: its ids, kind, start, token counts and truncation marks. */
const spanFacts = {
  trace_id: Type.String({ description: "32 hex digits; also the invocation's correlation_id" }),
  span_id: Type.String({ description: '16 hex digits' }),
  parent_span_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The nearest recorded ancestor span known on arrival',
  }),
  span_kind: Type.String({ description: 'internal, server, client, producer, consumer or unspecified' }),
  start_time_unix_nano: Type.String({ description: 'The start as sent, in nanoseconds since the epoch' }),
  usage: Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()], {
    description: 'Token counts: input_tokens, output_tokens, …',
  }),
  truncated: Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()], {
    description: 'Text fields cut at 32,000 code points: field → the length sent',
  }),
};

/**
 * A span's texts: client content wherever in the span they were (span-texts.ts),
 * stored redacted, null for viewers and once erased. Their keys are the
 * otel_spans columns that hold them.
 */
const spanTexts = {
  span_name: NullableString(),
  operation: NullableString('gen_ai.operation.name, or the OpenInference/Vercel/Traceloop kind it was recognised by'),
  model: NullableString(),
  provider: NullableString(),
  finish_reasons: Type.Union([Type.Array(Type.String()), Type.Null()]),
  tool_call_id: NullableString(),
  conversation_id: NullableString(),
  scope: NullableString('The instrumentation scope that emitted the span'),
};

/** What an invocation recorded from an OTLP span keeps of the span (GET /api/v1/invocations/{id}). */
export const OtelDetailsSchema = Type.Object(
  {
    ...spanFacts,
    start_time: Type.String({ format: 'date-time', description: 'When the span started (millisecond precision)' }),
    ...spanTexts,
    texts: Type.Union([Type.Literal('stored'), Type.Literal('withheld'), Type.Literal('erased')], {
      description:
        `The span's texts (${Object.keys(spanTexts).join(', ')}) are content: ` +
        'stored redacted and shown as stored (`stored`), null for viewers (`withheld`), null once retention or an erasure deleted them (`erased`)',
    }),
  },
  { description: 'Present when the invocation was recorded from an OTLP span' },
);

export type OtelDetails = Static<typeof OtelDetailsSchema>;
/** A span's texts (a span always has a name and an operation; they are null once erased or withheld). */
export type SpanTexts = Pick<OtelDetails, keyof typeof spanTexts>;
/** What the mapping takes from a span to keep (mapping.ts): its facts and its texts as sent. */
export type OtelExtras = Pick<OtelDetails, keyof typeof spanFacts | keyof typeof spanTexts>;
/**
 * Whether a reader sees a span's texts: `stored` (shown, redacted), `withheld`
 * (a viewer, who reads no stored content), `erased` (retention or an erasure
 * deleted them).
 */
export type SpanTextsState = OtelDetails['texts'];

/** The otel_spans columns that hold a span's texts. */
export const SPAN_TEXT_COLUMNS = Object.keys(spanTexts) as Array<keyof SpanTexts>;

/** The otel_spans columns of objects and arrays (jsonb; their values are sent as JSON text). */
export const JSON_COLUMNS: ReadonlySet<string> = new Set(['usage', 'truncated', 'finish_reasons']);
