// Dropping published log entries from PostgreSQL (LOG_KEEP_IN_DB_ENTRIES): a
// workspace keeps its newest N entries, and whole tiles before them go once
// the store holds them — the store the publisher writes to, as far as
// log_published records it (the cursor moves after the writes, the
// checkpoint's size after the checkpoint), never what a run has in memory.
//
// A batch is one transaction holding the workspace's log_pruned row: each tile
// about to go is read back from the store and compared, byte for byte, with
// the tile the database builds (nothing is dropped that the store does not
// hold as it should); the hashes of subtrees of 256 leaves or more move from
// the rows to log_nodes (a pruned tile's hashes are checked against them, and
// proofs fold them); each tile's first and last entry time go to
// log_pruned_tiles (reports find a period's entries by them); then the
// entries, their legacy nodes inside the tiles, the copies of those tiles in
// log_tiles, and log_pruned moves. log-archive.ts reads them back.

import type { Db, Queryable } from '../db/index.ts';
import { equalBytes } from './bytes.ts';
import { TILE_LEVEL } from './log-archive.ts';
import type { PublishStore } from './publish-stores.ts';
import { buildTile, TILE_WIDTH, type TileRef, tilePath } from './tiles.ts';

/** The least LOG_KEEP_IN_DB_ENTRIES: the database always holds the newest full tile and the partial one after it. */
export const MIN_KEEP_IN_DB = TILE_WIDTH;
/** Tiles dropped per transaction (4,096 entries): the store reads and the DELETE stay short. */
const BATCH_TILES = 16;

export interface LogPrunerDeps {
  db: Db;
  store: PublishStore;
  origin(tenantId: string): string;
  /** Entries to keep in the database, newest first (LOG_KEEP_IN_DB_ENTRIES, at least MIN_KEEP_IN_DB). */
  keep: number;
  /**
   * The first entry another module still reads from the database itself (a
   * destination's cursor); null when none: pruning stops at its tile.
   */
  readsFrom?(tx: Queryable, tenantId: string): Promise<number | null>;
}

export class LogPruner {
  readonly #deps: LogPrunerDeps;

  constructor(deps: LogPrunerDeps) {
    if (!(deps.keep >= MIN_KEEP_IN_DB)) throw new RangeError(`keep must be at least ${MIN_KEEP_IN_DB}`);
    this.#deps = deps;
  }

  /** Prunes what a workspace may drop, a batch per transaction; `between` runs after each (a lease renewed). Returns entries dropped. */
  async prune(tenantId: string, between: () => Promise<unknown> = async () => {}): Promise<number> {
    let dropped = 0;
    for (;;) {
      const n = await this.#batch(tenantId);
      if (n === 0) return dropped;
      dropped += n;
      await between();
    }
  }

  async #batch(tenantId: string): Promise<number> {
    const { db, store, keep } = this.#deps;
    return db.withTenant(tenantId, async (tx) => {
      await tx.query(
        'INSERT INTO log_pruned (tenant_id, size, target) VALUES ($1, 0, $2) ON CONFLICT (tenant_id) DO NOTHING',
        [tenantId, store.where],
      );
      const [row] = await tx.query<{ size: string }>(
        'SELECT size::text AS size FROM log_pruned WHERE tenant_id = $1 FOR UPDATE',
        [tenantId],
      );
      const from = Number(row!.size);
      const [published] = await tx.query<{ tiles_size: string; checkpoint_size: string }>(
        `SELECT tiles_size::text AS tiles_size, checkpoint_size::text AS checkpoint_size
         FROM log_published WHERE tenant_id = $1 AND target = $2`,
        [tenantId, store.where],
      );
      if (!published) return 0;
      let bound = Math.min(Number(published.tiles_size), Number(published.checkpoint_size) - keep);
      const reader = await this.#deps.readsFrom?.(tx, tenantId);
      if (reader != null) bound = Math.min(bound, reader);
      const to = Math.min(Math.floor(bound / TILE_WIDTH) * TILE_WIDTH, from + BATCH_TILES * TILE_WIDTH);
      if (to <= from) return 0;

      // Nothing goes that the store does not hold exactly as the database would build it.
      for (let tile = from / TILE_WIDTH; tile < to / TILE_WIDTH; tile++) {
        for (const kind of ['hash', 'entries'] as const) {
          const ref: TileRef = { kind, level: 0, index: tile, width: TILE_WIDTH };
          const built = await buildTile(tx, tenantId, ref);
          const key = `${this.#deps.origin(tenantId)}/${tilePath(ref)}`;
          const held = await store.get(key);
          if (built === undefined || held === undefined || !equalBytes(built, held))
            throw new Error(`${tilePath(ref)} of ${tenantId} is not in ${store.where} as published; nothing pruned`);
        }
      }

      const params = [tenantId, from, to];
      // Subtrees of 256 leaves and more, each in the row of its last leaf (log-store.ts holderOf), to log_nodes.
      await tx.query(
        `INSERT INTO log_nodes (tenant_id, level, idx, hash)
         SELECT $1, l.level, ((e.idx + 1) >> l.level) - 1,
                substring(e.subtree_hashes FROM (l.level - 1) * 32 + 1 FOR 32)
         FROM log_entries e
         CROSS JOIN LATERAL generate_series(${TILE_LEVEL}, octet_length(e.subtree_hashes) / 32) AS l(level)
         WHERE e.tenant_id = $1 AND e.idx >= $2 AND e.idx < $3 AND octet_length(e.subtree_hashes) >= ${TILE_LEVEL * 32}
         ON CONFLICT DO NOTHING`,
        params,
      );
      await tx.query(
        `INSERT INTO log_pruned_tiles (tenant_id, tile, first_at, last_at)
         SELECT $1, idx / ${TILE_WIDTH}, min(created_at), max(created_at) FROM log_entries
         WHERE tenant_id = $1 AND idx >= $2 AND idx < $3 GROUP BY idx / ${TILE_WIDTH}
         ON CONFLICT DO NOTHING`,
        params,
      );
      // Nodes of entries appended before their rows held them (migrations 0125/0126), inside the tiles.
      await tx.query(
        `DELETE FROM log_nodes WHERE tenant_id = $1 AND level < ${TILE_LEVEL}
         AND idx >= ($2::bigint >> level) AND idx < ($3::bigint >> level)`,
        params,
      );
      const [deleted] = await tx.query<{ n: number }>(
        `WITH d AS (DELETE FROM log_entries WHERE tenant_id = $1 AND idx >= $2 AND idx < $3 RETURNING 1)
         SELECT count(*)::int AS n FROM d`,
        params,
      );
      await tx.query(
        `DELETE FROM log_tiles WHERE tenant_id = $1 AND level = 0
         AND idx >= $2 / ${TILE_WIDTH} AND idx < $3 / ${TILE_WIDTH}`,
        params,
      );
      await tx.query('UPDATE log_pruned SET size = $2, target = $3, updated_at = now() WHERE tenant_id = $1', [
        tenantId,
        to,
        store.where,
      ]);
      return deleted!.n;
    });
  }
}
