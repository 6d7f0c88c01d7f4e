import type { Db, Queryable } from '../db/index.ts';
import { Poller } from '../core/index.ts';

export interface Job {
  tenant_id: string;
  job_id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/**
 * Runs a job. It must delete its row with `claim(tx)` inside the transaction
 * that does its work; when claim returns false the job was already done.
 * `signal` aborts when the worker stops: a long job (a judge panel waiting on
 * its models) gives up, and its row is taken again on this or another node.
 */
export type JobHandler = (job: Job, claim: (tx: Queryable) => Promise<boolean>, signal: AbortSignal) => Promise<void>;

/**
 * Runs several due jobs of one kind and one workspace together, leased in the
 * same round: `claim(tx)` deletes the rows still there inside the caller's
 * transaction and answers their job ids (a job not among them was done
 * already, elsewhere). For work whose cost is mostly per transaction — a
 * workspace's log appends one transaction at a time, so N jobs in one
 * transaction hold it up once instead of N times.
 */
export type JobBatchHandler = (
  jobs: readonly Job[],
  claim: (tx: Queryable) => Promise<Set<number>>,
  signal: AbortSignal,
) => Promise<void>;

/**
 * A kind of job: run one at a time, or also several of a workspace at once
 * (`many`); when `many` fails, each of its jobs runs again alone through
 * `one`, so one bad job fails only itself.
 */
export type JobKind = JobHandler | { one: JobHandler; many: JobBatchHandler };

/**
 * Enqueues jobs of one kind inside the caller's transaction, one per payload,
 * in one statement: they exist exactly when the caller's work commits. The
 * jobs table is this module's; other modules enqueue only through here.
 */
export async function enqueue(
  tx: Queryable,
  tenantId: string,
  kind: string,
  payloads: readonly Record<string, unknown>[],
): Promise<void> {
  if (payloads.length === 0) return;
  await tx.query('INSERT INTO jobs (tenant_id, kind, payload) SELECT $1, $2, p FROM unnest($3::jsonb[]) AS p', [
    tenantId,
    kind,
    payloads.map((p) => JSON.stringify(p)),
  ]);
}

/**
 * SQL that claims jobs (deletes them, returning each deleted job_id), for a
 * statement of another module's that does a job's work in one round trip
 * (a data-modifying CTE): `tenant` a uuid and `ids` a bigint[] SQL expression.
 */
export function claimJobsSql(tenant: string, ids: string): string {
  return `DELETE FROM jobs WHERE tenant_id = ${tenant} AND job_id = ANY(${ids}) RETURNING job_id`;
}

/**
 * SQL that enqueues one job of kind `kind` (a text SQL expression) per
 * element of `payloads` (a jsonb[] SQL expression) when `when` (a boolean SQL
 * expression) holds, for a data-modifying CTE, as claimJobsSql.
 */
export function enqueueJobsSql(tenant: string, kind: string, payloads: string, when = 'true'): string {
  return `INSERT INTO jobs (tenant_id, kind, payload) SELECT ${tenant}, ${kind}, p FROM unnest(${payloads}::jsonb[]) AS p WHERE ${when}`;
}

/** Enqueues one job due `delayMs` from now on the database's clock (the one the worker compares with). */
export async function enqueueLater(
  tx: Queryable,
  tenantId: string,
  kind: string,
  payload: Record<string, unknown>,
  delayMs: number,
): Promise<void> {
  await enqueueMany(tx, tenantId, [{ kind, payload, delayMs }]);
}

/**
 * Enqueues jobs of several kinds inside the caller's transaction, in one
 * statement (a batch of events enqueues its scans and its escalations at once).
 */
export async function enqueueMany(
  tx: Queryable,
  tenantId: string,
  jobs: readonly { kind: string; payload: Record<string, unknown>; delayMs?: number }[],
): Promise<void> {
  if (jobs.length === 0) return;
  // A job due later (an approval's expiry) says in how long, on the database's clock, which is the
  // one the worker compares with; the common set, all due now, keeps the short statement.
  if (jobs.some((j) => j.delayMs !== undefined)) {
    await tx.query(
      `INSERT INTO jobs (tenant_id, kind, payload, run_after)
       SELECT $1, j.kind, j.payload, now() + (j.delay * interval '1 millisecond')
       FROM unnest($2::text[], $3::jsonb[], $4::bigint[]) AS j(kind, payload, delay)`,
      [
        tenantId,
        jobs.map((j) => j.kind),
        jobs.map((j) => JSON.stringify(j.payload)),
        jobs.map((j) => Math.max(0, Math.ceil(j.delayMs ?? 0))),
      ],
    );
    return;
  }
  await tx.query(
    'INSERT INTO jobs (tenant_id, kind, payload) SELECT $1, j.kind, j.payload FROM unnest($2::text[], $3::jsonb[]) AS j(kind, payload)',
    [tenantId, jobs.map((j) => j.kind), jobs.map((j) => JSON.stringify(j.payload))],
  );
}

/**
 * Of the given values of a payload key, those a waiting or running job of
 * this kind holds (e.g. which invocations have a judge job queued).
 */
export async function queuedFor(
  tx: Queryable,
  tenantId: string,
  kind: string,
  key: string,
  values: readonly (string | number)[],
): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const rows = await tx.query<{ v: string }>(
    'SELECT DISTINCT payload->>$3 AS v FROM jobs WHERE tenant_id = $1 AND kind = $2 AND payload->>$3 = ANY($4::text[])',
    [tenantId, kind, key, values.map(String)],
  );
  return new Set(rows.map((r) => r.v));
}

