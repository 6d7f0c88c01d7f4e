-- A workspace's judge panel (issue 17): the configuration only. API keys are
-- stored encrypted (AES-256-GCM under a key derived from the service secret,
-- which the database never holds), bound to the workspace and judge name.

CREATE TABLE judge_panels (
  tenant_id uuid PRIMARY KEY,
  -- [{name, base_url, model, api_key_sealed (base64)}]
  judges jsonb NOT NULL,
  quorum text NOT NULL CHECK (quorum IN ('majority', 'unanimous_to_deny')),
  auto_resolve boolean NOT NULL,
  updated_by uuid NOT NULL,
  updated_at timestamptz NOT NULL
);

ALTER TABLE judge_panels ENABLE ROW LEVEL SECURITY;
ALTER TABLE judge_panels FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON judge_panels USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
