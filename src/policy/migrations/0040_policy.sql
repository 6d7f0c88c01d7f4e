-- Per-workspace policy documents (versioned; every version kept) and agent tool scopes.

CREATE TABLE policies (
  tenant_id uuid NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  document jsonb NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, version)
);

CREATE TABLE agent_scopes (
  tenant_id uuid NOT NULL,
  agent_key text NOT NULL,
  -- Glob patterns (`*`, `?`) of the tools the agent may call.
  allowed_tools jsonb NOT NULL,
  updated_by uuid NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, agent_key)
);

ALTER TABLE policies ENABLE ROW LEVEL SECURITY;
ALTER TABLE policies FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policies USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE agent_scopes ENABLE ROW LEVEL SECURITY;
ALTER TABLE agent_scopes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON agent_scopes USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
