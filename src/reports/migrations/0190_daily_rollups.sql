-- Daily roll-ups of invocations and rogue events, so that a compliance report
-- and the overview cost O(days) rather than O(rows). Kept by a background pass
-- (reports/rollups.ts), not by ingest: the pass folds the rows recorded since
-- a workspace's mark in bounded transactions, and readers add a live count of
-- the rows after the mark, so every answer is exact at any moment.
--
-- A day is the UTC day of created_at (the service's clock when it recorded the
-- event: what reports and the overview count by).

-- Invocations (finding_type = '') and their detector findings (one row per
-- finding type) per day, agent, verdict and mode.
CREATE TABLE daily_rollups (
  tenant_id uuid NOT NULL,
  day date NOT NULL,
  agent_key text NOT NULL,
  verdict text NOT NULL,
  mode text NOT NULL,
  finding_type text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (tenant_id, day, agent_key, verdict, mode, finding_type)
);

CREATE TABLE daily_rogue_rollups (
  tenant_id uuid NOT NULL,
  day date NOT NULL,
  event_type text NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (tenant_id, day, event_type)
);

-- How far each workspace is folded: every invocation with invocation_id <=
-- invocation_id and every rogue event with rogue_event_id <= rogue_event_id
-- is counted in the roll-ups. Ids are given out per workspace under its log's
-- lock, in commit order, so the rows after a mark are exactly those with a
-- higher id.
CREATE TABLE rollup_marks (
  tenant_id uuid NOT NULL PRIMARY KEY,
  invocation_id bigint NOT NULL DEFAULT 0,
  rogue_event_id bigint NOT NULL DEFAULT 0
);

-- Folded invocations whose findings were not final when folded (a tool_output
-- awaiting its background scan): their invocation is counted, their findings
-- not yet. A later pass folds the findings once every field is scanned;
-- readers count these invocations' findings live.
CREATE TABLE rollup_pending_findings (
  tenant_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  PRIMARY KEY (tenant_id, invocation_id)
);

ALTER TABLE daily_rollups ENABLE ROW LEVEL SECURITY;
ALTER TABLE daily_rollups FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON daily_rollups USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE daily_rogue_rollups ENABLE ROW LEVEL SECURITY;
ALTER TABLE daily_rogue_rollups FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON daily_rogue_rollups USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE rollup_marks ENABLE ROW LEVEL SECURITY;
ALTER TABLE rollup_marks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rollup_marks USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE rollup_pending_findings ENABLE ROW LEVEL SECURITY;
ALTER TABLE rollup_pending_findings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rollup_pending_findings USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
