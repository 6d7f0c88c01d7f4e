-- Personas (issue 17): named behaviour profiles of a workspace, and which
-- persona each agent has. A persona's `version` moves on every change; the
-- verdict's reasons name it. `meta_salt` is the salt of the audit leaf's
-- commitment to the persona as stored (leaf format v2: no free-form value in
-- a leaf), kept here so the row opens the leaf.

CREATE TABLE personas (
  tenant_id uuid NOT NULL,
  persona_id uuid NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  name text NOT NULL,
  description text NOT NULL,
  allowed_tools jsonb,
  allowed_pii_types jsonb,
  overrides jsonb NOT NULL,
  rubric text NOT NULL,
  meta_salt bytea NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_by uuid NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, persona_id)
);

CREATE TABLE agent_personas (
  tenant_id uuid NOT NULL,
  agent_key text NOT NULL,
  persona_id uuid NOT NULL,
  updated_by uuid NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, agent_key),
  FOREIGN KEY (tenant_id, persona_id) REFERENCES personas (tenant_id, persona_id) ON DELETE CASCADE
);
CREATE INDEX agent_personas_persona ON agent_personas (tenant_id, persona_id);

ALTER TABLE personas ENABLE ROW LEVEL SECURITY;
ALTER TABLE personas FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON personas USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE agent_personas ENABLE ROW LEVEL SECURITY;
ALTER TABLE agent_personas FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON agent_personas USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
