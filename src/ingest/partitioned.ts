import type { PartitionedTable } from '../partitions/index.ts';
import { IDEMPOTENCY_PARTITIONS } from './idempotency.ts';

/**
 * Rogue events by UTC month (migration 0201), made two months ahead. Kept
 * forever: the per-agent counters (agent_rogue_activity) count every row, so
 * dropping a month would have to take its rows out of them first.
 */
export const ROGUE_EVENT_PARTITIONS: PartitionedTable = {
  table: 'rogue_events',
  column: 'created_at',
  unit: 'month',
  ahead: 2,
};

/** Ingest's partitioned tables, for the partitions module's maintenance. */
export const INGEST_PARTITIONS: readonly PartitionedTable[] = [IDEMPOTENCY_PARTITIONS, ROGUE_EVENT_PARTITIONS];
