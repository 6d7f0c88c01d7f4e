import type { PartitionedTable } from '../partitions/index.ts';
import { unprocessable } from '../core/index.ts';

/** How long a key answers with its first response. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * Keys of this prefix are the service's own: OTLP ingest records a span under
 * `otlp:<trace id>:<span id>`, so that concurrent and re-sent exports of it
 * record it once. A client's Idempotency-Key or batch event_id in that space
 * could claim a span before it arrives, so it is refused (422).
 */
export const RESERVED_KEY_PREFIX = 'otlp:';

/** The 422 of a client key in the reserved space (`field`: where it was sent). */
export function reservedKey(key: string, field: string) {
  if (!key.startsWith(RESERVED_KEY_PREFIX)) return undefined;
  return unprocessable(`Idempotency keys starting with "${RESERVED_KEY_PREFIX}" are reserved for OTLP spans.`, [
    { field, message: `must not start with "${RESERVED_KEY_PREFIX}"` },
  ]);
}

/**
 * Idempotency keys by UTC day (migration 0200): a key answers for 24 hours,
 * so a day's partition is dropped once its last key is past them and an hour
 * of slack for clocks — no per-row DELETE.
 */
export const IDEMPOTENCY_PARTITIONS: PartitionedTable = {
  table: 'idempotency_keys',
  column: 'created_at',
  unit: 'day',
  ahead: 2,
  dropBefore: (now) => new Date(now.getTime() - IDEMPOTENCY_TTL_MS - 3600_000),
};
