import type { Queryable } from '../db/index.ts';
import type { DestinationTarget } from './kind.ts';
import type { Filter } from './events.ts';

// The SQL of the destinations tables (migrations/0140_destinations.sql): the
// configuration (row-level security, sealed secrets), the cursor and lease
// each destination's delivery keeps, and the recent attempts.

export interface DestinationRow {
  tenant_id: string;
  destination_id: string;
  name: string;
  kind: DestinationTarget['kind'];
  /** Only in a row written before URLs were sealed (migration 0170); otherwise null and url_sealed holds it. */
  url: string | null;
  url_sealed: string | null;
  events: string[];
  format: 'native' | 'ocsf';
  signing: 'hmac' | 'ed25519';
  filter: Filter;
  secret_sealed: string;
  public_key: string | null;
  token_sealed: string | null;
  created_at: Date;
  updated_at: Date;
  // From destination_cursors.
  next_index: number;
  paused: boolean;
  state: 'active' | 'failing' | 'disabled';
  disabled_reason: string | null;
  failures: number;
  failing_since: Date | null;
  last_error: string | null;
  /** The admins are still to be told by e-mail that it became failing. */
  failing_mail_due: boolean;
}

const COLUMNS = `d.tenant_id, d.destination_id, d.name, d.kind, d.url, d.url_sealed, d.events, d.format, d.signing, d.filter,
  d.secret_sealed, d.public_key, d.token_sealed, d.created_at, d.updated_at,
  c.next_index, c.paused, c.state, c.disabled_reason, c.failures, c.failing_since, c.last_error,
  c.failing_mail_due`;

function norm(r: DestinationRow): DestinationRow {
  return { ...r, next_index: Number(r.next_index) };
}

export async function listDestinations(tx: Queryable, tenantId: string): Promise<DestinationRow[]> {
  const rows = await tx.query<DestinationRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM destinations d
     JOIN destination_cursors c ON c.tenant_id = d.tenant_id AND c.destination_id = d.destination_id
     WHERE d.tenant_id = $1 ORDER BY d.created_at, d.destination_id`,
    [tenantId],
  );
  return rows.map(norm);
}

export async function findDestination(tx: Queryable, tenantId: string, id: string): Promise<DestinationRow | null> {
  const [row] = await tx.query<DestinationRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM destinations d
     JOIN destination_cursors c ON c.tenant_id = d.tenant_id AND c.destination_id = d.destination_id
     WHERE d.tenant_id = $1 AND d.destination_id = $2`,
    [tenantId, id],
  );
  return row ? norm(row) : null;
}

export interface NewDestination {
  tenantId: string;
  destinationId: string;
  name: string;
  kind: string;
  /** The URL sealed (secret-box.ts, 'url'): it is never stored in clear. */
  urlSealed: string;
  events: string[];
  format: string;
  signing: string;
  filter: Filter;
  secretSealed: string;
  publicKey: string | null;
  tokenSealed: string | null;
  by: string;
  now: Date;
  /** The first log index to deliver: the log's size when it was created (no backfill). */
  nextIndex: number;
}

export async function insertDestination(tx: Queryable, d: NewDestination): Promise<void> {
  await tx.query(
    `INSERT INTO destinations (tenant_id, destination_id, name, kind, url_sealed, events, format, signing, filter, secret_sealed,
       public_key, token_sealed, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
    [
      d.tenantId,
      d.destinationId,
      d.name,
      d.kind,
      d.urlSealed,
      d.events,
      d.format,
      d.signing,
      JSON.stringify(d.filter),
      d.secretSealed,
      d.publicKey,
      d.tokenSealed,
      d.by,
      d.now,
    ],
  );
  await tx.query('INSERT INTO destination_cursors (tenant_id, destination_id, next_index) VALUES ($1, $2, $3)', [
    d.tenantId,
    d.destinationId,
    d.nextIndex,
  ]);
}

export interface DestinationChange {
  name?: string;
  urlSealed?: string;
  events?: string[];
  filter?: Filter;
  tokenSealed?: string | null;
}

export async function updateDestination(
  tx: Queryable,
  tenantId: string,
  id: string,
  ch: DestinationChange,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE destinations SET
       name = coalesce($3, name), url_sealed = coalesce($4, url_sealed),
       url = CASE WHEN $4::text IS NULL THEN url ELSE NULL END, events = coalesce($5::text[], events),
       filter = coalesce($6::jsonb, filter),
       token_sealed = CASE WHEN $7::boolean THEN $8 ELSE token_sealed END,
       updated_at = $9
     WHERE tenant_id = $1 AND destination_id = $2`,
    [
      tenantId,
      id,
      ch.name ?? null,
      ch.urlSealed ?? null,
      ch.events ?? null,
      ch.filter === undefined ? null : JSON.stringify(ch.filter),
      ch.tokenSealed !== undefined,
      ch.tokenSealed ?? null,
      now,
    ],
  );
}