/**
 * The worker's bell, made before the modules that enqueue and before the worker (which is made from their
 * handlers): a module that enqueued work on this node rings it (`bell.ring`), the worker made with it
 * looks at once instead of at its next poll. Rung before a worker exists or while none is started: nothing.
 */
export class JobBell {
  #answer: (() => void) | undefined;
  readonly ring = (): void => this.#answer?.();
  /** The worker made with this bell answers it (JobWorker's constructor). */
  answeredBy(answer: () => void): void {
    this.#answer = answer;
  }
}

export interface WorkerOptions {
  /** Rung by the modules when they enqueue work (see JobBell). */
  bell?: JobBell;
  /** How long a taken job stays invisible to other workers. */
  leaseMs?: number;
  pollMs?: number;
  batch?: number;
  maxAttempts?: number;
  onError?: (err: unknown, job?: Job) => void;
}

/**
 * Polls the jobs table on every node. Jobs are leased with SKIP LOCKED, so
 * nodes never take the same job at once; a failed job is retried with
 * backoff, and a crashed worker's job is retried when its lease ends.
 */
export class JobWorker {
  readonly #db: Db;
  readonly #handlers: Record<string, JobKind>;
  readonly #opts: Required<Omit<WorkerOptions, 'onError' | 'bell'>> & Pick<WorkerOptions, 'onError'>;
  readonly #poller: Poller;
  /** Aborted by stop(): the jobs running then give up; a drain() after stop() gets a fresh one. */
  #abort = new AbortController();

