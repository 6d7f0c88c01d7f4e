import { recordsCutoff } from '../ingest/index.ts';
import type { PartitionedTable } from '../partitions/index.ts';

/**
 * Recorded spans by UTC month of their invocation's created_at (migration
 * 0204), made two months ahead as invocations' are: a span's row is kept in
 * its invocation's month.
 */
export const OTEL_SPAN_PARTITIONS: PartitionedTable = {
  table: 'otel_spans',
  column: 'created_at',
  unit: 'month',
  ahead: 2,
};

/**
 * otlp's partitioned tables under a records retention of `recordsDays`
 * (RECORDS_RETENTION_DAYS; undefined: kept forever): spans dropped by whole
 * months with their invocations' (nothing counts their rows).
 */
export function otlpPartitions(recordsDays: number | undefined): readonly PartitionedTable[] {
  const dropBefore = recordsCutoff(recordsDays);
  return [dropBefore === undefined ? OTEL_SPAN_PARTITIONS : { ...OTEL_SPAN_PARTITIONS, dropBefore }];
}