/**
 * Pauses or resumes. Resuming also re-enables a destination that was
 * disabled (410, or retries given up): the admin says it can take events
 * again, and it goes on from its cursor, so nothing was lost meanwhile.
 */
export async function setPaused(tx: Queryable, tenantId: string, id: string, paused: boolean): Promise<void> {
  await tx.query(
    paused
      ? 'UPDATE destination_cursors SET paused = true WHERE tenant_id = $1 AND destination_id = $2'
      : `UPDATE destination_cursors SET paused = false, state = CASE WHEN state = 'disabled' THEN 'active' ELSE state END,
           disabled_reason = NULL, failures = CASE WHEN state = 'disabled' THEN 0 ELSE failures END,
           failing_since = CASE WHEN state = 'disabled' THEN NULL ELSE failing_since END, run_after = now()
         WHERE tenant_id = $1 AND destination_id = $2`,
    [tenantId, id],
  );
}

export async function deleteDestination(tx: Queryable, tenantId: string, id: string): Promise<boolean> {
  const gone = await tx.query('DELETE FROM destinations WHERE tenant_id = $1 AND destination_id = $2 RETURNING 1', [
    tenantId,
    id,
  ]);
  await tx.query('DELETE FROM destination_cursors WHERE tenant_id = $1 AND destination_id = $2', [tenantId, id]);
  await tx.query('DELETE FROM destination_deliveries WHERE tenant_id = $1 AND destination_id = $2', [tenantId, id]);
  return gone.length === 1;
}

export interface Attempt {
  eventId: string;
  eventType: string;
  logIndex: number | null;
  status: 'delivered' | 'retrying' | 'failed';
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
}

/** Records one attempt of each event of a batch (a retry updates its row: attempts + 1). */
export async function recordAttempts(
  tx: Queryable,
  tenantId: string,
  destinationId: string,
  attempts: readonly Attempt[],
  now: Date,
): Promise<void> {
  if (attempts.length === 0) return;
  await tx.query(
    `INSERT INTO destination_deliveries AS d (tenant_id, destination_id, event_id, event_type, log_index, status, attempts,
       http_status, last_error, latency_ms, first_attempt_at, last_attempt_at)
     SELECT $1, $2, a.event_id, a.event_type, a.log_index, a.status, 1, a.http_status, a.last_error, a.latency_ms, $3, $3
     FROM unnest($4::text[], $5::text[], $6::bigint[], $7::text[], $8::int[], $9::text[], $10::int[])
       AS a(event_id, event_type, log_index, status, http_status, last_error, latency_ms)
     ON CONFLICT (tenant_id, destination_id, event_id) DO UPDATE SET status = EXCLUDED.status, attempts = d.attempts + 1,
       http_status = EXCLUDED.http_status, last_error = EXCLUDED.last_error, latency_ms = EXCLUDED.latency_ms,
       last_attempt_at = EXCLUDED.last_attempt_at`,
    [
      tenantId,
      destinationId,
      now,
      attempts.map((a) => a.eventId),
      attempts.map((a) => a.eventType),
      attempts.map((a) => a.logIndex),
      attempts.map((a) => a.status),
      attempts.map((a) => a.httpStatus),
      attempts.map((a) => a.error),
      attempts.map((a) => a.latencyMs),
    ],
  );
}

