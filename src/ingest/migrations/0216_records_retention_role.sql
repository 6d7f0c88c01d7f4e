-- The role the records retention switches to (SET LOCAL ROLE) to take a
-- dropped month's invocations and rogue events out of the per-agent counters
-- for every workspace in one statement per table (records-retention.ts). The
-- counters force row-level security on their owner too: without it the pass
-- takes one UPDATE per workspace in the month, under that workspace's scope
-- (1,000 statements for 1,000 workspaces).
--
-- It may read and update the counters of every workspace and nothing else:
-- no INSERT or DELETE, no other table; the pass grants it SELECT on the
-- partition whose rows it takes out of them (a month's, dropped in the same
-- transaction, or the default partition). Its
-- policies hold only while it is the current role (current_user), not for the
-- roles that are members of it: the migrating (owner) role becomes a member
-- so that it can switch to it, and the policies must not lift the row-level
-- security that binds the owner the rest of the time. The tenant role is not
-- a member. Roles are cluster-wide: several databases on one server share it,
-- and two of them may race to create it.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'agent_ledger_maintenance') THEN
    CREATE ROLE agent_ledger_maintenance NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL;
END
$$;

DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'agent_ledger_maintenance', 'MEMBER') THEN
    EXECUTE format('GRANT agent_ledger_maintenance TO %I', current_user);
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO agent_ledger_maintenance;
GRANT SELECT, UPDATE ON agent_activity, agent_rogue_activity TO agent_ledger_maintenance;

CREATE POLICY records_retention_read ON agent_activity FOR SELECT TO agent_ledger_maintenance
  USING (current_user = 'agent_ledger_maintenance');
CREATE POLICY records_retention ON agent_activity FOR UPDATE TO agent_ledger_maintenance
  USING (current_user = 'agent_ledger_maintenance') WITH CHECK (current_user = 'agent_ledger_maintenance');
CREATE POLICY records_retention_read ON agent_rogue_activity FOR SELECT TO agent_ledger_maintenance
  USING (current_user = 'agent_ledger_maintenance');
CREATE POLICY records_retention ON agent_rogue_activity FOR UPDATE TO agent_ledger_maintenance
  USING (current_user = 'agent_ledger_maintenance') WITH CHECK (current_user = 'agent_ledger_maintenance');
