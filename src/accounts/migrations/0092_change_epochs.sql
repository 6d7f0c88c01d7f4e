-- What the event endpoints keep in memory of the account side (see
-- changes/migrations): a token's principal (its account's role), the
-- workspace's plan and subscription. Any change to them moves the workspace's
-- change epoch. last_used_at updates do not: they name no listed column.
CREATE TRIGGER change_epoch AFTER UPDATE OF plan_tier, subscription_status, trial_ends_at OR DELETE ON workspaces
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();
CREATE TRIGGER change_epoch AFTER UPDATE OF role, email, tenant_id OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();
CREATE TRIGGER change_epoch AFTER UPDATE OF revoked_at, token_hash, account_id, tenant_id OR DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION bump_change_epoch();
