import type { Db, Queryable } from '../db/index.ts';
import type { AppContext } from '../core/index.ts';
import { type LogEntry, beginAppend } from './append.ts';
import { accountEntryAppender, entryAppender } from './appenders.ts';
import { auditRoutes } from './audit-routes.ts';
import type { LedgerModule } from './ledger-module.ts';
import {
  CheckpointScheduler,
  checkpointOfSize,
  latestCheckpoint,
  originOf,
  signHead,
  type StoredCheckpoint,
} from './checkpoints.ts';
import { LogArchive } from './log-archive.ts';
import { consistencyNeeds, consistencyProof } from './merkle.ts';
import { type LogStep, LogWriter } from './log-writer.ts';
import { Pseudonyms } from './pseudonyms.ts';
import { tileRoutes } from './tile-routes.ts';
import { formatVerifierKey, keyId, type SignerKey, signerKeyFromSeed, verifierKeyFor } from './note.ts';

/**
 * Appends entries inside the caller's transaction without scheduling the
 * checkpoint that covers them: for a thread of the service without a ledger
 * module of its own (the delivery thread), which tells the one that has it
 * (`LedgerModule.grew`).
 */
export async function appendUnscheduled(
  tx: Queryable,
  tenantId: string,
  entries: readonly LogEntry[],
  time: Date,
): Promise<number[]> {
  const log = await beginAppend(tx, tenantId);
  const indexes = entries.map((e) => log.add(e, time));
  await log.commit(tx);
  return indexes;
}

/** What the logs hold, read with nothing but the database: the witness submitter is made with it before the ledger. */
export interface LogReader {
  /** The latest stored checkpoint, or null for a log never signed. */
  latest(tenantId: string): Promise<StoredCheckpoint | null>;
  /** RFC 6962 consistency proof between two sizes (empty when first is 0 or equal to second). */
  consistencyProof(tenantId: string, first: number, second: number): Promise<Uint8Array[]>;
}

/** `archive`: where nodes of entries pruned from the database are read (the published tiles). */
export function logReader(db: Db, archive: LogArchive): LogReader {
  return {
    latest: (tenantId) => db.withTenant(tenantId, (tx) => latestCheckpoint(tx, tenantId)),
    async consistencyProof(tenantId, first, second) {
      const nodes = await db.withTenant(tenantId, (tx) =>
        archive.readNodes(tx, tenantId, consistencyNeeds(first, second)),
      );
      return consistencyProof(first, second, nodes);
    },
  };
}

/** What the ledger asks of the witness module. */
export interface CheckpointWitnessing {
  /** Cosignature lines (each ending in a newline) collected for the checkpoint of this size. */
  cosignatures(tenantId: string, size: number): Promise<string[]>;
  /** Runs inside the transaction that signed a new checkpoint: queue it for the witnesses. */
  signed(tx: Queryable, tenantId: string): Promise<void>;
  /** Submits this checkpoint to every witness now, waiting a bounded time. */
  submitNow(tenantId: string, checkpoint: StoredCheckpoint): Promise<void>;
  /** Which of these checkpoint sizes the witness module stores (a cosignature, a witness's last size): pruning keeps them. */
  referencedSizes(tx: Queryable, tenantId: string, sizes: readonly number[]): Promise<number[]>;
}

/** What the ledger tells the log publisher (LOG_PUBLISH_URL), when one runs. */
export interface CheckpointPublishing {
  /** Runs inside the transaction that signed a new latest checkpoint: queue the log for publication. */
  signed(tx: Queryable, tenantId: string): Promise<void>;
}

/**
 * `witnessing`: the witness module, asked for cosignatures and told of each checkpoint signed.
 * `publishing`: the log publisher, told of each new latest checkpoint.
 * `archive`: reads entries pruned from the database from the published tiles (none pruned: not needed).
 */
