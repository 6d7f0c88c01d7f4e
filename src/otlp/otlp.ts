import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/index.ts';
import type { OtlpDeps } from './record.ts';
import { otlpRoutes } from './routes.ts';
import { type OtelDetails, otelDetails } from './store.ts';

// OTLP/HTTP trace ingest: agents that already export OpenTelemetry GenAI
// spans point their exporter at /api/v1/otel and are recorded like JSON
// invocations. Owns the otel_spans table.

export interface OtlpModule {
  routes(app: FastifyInstance): Promise<void>;
  /** The OTLP facts of an invocation recorded from a span (null for JSON ones), for the read side. */
  details(tx: Queryable, tenantId: string, invocationId: number): Promise<OtelDetails | null>;
}

export function createOtlp(deps: OtlpDeps): OtlpModule {
  return {
    routes: (app) => otlpRoutes(app, deps),
    details: otelDetails,
  };
}
