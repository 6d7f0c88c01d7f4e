-- Approvals: an invocation held for a person (a policy rule with "hold": true,
-- enforced mode). Written with the invocation, in the same statement, so a
-- 201 that names an approval always has its row; decided once, by a person
-- (approved, denied) or by the clock (expired, a deny). The note may hold
-- personal data: it is stored redacted, and the decision's leaf carries only
-- a salted commitment to it.
CREATE TABLE approvals (
  tenant_id uuid NOT NULL,
  approval_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  agent_key text NOT NULL,
  tool_name text,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'expired')),
  -- The API or ingress token that recorded the invocation: it may read its own approvals
  -- (null: the fallback token or the OTLP receiver, whose approvals only accounts read).
  requested_by_token uuid,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_by uuid,
  decided_at timestamptz,
  note text,
  note_salt bytea,
  -- The positions of the approval_requested leaf and of the approval_decided or approval_expired leaf.
  log_index bigint NOT NULL,
  decision_log_index bigint,
  PRIMARY KEY (tenant_id, approval_id),
  UNIQUE (tenant_id, invocation_id),
  CHECK ((status = 'pending') = (decided_at IS NULL))
);

-- The list, newest first per status (keyset on invocation_id, which grows with time in a workspace).
CREATE INDEX approvals_status ON approvals (tenant_id, status, invocation_id DESC);
-- The sweeper's question on every node: what pending approval has run out of time.
CREATE INDEX approvals_due ON approvals (expires_at) WHERE status = 'pending';

ALTER TABLE approvals ENABLE ROW LEVEL SECURITY;
ALTER TABLE approvals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON approvals USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