  constructor(db: Db, handlers: Record<string, JobKind>, opts: WorkerOptions = {}) {
    this.#db = db;
    this.#handlers = handlers;
    const { bell, ...rest } = opts;
    this.#opts = { leaseMs: 60_000, pollMs: 500, batch: 16, maxAttempts: 10, ...rest };
    this.#poller = new Poller({
      round: () => this.#tick(),
      pollMs: this.#opts.pollMs,
      onError: (err) => this.#opts.onError?.(err),
    });
    bell?.answeredBy(this.poke);
  }

  start(): void {
    this.#poller.start();
  }

  /** Work was just enqueued on this node: look now instead of at the next poll (what the bell rings). */
  readonly poke = (): void => this.#poller.poke();

  /** Runs until no job is due; for tests and shutdown. */
  drain(): Promise<void> {
    return this.#poller.drain();
  }

  async stop(): Promise<void> {
    const running = this.#abort;
    this.#abort = new AbortController();
    running.abort(new Error('the job worker is stopping'));
    await this.#poller.stop();
  }

  /** Leases due jobs and runs them; returns how many it took. */
  async #tick(): Promise<number> {
    const jobs = await this.#db.query<Job & Record<string, unknown>>(
      `UPDATE jobs SET locked_until = now() + ($1::int * interval '1 millisecond'), attempts = attempts + 1
       WHERE (tenant_id, job_id) IN (
         SELECT tenant_id, job_id FROM jobs
         WHERE run_after <= now() AND (locked_until IS NULL OR locked_until < now()) AND attempts < $3
         ORDER BY run_after LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING tenant_id, job_id, kind, payload, attempts`,
      [this.#opts.leaseMs, this.#opts.batch, this.#opts.maxAttempts],
    );
    const signal = this.#abort.signal;
    const work = this.#grouped(jobs);
    for (const [i, unit] of work.entries()) {
      if (signal.aborted) {
        // Stopping: the jobs not started yet go back at once instead of waiting out their lease.
        await this.#release(work.slice(i).flat());
        break;
      }
      if (Array.isArray(unit)) await this.#runMany(unit, signal);
      else await this.#run(unit, signal);
    }
    return jobs.length;
  }

  /** Leased jobs not run go back at once, their attempt not counted. */
  async #release(jobs: readonly Job[]): Promise<void> {
    await this.#db.query(
      `UPDATE jobs SET locked_until = NULL, attempts = attempts - 1
       WHERE (tenant_id, job_id) IN (SELECT * FROM unnest($1::uuid[], $2::bigint[]))`,
      [jobs.map((j) => j.tenant_id), jobs.map((j) => j.job_id)],
    );
  }

  /** The leased jobs in order, those of a kind that runs several at once gathered per workspace where the first is. */
  #grouped(jobs: readonly Job[]): Array<Job | Job[]> {
    const out: Array<Job | Job[]> = [];
    const groups = new Map<string, Job[]>();
    for (const job of jobs) {
      const kind = this.#handlers[job.kind];
      if (kind === undefined || typeof kind === 'function') {
        out.push(job);
        continue;
      }
      const key = `${job.kind}\u0000${job.tenant_id}`;
      let group = groups.get(key);
      if (!group) {
        group = [];
        groups.set(key, group);
        out.push(group);
      }
      group.push(job);
    }
    return out;
  }

  /** Jobs of one kind and workspace together; when that fails, each alone (with its own retry and backoff). */
  async #runMany(group: readonly Job[], signal: AbortSignal): Promise<void> {
    const kind = this.#handlers[group[0]!.kind] as Exclude<JobKind, JobHandler>;
    if (group.length === 1) return this.#run(group[0]!, signal, kind.one);
    const tenantId = group[0]!.tenant_id;
    const claim = async (tx: Queryable) => {
      const rows = await tx.query<{ job_id: string | number }>(
        'DELETE FROM jobs WHERE tenant_id = $1 AND job_id = ANY($2::bigint[]) RETURNING job_id',
        [tenantId, group.map((j) => j.job_id)],
      );
      return new Set(rows.map((r) => Number(r.job_id)));
    };
    try {
      await kind.many(group, claim, signal);
    } catch (err) {
      // Stopping: given up like the jobs not started (nothing of it committed).
      if (signal.aborted) return this.#release(group);
      this.#opts.onError?.(err, group[0]);
      // Nothing of it committed: each runs alone, so a job that cannot be done fails only itself.
      for (const job of group) await this.#run(job, signal, kind.one);
    }
  }

  async #run(job: Job, signal: AbortSignal, one?: JobHandler): Promise<void> {
    const kind = this.#handlers[job.kind];
    const handler = one ?? (typeof kind === 'object' ? kind.one : kind);
    const claim = async (tx: Queryable) =>
      (await tx.query('DELETE FROM jobs WHERE tenant_id = $1 AND job_id = $2 RETURNING 1', [job.tenant_id, job.job_id]))
        .length === 1;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job, claim, signal);
    } catch (err) {
      // A job given up at shutdown is no failure: it is retried like any other.
      if (!signal.aborted) this.#opts.onError?.(err, job);
      // Exponential backoff from 1 s, at most an hour.
      const delay = Math.min(3_600_000, 1000 * 2 ** Math.min(job.attempts, 12));
      await this.#db
        .query(
          `UPDATE jobs SET locked_until = NULL, run_after = now() + ($3::int * interval '1 millisecond'), last_error = $4
           WHERE tenant_id = $1 AND job_id = $2`,
          [job.tenant_id, job.job_id, delay, String(err instanceof Error ? err.message : err).slice(0, 1000)],
        )
        .catch((e) => this.#opts.onError?.(e, job));
    }
  }
}
