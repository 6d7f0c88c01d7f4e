import { Piscina } from 'piscina';
import type { ContentField } from '../policy/engine.ts';
import type { ScanResult } from './prepare.ts';
import scanFields from './scan-worker.ts';

/**
 * Events whose text fields hold at least this many characters are scanned by
 * the worker pool; smaller ones inline, where handing the text to a thread
 * costs more than scanning it.
 */
export const OFFLOAD_CHARS = 1024;

export type ScanMany = (fields: Array<[ContentField, string]>) => Promise<ScanResult[]>;

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

/**
 * Scans waiting for a worker at most (default). Past it an event's scan runs
 * on the event loop instead: slower for everyone meanwhile, but never a
 * refusal (piscina rejects a task past its queue's limit, and a batch of
 * 100 from 64 clients queued 6,400 scans: a third of the items were 500s).
 * The texts are in memory anyway, in their requests; the bound keeps the
 * queue's wait, not its memory, in check.
 */
const MAX_QUEUED = 4096;

/** A pool of `threads` detector workers (DETECT_WORKERS); null when 0. */
export function createScanPool(
  threads: number,
  maxQueued = MAX_QUEUED,
): { scanMany: ScanMany; queued(): number; close(): Promise<void> } | null {
  if (threads <= 0) return null;
  const pool = new Piscina({
    filename: new URL('./scan-worker.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: TASKS_PER_WORKER,
  });
  return {
    scanMany: (fields) =>
      pool.queueSize >= maxQueued ? Promise.resolve(scanFields(fields)) : (pool.run(fields) as Promise<ScanResult[]>),
    /** Scans waiting on this thread for a worker to take them. */
    queued: () => pool.queueSize,
    close: () => pool.destroy(),
  };
}
