-- tlog-tiles (c2sp.org/tlog-tiles): full tiles and entry bundles, written once
-- on first read and served from here (they never change). Partial tiles are
-- built from log_nodes / log_entries per request and never stored.
CREATE TABLE log_tiles (
  tenant_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('hash', 'entries')),
  level smallint NOT NULL,
  idx bigint NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (tenant_id, kind, level, idx)
);

-- Whether a workspace's admin made its log readable without a token.
CREATE TABLE log_publication (
  tenant_id uuid PRIMARY KEY,
  public boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE log_tiles ENABLE ROW LEVEL SECURITY;
ALTER TABLE log_tiles FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON log_tiles USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE log_publication ENABLE ROW LEVEL SECURITY;
ALTER TABLE log_publication FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON log_publication USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
