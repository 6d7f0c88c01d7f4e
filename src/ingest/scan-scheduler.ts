import type { ContentField } from '../policy/index.ts';
import type { ScanResult, Scanner } from './prepare.ts';

/** The text fields of one event to scan before its write. */
export type ScanFields = Array<[ContentField, string]>;

/** The detector worker threads (scan-pool.ts), as the scheduler uses them. */
export interface ScanWorkers {
  run(fields: ScanFields): Promise<ScanResult[]>;
  /** Scans handed to the workers at once, at most: the rest wait in the scheduler's fair queue, not in the pool's FIFO. */
  slots: number;
}

export interface ScanSchedulerOptions {
  /** The scan on this thread (detect's scanField). */
  scan: Scanner;
  workers?: ScanWorkers | undefined;
  /**
   * Most milliseconds of scanning on the event loop between two looks at I/O
   * (SCAN_SLICE_MS). Past it, scans wait for the next turn of the loop, in
   * their workspace's queue.
   */
  sliceMs: number;
  /** Events with at least this many characters of text go to the workers, when there are any (OFFLOAD_CHARS). */
  offloadChars: number;
  /** Milliseconds, monotonic (tests step it). */
  now?: () => number;
}

interface Task {
  fields: ScanFields;
  resolve: (r: ScanResult[]) => void;
  reject: (e: unknown) => void;
}

/**
 * Runs the detectors of every workspace's events, fairly. The detectors are
 * synchronous and the bulk of an event's CPU: a batch of 500 events with
 * 8,000-character prompts scanned in one go held the event loop for seconds,
 * and every other workspace's requests waited behind it (issue #36: another
 * workspace's singles went from p99 29 ms to 6.3 s).
 *
 * An event is scanned at once, on the event loop, while nothing is queued
 * and the loop has scanned less than `sliceMs` since it last looked at I/O:
 * singles and small batches pay nothing for the scheduler. Past that, each
 * event waits in its workspace's queue, and the queues are served round-robin,
 * one event of each workspace in turn: at most `sliceMs` a turn of the event
 * loop, or, when there are detector workers (DETECT_WORKERS), on them as their
 * slots free (the loop then scans nothing that waited).
 * So a workspace with a backlog of thousands of scans delays another's
 * request by about one slice per step of that request, and another
 * workspace's own scan waits behind one scan of each busy workspace, not
 * behind the backlog.
 */
export class ScanScheduler {
  readonly #scan: Scanner;
  readonly #workers: ScanWorkers | undefined;
  readonly #sliceMs: number;
  readonly #offloadChars: number;
  readonly #now: () => number;
  /** Waiting scans by workspace; the map's order is the round-robin ring (a served workspace moves to its end). */
  readonly #queues = new Map<string, Task[]>();
  #queued = 0;
  /** Milliseconds scanned on the loop since it last looked at I/O. */
  #spent = 0;
  #resetting = false;
  #draining = false;
  #inWorkers = 0;

  constructor(opts: ScanSchedulerOptions) {
    this.#scan = opts.scan;
    this.#workers = opts.workers;
    this.#sliceMs = opts.sliceMs;
    this.#offloadChars = opts.offloadChars;
    this.#now = opts.now ?? (() => performance.now());
  }

  /** Scans waiting, of one workspace or of all. */
  queued(tenantId?: string): number {
    return tenantId === undefined ? this.#queued : (this.#queues.get(tenantId)?.length ?? 0);
  }

  /** Scans the fields of one event of `tenantId`: at once when the loop has time for it, else in turn. */
  scan(tenantId: string, fields: ScanFields): Promise<ScanResult[]> {
    const offload = this.#workers !== undefined && charsOf(fields) >= this.#offloadChars;
    if (this.#queued === 0 && !offload && this.#spent < this.#sliceMs) {
      try {
        return Promise.resolve(this.#inline(fields));
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    return new Promise((resolve, reject) => {
      let q = this.#queues.get(tenantId);
      if (!q) this.#queues.set(tenantId, (q = []));
      q.push({ fields, resolve, reject });
      this.#queued++;
      this.#toWorkers();
      this.#schedule();
    });
  }

  #inline(fields: ScanFields): ScanResult[] {
    const started = this.#now();
    try {
      return fields.map(([field, text]) => this.#scan(field, text));
    } finally {
      this.#spent += this.#now() - started;
      // The loop looks at I/O before the next check phase: the budget starts again there.
      if (!this.#resetting) {
        this.#resetting = true;
        setImmediate(() => {
          this.#resetting = false;
          this.#spent = 0;
        });
      }
    }
  }

  /** The next waiting scan, round-robin over the workspaces. */
  #next(): Task | undefined {
    for (const [tenantId, q] of this.#queues) {
      const task = q.shift()!;
      this.#queues.delete(tenantId);
      if (q.length > 0) this.#queues.set(tenantId, q);
      this.#queued--;
      return task;
    }
    return undefined;
  }

  /** Hands waiting scans to the workers while they have free slots. */
  #toWorkers(): void {
    const w = this.#workers;
    if (!w) return;
    while (this.#inWorkers < w.slots && this.#queued > 0) {
      const task = this.#next()!;
      this.#inWorkers++;
      w.run(task.fields).then(
        (r) => this.#workerDone(task, r, undefined),
        (err: unknown) => this.#workerDone(task, undefined, err),
      );
    }
  }

  #workerDone(task: Task, result: ScanResult[] | undefined, err: unknown): void {
    this.#inWorkers--;
    if (result) task.resolve(result);
    else task.reject(err);
    this.#toWorkers();
  }

  /** Without workers, the loop scans what waits, a slice a turn; with them, they do, and the loop stays free. */
  #schedule(): void {
    if (this.#workers || this.#draining || this.#queued === 0) return;
    this.#draining = true;
    setImmediate(this.#drain);
  }

  /** One turn's slice of waiting scans on the loop, round-robin; the rest wait for the next turn. */
  readonly #drain = (): void => {
    this.#draining = false;
    // A check phase: the loop has just looked at I/O.
    this.#spent = 0;
    while (this.#queued > 0 && this.#spent < this.#sliceMs) {
      const task = this.#next()!;
      let result: ScanResult[];
      try {
        result = this.#inline(task.fields);
      } catch (err) {
        task.reject(err);
        continue;
      }
      task.resolve(result);
    }
    this.#schedule();
  };
}

function charsOf(fields: ScanFields): number {
  let n = 0;
  for (const [, text] of fields) n += text.length;
  return n;
}
