import { HttpProblem } from '../core/index.ts';

// How much an export may make the service build. A protobuf or JSON body is
// small next to the objects decoding it makes: an empty span is 2 bytes on the
// wire and hundreds in memory, so a 16 KB gzip of 8 M empty spans once froze
// the process for seconds. The body is therefore measured as it streams in
// (wire-format and JSON walkers in body-walkers.ts) against these counts, and
// refused with 413 at the first one exceeded, before anything is decoded.
// Each is far above what an exporter sends: an SDK batch is 512 spans with at
// most 128 attributes, events and links each; a collector batch 8,192 spans.

export const EXPORT_BOUNDS = {
  /** ResourceSpans in one export. */
  resources: 8_192,
  /** ScopeSpans in one export. */
  scopes: 8_192,
  /** Spans in one export (recorded or not). */
  spans: 8_192,
  /** Span events in one export. */
  events: 65_536,
  /** Span links in one export (read past, never stored; still decoded as JSON). */
  links: 65_536,
  /** Attribute values in one export: key-value pairs and array elements, at any depth, anywhere. */
  values: 131_072,
  /** Nesting of attribute values (arrays and maps within arrays and maps). */
  valueDepth: 32,
  /** Embedded protobuf messages of any kind (each one an object once decoded). */
  messages: 524_288,
  /** Protobuf fields of any kind (what the decoder steps through). */
  fields: 1_048_576,
  /** Structural tokens of an OTLP/JSON body (`{`, `[`, `:`, `,`: about one per value JSON.parse builds). */
  jsonTokens: 1_048_576,
  /** JSON nesting: an OTLP/JSON span attribute is ~11 deep, each level of value nesting adds 3. */
  jsonDepth: 128,
} as const;

export type BoundName = keyof typeof EXPORT_BOUNDS;

const WHAT: Record<BoundName, string> = {
  resources: 'resourceSpans',
  scopes: 'scopeSpans',
  spans: 'spans',
  events: 'span events',
  links: 'span links',
  values: 'attribute values',
  valueDepth: 'levels of nested attribute values',
  messages: 'protobuf messages',
  fields: 'protobuf fields',
  jsonTokens: 'JSON tokens',
  jsonDepth: 'levels of JSON nesting',
};

/** The 413 of an export over one of the bounds (an OTLP google.rpc.Status answer, like every error). */
export function overBound(name: BoundName): HttpProblem {
  const advice =
    name === 'valueDepth' || name === 'jsonDepth'
      ? 'flatten the attribute values'
      : 'send smaller batches (OTEL_BSP_MAX_EXPORT_BATCH_SIZE)';
  return new HttpProblem(
    'payload_too_large',
    `The export holds more than ${EXPORT_BOUNDS[name]} ${WHAT[name]}; nothing was recorded: ${advice}.`,
  );
}
