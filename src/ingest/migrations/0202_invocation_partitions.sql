-- Invocations and their stored texts by UTC month: the partitions module's
-- maintenance makes the months ahead (src/ingest/partitioned.ts
-- INVOCATION_PARTITIONS, INVOCATION_CONTENT_PARTITIONS). A text lives in its
-- invocation's month (invocation_content gains the invocation's created_at),
-- so a month of both goes together. The primary keys hold the partition key,
-- as PostgreSQL requires; ids are still given out once per workspace under
-- the log's lock, so an id names one invocation.
--
-- Ids carry no time, so a read by id finds its months through usage_daily,
-- which the append transaction already writes for each invocation's UTC day:
-- it now keeps the first and last invocation id of the day too, and
-- ingest_read.invocations_from / invocations_until turn ids into the days
-- that gave them out (exact: the day's row is written with the invocation).
-- A read by id bounds created_at with them, so it reads one month's index,
-- not one per month of history.
--
-- Existing rows move into their months' partitions here; a row whose month
-- has no partition yet lands in the default partition until the maintenance
-- moves it.

-- 1. The days that gave out each id, filled in for the rows already written.
ALTER TABLE usage_daily ADD COLUMN first_invocation_id bigint;
ALTER TABLE usage_daily ADD COLUMN last_invocation_id bigint;
-- Row-level security binds the owner (FORCE): lifted to read and write every workspace's rows.
ALTER TABLE usage_daily NO FORCE ROW LEVEL SECURITY;
ALTER TABLE invocations NO FORCE ROW LEVEL SECURITY;
ALTER TABLE invocation_content NO FORCE ROW LEVEL SECURITY;
INSERT INTO usage_daily AS u (tenant_id, day, invocations, first_invocation_id, last_invocation_id)
SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, count(*), min(invocation_id), max(invocation_id)
FROM invocations GROUP BY 1, 2
ON CONFLICT (tenant_id, day) DO UPDATE SET
  first_invocation_id = EXCLUDED.first_invocation_id, last_invocation_id = EXCLUDED.last_invocation_id;
ALTER TABLE usage_daily FORCE ROW LEVEL SECURITY;

-- 2. The tables, renamed aside; the views and triggers naming them are made again on the new ones.
DROP VIEW ingest_read.invocations;
DROP VIEW ingest_read.invocation_content;
ALTER TABLE invocations RENAME TO invocations_unpartitioned;
ALTER INDEX invocations_pkey RENAME TO invocations_unpartitioned_pkey;
DROP INDEX invocations_created;
DROP INDEX invocations_agent;
DROP INDEX invocations_verdict;
DROP INDEX invocations_mode;
DROP INDEX invocations_correlation;
DROP INDEX invocations_parent;
DROP INDEX invocations_review;
DROP TRIGGER ingest_count_inserted ON invocations_unpartitioned;
DROP TRIGGER ingest_count_deleted ON invocations_unpartitioned;
ALTER TABLE invocation_content RENAME TO invocation_content_unpartitioned;
ALTER INDEX invocation_content_pkey RENAME TO invocation_content_unpartitioned_pkey;

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
  reasons jsonb NOT NULL,
  policy_version integer NOT NULL,
  pii_count integer,
  log_index bigint NOT NULL,
  review_status text CHECK (review_status IN ('pending', 'approved', 'rejected')),
  output_scan_verdict text CHECK (output_scan_verdict IN ('allow', 'flag_for_review', 'deny')),
  output_scan_reasons jsonb,
  output_scanned_at timestamptz,
  created_at timestamptz NOT NULL,
  meta_salt bytea,
  occurred_at timestamptz,
  recorded_by_token uuid,
  PRIMARY KEY (tenant_id, invocation_id, created_at)
) PARTITION BY RANGE (created_at);
CREATE TABLE invocations_default PARTITION OF invocations DEFAULT;
REVOKE ALL ON invocations_default FROM agent_ledger_tenant;

CREATE TABLE invocation_content (
  tenant_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  field text NOT NULL CHECK (field IN ('prompt', 'response', 'context', 'tool_input', 'tool_output')),
  body text,
  salt bytea,
  findings jsonb,
  sealed bytea,
  sealed_key bytea,
  erased_at timestamptz,
  -- Its invocation's created_at: the text is kept in its invocation's month.
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, invocation_id, field, created_at)
) PARTITION BY RANGE (created_at);
CREATE TABLE invocation_content_default PARTITION OF invocation_content DEFAULT;
REVOKE ALL ON invocation_content_default FROM agent_ledger_tenant;

-- A partition for every month the existing rows are in, named as the maintenance names them.
DO $$
DECLARE
  m timestamptz;
  t text;
  name text;
BEGIN
  FOR m IN SELECT DISTINCT date_trunc('month', created_at, 'UTC') FROM invocations_unpartitioned LOOP
    FOREACH t IN ARRAY ARRAY['invocations', 'invocation_content'] LOOP
      name := t || '_p' || to_char(m AT TIME ZONE 'UTC', 'YYYYMM');
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, t,
        m, (m AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC');
      EXECUTE format('REVOKE ALL ON %I FROM agent_ledger_tenant', name);
    END LOOP;
  END LOOP;
END $$;

INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind,
  principal_id, parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count,
  log_index, review_status, output_scan_verdict, output_scan_reasons, output_scanned_at, created_at, meta_salt,
  occurred_at, recorded_by_token)
