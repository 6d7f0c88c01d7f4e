import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/index.ts';
import type { LogEntry } from './append.ts';
import type { AppendEntryInTx } from './appenders.ts';
import type { signHead, StoredCheckpoint } from './checkpoints.ts';
import type { LogArchive } from './log-archive.ts';
import type { LogWriter } from './log-writer.ts';
import type { VerifierKey } from './note.ts';
import type { PseudonymKind } from './pseudonyms.ts';

/** The ledger as the service and its routes hold it (made by createLedger, ledger.ts). */
export interface LedgerModule {
  /** Groups concurrent appends to one workspace's log into one transaction (ingest). */
  writer: LogWriter;
  /** Pseudonyms of agent keys and rogue event types for leaves (format v2), cached. */
  /** A value's pseudonym in the workspace log, its salt committed before it is returned (cached per node). */
  pseudonym(tenantId: string, kind: PseudonymKind, value: string): Promise<string>;
  /** Appends entries inside the caller's own transaction (account-side changes). */
  appendInTx(tx: Queryable, tenantId: string, entries: LogEntry[], time: Date): Promise<number[]>;
  /** One entry in the caller's transaction at the clock's time: the appendInTx policy, personas, ingest and judges take. */
  appendEntryInTx: AppendEntryInTx;
  /** The same for account-side entries: an e-mail address in the entry goes to the log as its pseudonym. */
  appendAccountEntryInTx: AppendEntryInTx;
  /** A log grew by appendUnscheduled (another thread of the service): its next checkpoint is scheduled. */
  grew(tenantId: string): void;
  origin(tenantId: string): string;
  verifierKey(tenantId: string): VerifierKey;
  /** Verifier keys of every key this service signed with, current first. */
  verifierKeys(tenantId: string): Promise<string[]>;
  /** Signs the current head now (on demand) unless already signed. */
  signNow(tx: Queryable, tenantId: string): ReturnType<typeof signHead>;
  /** A checkpoint of exactly this size (stored, or signed now). */
  checkpointOfSize(tx: Queryable, tenantId: string, size: number): ReturnType<typeof signHead>;
  /** The checkpoint note with the witnesses' cosignatures of its size appended (when any). */
  cosigned(tenantId: string, checkpoint: StoredCheckpoint): Promise<string>;
  /** The checkpoint submitted to the witnesses now (bounded wait), with the cosignatures gathered. */
  cosignNow(tenantId: string, checkpoint: StoredCheckpoint): Promise<string>;
  /** Entries and nodes from the database, or from the published tiles for entries pruned from it (LOG_KEEP_IN_DB_ENTRIES). */
  archive: LogArchive;
  routes(app: FastifyInstance): Promise<void>;
  close(): Promise<void>;
}
