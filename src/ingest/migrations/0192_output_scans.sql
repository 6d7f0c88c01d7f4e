-- Each background scan of a tool_output, by the position of its
-- tool_output_scan leaf: the moment that output's findings became final (the
-- scan's transaction writes the findings, this row and the leaf). Positions
-- are given out under the log's lock, in commit order, so a reader can fold
-- the scans after a position it has reached (reports' daily roll-ups) and know
-- it missed none. Scans made before this table existed are numbered by their
-- invocation, negated: below every real position.
CREATE TABLE output_scans (
  tenant_id uuid NOT NULL,
  log_index bigint NOT NULL,
  invocation_id bigint NOT NULL,
  PRIMARY KEY (tenant_id, log_index)
);
-- Whether an invocation's tool_output was scanned in the background.
CREATE INDEX output_scans_invocation ON output_scans (tenant_id, invocation_id);
ALTER TABLE output_scans ENABLE ROW LEVEL SECURITY;
ALTER TABLE output_scans FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON output_scans USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- Row-level security binds the tables' owner too (FORCE): lifted for the
-- backfill, which copies every workspace's rows into the same workspace.
ALTER TABLE invocations NO FORCE ROW LEVEL SECURITY;
ALTER TABLE output_scans NO FORCE ROW LEVEL SECURITY;
INSERT INTO output_scans (tenant_id, log_index, invocation_id)
SELECT tenant_id, -invocation_id, invocation_id FROM invocations WHERE output_scanned_at IS NOT NULL;
ALTER TABLE invocations FORCE ROW LEVEL SECURITY;
ALTER TABLE output_scans FORCE ROW LEVEL SECURITY;

CREATE VIEW ingest_read.output_scans WITH (security_invoker = true) AS
  SELECT tenant_id, log_index, invocation_id FROM output_scans;
GRANT SELECT ON ingest_read.output_scans TO agent_ledger_tenant;
