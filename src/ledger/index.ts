// The ledger module's face: what other modules may use. Nothing else of ledger/ is imported from outside it.

export type { LogEntry, OpenAppend } from './append.ts';
export type { AppendEntryInTx } from './appenders.ts';
export { decodeBase64, encodeBase64, equalBytes, utf8 } from './bytes.ts';
export { canonicalJson, sortedKeys } from './canonical-json.ts';
export { CheckpointPruner } from './checkpoint-pruning.ts';
export { latestCheckpoint, originOf } from './checkpoints.ts';
export type { StoredCheckpoint } from './checkpoints.ts';
export { evidenceIdOf } from './evidence.ts';
export { LEAF_VERSION, commitment, encodeLeaf, leafHashOf, newSalt } from './leaf.ts';
export { appendUnscheduled, createLedger, logReader } from './ledger.ts';
export type { CheckpointPublishing, CheckpointWitnessing, LogReader } from './ledger.ts';
export type { LedgerModule } from './ledger-module.ts';
export { entryRange, readEntries, readHead, writeRideAlong } from './log-store.ts';
export type { RideAlong } from './log-store.ts';
export { ItemFailed } from './log-writer.ts';
export { LogArchive, LogArchiveError } from './log-archive.ts';
export { LogPruner } from './log-pruning.ts';
export { LogPublisher } from './publisher.ts';
export { openPublishStore } from './publish-stores.ts';
export type { PublishStore } from './publish-stores.ts';
export type { LogWriter, SetJob } from './log-writer.ts';
export { emptyRoot, verifyConsistency } from './merkle.ts';
export {
  NoteError,
  formatSignerKey,
  formatVerifierKey,
  generateSignerKey,
  isValidKeyName,
  keyId,
  openCheckpoint,
  parseCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  verifierKeyFor,
} from './note.ts';
export type { Checkpoint, SignerKey, VerifierKey } from './note.ts';
export { openPseudonyms, pseudonymInTx, pseudonymIndex } from './pseudonyms.ts';
export type { PseudonymKind } from './pseudonyms.ts';
export { prefixRoots, verifyBundle } from './verify-bundle.ts';
export type {
  Bundle,
  BundleEntry,
  ConsistencyProofJson,
  EvidenceJson,
  Failure,
  InclusionProofJson,
} from './verify-bundle.ts';
