// A typed door to autocannon (it ships no type declarations).
import { createRequire } from 'node:module';

export interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: CannonRequest, context: Record<string, unknown>) => CannonRequest;
}

export interface CannonOptions {
  url: string;
  connections: number;
  amount: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: CannonRequest[];
  timeout?: number;
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

/** Runs autocannon; returns its result and the wall-clock seconds it took. */
export async function cannon(opts: CannonOptions): Promise<CannonResult & { seconds: number; perSecond: number }> {
  const started = performance.now();
  const result = await autocannon({ timeout: 120, ...opts });
  const seconds = (performance.now() - started) / 1000;
  return { ...result, seconds, perSecond: result['2xx'] / seconds };
}
