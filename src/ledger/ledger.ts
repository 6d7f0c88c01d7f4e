import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/db.ts';
import type { AppContext } from '../http/context.ts';
import { type LogEntry, beginAppend } from './append.ts';
import { auditRoutes } from './audit-routes.ts';
import { CheckpointScheduler, checkpointOfSize, originOf, signHead, type StoredCheckpoint } from './checkpoints.ts';
import { LogWriter } from './log-writer.ts';
import { tileRoutes } from './tile-routes.ts';
import { formatVerifierKey, keyId, type SignerKey, signerKeyFromSeed, type VerifierKey, verifierKeyFor } from './note.ts';

export interface LedgerModule {
  /** Groups concurrent appends to one workspace's log into one transaction (ingest). */
  writer: LogWriter;
  /** Appends entries inside the caller's own transaction (account-side changes). */
  appendInTx(tx: Queryable, tenantId: string, entries: LogEntry[], time: Date): Promise<number[]>;
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
  /** Where cosignatures come from (the witness module); until set, notes are served as signed. */
  useCosignatures(source: CosignatureSource): void;
  routes(app: FastifyInstance): Promise<void>;
  close(): Promise<void>;
}

/** Cosignature lines (each ending in a newline) collected for a checkpoint of this size. */
export type CosignatureSource = (tenantId: string, size: number, root: Uint8Array) => Promise<string[]>;

export async function createLedger(ctx: AppContext, seed: Uint8Array): Promise<LedgerModule> {
  const signer: SignerKey = signerKeyFromSeed(ctx.config.ledgerOrigin, seed);
  // Publish the key before signing with it, so rotated keys stay listed.
  await ctx.db.query('INSERT INTO signing_keys (public_key) VALUES ($1) ON CONFLICT DO NOTHING', [
    Buffer.from(signer.publicKey),
  ]);
  const origin = (tenantId: string) => originOf(ctx.config.ledgerOrigin, tenantId);
  const signNow = (tx: Queryable, tenantId: string) => signHead(tx, tenantId, origin(tenantId), signer);
  const scheduler = new CheckpointScheduler(ctx.db, signNow, {
    onError: (err) => console.error('checkpoint signing failed', err),
  });
  const writer = new LogWriter(ctx.db, {
    onCommitted: (tenantId) => scheduler.grew(tenantId),
    onBatch: (n) => ctx.metrics.ledgerAppends.observe(n),
  });
  let cosignatures: CosignatureSource | undefined;
  const ledger: LedgerModule = {
    writer,
    async appendInTx(tx, tenantId, entries, time) {
      const log = await beginAppend(tx, tenantId);
      const indexes = entries.map((e) => log.add(e, time));
      await log.commit(tx);
      // The caller's transaction commits after this returns; a checkpoint
      // scheduled now is signed an interval later, after that commit.
      scheduler.grew(tenantId);
      return indexes;
    },
    origin,
    verifierKey: (tenantId) => verifierKeyFor(signer, origin(tenantId)),
    async verifierKeys(tenantId) {
      const rows = await ctx.readDb.query<{ public_key: Uint8Array }>(
        'SELECT public_key FROM signing_keys ORDER BY first_used_at DESC, public_key',
      );
      const current = formatVerifierKey(ledger.verifierKey(tenantId));
      const others = rows
        .map((r) => new Uint8Array(r.public_key))
        .filter((pk) => Buffer.compare(Buffer.from(pk), Buffer.from(signer.publicKey)) !== 0)
        .map((publicKey) => {
          const name = origin(tenantId);
          return formatVerifierKey({ name, keyId: keyId(name, publicKey), publicKey });
        });
      return [current, ...others];
    },
    signNow,
    checkpointOfSize: (tx, tenantId, size) => checkpointOfSize(tx, tenantId, size, origin(tenantId), signer),
    async cosigned(tenantId, checkpoint) {
      const lines = cosignatures ? await cosignatures(tenantId, checkpoint.size, checkpoint.root) : [];
      return checkpoint.note + lines.join('');
    },
    useCosignatures(source) {
      cosignatures = source;
    },
    async routes(app) {
      await auditRoutes(app, ctx, ledger);
      await tileRoutes(app, ctx, ledger);
    },
    close: () => scheduler.close(),
  };
  return ledger;
}
