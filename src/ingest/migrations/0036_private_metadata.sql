-- Issue 16 (privacy).
--
-- 1. Invocation and rogue event ids are counted per workspace (as evidence_id
--    is): one shared sequence let any workspace measure another's volume.
--    Existing workspaces go on from their highest id; the ids already given
--    out stay as they are (log leaves name them).
CREATE TABLE event_ids (
  tenant_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('invocation', 'rogue_event')),
  last_id bigint NOT NULL,
  PRIMARY KEY (tenant_id, kind)
);
ALTER TABLE event_ids ENABLE ROW LEVEL SECURITY;
ALTER TABLE event_ids FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON event_ids USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

DO $$
DECLARE
  t uuid;
BEGIN
  FOR t IN SELECT tenant_id FROM workspaces LOOP
    PERFORM set_config('app.tenant_id', t::text, true);
    INSERT INTO event_ids (tenant_id, kind, last_id)
    SELECT t, 'invocation', max(invocation_id) FROM invocations WHERE tenant_id = t HAVING count(*) > 0;
    INSERT INTO event_ids (tenant_id, kind, last_id)
    SELECT t, 'rogue_event', max(rogue_event_id) FROM rogue_events WHERE tenant_id = t HAVING count(*) > 0;
  END LOOP;
  PERFORM set_config('app.tenant_id', '', true);
END
$$;

DROP SEQUENCE invocation_ids;
DROP SEQUENCE rogue_event_ids;

-- 2. Leaf format v2 commits to an event's metadata instead of holding it: the
--    salt of that commitment (null for rows written with v1 leaves).
ALTER TABLE invocations ADD COLUMN meta_salt bytea;
ALTER TABLE rogue_events ADD COLUMN meta_salt bytea;

-- 3. A tool_output awaiting its background scan is stored sealed: encrypted
--    with a key of its own, that key wrapped by a key the database never holds
--    (src/ingest/sealed-output.ts); body stays '' until the scan stores the
--    redacted text and deletes both (crypto-shredding). Rows written before
--    this migration keep their text in body and are scanned from there.
ALTER TABLE invocation_content ADD COLUMN sealed bytea;
ALTER TABLE invocation_content ADD COLUMN sealed_key bytea;
