-- A counter per workspace that moves whenever something a node may keep in
-- memory for it changes: a token revoked, a role or plan changed, a policy or
-- a scope edited. The owning modules attach bump_change_epoch() as a trigger
-- to their tables. A node caches what it read together with the counter it
-- read first, and the ingest transaction re-reads the counter: one equal
-- counter proves nothing cached was changed since, on any node. The trigger
-- also notifies listeners, so nodes drop stale entries before they are used.
CREATE TABLE change_epochs (
  tenant_id uuid PRIMARY KEY,
  epoch bigint NOT NULL
);

-- Read by tenant-scoped transactions; written only by the trigger function,
-- which runs as its owner (changes to the account tables are made outside any
-- workspace scope). RLS is enabled, not forced: the owner writes any row.
ALTER TABLE change_epochs ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON change_epochs USING (tenant_id = current_tenant());

CREATE FUNCTION bump_change_epoch() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  t uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant_id ELSE NEW.tenant_id END;
BEGIN
  INSERT INTO change_epochs (tenant_id, epoch) VALUES (t, 1)
  ON CONFLICT (tenant_id) DO UPDATE SET epoch = change_epochs.epoch + 1;
  PERFORM pg_notify('agent_ledger_changes', t::text);
  RETURN NULL;
END
$$;
