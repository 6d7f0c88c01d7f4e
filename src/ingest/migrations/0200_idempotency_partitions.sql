-- Idempotency keys by UTC day: the partitions module's maintenance makes each
-- day's partition ahead and drops a day's once its keys are past their 24
-- hours (src/ingest/idempotency.ts IDEMPOTENCY_PARTITIONS), instead of a
-- DELETE of every expired row every ten minutes. The primary key holds the
-- partition key, as PostgreSQL requires: a key and its successor (recorded
-- once it expired, 24 hours on at least) are two rows; lookups ask for keys
-- younger than 24 hours, which reads one or two days' partitions. A row whose
-- day has no partition yet lands in idempotency_keys_default until the
-- maintenance moves it into its day's.
ALTER TABLE idempotency_keys RENAME TO idempotency_keys_unpartitioned;
ALTER INDEX idempotency_keys_pkey RENAME TO idempotency_keys_unpartitioned_pkey;
ALTER INDEX idempotency_keys_created RENAME TO idempotency_keys_unpartitioned_created;

CREATE TABLE idempotency_keys (
  tenant_id uuid NOT NULL,
  key text NOT NULL,
  fingerprint bytea NOT NULL,
  -- {"status": 201, "body": {…}}: replayed as it was.
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, key, created_at)
) PARTITION BY RANGE (created_at);
CREATE TABLE idempotency_keys_default PARTITION OF idempotency_keys DEFAULT;
-- Reached only through the parent, whose row-level security applies.
REVOKE ALL ON idempotency_keys_default FROM agent_ledger_tenant;
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON idempotency_keys USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- The keys that still answer (RLS is enabled, not forced: the owner copies every workspace's).
INSERT INTO idempotency_keys (tenant_id, key, fingerprint, response, created_at)
SELECT tenant_id, key, fingerprint, response, created_at FROM idempotency_keys_unpartitioned
WHERE created_at > now() - interval '25 hours';
DROP TABLE idempotency_keys_unpartitioned;
