-- Console sessions: the web console signs in with an HttpOnly cookie holding
-- a token of its own kind (svc_session_…), never an API token. Like API tokens
-- they are listed, revocable and stored only as SHA-256; unlike them they
-- expire (absolute lifetime) and lapse when idle.
CREATE TABLE console_sessions (
  tenant_id uuid NOT NULL,
  session_id uuid NOT NULL DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL,
  prefix text NOT NULL,
  token_hash bytea NOT NULL,
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  revoked_at timestamptz,
  PRIMARY KEY (tenant_id, session_id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, account_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX console_sessions_hash_key ON console_sessions (token_hash);
CREATE INDEX console_sessions_account ON console_sessions (tenant_id, account_id, created_at);
