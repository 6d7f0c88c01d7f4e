// Publishes each workspace's log to static storage (LOG_PUBLISH_URL) as C2SP
// tlog-tiles, at the same paths the service serves under
// /api/v1/audit/tlog/{tenant_id}/ (tile-routes.ts), below the log's origin:
// <origin>/checkpoint, <origin>/tile/<L>/<N>[.p/<W>], <origin>/tile/entries/<N>[.p/<W>].
//
// Order and recovery: full tiles are written once, in chunks, the cursor
// (log_published.tiles_size) moving after each chunk; then the partial tiles
// of the checkpoint's size; then the checkpoint, last, so a reader who has the
// checkpoint finds every tile it needs. A node killed anywhere in between
// leaves the cursor behind what it wrote, and the next run writes those tiles
// again with the same bytes. Several nodes: a queue row is leased by one node
// at a time; if a lease runs out and two nodes write, they write the same
// bytes to the same tile paths, and the checkpoint is written under a row lock
// that refuses to replace a larger checkpoint with a smaller one.

import { Poller } from '../core/index.ts';
import type { Db, Queryable } from '../db/index.ts';
import { latestCheckpoint, type StoredCheckpoint } from './checkpoints.ts';
import type { LogArchive } from './log-archive.ts';
import type { LogPruner } from './log-pruning.ts';
import type { PublishStore } from './publish-stores.ts';
import { buildTile, TILE_WIDTH, type TileRef, tilePath } from './tiles.ts';

export { tilePath };

/** Full entry bundles written per step (with the hash tiles they complete) before the cursor moves. */
const CHUNK_TILES = 64;
/** Logs one node publishes at once; each holds at most a chunk of tiles in memory. */
const CONCURRENCY = 4;

export interface PublisherDeps {
  /** The log's origin: its checkpoint's first line and its prefix in the store. */
  origin(tenantId: string): string;
  /** The checkpoint as the service serves it (witness cosignatures appended). */
  note(tenantId: string, checkpoint: StoredCheckpoint): Promise<string>;
  /** Every workspace: each is looked at once when the publisher starts (publication switched on, a node restarted). */
  tenants(): Promise<string[]>;
}

export interface PublisherOptions {
  /** How long a node holds a log before another may take it over. */
  leaseMs: number;
  pollMs?: number;
  retryMaxSeconds?: number;
  onError?: (err: unknown, tenantId: string) => void;
  /** Reads the tiles of entries pruned from the database back from the store (LOG_KEEP_IN_DB_ENTRIES). */
  archive?: LogArchive;
  /** Drops published entries from the database after each publication (LOG_KEEP_IN_DB_ENTRIES). */
  pruner?: LogPruner;
}

/**
 * The full tiles that entries [from, to) complete (both multiples of 256):
 * their entry bundles, and at each level the hash tiles whose last leaf is in the range.
 */
export function fullTilesBetween(from: number, to: number): TileRef[] {
  const refs: TileRef[] = [];
  for (let n = from / TILE_WIDTH; n < to / TILE_WIDTH; n++)
    refs.push({ kind: 'entries', level: 0, index: n, width: TILE_WIDTH });
  for (let level = 0, span = TILE_WIDTH; span <= to; level++, span *= TILE_WIDTH) {
    for (let n = Math.floor(from / span); n < Math.floor(to / span); n++)
      refs.push({ kind: 'hash', level, index: n, width: TILE_WIDTH });
  }
  return refs;
}

/** The partial tiles a tree of `size` has: one entry bundle and at most one hash tile per level. */
export function partialTilesOf(size: number): TileRef[] {
  const refs: TileRef[] = [];
  if (size % TILE_WIDTH > 0)
    refs.push({ kind: 'entries', level: 0, index: Math.floor(size / TILE_WIDTH), width: size % TILE_WIDTH });
  for (let level = 0, count = size; count > 0; level++, count = Math.floor(count / TILE_WIDTH)) {
    if (count % TILE_WIDTH > 0)
      refs.push({ kind: 'hash', level, index: Math.floor(count / TILE_WIDTH), width: count % TILE_WIDTH });
  }
  return refs;
}

