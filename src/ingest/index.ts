// The ingest module's face: what other modules may use. Nothing else of ingest/ is imported from outside it.

export {
  APPROVAL_NOTES,
  eraseText,
  eraseInvocationContent,
  forgetMetadataSalts,
  SELECTED_INVOCATIONS,
  selectorParams,
} from './erasure.ts';
export type { ContentSelector, ErasableText } from './erasure.ts';
export { INGRESS_TOKENS, createIngest, ingestUsage } from './ingest.ts';
export type { IngestModule } from './ingest.ts';
export { IDEMPOTENCY_PARTITIONS, RESERVED_KEY_PREFIX } from './idempotency.ts';
export { invocationTimeOnceSql, invocationTimeSql, oneInvocationTimeSql } from './invocation-time.ts';
export { linkParents } from './links.ts';
export { invocationExpired, recordsCutoff } from './records-retention.ts';
export {
  INGEST_PARTITIONS,
  ingestPartitions,
  INVOCATION_CONTENT_PARTITIONS,
  INVOCATION_PARTITIONS,
  ROGUE_EVENT_PARTITIONS,
} from './partitioned.ts';
export { redactMeta } from './metadata.ts';
export type { Redactor } from './metadata.ts';
export type { EventInput, EventResult } from './pipeline.ts';
export { lockReviewStatus, setReviewStatus } from './review-status.ts';
