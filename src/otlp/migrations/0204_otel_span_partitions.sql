-- Recorded spans by UTC month: the partitions module's maintenance makes the
-- months ahead (src/otlp/partitioned.ts OTEL_SPAN_PARTITIONS). A span's row
-- lives in its invocation's month: it gains the invocation's created_at (the
-- service's clock when it was recorded, never the client's), so a month of
-- invocations and of their spans goes together, and no client clock decides
-- which partitions exist.
--
-- The keys hold the partition key, as PostgreSQL requires. A re-sent span is
-- still recorded once: one sent again while its idempotency key answers is
-- answered with the first invocation, whose created_at its row takes (the
-- same key, so ON CONFLICT still finds it), and an earlier row is looked up
-- from the span's own time on (src/otlp/store.ts, SPAN_CLOCK_MARGIN_MS).
--
-- Existing rows move into their months' partitions here (below).

DROP INDEX otel_spans_invocation;
DROP INDEX otel_spans_parent;
DROP INDEX otel_spans_unredacted;
ALTER TABLE otel_spans RENAME TO otel_spans_unpartitioned;
ALTER INDEX otel_spans_pkey RENAME TO otel_spans_unpartitioned_pkey;
-- Row-level security binds the owner (FORCE): lifted to list the workspaces that have rows.
ALTER TABLE otel_spans_unpartitioned NO FORCE ROW LEVEL SECURITY;

CREATE TABLE otel_spans (
  tenant_id uuid NOT NULL,
  trace_id text NOT NULL CHECK (trace_id ~ '^[0-9a-f]{32}$'),
  span_id text NOT NULL CHECK (span_id ~ '^[0-9a-f]{16}$'),
  parent_span_id text CHECK (parent_span_id ~ '^[0-9a-f]{16}$'),
  invocation_id bigint NOT NULL,
  span_name text,
  span_kind text NOT NULL,
  operation text,
  start_time_unix_nano bigint NOT NULL,
  model text,
  provider text,
  usage jsonb,
  finish_reasons jsonb,
  tool_call_id text,
  conversation_id text,
  scope text,
  truncated jsonb,
  texts_erased_at timestamptz,
  texts_redacted boolean NOT NULL DEFAULT true,
  -- Its invocation's created_at: the span is kept in its invocation's month.
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, trace_id, span_id, created_at)
) PARTITION BY RANGE (created_at);
CREATE TABLE otel_spans_default PARTITION OF otel_spans DEFAULT;
REVOKE ALL ON otel_spans_default FROM agent_ledger_tenant;

-- Each workspace's spans, through ingest's read contract as the workspace
-- (its row-level security applies), into their invocations' months, a
-- partition made for each month met (named as the maintenance names them).
-- A span whose invocation is gone (its month dropped by the records
-- retention) takes the first day that gave out its invocation's id, so the
-- maintenance drops it with its month; one with neither, the time of this
-- migration.
DO $$
DECLARE
  t uuid;
  m timestamptz;
  name text;
BEGIN
  FOR t IN SELECT DISTINCT tenant_id FROM otel_spans_unpartitioned LOOP
    PERFORM set_config('app.tenant_id', t::text, true);
    CREATE TEMPORARY TABLE otel_spans_copy ON COMMIT DROP AS
      SELECT s.*, coalesce(i.created_at, ingest_read.invocations_from(s.tenant_id, ARRAY[s.invocation_id]), now())
        AS created_at
      FROM otel_spans_unpartitioned s
      LEFT JOIN ingest_read.invocations i ON i.tenant_id = s.tenant_id AND i.invocation_id = s.invocation_id
      WHERE s.tenant_id = t;
    FOR m IN SELECT DISTINCT date_trunc('month', created_at, 'UTC') FROM otel_spans_copy LOOP
      name := 'otel_spans_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM');
      IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relname = name) THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF otel_spans FOR VALUES FROM (%L) TO (%L)', name,
          m, (m AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC');
        EXECUTE format('REVOKE ALL ON %I FROM agent_ledger_tenant', name);
      END IF;
    END LOOP;
    INSERT INTO otel_spans (tenant_id, trace_id, span_id, parent_span_id, invocation_id, span_name, span_kind,
      operation, start_time_unix_nano, model, provider, usage, finish_reasons, tool_call_id, conversation_id, scope,
      truncated, texts_erased_at, texts_redacted, created_at)
    SELECT tenant_id, trace_id, span_id, parent_span_id, invocation_id, span_name, span_kind,
      operation, start_time_unix_nano, model, provider, usage, finish_reasons, tool_call_id, conversation_id, scope,
      truncated, texts_erased_at, texts_redacted, created_at
    FROM otel_spans_copy;
    DROP TABLE otel_spans_copy;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END $$;
DROP TABLE otel_spans_unpartitioned;

-- The indexes (0099, 0131), partitioned with the table.
CREATE UNIQUE INDEX otel_spans_invocation ON otel_spans (tenant_id, invocation_id, created_at);
CREATE INDEX otel_spans_parent ON otel_spans (tenant_id, trace_id, parent_span_id);
CREATE INDEX otel_spans_unredacted ON otel_spans (tenant_id) WHERE NOT texts_redacted;

ALTER TABLE otel_spans ENABLE ROW LEVEL SECURITY;
ALTER TABLE otel_spans FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON otel_spans USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- Spans whose texts are still stored as sent (0131) were all written before
-- now: every row written since is written redacted. The retention sweep finds
-- them (span-texts.ts redactLegacySpanTexts) bounded by this time, a constant
-- the planner folds, so it reads only the months that may hold one (a day
-- later, for a node whose clock ran ahead).
DO $$
BEGIN
  EXECUTE format(
    'CREATE FUNCTION otel_spans_unredacted_before() RETURNS timestamptz LANGUAGE sql IMMUTABLE AS %L',
    format('SELECT %L::timestamptz', now() + interval '1 day'));
END $$;