export async function createLedger(
  ctx: AppContext,
  seed: Uint8Array,
  witnessing: CheckpointWitnessing,
  publishing?: CheckpointPublishing,
  archive: LogArchive = new LogArchive(undefined, (tenantId) => originOf(ctx.config.ledgerOrigin, tenantId)),
): Promise<LedgerModule> {
  const signer: SignerKey = signerKeyFromSeed(ctx.config.ledgerOrigin, seed);
  // Publish the key before signing with it, so rotated keys stay listed.
  await ctx.db.query('INSERT INTO signing_keys (public_key) VALUES ($1) ON CONFLICT DO NOTHING', [
    Buffer.from(signer.publicKey),
  ]);
  const origin = (tenantId: string) => originOf(ctx.config.ledgerOrigin, tenantId);
  const signNow = async (tx: Queryable, tenantId: string) => {
    const cp = await signHead(tx, tenantId, origin(tenantId), signer, ctx.now());
    await witnessing.signed(tx, tenantId);
    await publishing?.signed(tx, tenantId);
    return cp;
  };
  const scheduler = new CheckpointScheduler(ctx.db, signNow, {
    onError: (err) => console.error('checkpoint signing failed', err),
  });
  const writer = new LogWriter(ctx.db, {
    onCommitted: (tenantId) => scheduler.grew(tenantId),
    onBatch: (n) => ctx.metrics.ledgerAppends.observe(n),
    onDecidedAhead: (outcome) => ctx.metrics.ledgerDecidedAhead.inc({ outcome }),
    onStep: stepTimer(ctx.metrics.ledgerSteps),
  });
  const pseudonyms = new Pseudonyms(ctx.db);
  const appendInTx = async (tx: Queryable, tenantId: string, entries: LogEntry[], time: Date) => {
    const indexes = await appendUnscheduled(tx, tenantId, entries, time);
    // The caller's transaction commits after this returns; a checkpoint
    // scheduled now is signed an interval later, after that commit.
    scheduler.grew(tenantId);
    return indexes;
  };
  const ledger: LedgerModule = {
    writer,
    pseudonym: (tenantId, kind, value) => pseudonyms.of(tenantId, kind, value),
    appendInTx,
    appendEntryInTx: entryAppender({ appendInTx }, ctx.now),
    grew: (tenantId) => scheduler.grew(tenantId),
    appendAccountEntryInTx: accountEntryAppender({ appendInTx }, ctx.now),
    origin,
    verifierKey: (tenantId) => verifierKeyFor(signer, origin(tenantId)),
    verifierKeys: (tenantId) => verifierKeysOf(ctx, signer, origin(tenantId)),
    signNow,
    async checkpointOfSize(tx, tenantId, size) {
      const cp = await checkpointOfSize(tx, tenantId, size, origin(tenantId), signer, ctx.now(), archive);
      await witnessing.signed(tx, tenantId);
      return cp;
    },
    async cosigned(tenantId, checkpoint) {
      const lines = await witnessing.cosignatures(tenantId, checkpoint.size);
      return checkpoint.note + lines.join('');
    },
    async cosignNow(tenantId, checkpoint) {
      await witnessing.submitNow(tenantId, checkpoint);
      return ledger.cosigned(tenantId, checkpoint);
    },
    archive,
    async routes(app) {
      await auditRoutes(app, ctx, ledger);
      await tileRoutes(app, ctx, ledger);
    },
    close: () => scheduler.close(),
  };
  return ledger;
}

/** The verifier keys of every key this service signed with, as named for one log: the current one first. */
async function verifierKeysOf(ctx: AppContext, signer: SignerKey, name: string): Promise<string[]> {
  const rows = await ctx.readDb.query<{ public_key: Uint8Array }>(
    'SELECT public_key FROM signing_keys ORDER BY first_used_at DESC, public_key',
  );
  const others = rows
    .map((r) => new Uint8Array(r.public_key))
    .filter((pk) => Buffer.compare(Buffer.from(pk), Buffer.from(signer.publicKey)) !== 0)
    .map((publicKey) => formatVerifierKey({ name, keyId: keyId(name, publicKey), publicKey }));
  return [formatVerifierKey(verifierKeyFor(signer, name)), ...others];
}

/** LogWriterOptions.onStep into the step histogram: each step's child looked up once, not by its label at every observation. */
function stepTimer(histogram: AppContext['metrics']['ledgerSteps']): (step: LogStep, seconds: number) => void {
  const steps = {
    queued: histogram.labels('queued'),
    lock: histogram.labels('lock'),
    plan: histogram.labels('plan'),
    write: histogram.labels('write'),
  };
  return (step, seconds) => steps[step].observe(seconds);
}
