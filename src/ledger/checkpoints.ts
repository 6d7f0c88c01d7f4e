import type { Db, Queryable } from '../db/index.ts';
import { readHead, readNodes } from './log-store.ts';
import { rootFromNodes, rootNeeds } from './merkle.ts';
import { type SignerKey, signCheckpoint } from './note.ts';

export interface StoredCheckpoint {
  size: number;
  root: Uint8Array;
  note: string;
}

/** The origin line (and key name) of a workspace's log. */
export function originOf(ledgerOrigin: string, tenantId: string): string {
  return `${ledgerOrigin}/${tenantId}`;
}

export async function latestCheckpoint(db: Queryable, tenantId: string): Promise<StoredCheckpoint | null> {
  const [row] = await db.query<{ size: number; root: Uint8Array; note: string }>(
    'SELECT size, root, note FROM checkpoints WHERE tenant_id = $1 ORDER BY size DESC LIMIT 1',
    [tenantId],
  );
  return row ? { size: row.size, root: new Uint8Array(row.root), note: row.note } : null;
}

export async function checkpointAt(db: Queryable, tenantId: string, size: number): Promise<StoredCheckpoint | null> {
  const [row] = await db.query<{ size: number; root: Uint8Array; note: string }>(
    'SELECT size, root, note FROM checkpoints WHERE tenant_id = $1 AND size = $2',
    [tenantId, size],
  );
  return row ? { size: row.size, root: new Uint8Array(row.root), note: row.note } : null;
}

/**
 * Signs the current head unless a checkpoint of that size exists. Ed25519 is
 * deterministic, so two nodes signing the same head store the same note and
 * the second insert is a no-op. `time` (the service's clock) is what pruning
 * later sorts it by, into hours and days.
 */
export async function signHead(
  tx: Queryable,
  tenantId: string,
  origin: string,
  signer: SignerKey,
  time: Date,
): Promise<StoredCheckpoint> {
  const head = await readHead(tx, tenantId);
  const existing = await checkpointAt(tx, tenantId, head.size);
  if (existing) return existing;
  const note = signCheckpoint({ origin, size: head.size, root: head.root }, signer);
  await tx.query(
    'INSERT INTO checkpoints (tenant_id, size, root, note, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tenant_id, size) DO NOTHING',
    [tenantId, head.size, Buffer.from(head.root), note, time],
  );
  return { size: head.size, root: head.root, note };
}

/**
 * A checkpoint of exactly `size` (at most the head): the stored one, or one
 * signed now over the root recomputed from the stored nodes. Reports use it
 * to state the log size their facts were read at. A pruned size is signed
 * again: with the same key, the note is the same bytes as before. `nodes`:
 * where they are read (the ledger's archive reads pruned tiles' from the store).
 */
export async function checkpointOfSize(
  tx: Queryable,
  tenantId: string,
  size: number,
  origin: string,
  signer: SignerKey,
  time: Date,
  nodes: { readNodes: typeof readNodes } = { readNodes },
): Promise<StoredCheckpoint> {
  const existing = await checkpointAt(tx, tenantId, size);
  if (existing) return existing;
  const root = rootFromNodes(size, await nodes.readNodes(tx, tenantId, rootNeeds(size)));
  const note = signCheckpoint({ origin, size, root }, signer);
  await tx.query(
    'INSERT INTO checkpoints (tenant_id, size, root, note, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tenant_id, size) DO NOTHING',
    [tenantId, size, Buffer.from(root), note, time],
  );
  return { size, root, note };
}

/**
 * Signs a checkpoint shortly after a log grows: at most one per workspace per
 * interval, however busy it is, and the last growth is always signed.
 */
export class CheckpointScheduler {
  readonly #db: Db;
  readonly #sign: (tx: Queryable, tenantId: string) => Promise<StoredCheckpoint>;
  readonly #intervalMs: number;
  readonly #onError: (err: unknown) => void;
  readonly #lastSigned = new Map<string, number>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #running = new Set<Promise<void>>();
  #closed = false;

  constructor(
    db: Db,
    sign: (tx: Queryable, tenantId: string) => Promise<StoredCheckpoint>,
    opts: { intervalMs?: number; onError: (err: unknown) => void },
  ) {
    this.#db = db;
    this.#sign = sign;
    this.#intervalMs = opts.intervalMs ?? 1000;
    this.#onError = opts.onError;
  }

  /** The log of tenantId grew. */
  grew(tenantId: string): void {
    if (this.#closed || this.#timers.has(tenantId)) return;
    const since = Date.now() - (this.#lastSigned.get(tenantId) ?? 0);
    const delay = Math.max(0, this.#intervalMs - since);
    const timer = setTimeout(() => {
      this.#timers.delete(tenantId);
      this.#lastSigned.set(tenantId, Date.now());
      const run = this.#db
        .withTenant(tenantId, (tx) => this.#sign(tx, tenantId))
        .then(
          () => {},
          (err) => this.#onError(err),
        );
      this.#running.add(run);
      void run.finally(() => this.#running.delete(run));
    }, delay);
    this.#timers.set(tenantId, timer);
  }

  /** Signs what is pending now and stops. */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = [...this.#timers.keys()];
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    await Promise.all(this.#running);
    for (const tenantId of pending) {
      await this.#db.withTenant(tenantId, (tx) => this.#sign(tx, tenantId)).catch(this.#onError);
    }
  }
}
