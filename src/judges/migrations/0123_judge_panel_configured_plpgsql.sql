-- judge_panel_configured (0120) as PL/pgSQL. As an SQL function whose body
-- holds a subquery it cannot be inlined, and PostgreSQL plans a non-inlined
-- SQL function's body again every time a statement calls it: ingest's read
-- ahead calls it in every transaction, where planning it was a sixteenth of
-- the server's CPU for a one-event transaction. PL/pgSQL keeps the plan of its
-- query for the session. Same answer, same rights (SECURITY INVOKER: row-level
-- security applies).
CREATE OR REPLACE FUNCTION judge_panel_configured(t uuid) RETURNS boolean
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM judge_panels WHERE tenant_id = t);
END
$$;
