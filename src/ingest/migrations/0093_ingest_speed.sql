-- Scoped ingress tokens are cached by every node: revoking one moves the
-- workspace's change epoch (see changes/migrations).
CREATE TRIGGER change_epoch AFTER UPDATE OF revoked_at, token_hash, tenant_id OR DELETE ON ingress_tokens
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();

-- Idempotency-Key (and a batch item's event_id): the first response recorded
-- under a key, with a SHA-256 fingerprint of what was asked, written in the
-- same transaction as the event itself. Keys live 24 hours; a periodic sweep
-- deletes older ones across workspaces, so RLS is enabled but not forced (the
-- owner deletes any row; tenant-scoped transactions see their own).
CREATE TABLE idempotency_keys (
  tenant_id uuid NOT NULL,
  key text NOT NULL,
  fingerprint bytea NOT NULL,
  -- {"status": 201, "body": {…}}: replayed as it was.
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON idempotency_keys USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
