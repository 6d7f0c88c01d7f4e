-- Review leases: the review queue hands each reviewer the oldest pending item
-- nobody else holds, for LEASE_MINUTES, so two reviewers never work on the
-- same invocation. A reviewer holds at most one lease (taking the next item
-- releases the previous one); a decision releases it; an expired lease is free.
CREATE TABLE review_leases (
  tenant_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  account_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, invocation_id)
);
CREATE INDEX review_leases_holder ON review_leases (tenant_id, account_id);

ALTER TABLE review_leases ENABLE ROW LEVEL SECURITY;
ALTER TABLE review_leases FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON review_leases USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
