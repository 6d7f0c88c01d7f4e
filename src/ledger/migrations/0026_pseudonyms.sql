-- Leaf format v2 (src/ledger/pseudonyms.ts): a value the log must name in many
-- leaves so that an auditor can count by it (an agent key, a rogue event type)
-- is written there as a salted commitment, the same for every leaf of one
-- workspace. The salt lives here, never in the log: a report opens the
-- pseudonyms it counts by, and deleting a row (an erasure) leaves every leaf
-- naming that value unlinkable to it while the log and its proofs stay intact.
CREATE TABLE pseudonyms (
  tenant_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('agent', 'rogue_event_type', 'email')),
  value text NOT NULL,
  salt bytea NOT NULL,
  PRIMARY KEY (tenant_id, kind, value)
);

ALTER TABLE pseudonyms ENABLE ROW LEVEL SECURITY;
ALTER TABLE pseudonyms FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pseudonyms USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
