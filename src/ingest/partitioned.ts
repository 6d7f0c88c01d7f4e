import type { PartitionedTable } from '../partitions/index.ts';
import { IDEMPOTENCY_PARTITIONS } from './idempotency.ts';
import { recordsCutoff, uncountInvocations, uncountRogueEvents } from './records-retention.ts';

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

/**
 * Invocations and their stored texts by UTC month (migration 0202), made two
 * months ahead; a text lives in its invocation's month. Kept forever by
 * default, for the same reason as rogue events (agent_activity counts every
 * invocation).
 */
export const INVOCATION_PARTITIONS: PartitionedTable = {
  table: 'invocations',
  column: 'created_at',
  unit: 'month',
  ahead: 2,
};
export const INVOCATION_CONTENT_PARTITIONS: PartitionedTable = {
  ...INVOCATION_PARTITIONS,
  table: 'invocation_content',
};

/** Ingest's partitioned tables, for the partitions module's maintenance (records kept forever). */
export const INGEST_PARTITIONS: readonly PartitionedTable[] = ingestPartitions(undefined);

/**
 * Ingest's partitioned tables under a records retention of `recordsDays`
 * (RECORDS_RETENTION_DAYS; undefined: kept forever): invocations, their texts
 * and rogue events dropped by whole months past it, their rows taken out of
 * the per-agent counters first (records-retention.ts).
 */
export function ingestPartitions(recordsDays: number | undefined): readonly PartitionedTable[] {
  const dropBefore = recordsCutoff(recordsDays);
  if (dropBefore === undefined)
    return [IDEMPOTENCY_PARTITIONS, ROGUE_EVENT_PARTITIONS, INVOCATION_PARTITIONS, INVOCATION_CONTENT_PARTITIONS];
  return [
    IDEMPOTENCY_PARTITIONS,
    { ...ROGUE_EVENT_PARTITIONS, dropBefore, beforeRemove: uncountRogueEvents },
    { ...INVOCATION_PARTITIONS, dropBefore, beforeRemove: uncountInvocations },
    { ...INVOCATION_CONTENT_PARTITIONS, dropBefore },
  ];
}