export class LogPublisher {
  readonly #db: Db;
  readonly #store: PublishStore;
  readonly #deps: PublisherDeps;
  readonly #opts: Required<Omit<PublisherOptions, 'onError' | 'archive' | 'pruner'>> &
    Pick<PublisherOptions, 'onError' | 'archive' | 'pruner'>;
  readonly #poller: Poller;

  constructor(db: Db, store: PublishStore, deps: PublisherDeps, opts: PublisherOptions) {
    this.#db = db;
    this.#store = store;
    this.#deps = deps;
    this.#opts = { pollMs: 1_000, retryMaxSeconds: 300, ...opts };
    this.#poller = new Poller({
      round: () => this.#tick(),
      pollMs: this.#opts.pollMs,
      pokeDelayMs: 50, // after the signing transaction has committed
      onError: (err) => this.#opts.onError?.(err, ''),
    });
  }

  get where(): string {
    return this.#store.where;
  }

  /** A checkpoint was signed in `tx`: arm the log's queue row, and look once that transaction has committed. */
  async signed(tx: Queryable, tenantId: string): Promise<void> {
    await tx.query(
      `INSERT INTO log_publish_queue (tenant_id) VALUES ($1)
       ON CONFLICT (tenant_id) DO UPDATE SET seq = log_publish_queue.seq + 1, due_at = now(), attempts = 0`,
      [tenantId],
    );
    this.#poller.poke();
  }

  /**
   * Arms every workspace's log, then polls. What a node killed mid-publication
   * left (its lease not yet run out) is taken up now rather than a lease later.
   */
  async start(): Promise<void> {
    const tenants = await this.#deps.tenants();
    if (tenants.length > 0) {
      await this.#db.query(
        `INSERT INTO log_publish_queue (tenant_id) SELECT unnest($1::uuid[])
         ON CONFLICT (tenant_id) DO UPDATE SET due_at = now(), attempts = 0`,
        [tenants],
      );
    }
    this.#poller.start();
  }

  async stop(): Promise<void> {
    await this.#poller.stop();
    this.#store.close();
  }

  /** Runs until no armed log is due; for tests. */
  drain(): Promise<void> {
    return this.#poller.drain();
  }

  async #tick(): Promise<number> {
    const due = await this.#db.query<{ tenant_id: string; seq: string; attempts: number }>(
      `UPDATE log_publish_queue SET due_at = now() + ($1::int * interval '1 millisecond'), attempts = attempts + 1
       WHERE tenant_id IN (SELECT tenant_id FROM log_publish_queue WHERE due_at <= now()
                           ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING tenant_id, seq::text AS seq, attempts`,
      [this.#opts.leaseMs, CONCURRENCY],
    );
    await Promise.all(due.map((row) => this.#settle(row.tenant_id, row.seq, row.attempts)));
    return due.length;
  }

  async #settle(tenantId: string, seq: string, attempts: number): Promise<void> {
    const renew = () =>
      this.#db.query(
        `UPDATE log_publish_queue SET due_at = now() + ($3::int * interval '1 millisecond')
         WHERE tenant_id = $1 AND seq = $2`,
        [tenantId, seq, this.#opts.leaseMs],
      );
    try {
      await this.publish(tenantId, renew);
      // What is now published (as log_published records it) may leave the database, still under the lease.
      if (this.#opts.pruner) {
        try {
          await this.#opts.pruner.prune(tenantId, renew);
        } catch (err) {
          this.#opts.onError?.(err, tenantId); // tried again after the next publication
        }
      }
      // Unless a newer checkpoint armed the row again meanwhile.
      await this.#db.query(
        'UPDATE log_publish_queue SET due_at = NULL, attempts = 0, last_error = NULL WHERE tenant_id = $1 AND seq = $2',
        [tenantId, seq],
      );
    } catch (err) {
      this.#opts.onError?.(err, tenantId);
      const delay = Math.min(this.#opts.retryMaxSeconds, 2 ** Math.min(attempts - 1, 20));
      await this.#db.query(
        `UPDATE log_publish_queue SET due_at = now() + ($2::int * interval '1 second'), last_error = $4
         WHERE tenant_id = $1 AND seq = $3`,
        [tenantId, delay, seq, String((err as Error)?.message ?? err).slice(0, 500)],
      );
    }
  }

  /**
   * Brings the store up to the log's latest checkpoint: the full tiles from
   * the cursor on, the checkpoint's partial tiles, then the checkpoint.
   * `renew` extends the caller's lease after each chunk.
   */
  async publish(tenantId: string, renew: () => Promise<unknown> = async () => {}): Promise<StoredCheckpoint | null> {
    const cp = await this.#db.withTenant(tenantId, (tx) => latestCheckpoint(tx, tenantId));
    if (cp === null) return null;
    const origin = this.#deps.origin(tenantId);
    const target = this.#store.where;
    await this.#db.query('INSERT INTO log_published (tenant_id, target) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      tenantId,
      target,
    ]);
    const [state] = await this.#db.query<{ tiles_size: string; checkpoint_size: string }>(
      `SELECT tiles_size::text AS tiles_size, checkpoint_size::text AS checkpoint_size
       FROM log_published WHERE tenant_id = $1 AND target = $2`,
      [tenantId, target],
    );
    const full = Math.floor(cp.size / TILE_WIDTH) * TILE_WIDTH;
    for (let from = Number(state!.tiles_size); from < full;) {
      const to = Math.min(full, from + CHUNK_TILES * TILE_WIDTH);
      await this.#write(tenantId, origin, fullTilesBetween(from, to));
      await this.#db.query(
        `UPDATE log_published SET tiles_size = $3, updated_at = now()
         WHERE tenant_id = $1 AND target = $2 AND tiles_size < $3`,
        [tenantId, target, to],
      );
      await renew();
      from = to;
    }
    if (Number(state!.checkpoint_size) !== cp.size) await this.#write(tenantId, origin, partialTilesOf(cp.size));
    const note = await this.#deps.note(tenantId, cp);
    // Under the row's lock, so a node working from an older checkpoint (its
    // lease run out) cannot put it back over a newer one.
    await this.#db.transaction(async (tx) => {
      const [row] = await tx.query<{ checkpoint_size: string }>(
        'SELECT checkpoint_size::text AS checkpoint_size FROM log_published WHERE tenant_id = $1 AND target = $2 FOR UPDATE',
        [tenantId, target],
      );
      if (Number(row!.checkpoint_size) > cp.size) return;
      await this.#store.put(`${origin}/checkpoint`, new TextEncoder().encode(note), 'checkpoint');
      await tx.query(
        `UPDATE log_published SET checkpoint_size = $3, tiles_size = greatest(tiles_size, $4), updated_at = now()
         WHERE tenant_id = $1 AND target = $2`,
        [tenantId, target, cp.size, full],
      );
    });
    return cp;
  }

  /** Builds the tiles in one read transaction, then writes them outside it. */
  async #write(tenantId: string, origin: string, refs: TileRef[]): Promise<void> {
    const built = await this.#db.withTenant(tenantId, async (tx) => {
      const out: [TileRef, Uint8Array][] = [];
      for (const ref of refs) {
        const data = await buildTile(tx, tenantId, ref);
        if (data !== undefined) {
          out.push([ref, data]);
          continue;
        }
        // Its entries were pruned (LOG_KEEP_IN_DB_ENTRIES): then the store holds it already, as the
        // archive checks (a store that has not it — LOG_PUBLISH_URL changed without copying — fails here).
        if ((await this.#opts.archive?.tile(tx, tenantId, ref)) !== undefined) continue;
        // Every other tile of a signed size exists: its nodes and leaves were stored with the leaves.
        throw new Error(`tile ${tilePath(ref)} of ${tenantId} cannot be built`);
      }
      return out;
    });
    for (const [ref, data] of built) await this.#store.put(`${origin}/${tilePath(ref)}`, data, 'tile');
  }
}
