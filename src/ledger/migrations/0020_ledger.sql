-- The audit trail: one Merkle log per workspace (DESIGN §3).

-- The head of each log. Its row lock serializes appends to one log across
-- every node; size and root are what the next checkpoint signs.
CREATE TABLE log_heads (
  tenant_id uuid PRIMARY KEY,
  size bigint NOT NULL,
  root bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Each entry's exact leaf bytes (RFC 8785 canonical JSON, UTF-8): what was hashed.
CREATE TABLE log_entries (
  tenant_id uuid NOT NULL,
  idx bigint NOT NULL,
  leaf text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, idx)
);

-- Hashes of complete subtrees: (level, idx) covers leaves [idx·2^level, (idx+1)·2^level).
-- Level 0 holds the leaf hashes. Appends write O(1) amortized rows, proofs read O(log n).
CREATE TABLE log_nodes (
  tenant_id uuid NOT NULL,
  level smallint NOT NULL,
  idx bigint NOT NULL,
  hash bytea NOT NULL,
  PRIMARY KEY (tenant_id, level, idx)
);

-- Signed checkpoints (C2SP signed notes), one per signed size.
CREATE TABLE checkpoints (
  tenant_id uuid NOT NULL,
  size bigint NOT NULL,
  root bytea NOT NULL,
  note text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, size)
);

-- Every public key the service has signed with, so rotated-out keys stay published.
CREATE TABLE signing_keys (
  public_key bytea PRIMARY KEY,
  first_used_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE log_heads ENABLE ROW LEVEL SECURITY;
ALTER TABLE log_heads FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON log_heads USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE log_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE log_entries FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON log_entries USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE log_nodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE log_nodes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON log_nodes USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE checkpoints ENABLE ROW LEVEL SECURITY;
ALTER TABLE checkpoints FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON checkpoints USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
