-- The retention sweep's question (src/retention, eraseText with `before`):
-- which of a workspace's review notes, not yet erased, were decided before
-- the cutoff. Without it every sweep read all of the workspace's reviews; with
-- it a sweep with nothing due reads a page or two of this index. A note leaves
-- the index when it is erased.
CREATE INDEX reviews_note_due ON reviews (tenant_id, decided_at) WHERE note_erased_at IS NULL;
