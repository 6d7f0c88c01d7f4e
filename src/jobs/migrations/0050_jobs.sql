-- Durable background work. A job row is deleted in the same transaction as
-- the work it stands for, so work is done exactly once in effect: a worker
-- that dies mid-job leaves the row, whose lease expires, and another runs it.
-- Workers scan across workspaces, so this table has no row-level security.
CREATE SEQUENCE job_ids AS bigint;

CREATE TABLE jobs (
  tenant_id uuid NOT NULL,
  job_id bigint NOT NULL DEFAULT nextval('job_ids'),
  kind text NOT NULL,
  payload jsonb NOT NULL,
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id)
);
CREATE INDEX jobs_due ON jobs (run_after);
