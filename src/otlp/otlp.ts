import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/index.ts';
import type { OtlpDeps } from './record.ts';
import { otlpRoutes } from './routes.ts';
import { redactLegacySpanTexts } from './span-texts.ts';
import type { OtelDetails } from './schemas.ts';
import { otelDetails } from './store.ts';

// OTLP/HTTP trace ingest: agents that already export OpenTelemetry GenAI
// spans point their exporter at /api/v1/otel and are recorded like JSON
// invocations. Owns the otel_spans table.

export interface OtlpModule {
  routes(app: FastifyInstance): Promise<void>;
  /**
   * The OTLP facts of an invocation recorded from a span (null for JSON ones),
   * for the read side (by the invocation's id and created_at: its month); the
   * span's texts only `withTexts` (a role that reads stored content).
   */
  details(
    tx: Queryable,
    tenantId: string,
    invocation: { id: number; createdAt: Date },
    withTexts: boolean,
  ): Promise<OtelDetails | null>;
  /** Redacts stored span texts written before they were stored redacted, at most `limit` (the retention sweep runs it). */
  redactLegacyTexts(tx: Queryable, tenantId: string, limit: number): Promise<number>;
}

export function createOtlp(deps: OtlpDeps): OtlpModule {
  return {
    routes: (app) => otlpRoutes(app, deps),
    details: (tx, tenantId, invocation, withTexts) => otelDetails(tx, tenantId, invocation, withTexts, deps.redact),
    redactLegacyTexts: (tx, tenantId, limit) => redactLegacySpanTexts(tx, tenantId, deps.redact, limit),
  };
}
