// The otlp module's face: what other modules may use. Nothing else of otlp/ is imported from outside it.

export { createOtlp } from './otlp.ts';
export { OTEL_SPAN_PARTITIONS, otlpPartitions } from './partitioned.ts';
export { OtelDetailsSchema } from './schemas.ts';
export { eraseSpanTexts } from './span-texts.ts';
