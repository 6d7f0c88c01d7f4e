-- What other modules may read of ingest's tables, and ingest taking over the
-- per-agent counters. Before this, the read side (review) and reports named
-- ingest's tables in their SQL, and 0060 put triggers on them; now:
--
-- 1. The schema ingest_read holds ingest's read contract: one view per table
--    others read, with the columns they may rely on (src/ingest/read-contract.test.ts
--    checks them). Nothing outside src/ingest names an ingest table; the
--    tables may change as long as these views keep their columns.
--    security_invoker: a view reads with the caller's rights, so row-level
--    security applies exactly as on the tables (a tenant-scoped transaction
--    sees its own workspace only). The views are plain projections, so the
--    planner reads them as the tables: the same indexes and plans.
-- 2. The per-agent counters agent_activity and agent_rogue_activity are
--    roll-ups of invocations and rogue_events kept by triggers on them, so
--    they are ingest's: their triggers are re-created here under ingest's
--    name (same functions, same statement-level transition tables). The
--    indexes 0060 made on invocations and rogue_events are ingest's too.

CREATE SCHEMA ingest_read;
GRANT USAGE ON SCHEMA ingest_read TO agent_ledger_tenant;

CREATE VIEW ingest_read.invocations WITH (security_invoker = true) AS
  SELECT tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind, principal_id,
         parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count, log_index,
         review_status, output_scan_verdict, output_scan_reasons, output_scanned_at, created_at
  FROM invocations;

-- The stored (redacted) text and its findings; not the salt, which only the
-- leaf's commitment needs.
CREATE VIEW ingest_read.invocation_content WITH (security_invoker = true) AS
  SELECT tenant_id, invocation_id, field, body, findings, erased_at FROM invocation_content;

CREATE VIEW ingest_read.rogue_events WITH (security_invoker = true) AS
  SELECT tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id, severity, source,
         invocation_id, log_index, created_at
  FROM rogue_events;

CREATE VIEW ingest_read.agents WITH (security_invoker = true) AS
  SELECT tenant_id, agent_key, first_seen_at FROM agents;

CREATE VIEW ingest_read.agent_activity WITH (security_invoker = true) AS
  SELECT tenant_id, agent_key, verdict, mode, outcome, invocations, pii_invocations, pii_findings, first_at, last_at
  FROM agent_activity;

CREATE VIEW ingest_read.agent_rogue_activity WITH (security_invoker = true) AS
  SELECT tenant_id, agent_key, event_type, events, first_at, last_at FROM agent_rogue_activity;

GRANT SELECT ON ALL TABLES IN SCHEMA ingest_read TO agent_ledger_tenant;

-- The counters' triggers, as ingest's (0060's functions, renamed).
DROP TRIGGER review_count_inserted ON invocations;
DROP TRIGGER review_count_deleted ON invocations;
DROP TRIGGER review_count_inserted ON rogue_events;
DROP TRIGGER review_count_deleted ON rogue_events;
ALTER FUNCTION review_count_invocations() RENAME TO ingest_count_invocations;
ALTER FUNCTION review_count_rogue_events() RENAME TO ingest_count_rogue_events;
CREATE TRIGGER ingest_count_inserted AFTER INSERT ON invocations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_invocations();
CREATE TRIGGER ingest_count_deleted AFTER DELETE ON invocations
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_invocations();
CREATE TRIGGER ingest_count_inserted AFTER INSERT ON rogue_events
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_rogue_events();
CREATE TRIGGER ingest_count_deleted AFTER DELETE ON rogue_events
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_rogue_events();
