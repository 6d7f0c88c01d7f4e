-- OTLP trace ingest (src/otlp): one row per recorded span, beside the
-- invocation it became. The key (workspace, trace id, span id) makes a
-- re-sent span a no-op (OTLP clients re-send on any doubt), and the parent
-- span id resolves parent links whichever of parent and child arrives first.
CREATE TABLE otel_spans (
  tenant_id uuid NOT NULL,
  trace_id text NOT NULL CHECK (trace_id ~ '^[0-9a-f]{32}$'),
  span_id text NOT NULL CHECK (span_id ~ '^[0-9a-f]{16}$'),
  -- The nearest recorded ancestor known when the span arrived (the direct
  -- parent when that was not in the same export).
  parent_span_id text CHECK (parent_span_id ~ '^[0-9a-f]{16}$'),
  invocation_id bigint NOT NULL,
  span_name text NOT NULL,
  span_kind text NOT NULL,
  operation text NOT NULL,
  -- Nanoseconds since the epoch as sent (bigint holds them until 2262).
  start_time_unix_nano bigint NOT NULL,
  model text,
  provider text,
  usage jsonb,
  finish_reasons jsonb,
  tool_call_id text,
  conversation_id text,
  scope text,
  truncated jsonb,
  PRIMARY KEY (tenant_id, trace_id, span_id)
);
CREATE UNIQUE INDEX otel_spans_invocation ON otel_spans (tenant_id, invocation_id);
CREATE INDEX otel_spans_parent ON otel_spans (tenant_id, trace_id, parent_span_id);

ALTER TABLE otel_spans ENABLE ROW LEVEL SECURITY;
ALTER TABLE otel_spans FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON otel_spans USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
