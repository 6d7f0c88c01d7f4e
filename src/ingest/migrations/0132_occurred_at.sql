-- When an invocation happened, beside when it was recorded. created_at is
-- the service's clock when it recorded the event (its leaf's time: what the
-- log, reports, quotas, retention and erasure periods go by); occurred_at is
-- when the event itself says it happened, for the events that say so (an
-- OTLP span's start, bounded to [workspace created, receipt]: never after
-- created_at), null for the others, which happened when they were received.
-- The leaf's `meta` commits to it when set.
ALTER TABLE invocations ADD COLUMN occurred_at timestamptz;

-- The read contract shows every invocation's time of occurrence (created_at
-- when the event named none). Columns are only appended (CREATE OR REPLACE).
CREATE OR REPLACE VIEW ingest_read.invocations WITH (security_invoker = true) AS
  SELECT tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind, principal_id,
         parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count, log_index,
         review_status, output_scan_verdict, output_scan_reasons, output_scanned_at, created_at,
         coalesce(occurred_at, created_at) AS occurred_at
  FROM invocations;
