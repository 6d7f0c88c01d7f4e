-- Policy documents and agent scopes are cached by every node; a new version or
-- an edited scope moves the workspace's change epoch (see changes/migrations).
CREATE TRIGGER change_epoch AFTER INSERT OR UPDATE OR DELETE ON policies
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();
CREATE TRIGGER change_epoch AFTER INSERT OR UPDATE OR DELETE ON agent_scopes
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();
