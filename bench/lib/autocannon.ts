// A typed door to autocannon (it ships no type declarations).
import { createRequire } from 'node:module';

export interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: CannonRequest, context: Record<string, unknown>) => CannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

export interface CannonOptions {
  url: string;
  connections: number;
  /** Requests to send; or `duration` seconds. */
  amount?: number;
  duration?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: CannonRequest[];
  timeout?: number;
  sampleInt?: number;
}

export interface CannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number; average: number };
  statusCodeStats: Record<string, { count: number }>;
}

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as (opts: CannonOptions) => Promise<CannonResult>;

/**
 * Runs autocannon; returns its result, the seconds from start to the last
 * response and the 2xx responses per second. (autocannon itself only notices
 * the end on its next sampling tick, so its own duration is rounded up to the
 * sampling interval: a second by default.)
 */
export async function cannon(opts: CannonOptions): Promise<CannonResult & { seconds: number; perSecond: number }> {
  let last = 0;
  const requests = (opts.requests ?? [{}]).map((r) => ({
    ...r,
    onResponse: (status: number, body: string, context: Record<string, unknown>) => {
      last = performance.now();
      r.onResponse?.(status, body, context);
    },
  }));
  const started = performance.now();
  const result = await autocannon({ timeout: 120, sampleInt: 100, ...opts, requests });
  const seconds = ((last || performance.now()) - started) / 1000;
  return { ...result, seconds, perSecond: result['2xx'] / seconds };
}