SELECT tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind,
  principal_id, parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count,
  log_index, review_status, output_scan_verdict, output_scan_reasons, output_scanned_at, created_at, meta_salt,
  occurred_at, recorded_by_token
FROM invocations_unpartitioned;
INSERT INTO invocation_content (tenant_id, invocation_id, field, body, salt, findings, sealed, sealed_key,
  erased_at, created_at)
SELECT c.tenant_id, c.invocation_id, c.field, c.body, c.salt, c.findings, c.sealed, c.sealed_key, c.erased_at,
  i.created_at
FROM invocation_content_unpartitioned c
JOIN invocations_unpartitioned i ON i.tenant_id = c.tenant_id AND i.invocation_id = c.invocation_id;
DROP TABLE invocation_content_unpartitioned;
DROP TABLE invocations_unpartitioned;

-- 3. Indexes (0030, 0060), partitioned with the tables.
CREATE INDEX invocations_created ON invocations (tenant_id, created_at DESC, invocation_id DESC);
CREATE INDEX invocations_agent ON invocations (tenant_id, agent_key, created_at, invocation_id) INCLUDE (verdict, mode);
CREATE INDEX invocations_verdict ON invocations (tenant_id, verdict, created_at, invocation_id) INCLUDE (mode);
CREATE INDEX invocations_mode ON invocations (tenant_id, mode, created_at, invocation_id);
CREATE INDEX invocations_correlation ON invocations (tenant_id, correlation_id, created_at, invocation_id)
  WHERE correlation_id IS NOT NULL;
CREATE INDEX invocations_parent ON invocations (tenant_id, parent_invocation_id, created_at, invocation_id)
  WHERE parent_invocation_id IS NOT NULL;
CREATE INDEX invocations_review ON invocations (tenant_id, review_status, created_at, invocation_id)
  WHERE review_status IS NOT NULL;

ALTER TABLE invocations ENABLE ROW LEVEL SECURITY;
ALTER TABLE invocations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invocations USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE invocation_content ENABLE ROW LEVEL SECURITY;
ALTER TABLE invocation_content FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invocation_content USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- The per-agent counters' triggers, made after the copy (the copied rows are counted already).
CREATE TRIGGER ingest_count_inserted AFTER INSERT ON invocations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_invocations();
CREATE TRIGGER ingest_count_deleted AFTER DELETE ON invocations
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ingest_count_invocations();

-- 4. The read contract, as it was; invocation_content's view appends created_at (the partition key a join names).
CREATE VIEW ingest_read.invocations WITH (security_invoker = true) AS
  SELECT tenant_id, invocation_id, agent_key, mode, outcome, duration_ms, principal_kind, principal_id,
         parent_invocation_id, correlation_id, tool_name, verdict, reasons, policy_version, pii_count, log_index,
         review_status, output_scan_verdict, output_scan_reasons, output_scanned_at, created_at,
         coalesce(occurred_at, created_at) AS occurred_at
  FROM invocations;
CREATE VIEW ingest_read.invocation_content WITH (security_invoker = true) AS
  SELECT tenant_id, invocation_id, field, body, findings, erased_at, created_at FROM invocation_content;
GRANT SELECT ON ingest_read.invocations, ingest_read.invocation_content TO agent_ledger_tenant;

-- 5. The time bounds of invocation ids: [invocations_from, invocations_until)
-- holds every invocation of the workspace whose id is between the least and
-- the greatest of p_ids (null when no day gave out any of them). STABLE and
-- not inlined (it reads a table), so a query bounding created_at with them
-- prunes the months outside at the start of execution. With the caller's
-- rights: row-level security applies.
CREATE FUNCTION ingest_read.invocations_from(p_tenant_id uuid, p_ids bigint[]) RETURNS timestamptz
LANGUAGE sql STABLE
AS $$
  SELECT min(u.day)::timestamp AT TIME ZONE 'UTC' FROM public.usage_daily u
  WHERE u.tenant_id = p_tenant_id
    AND u.first_invocation_id <= (SELECT max(x) FROM unnest(p_ids) AS x)
    AND u.last_invocation_id >= (SELECT min(x) FROM unnest(p_ids) AS x)
$$;
CREATE FUNCTION ingest_read.invocations_until(p_tenant_id uuid, p_ids bigint[]) RETURNS timestamptz
LANGUAGE sql STABLE
AS $$
  SELECT (max(u.day) + 1)::timestamp AT TIME ZONE 'UTC' FROM public.usage_daily u
  WHERE u.tenant_id = p_tenant_id
    AND u.first_invocation_id <= (SELECT max(x) FROM unnest(p_ids) AS x)
    AND u.last_invocation_id >= (SELECT min(x) FROM unnest(p_ids) AS x)
$$;
GRANT EXECUTE ON FUNCTION ingest_read.invocations_from(uuid, bigint[]) TO agent_ledger_tenant;
GRANT EXECUTE ON FUNCTION ingest_read.invocations_until(uuid, bigint[]) TO agent_ledger_tenant;
