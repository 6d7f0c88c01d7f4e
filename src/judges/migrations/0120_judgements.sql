-- Judgements of the judge panel (issue 17), the calls they made and the
-- monthly call counter.
--
-- judgements: one row per attempt at judging an invocation (the automatic
-- escalation of a flag_for_review, or a request of a reviewer). `judges`
-- holds each judge's answer as stored; `salt` is the salt of the
-- judge_verdict leaf's commitments to them (leaf format v2: no free text in
-- a leaf), kept here so the row opens the leaf. `job_id` ties an automatic
-- attempt to the job that made it, so a retried job reuses its attempt.
CREATE TABLE judgements (
  tenant_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  attempt integer NOT NULL CHECK (attempt >= 1),
  trigger text NOT NULL CHECK (trigger IN ('flag', 'on_demand')),
  status text NOT NULL CHECK (status IN ('pending', 'done', 'quota_exhausted', 'failed')),
  decision text CHECK (decision IN ('allow', 'deny', 'uncertain')),
  unanimous boolean,
  judges jsonb,
  salt bytea,
  log_index bigint,
  auto_resolved boolean NOT NULL DEFAULT false,
  job_id bigint,
  requested_by uuid,
  requested_at timestamptz NOT NULL,
  finished_at timestamptz,
  PRIMARY KEY (tenant_id, invocation_id, attempt)
);
-- At most one judgement of an invocation runs at a time (POST .../judge answers 409).
CREATE UNIQUE INDEX judgements_one_pending ON judgements (tenant_id, invocation_id) WHERE status = 'pending';
CREATE UNIQUE INDEX judgements_job ON judgements (tenant_id, job_id) WHERE job_id IS NOT NULL;

-- Every call to a judge that was counted, keyed by the attempt, the judge and
-- the call's number within the attempt: a job retried after a crash makes
-- the same calls again and counts none of them twice.
CREATE TABLE judge_calls (
  tenant_id uuid NOT NULL,
  invocation_id bigint NOT NULL,
  attempt integer NOT NULL,
  judge text NOT NULL,
  n integer NOT NULL,
  month date NOT NULL,
  PRIMARY KEY (tenant_id, invocation_id, attempt, judge, n)
);

-- Calls counted per workspace and calendar month (UTC); raised only by a
-- statement that checks the cap under the row's lock, so nodes racing at
-- the cap never pass it.
CREATE TABLE judge_usage (
  tenant_id uuid NOT NULL,
  month date NOT NULL,
  used integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (tenant_id, month)
);

ALTER TABLE judgements ENABLE ROW LEVEL SECURITY;
ALTER TABLE judgements FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON judgements USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE judge_calls ENABLE ROW LEVEL SECURITY;
ALTER TABLE judge_calls FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON judge_calls USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
ALTER TABLE judge_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE judge_usage FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON judge_usage USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- Whether a workspace has a panel: ingest calls this inside its own read
-- statement to decide whether a flag_for_review escalates, without naming
-- this module's table (SECURITY INVOKER: row-level security applies).
CREATE FUNCTION judge_panel_configured(t uuid) RETURNS boolean
  LANGUAGE sql STABLE AS $$ SELECT EXISTS (SELECT 1 FROM judge_panels WHERE tenant_id = t) $$;
