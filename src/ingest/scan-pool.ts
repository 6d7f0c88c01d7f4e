import { Piscina } from 'piscina';
import type { ScanResult } from './prepare.ts';
import type { ScanWorkers } from './scan-scheduler.ts';

/**
 * Events whose text fields hold at least this many characters are scanned by
 * the worker pool; smaller ones inline, where handing the text to a thread
 * costs more than scanning it.
 */
export const OFFLOAD_CHARS = 1024;

/**
 * Scans a worker holds at once. Piscina hands a worker its next task when the
 * event loop reads the answer to the one before; with one at a time, a worker
 * sat idle while the event loop was busy (a transaction on PGlite runs on it
 * for milliseconds), and scans went in lockstep with transactions: content
 * singles at 64 connections with DETECT_WORKERS=1 took 0.9 events a
 * transaction on PGlite, 112 events/s against 723 inline, and 428 against
 * 1,051 on PostgreSQL. With several queued in the worker (it runs them one
 * after the other: a scan is synchronous), it scans while the loop is busy.
 */
const TASKS_PER_WORKER = 16;

/** A pool of `threads` detector workers (DETECT_WORKERS); null when 0. */
export function createScanPool(threads: number): (ScanWorkers & { close(): Promise<void> }) | null {
  if (threads <= 0) return null;
  const pool = new Piscina({
    filename: new URL('./scan-worker.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: TASKS_PER_WORKER,
  });
  return {
    run: (fields) => pool.run(fields) as Promise<ScanResult[]>,
    // The scheduler (scan-scheduler.ts) hands out no more than the workers hold: whatever waits
    // waits in its per-workspace queues, served in turn, never in the pool's own FIFO.
    slots: threads * TASKS_PER_WORKER,
    close: () => pool.destroy(),
  };
}
