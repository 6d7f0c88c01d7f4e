-- The retention sweep's question (src/retention, eraseText with `before`):
-- which of a workspace's approval notes, not yet erased, were decided before
-- the cutoff, read by time instead of every approval of the workspace.
CREATE INDEX approvals_note_due ON approvals (tenant_id, decided_at)
  WHERE note_erased_at IS NULL AND (note IS NOT NULL OR note_salt IS NOT NULL);
