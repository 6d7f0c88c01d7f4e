// Pruning signed checkpoints. The scheduler signs up to one a second per
// growing workspace, and nothing the service serves needs most of them: the
// latest is served, proofs are computed from the log's nodes for any size up
// to it, and a report asks for its size's checkpoint through
// checkpointOfSize, which signs a pruned size again (the same bytes, with the
// same key). What a pass keeps of a workspace's checkpoints:
//
//   - the latest (the largest size);
//   - every size something stores: a witness's cosignature or its last size
//     (the witness module answers `referenced`), the checkpoint published to
//     LOG_PUBLISH_URL;
//   - the last (largest) of each UTC hour from the day seven days ago on, and
//     the last of each UTC day before that;
//   - anything signed less than `graceMs` ago (a witness may still be
//     answering for it).
//
// A pass reads a workspace's checkpoints by time, a whole hour or day at a
// time (so each bucket's last is known), and deletes at most `batch` rows per
// transaction, each transaction holding the workspace's advisory lock (a node
// finding it taken leaves that workspace to the node holding it). Days before
// the last pass's seven-day line hold only their survivors already, so the
// next pass starts there: a pass reads about a week of survivors and what was
// signed since, not the whole history.

import { Poller } from '../core/index.ts';
import type { Db, Queryable } from '../db/index.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Past every time a checkpoint can have (the end of the last chunk). */
const END_OF_TIME = new Date('9999-01-01T00:00:00.000Z');

export interface CheckpointPrunerDeps {
  db: Db;
  /** The service's clock. */
  now: () => Date;
  /** Every workspace id (accounts). */
  tenants(): Promise<string[]>;
  /** Which of these sizes another module stores a reference to (the witness module's cosignatures and states). */
  referenced(tx: Queryable, tenantId: string, sizes: readonly number[]): Promise<number[]>;
  onError?: (err: unknown, tenantId: string | undefined) => void;
}

export interface CheckpointPrunerOptions {
  /** Between passes. Default ten minutes. */
  intervalMs?: number;
  /** A checkpoint younger than this is never deleted. Default ten minutes. */
  graceMs?: number;
  /** Days of hourly checkpoints kept before one a day. Default 7. */
  hourlyDays?: number;
  /** Most rows deleted per transaction. Default 5,000. */
  batch?: number;
}

/** The start of the UTC day or hour bucket after `t`'s (buckets before `dayCutoff` are days, after it hours). */
export function bucketEnd(t: Date, dayCutoff: Date): Date {
  const ms = t.getTime();
  const unit = ms < dayCutoff.getTime() ? DAY_MS : HOUR_MS;
  return new Date(Math.floor(ms / unit) * unit + unit);
}

/** The UTC midnight on or before `hourlyDays` days before `now`: hourly buckets from there on. */
export function dayCutoffOf(now: Date, hourlyDays: number): Date {
  const ms = now.getTime() - hourlyDays * DAY_MS;
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS);
}

export class CheckpointPruner {
  readonly #deps: CheckpointPrunerDeps;
  readonly #intervalMs: number;
  readonly #graceMs: number;
  readonly #hourlyDays: number;
  readonly #batch: number;
  readonly #poller: Poller;
  #stopped = false;

