-- The service as a client of C2SP witnesses (WITNESS_URLS).

-- Per workspace log and witness: the size that witness last cosigned (or told
-- us it holds, in a 409), so the next submission sends the consistency proof
-- from there. `witness` is the cosigner's name+hex8 key id.
CREATE TABLE witness_states (
  tenant_id uuid NOT NULL,
  witness text NOT NULL,
  size bigint NOT NULL,
  last_error text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, witness)
);

-- The cosignature lines collected for each checkpoint, appended to it when served.
CREATE TABLE checkpoint_cosignatures (
  tenant_id uuid NOT NULL,
  size bigint NOT NULL,
  witness text NOT NULL,
  line text NOT NULL,
  cosigned_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, size, witness)
);

-- Logs with a checkpoint some witness has not cosigned yet. A row is added in
-- the transaction that signs a checkpoint and removed once every witness has
-- cosigned the latest one; a down witness leaves it, retried with backoff.
-- The loop scans across workspaces, so (like jobs) no row-level security; it
-- holds nothing but ids and times.
CREATE TABLE witness_queue (
  tenant_id uuid PRIMARY KEY,
  seq bigint NOT NULL DEFAULT 1,
  due_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX witness_queue_due ON witness_queue (due_at);

ALTER TABLE witness_states ENABLE ROW LEVEL SECURITY;
ALTER TABLE witness_states FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON witness_states USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE checkpoint_cosignatures ENABLE ROW LEVEL SECURITY;
ALTER TABLE checkpoint_cosignatures FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON checkpoint_cosignatures USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
