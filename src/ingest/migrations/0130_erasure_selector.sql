-- The erasure selector, published once in ingest's read contract: which
-- invocations of a workspace an erasure or the retention sweep reaches. Every
-- module that deletes content written from an invocation (its stored texts
-- here, review notes, judges' rationales, OTLP span texts) selects through
-- this function, so a data subject's erasure reaches the same invocations
-- everywhere. A null argument selects everything; `period_from`/`period_to`
-- bound created_at, [from, to).
--
-- LANGUAGE sql, STABLE, not STRICT, no SET clause: the planner inlines it into
-- the caller's query (a plain scan of invocations, with its indexes), so a
-- caller's LIMIT still stops early. It reads through ingest_read.invocations,
-- schema-qualified (no search_path dependence) and with the caller's rights
-- (row-level security applies as on the table).
CREATE FUNCTION ingest_read.selected_invocations(
  p_tenant_id uuid,
  p_principal_id text,
  p_agent_key text,
  p_period_from timestamptz,
  p_period_to timestamptz
) RETURNS TABLE (invocation_id bigint)
LANGUAGE sql STABLE
AS $$
  SELECT i.invocation_id FROM ingest_read.invocations i
  WHERE i.tenant_id = p_tenant_id
    AND (p_principal_id IS NULL OR i.principal_id = p_principal_id)
    AND (p_agent_key IS NULL OR i.agent_key = p_agent_key)
    AND (p_period_from IS NULL OR i.created_at >= p_period_from)
    AND (p_period_to IS NULL OR i.created_at < p_period_to)
$$;
GRANT EXECUTE ON FUNCTION ingest_read.selected_invocations(uuid, text, text, timestamptz, timestamptz) TO agent_ledger_tenant;
