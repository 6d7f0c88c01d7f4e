-- Pruning signed checkpoints (checkpoint-pruning.ts): the pass reads a
-- workspace's checkpoints by time, one hour or day at a time.
CREATE INDEX checkpoints_time ON checkpoints (tenant_id, created_at);

-- How far each workspace's checkpoints are pruned: every day before
-- pruned_before already holds only its survivors, so a pass starts there;
-- pruned_at lets a node skip a workspace another node pruned a moment ago.
CREATE TABLE checkpoint_pruning (
  tenant_id uuid PRIMARY KEY,
  pruned_before timestamptz NOT NULL,
  pruned_at timestamptz NOT NULL
);

ALTER TABLE checkpoint_pruning ENABLE ROW LEVEL SECURITY;
ALTER TABLE checkpoint_pruning FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON checkpoint_pruning USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
