-- A persona feeds the verdict (its allowed tools and PII types, its rule
-- overrides), and the event endpoints cache it with the agent's scope: any
-- change to a persona or an assignment moves the workspace's change epoch
-- (see changes/migrations).
CREATE TRIGGER change_epoch AFTER INSERT OR UPDATE OR DELETE ON personas
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();
CREATE TRIGGER change_epoch AFTER INSERT OR UPDATE OR DELETE ON agent_personas
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();
