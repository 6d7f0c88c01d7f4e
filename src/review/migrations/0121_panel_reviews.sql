-- A review the judge panel resolved on its own (issue 17, a workspace's
-- auto_resolve with a unanimous panel): no account decided it, so
-- decided_by is null and decided_by_panel says who did.
ALTER TABLE reviews ALTER COLUMN decided_by DROP NOT NULL;
ALTER TABLE reviews ADD COLUMN decided_by_panel boolean NOT NULL DEFAULT false;
ALTER TABLE reviews ADD CONSTRAINT reviews_decider CHECK ((decided_by IS NULL) = decided_by_panel);