  constructor(deps: CheckpointPrunerDeps, opts: CheckpointPrunerOptions = {}) {
    this.#deps = deps;
    this.#intervalMs = opts.intervalMs ?? 600_000;
    this.#graceMs = opts.graceMs ?? 600_000;
    this.#hourlyDays = opts.hourlyDays ?? 7;
    this.#batch = opts.batch ?? 5_000;
    // A pass is one round however much it deleted: the next one is an interval later.
    this.#poller = new Poller({
      round: () => this.pruneAll().then(() => 0),
      pollMs: this.#intervalMs,
      onError: (err) => deps.onError?.(err, undefined),
    });
  }

  start(): void {
    this.#poller.start(30_000);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#poller.stop();
  }

  /** Ends the background passes only: prune() and pruneAll() still run when called (tests that prune by hand). */
  async stopPolling(): Promise<void> {
    await this.#poller.stop();
  }

  /**
   * One pass over every workspace, skipping those some node pruned less than
   * half an interval ago; returns how many checkpoints were deleted.
   */
  async pruneAll(): Promise<number> {
    let deleted = 0;
    for (const tenantId of await this.#deps.tenants()) {
      if (this.#stopped) break;
      try {
        deleted += (await this.prune(tenantId, { skipRecent: true })) ?? 0;
      } catch (err) {
        this.#deps.onError?.(err, tenantId);
      }
    }
    return deleted;
  }

  /**
   * Prunes one workspace's checkpoints; how many were deleted, or null when
   * another node holds the workspace (or, with skipRecent, pruned it lately).
   */
  async prune(tenantId: string, opts: { skipRecent?: boolean } = {}): Promise<number | null> {
    const { db } = this.#deps;
    const now = this.#deps.now();
    const dayCutoff = dayCutoffOf(now, this.#hourlyDays);
    const graceEnd = new Date(now.getTime() - this.#graceMs);
    const [state] = await db.withTenant(tenantId, (tx) =>
      tx.query<{ pruned_before: Date; pruned_at: Date }>(
        'SELECT pruned_before, pruned_at FROM checkpoint_pruning WHERE tenant_id = $1',
        [tenantId],
      ),
    );
    if (opts.skipRecent && state && now.getTime() - state.pruned_at.getTime() < this.#intervalMs / 2) return null;

    let deleted = 0;
    // The chunk [from, to): whole buckets, at least `batch` rows unless it is the last one.
    let from = state ? state.pruned_before : new Date(0);
    let to: Date | undefined;
    // Within the chunk, candidates above this size (a page of `batch` per transaction).
    let after = -1;
    for (;;) {
      if (this.#stopped) return deleted;
      const page = await db.withTenant(tenantId, async (tx) => {
        if (!(await this.#lock(tx, tenantId))) return null;
        if (to === undefined) to = await this.#chunkEnd(tx, tenantId, from, dayCutoff);
        const candidates = await this.#candidates(tx, tenantId, from, to, dayCutoff, graceEnd, after);
        const keep = new Set(await this.#deps.referenced(tx, tenantId, candidates));
        const doomed = candidates.filter((s) => !keep.has(s));
        if (doomed.length > 0) {
          await tx.query('DELETE FROM checkpoints WHERE tenant_id = $1 AND size = ANY($2::bigint[])', [
            tenantId,
            doomed,
          ]);
        }
        return { candidates, deleted: doomed.length };
      });
      if (page === null) return deleted === 0 ? null : deleted;
      deleted += page.deleted;
      if (page.candidates.length === this.#batch) {
        after = page.candidates.at(-1)!;
        continue;
      }
      if (to! >= END_OF_TIME) break;
      from = to!;
      to = undefined;
      after = -1;
    }
    // Every day before the cutoff now holds only its survivors: the next pass starts there.
    await db.withTenant(tenantId, (tx) =>
      tx.query(
        `INSERT INTO checkpoint_pruning (tenant_id, pruned_before, pruned_at) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id) DO UPDATE SET pruned_before = greatest(checkpoint_pruning.pruned_before, EXCLUDED.pruned_before),
           pruned_at = EXCLUDED.pruned_at`,
        [tenantId, dayCutoff, now],
      ),
    );
    return deleted;
  }

  async #lock(tx: Queryable, tenantId: string): Promise<boolean> {
    const [row] = await tx.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_xact_lock(hashtext('checkpoint-pruning:' || $1)) AS ok`,
      [tenantId],
    );
    return row?.ok === true;
  }

  /** The end of the bucket holding the `batch`-th checkpoint from `from` on, or the end of time when there are fewer. */
  async #chunkEnd(tx: Queryable, tenantId: string, from: Date, dayCutoff: Date): Promise<Date> {
    const [nth] = await tx.query<{ created_at: Date }>(
      `SELECT created_at FROM checkpoints WHERE tenant_id = $1 AND created_at >= $2
       ORDER BY created_at OFFSET $3 LIMIT 1`,
      [tenantId, from, this.#batch - 1],
    );
    return nth ? bucketEnd(nth.created_at, dayCutoff) : END_OF_TIME;
  }

  /**
   * Sizes in [from, to) that are not the last of their bucket, older than the
   * grace, not the latest and not the published checkpoint: the first `batch`
   * above `after`, by size.
   */
  async #candidates(
    tx: Queryable,
    tenantId: string,
    from: Date,
    to: Date,
    dayCutoff: Date,
    graceEnd: Date,
    after: number,
  ): Promise<number[]> {
    const rows = await tx.query<{ size: number }>(
      `SELECT c.size FROM (
         SELECT size, created_at, row_number() OVER (
           PARTITION BY CASE WHEN created_at < $4 THEN date_trunc('day', created_at AT TIME ZONE 'UTC')
                             ELSE date_trunc('hour', created_at AT TIME ZONE 'UTC') END
           ORDER BY size DESC) AS rank
         FROM checkpoints WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3
       ) c
       WHERE c.rank > 1 AND c.created_at < $5 AND c.size > $6
         AND c.size < (SELECT max(size) FROM checkpoints WHERE tenant_id = $1)
         AND NOT EXISTS (SELECT 1 FROM log_published p WHERE p.tenant_id = $1 AND p.checkpoint_size = c.size)
       ORDER BY c.size LIMIT $7`,
      [tenantId, from, to, dayCutoff, graceEnd, after, this.#batch],
    );
    return rows.map((r) => Number(r.size));
  }
}
