-- Retention of stored content and data-subject erasures (src/retention). The
-- content itself lives in ingest's and review's tables and is deleted through
-- their functions; these tables hold the settings and the record of erasures.

-- Days stored content is kept (default 400 when a workspace has no row).
CREATE TABLE retention_settings (
  tenant_id uuid PRIMARY KEY,
  content_days integer NOT NULL CHECK (content_days >= 183),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What each erasure did. The selector itself (a person's id) is not kept:
-- only which kinds of selector were given, the period, and the counts.
CREATE TABLE erasures (
  tenant_id uuid NOT NULL,
  erasure_id uuid NOT NULL DEFAULT gen_random_uuid(),
  requested_by uuid NOT NULL,
  requested_at timestamptz NOT NULL,
  selects text[] NOT NULL,
  period_from timestamptz,
  period_to timestamptz,
  invocations integer NOT NULL,
  fields integer NOT NULL,
  review_notes integer NOT NULL,
  log_index bigint NOT NULL,
  PRIMARY KEY (tenant_id, erasure_id)
);
CREATE INDEX erasures_time ON erasures (tenant_id, requested_at DESC);

ALTER TABLE retention_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE retention_settings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON retention_settings USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE erasures ENABLE ROW LEVEL SECURITY;
ALTER TABLE erasures FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON erasures USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
