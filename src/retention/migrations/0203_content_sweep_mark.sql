-- How far each workspace's content retention has swept: every stored text
-- (and OTLP span text) of an invocation created before content_swept_before
-- is erased. The hourly sweep reads only the invocations created since the
-- mark and before its cutoff, so it touches the partitions that came due
-- since the last sweep, never the whole history again; the mark moves in the
-- transaction that finishes a sweep. A workspace without a row is swept from
-- its beginning once. Texts cannot appear behind the mark: a tool_output is
-- not attached to an invocation whose content is past retention (ingest's
-- attach refuses it as erased).
CREATE TABLE retention_sweeps (
  tenant_id uuid PRIMARY KEY,
  content_swept_before timestamptz NOT NULL
);
ALTER TABLE retention_sweeps ENABLE ROW LEVEL SECURITY;
ALTER TABLE retention_sweeps FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON retention_sweeps USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
