import { Piscina } from 'piscina';
import type { ContentField } from '../policy/engine.ts';
import type { ScanResult } from './prepare.ts';

/**
 * Events whose text fields hold at least this many characters are scanned by
 * the worker pool; smaller ones inline, where handing the text to a thread
 * costs more than scanning it.
 */
export const OFFLOAD_CHARS = 1024;

export type ScanMany = (fields: Array<[ContentField, string]>) => Promise<ScanResult[]>;

/** A pool of `threads` detector workers (DETECT_WORKERS); null when 0. */
export function createScanPool(threads: number): { scanMany: ScanMany; close(): Promise<void> } | null {
  if (threads <= 0) return null;
  const pool = new Piscina({
    filename: new URL('./scan-worker.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // Bounded: a burst queues here rather than in memory without limit.
    maxQueue: 4096,
  });
  return {
    scanMany: (fields) => pool.run(fields) as Promise<ScanResult[]>,
    close: () => pool.destroy(),
  };
}
