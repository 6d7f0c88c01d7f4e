-- The account side. These tables are the identity directory: they are read
-- before a workspace is known (sign-in by e-mail, token lookup by hash), so
-- they carry no row-level security; every query filters by tenant_id itself.
-- On a sharded PostgreSQL they are small reference tables.

CREATE TABLE workspaces (
  tenant_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  display_name text NOT NULL,
  domain text NOT NULL,
  plan_tier text NOT NULL DEFAULT 'team' CHECK (plan_tier IN ('free', 'team', 'enterprise')),
  subscription_status text NOT NULL DEFAULT 'trialing'
    CHECK (subscription_status IN ('trialing', 'active', 'past_due', 'unpaid', 'canceled')),
  trial_ends_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  tenant_id uuid NOT NULL REFERENCES workspaces ON DELETE CASCADE,
  account_id uuid NOT NULL DEFAULT gen_random_uuid(),
  email text NOT NULL,
  display_name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'operator', 'viewer', 'auditor')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, account_id)
);
-- One account per address: the address is how its owner signs in.
CREATE UNIQUE INDEX accounts_email_key ON accounts (email);
CREATE UNIQUE INDEX accounts_account_id_key ON accounts (account_id);

CREATE TABLE api_tokens (
  tenant_id uuid NOT NULL,
  token_id uuid NOT NULL DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL,
  name text NOT NULL,
  prefix text NOT NULL,
  -- SHA-256 of the whole token; the token itself is shown once and never stored.
  token_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  PRIMARY KEY (tenant_id, token_id),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, account_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX api_tokens_hash_key ON api_tokens (token_hash);
CREATE INDEX api_tokens_account ON api_tokens (tenant_id, account_id, created_at);

-- One live sign-in code per address; a new sign-up replaces it.
CREATE TABLE signin_codes (
  email text PRIMARY KEY,
  -- HMAC-SHA256 keyed by a secret kept outside the database, of address and code.
  code_hash bytea NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE invitations (
  tenant_id uuid NOT NULL REFERENCES workspaces ON DELETE CASCADE,
  invitation_id uuid NOT NULL DEFAULT gen_random_uuid(),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'operator', 'viewer', 'auditor')),
  invited_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  PRIMARY KEY (tenant_id, invitation_id)
);
CREATE UNIQUE INDEX invitations_open_key ON invitations (tenant_id, email) WHERE accepted_at IS NULL;
CREATE INDEX invitations_email ON invitations (email) WHERE accepted_at IS NULL;
