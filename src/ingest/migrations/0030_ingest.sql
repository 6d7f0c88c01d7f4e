-- Event ingest: agents, invocations with their stored content, rogue events,
-- scoped ingress tokens, daily usage. Every row belongs to one workspace.

CREATE TABLE agents (
  tenant_id uuid NOT NULL,
  agent_key text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, agent_key)
);

CREATE SEQUENCE invocation_ids AS bigint;

CREATE TABLE invocations (
  tenant_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  agent_key text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('observed', 'enforced', 'shadow')),
  outcome text NOT NULL,
  duration_ms bigint,
  principal_kind text CHECK (principal_kind IN ('user', 'agent')),
  principal_id text NOT NULL,
  parent_invocation_id bigint,
  correlation_id text,
  tool_name text,
  verdict text NOT NULL CHECK (verdict IN ('allow', 'flag_for_review', 'deny')),
  -- The ids of the policy rules that decided the verdict.
  reasons jsonb NOT NULL,
  policy_version integer NOT NULL,
  -- Counts of PII findings in tool_input (null when it held none or was absent).
  pii_count integer,
  -- The position of this invocation's leaf in the workspace log.
  log_index bigint NOT NULL,
  -- Review queue: 'pending' when policy flagged it (at write time or after the
  -- tool_output scan), then the reviewer's decision. Shadow mode never enters it.
  review_status text CHECK (review_status IN ('pending', 'approved', 'rejected')),
  -- The background scan of tool_output: its verdict and reasons, once done.
  output_scan_verdict text CHECK (output_scan_verdict IN ('allow', 'flag_for_review', 'deny')),
  output_scan_reasons jsonb,
  output_scanned_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, invocation_id)
);
CREATE INDEX invocations_created ON invocations (tenant_id, created_at DESC, invocation_id DESC);

-- Stored (redacted) text of an invocation, one row per field. The salt makes
-- the leaf's commitment unguessable; deleting row and salt (an erasure)
-- leaves the log and its proofs intact.
CREATE TABLE invocation_content (
  tenant_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  field text NOT NULL CHECK (field IN ('prompt', 'response', 'context', 'tool_input', 'tool_output')),
  body text NOT NULL,
  salt bytea NOT NULL,
  -- Detector findings with offsets into body; null while awaiting the background scan.
  findings jsonb,
  PRIMARY KEY (tenant_id, invocation_id, field)
);

CREATE SEQUENCE rogue_event_ids AS bigint;

CREATE TABLE rogue_events (
  tenant_id uuid NOT NULL,
  rogue_event_id bigint NOT NULL,
  event_type text NOT NULL,
  agent_key text NOT NULL,
  actor_agent_key text,
  tool text,
  user_id text,
  severity text,
  source text,
  -- Set when the service itself recorded the event (a tool outside the agent's scope).
  invocation_id bigint,
  log_index bigint NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, rogue_event_id)
);
CREATE INDEX rogue_events_created ON rogue_events (tenant_id, created_at DESC, rogue_event_id DESC);

-- Invocations recorded per workspace per UTC day: the daily cap is checked
-- and counted here, inside the serialized append transaction.
CREATE TABLE usage_daily (
  tenant_id uuid NOT NULL,
  day date NOT NULL,
  invocations bigint NOT NULL,
  PRIMARY KEY (tenant_id, day)
);

-- Scoped ingress tokens (svc_ingress_…): the event endpoints only, for one workspace.
-- Looked up by hash before the workspace is known, so no row-level security here.
CREATE TABLE ingress_tokens (
  tenant_id uuid NOT NULL,
  token_id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  prefix text NOT NULL,
  token_hash bytea NOT NULL,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz,
  PRIMARY KEY (tenant_id, token_id)
);
CREATE UNIQUE INDEX ingress_tokens_hash_key ON ingress_tokens (token_hash);

ALTER TABLE agents ENABLE ROW LEVEL SECURITY;
ALTER TABLE agents FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON agents USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE invocations ENABLE ROW LEVEL SECURITY;
ALTER TABLE invocations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invocations USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE invocation_content ENABLE ROW LEVEL SECURITY;
ALTER TABLE invocation_content FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invocation_content USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE rogue_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE rogue_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rogue_events USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE usage_daily ENABLE ROW LEVEL SECURITY;
ALTER TABLE usage_daily FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON usage_daily USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
