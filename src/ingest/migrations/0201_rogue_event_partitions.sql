-- Rogue events by UTC month: the partitions module's maintenance makes the
-- months ahead (src/ingest/partitioned.ts ROGUE_EVENT_PARTITIONS); nothing
-- drops them yet. The primary key holds the partition key, as PostgreSQL
-- requires: (tenant_id, rogue_event_id, created_at) — ids are still given out
-- once per workspace under the log's lock, so an id names one row. Reads
-- that have a time (lists by time, the views of leaves) read only that
-- time's months; reads by id alone probe each month's key index.
-- Existing rows move into their months' partitions here; a row whose month
-- has no partition yet lands in rogue_events_default until the maintenance
-- moves it into its month's.

-- The view and the triggers name the table; they are made again on the new one.
DROP VIEW ingest_read.rogue_events;
ALTER TABLE rogue_events RENAME TO rogue_events_unpartitioned;
ALTER INDEX rogue_events_pkey RENAME TO rogue_events_unpartitioned_pkey;
DROP INDEX rogue_events_created;
DROP INDEX rogue_events_agent;
DROP INDEX rogue_events_type;
DROP TRIGGER ingest_count_inserted ON rogue_events_unpartitioned;
DROP TRIGGER ingest_count_deleted ON rogue_events_unpartitioned;
-- Row-level security binds the owner (FORCE): lifted to copy every workspace's rows.
ALTER TABLE rogue_events_unpartitioned NO FORCE ROW LEVEL SECURITY;

CREATE TABLE rogue_events (
  tenant_id uuid NOT NULL,
  rogue_event_id bigint NOT NULL,
  event_type text NOT NULL,
  agent_key text NOT NULL,
  actor_agent_key text,
  tool text,
  user_id text,
  severity text,
  source text,
  -- Set when the service itself recorded the event (a tool outside the agent's scope).
  invocation_id bigint,
  log_index bigint NOT NULL,
  created_at timestamptz NOT NULL,
  meta_salt bytea,
  PRIMARY KEY (tenant_id, rogue_event_id, created_at)
) PARTITION BY RANGE (created_at);
CREATE TABLE rogue_events_default PARTITION OF rogue_events DEFAULT;
REVOKE ALL ON rogue_events_default FROM agent_ledger_tenant;

-- A partition for every month the existing rows are in, named as the maintenance names them.
DO $$
DECLARE
  m timestamptz;
  name text;
BEGIN
  FOR m IN SELECT DISTINCT date_trunc('month', created_at, 'UTC') FROM rogue_events_unpartitioned LOOP
    name := 'rogue_events_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM');
    EXECUTE format('CREATE TABLE %I PARTITION OF rogue_events FOR VALUES FROM (%L) TO (%L)', name,
      m, (m AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC');
    EXECUTE format('REVOKE ALL ON %I FROM agent_ledger_tenant', name);
  END LOOP;
END $$;

INSERT INTO rogue_events (tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id,
  severity, source, invocation_id, log_index, created_at, meta_salt)
SELECT tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id,
  severity, source, invocation_id, log_index, created_at, meta_salt
FROM rogue_events_unpartitioned;
DROP TABLE rogue_events_unpartitioned;

CREATE INDEX rogue_events_created ON rogue_events (tenant_id, created_at DESC, rogue_event_id DESC);
CREATE INDEX rogue_events_agent ON rogue_events (tenant_id, agent_key, created_at, rogue_event_id);
CREATE INDEX rogue_events_type ON rogue_events (tenant_id, event_type, created_at, rogue_event_id);
ALTER TABLE rogue_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE rogue_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rogue_events USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- The per-agent counters' triggers, made after the copy (the copied rows are counted already).
CREATE TRIGGER ingest_count_inserted AFTER INSERT ON rogue_events
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_rogue_events();
CREATE TRIGGER ingest_count_deleted AFTER DELETE ON rogue_events
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_rogue_events();

CREATE VIEW ingest_read.rogue_events WITH (security_invoker = true) AS
  SELECT tenant_id, rogue_event_id, event_type, agent_key, actor_agent_key, tool, user_id, severity, source,
         invocation_id, log_index, created_at
  FROM rogue_events;
GRANT SELECT ON ingest_read.rogue_events TO agent_ledger_tenant;
