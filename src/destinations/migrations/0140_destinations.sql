-- Destinations (webhooks, Slack, Splunk HEC, syslog, e-mail): where a
-- workspace's audit-trail events are delivered. The audit trail is the
-- outbox: each destination keeps a cursor into its workspace's log, the next
-- leaf index to deliver, so nothing is lost or invented between them.

-- What an admin configured. The signing secret (whsec_ / whsk_) and the token
-- are sealed (AES-256-GCM under a key derived from the service secret, which
-- the database never holds), bound to the workspace and the destination.
CREATE TABLE destinations (
  tenant_id uuid NOT NULL,
  destination_id uuid NOT NULL,
  name text NOT NULL,
  kind text NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  format text NOT NULL CHECK (format IN ('native', 'ocsf')),
  signing text NOT NULL CHECK (signing IN ('hmac', 'ed25519')),
  -- {agents?: [glob], tools?: [glob], modes?: [mode]}
  filter jsonb NOT NULL,
  secret_sealed text NOT NULL,
  -- The whpk_ public key of an ed25519 destination (not secret: receivers verify with it).
  public_key text,
  token_sealed text,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, destination_id),
  UNIQUE (tenant_id, name)
);

ALTER TABLE destinations ENABLE ROW LEVEL SECURITY;
ALTER TABLE destinations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON destinations USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());

-- Where each destination's delivery stands. Delivery workers on every node
-- scan it across workspaces (like jobs), so it has no row-level security and
-- holds no secret and no content: the cursor, the lease, the retry state.
CREATE TABLE destination_cursors (
  tenant_id uuid NOT NULL,
  destination_id uuid NOT NULL,
  -- The next leaf index of the workspace's log to deliver.
  next_index bigint NOT NULL,
  paused boolean NOT NULL DEFAULT false,
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'failing', 'disabled')),
  disabled_reason text,
  run_after timestamptz NOT NULL DEFAULT now(),
  -- A node holds the destination until then: no two nodes send to one destination at once.
  locked_until timestamptz,
  lease_owner text,
  -- Failed sends of the events at the cursor in a row, and when the first of them failed.
  failures integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  last_error text,
  PRIMARY KEY (tenant_id, destination_id)
);
CREATE INDEX destination_cursors_due ON destination_cursors (run_after) WHERE NOT paused AND state <> 'disabled';

-- Recent delivery attempts, one row per event and destination (retries update it).
CREATE TABLE destination_deliveries (
  tenant_id uuid NOT NULL,
  destination_id uuid NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  log_index bigint,
  status text NOT NULL CHECK (status IN ('delivered', 'retrying', 'failed')),
  attempts integer NOT NULL,
  http_status integer,
  last_error text,
  latency_ms integer,
  first_attempt_at timestamptz NOT NULL,
  last_attempt_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, destination_id, event_id)
);
CREATE INDEX destination_deliveries_recent ON destination_deliveries (tenant_id, destination_id, last_attempt_at DESC);

ALTER TABLE destination_deliveries ENABLE ROW LEVEL SECURITY;
ALTER TABLE destination_deliveries FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON destination_deliveries USING (tenant_id = current_tenant()) WITH CHECK (tenant_id = current_tenant());
