-- Log entries dropped from the database once published (LOG_KEEP_IN_DB_ENTRIES):
-- entries [0, size) of a workspace's log are read from the published tiles
-- (ledger/log-archive.ts). Pruning moves the hashes of subtrees of 256 leaves
-- and more from the rows it deletes into log_nodes, so those stay here.
CREATE TABLE log_pruned (
  tenant_id uuid PRIMARY KEY,
  -- A multiple of 256: whole tiles only.
  size bigint NOT NULL,
  -- The LOG_PUBLISH_URL (without credentials) the pruned tiles were verified in.
  target text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The earliest and latest entry time of each pruned tile, which is all a
-- compliance report needs to find the entries of a period among the pruned
-- ones (it then reads the first and last such tile from the store).
CREATE TABLE log_pruned_tiles (
  tenant_id uuid NOT NULL,
  tile bigint NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, tile)
);

ALTER TABLE log_pruned ENABLE ROW LEVEL SECURITY;
ALTER TABLE log_pruned FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON log_pruned USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE log_pruned_tiles ENABLE ROW LEVEL SECURITY;
ALTER TABLE log_pruned_tiles FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON log_pruned_tiles USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
