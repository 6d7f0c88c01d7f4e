import type { Db, Queryable } from '../db/db.ts';
import { beginAppend, type OpenAppend } from './append.ts';
import type { Head } from './log-store.ts';

/** Work that records something and adds its leaves, run inside the shared transaction. */
export type AppendJob<T> = (tx: Queryable, log: OpenAppend) => Promise<T>;

interface Pending {
  job: AppendJob<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export interface LogWriterOptions {
  /** Most jobs grouped into one transaction. */
  maxBatch?: number;
  /** Called after each commit with the new head (schedules a checkpoint). */
  onCommitted?: (tenantId: string, head: Head) => void;
  onBatch?: (size: number) => void;
}

/**
 * Groups concurrent appends to one workspace into one transaction. While a
 * batch commits, new jobs queue; the next batch takes them all. Across nodes
 * the head's row lock orders the batches, so the log stays gap-free and each
 * job's leaves are durable exactly when its transaction commits.
 */
export class LogWriter {
  readonly #db: Db;
  readonly #maxBatch: number;
  readonly #opts: LogWriterOptions;
  readonly #queues = new Map<string, Pending[]>();

  constructor(db: Db, opts: LogWriterOptions = {}) {
    this.#db = db;
    this.#maxBatch = opts.maxBatch ?? 256;
    this.#opts = opts;
  }

  submit<T>(tenantId: string, job: AppendJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { job, resolve: resolve as (v: unknown) => void, reject };
      const queue = this.#queues.get(tenantId);
      if (queue) {
        queue.push(pending);
        return;
      }
      this.#queues.set(tenantId, [pending]);
      // Start on the next turn so requests arriving together share the first batch.
      setImmediate(() => void this.#drain(tenantId));
    });
  }

  async #drain(tenantId: string): Promise<void> {
    const queue = this.#queues.get(tenantId)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, this.#maxBatch);
      try {
        const results = await this.#run(tenantId, batch);
        for (const [i, p] of batch.entries()) p.resolve(results[i]);
      } catch (err) {
        if (batch.length === 1) batch[0]!.reject(err);
        else {
          // One failing job must not fail the others: run each on its own.
          for (const p of batch) {
            try {
              const [r] = await this.#run(tenantId, [p]);
              p.resolve(r);
            } catch (e) {
              p.reject(e);
            }
          }
        }
      }
    }
    this.#queues.delete(tenantId);
  }

  async #run(tenantId: string, batch: Pending[]): Promise<unknown[]> {
    const { results, head } = await this.#db.withTenant(tenantId, async (tx) => {
      const log = await beginAppend(tx, tenantId);
      const out: unknown[] = [];
      for (const p of batch) out.push(await p.job(tx, log));
      return { results: out, head: await log.commit(tx) };
    });
    this.#opts.onBatch?.(batch.length);
    this.#opts.onCommitted?.(tenantId, head);
    return results;
  }
}
