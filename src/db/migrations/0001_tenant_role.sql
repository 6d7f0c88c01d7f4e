-- The role tenant-scoped transactions switch to (Db.withTenant). It cannot
-- bypass row-level security, so a query that forgets its tenant filter still
-- sees only the current workspace. Roles are cluster-wide: several databases
-- on one server share it, and two of them may race to create it.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'agent_ledger_tenant') THEN
    CREATE ROLE agent_ledger_tenant NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;

DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'agent_ledger_tenant', 'MEMBER') THEN
    EXECUTE format('GRANT agent_ledger_tenant TO %I', current_user);
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO agent_ledger_tenant;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO agent_ledger_tenant;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO agent_ledger_tenant;

-- The workspace the current transaction is scoped to, or NULL outside one.
CREATE FUNCTION current_tenant() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$;
