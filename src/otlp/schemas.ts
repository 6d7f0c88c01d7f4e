import { Type } from 'typebox';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** What an invocation recorded from an OTLP span keeps of the span (GET /api/v1/invocations/{id}). */
export const OtelDetailsSchema = Type.Object(
  {
    trace_id: Type.String({ description: "32 hex digits; also the invocation's correlation_id" }),
    span_id: Type.String({ description: '16 hex digits' }),
    parent_span_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The nearest recorded ancestor span known on arrival',
    }),
    span_name: NullableString,
    span_kind: Type.String({ description: 'internal, server, client, producer, consumer or unspecified' }),
    operation: Type.Union([Type.String(), Type.Null()], {
      description: 'gen_ai.operation.name, or the OpenInference/Vercel/Traceloop kind it was recognised by',
    }),
    start_time: Type.String({ format: 'date-time', description: 'When the span started (millisecond precision)' }),
    start_time_unix_nano: Type.String({ description: 'The start as sent, in nanoseconds since the epoch' }),
    model: NullableString,
    provider: NullableString,
    usage: Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()], {
      description: 'Token counts: input_tokens, output_tokens, …',
    }),
    finish_reasons: Type.Union([Type.Array(Type.String()), Type.Null()]),
    tool_call_id: NullableString,
    conversation_id: NullableString,
    scope: Type.Union([Type.String(), Type.Null()], { description: 'The instrumentation scope that emitted the span' }),
    truncated: Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()], {
      description: 'Text fields cut at 32,000 code points: field → the length sent',
    }),
    texts: Type.Union([Type.Literal('stored'), Type.Literal('withheld'), Type.Literal('erased')], {
      description:
        "The span's texts (span_name, operation, model, provider, finish_reasons, tool_call_id, conversation_id, scope) are content: " +
        'stored redacted and shown as stored (`stored`), null for viewers (`withheld`), null once retention or an erasure deleted them (`erased`)',
    }),
  },
  { description: 'Present when the invocation was recorded from an OTLP span' },
);