/** Attempts older than this are dropped: the delivery log shows the recent past, the audit trail keeps the rest. */
export const DELIVERY_LOG_DAYS = 7;

export async function pruneAttempts(tx: Queryable, tenantId: string, destinationId: string, now: Date): Promise<void> {
  await tx.query(
    `DELETE FROM destination_deliveries WHERE tenant_id = $1 AND destination_id = $2
       AND last_attempt_at < $3::timestamptz - ($4::int * interval '1 day')`,
    [tenantId, destinationId, now, DELIVERY_LOG_DAYS],
  );
}

export interface DeliveryRow {
  event_id: string;
  event_type: string;
  log_index: number | null;
  status: 'delivered' | 'retrying' | 'failed';
  attempts: number;
  http_status: number | null;
  last_error: string | null;
  latency_ms: number | null;
  first_attempt_at: Date;
  last_attempt_at: Date;
}

export async function recentDeliveries(
  tx: Queryable,
  tenantId: string,
  destinationId: string,
  limit: number,
): Promise<DeliveryRow[]> {
  const rows = await tx.query<DeliveryRow & Record<string, unknown>>(
    `SELECT event_id, event_type, log_index, status, attempts, http_status, last_error, latency_ms, first_attempt_at,
       last_attempt_at
     FROM destination_deliveries WHERE tenant_id = $1 AND destination_id = $2
     ORDER BY last_attempt_at DESC, log_index DESC NULLS LAST LIMIT $3`,
    [tenantId, destinationId, limit],
  );
  return rows.map((r) => ({ ...r, log_index: r.log_index === null ? null : Number(r.log_index) }));
}

/**
 * Seals the URLs of one workspace's rows written before URLs were sealed
 * (migration 0170): `seal` makes the sealed form of a row's URL. Returns how
 * many it sealed. Conditional on the clear URL still being there, so two nodes
 * doing it at once seal each row once.
 */
export async function sealLegacyUrls(
  tx: Queryable,
  tenantId: string,
  seal: (destinationId: string, url: string) => string,
): Promise<number> {
  const rows = await tx.query<{ destination_id: string; url: string }>(
    'SELECT destination_id, url FROM destinations WHERE tenant_id = $1 AND url IS NOT NULL',
    [tenantId],
  );
  let n = 0;
  for (const r of rows) {
    const done = await tx.query(
      `UPDATE destinations SET url_sealed = $4, url = NULL
       WHERE tenant_id = $1 AND destination_id = $2 AND url = $3 RETURNING 1`,
      [tenantId, r.destination_id, r.url, seal(r.destination_id, r.url)],
    );
    n += done.length;
  }
  return n;
}

/** The workspaces that have destinations (from the cursors, which row-level security does not hide from workers). */
export async function tenantsWithDestinations(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ tenant_id: string }>('SELECT DISTINCT tenant_id FROM destination_cursors');
  return rows.map((r) => r.tenant_id);
}

/** Whether any workspace has a destination to deliver to (not paused, not disabled): a node delivers only then. */
export async function anyActiveDestination(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ some: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM destination_cursors WHERE NOT paused AND state <> 'disabled') AS some`,
  );
  return rows[0]?.some === true;
}

/**
 * The first log index some destination of the workspace has yet to deliver
 * (paused and disabled ones too: they resume from their cursor), or null
 * without destinations. Delivery reads entries from the database, so the
 * ledger's pruning (LOG_KEEP_IN_DB_ENTRIES) keeps those from here on.
 */
export async function undeliveredFrom(db: Queryable, tenantId: string): Promise<number | null> {
  const [row] = await db.query<{ next: string | null }>(
    'SELECT min(next_index)::text AS next FROM destination_cursors WHERE tenant_id = $1',
    [tenantId],
  );
  return row?.next == null ? null : Number(row.next);
}
