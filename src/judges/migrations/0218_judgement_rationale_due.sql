-- The retention sweep's question (src/retention, eraseText with `before`):
-- which of a workspace's judgements still holding their rationales finished
-- before the cutoff, read by time instead of every judgement of the workspace.
CREATE INDEX judgements_rationale_due ON judgements (tenant_id, finished_at)
  WHERE rationales_erased_at IS NULL AND judges IS NOT NULL;
