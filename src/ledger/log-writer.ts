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
      let batch = queue.splice(0, this.#maxBatch);
      while (batch.length > 0) {
        try {
          const results = await this.#run(tenantId, batch);
          for (const [i, p] of batch.entries()) p.resolve(results[i]);
          batch = [];
        } catch (err) {
          if (err instanceof JobFailure) {
            // That job failed and the transaction rolled back: it alone is
            // refused, the others run again without it.
            batch[err.index]!.reject(err.cause);
            batch = batch.filter((_, i) => i !== err.index);
          } else if (err instanceof BeforeCommitFailure && batch.length > 1) {
            // Failed before COMMIT was sent (a lost connection, say): nothing
            // was stored, so each job can run again on its own without
            // recording twice, and one bad connection fails one request.
            for (const p of batch) {
              try {
                const [r] = await this.#run(tenantId, [p]);
                p.resolve(r);
              } catch (e) {
                p.reject(e instanceof JobFailure || e instanceof BeforeCommitFailure ? e.cause : e);
              }
            }
            batch = [];
          } else {
            // Failed at BEGIN or COMMIT: a failed COMMIT may still have stored
            // everything, and retrying could record twice. Refuse them all.
            const cause = err instanceof BeforeCommitFailure ? err.cause : err;
            for (const p of batch) p.reject(cause);
            batch = [];
          }
        }
      }
    }
    this.#queues.delete(tenantId);
  }

  async #run(tenantId: string, batch: Pending[]): Promise<unknown[]> {
    const { results, head } = await this.#db.withTenant(tenantId, async (tx) => {
      try {
        const log = await beginAppend(tx, tenantId);
        const out: unknown[] = [];
        for (const [i, p] of batch.entries()) {
          try {
            out.push(await p.job(tx, log));
          } catch (err) {
            throw new JobFailure(i, err);
          }
        }
        return { results: out, head: await log.commit(tx) };
      } catch (err) {
        throw err instanceof JobFailure ? err : new BeforeCommitFailure(err);
      }
    });
    // Committed: nothing below may turn that into a failure.
    try {
      this.#opts.onBatch?.(batch.length);
      this.#opts.onCommitted?.(tenantId, head);
    } catch {
      // Metrics and checkpoint scheduling are best effort.
    }
    return results;
  }
}

/** The batch failed inside its transaction, not in a job: nothing was committed. */
class BeforeCommitFailure extends Error {
  override readonly cause: unknown;
  constructor(cause: unknown) {
    super('append batch failed before commit');
    this.cause = cause;
  }
}

/** A job threw inside a batch; its transaction was rolled back. */
class JobFailure extends Error {
  readonly index: number;
  override readonly cause: unknown;
  constructor(index: number, cause: unknown) {
    super('append job failed');
    this.index = index;
    this.cause = cause;
  }
}
