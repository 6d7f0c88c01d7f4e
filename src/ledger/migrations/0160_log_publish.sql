-- Publishing each workspace's log as C2SP tlog-tiles to static storage
-- (LOG_PUBLISH_URL): what has been written there, and which logs have more to
-- write. Both tables hold nothing but ids, sizes and times, and the publisher
-- scans them across workspaces (like witness_queue): no row-level security.

-- What a store (target: LOG_PUBLISH_URL without credentials) holds of a log:
-- every full tile below tiles_size (a multiple of 256 entries), and the
-- checkpoint of checkpoint_size with the tiles it needs. A restart continues
-- from here; a rewrite of a tile writes the same bytes. Another target (the
-- operator moved the log elsewhere) starts from nothing.
CREATE TABLE log_published (
  tenant_id uuid NOT NULL,
  target text NOT NULL,
  tiles_size bigint NOT NULL DEFAULT 0,
  checkpoint_size bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, target)
);

-- Logs with a checkpoint not yet published. A row is (re)armed in the
-- transaction that signs a checkpoint; a node takes it by pushing due_at past
-- now (its lease), and clears due_at once the store holds that checkpoint,
-- unless a newer one re-armed it meanwhile (seq).
CREATE TABLE log_publish_queue (
  tenant_id uuid PRIMARY KEY,
  seq bigint NOT NULL DEFAULT 1,
  due_at timestamptz DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX log_publish_queue_due ON log_publish_queue (due_at) WHERE due_at IS NOT NULL;
