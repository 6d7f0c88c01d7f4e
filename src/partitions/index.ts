// The partitions module's face: what other modules may use. Nothing else of partitions/ is imported from outside it.

export { PartitionMaintainer, partitionName, periodAfter, periodStart } from './partitions.ts';
export type { PartitionPass, PartitionUnit, PartitionedTable } from './partitions.ts';
