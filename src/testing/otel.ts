import { context, type Attributes, type Span, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as HttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  type SpanExporter,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

// The real OpenTelemetry JS SDK, configured as an application would be, for
// tests that send spans at a listening service.

export type Protocol = 'http/protobuf' | 'http/json';

export interface OtelClient {
  tracer: Tracer;
  /** Exports everything ended so far (one request per batch of up to 512 spans). */
  flush(): Promise<void>;
  /** Every span ended so far, as the SDK hands them to exporters. */
  ended(): ReadableSpan[];
  /** Result codes of the exports made so far (0 = success), oldest first. */
  results: Array<{ code: number; error?: Error | undefined }>;
  /** Sends these spans through a fresh exporter of the protocol; resolves with the SDK's result code (0 = success). */
  exportAgain(spans: ReadableSpan[]): Promise<{ code: number; error?: Error | undefined }>;
  shutdown(): Promise<void>;
}

export function exporterFor(protocol: Protocol, baseUrl: string, token: string, gzip = false): SpanExporter {
  const opts = {
    url: `${baseUrl}/api/v1/otel/v1/traces`,
    headers: { Authorization: `Bearer ${token}` },
    ...(gzip ? { compression: 'gzip' as never } : {}),
  };
  return protocol === 'http/protobuf' ? new ProtoExporter(opts) : new HttpJsonExporter(opts);
}

export function otelClient(opts: {
  baseUrl: string;
  token: string;
  protocol: Protocol;
  resource?: Attributes;
  gzip?: boolean;
}): OtelClient {
  const memory = new InMemorySpanExporter();
  const results: OtelClient['results'] = [];
  const inner = exporterFor(opts.protocol, opts.baseUrl, opts.token, opts.gzip);
  const recording: SpanExporter = {
    export: (spans, cb) =>
      inner.export(spans, (r) => {
        results.push({ code: r.code, error: r.error });
        cb(r);
      }),
    shutdown: () => inner.shutdown(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'test-service', ...opts.resource }),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: recording, scheduledDelayMillis: 60_000, maxExportBatchSize: 512 }),
      new BatchSpanProcessor({ exporter: memory, scheduledDelayMillis: 60_000 }),
    ],
  });
  const tracer = provider.getTracer('agent-ledger-test', '1.0.0');
  return {
    tracer,
    results,
    flush: () => provider.forceFlush(),
    ended: () => memory.getFinishedSpans(),
    exportAgain: (spans) =>
      new Promise((resolve) =>
        exporterFor(opts.protocol, opts.baseUrl, opts.token, opts.gzip).export(spans, (r) =>
          resolve({ code: r.code, error: r.error }),
        ),
      ),
    shutdown: () => provider.shutdown(),
  };
}

/** Starts a span as a child of parent (no context manager needed). */
export function childSpan(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  parent?: Span,
  kind: SpanKind = SpanKind.INTERNAL,
): Span {
  const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
  return tracer.startSpan(name, { attributes, kind }, ctx);
}
