import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per app instance, so several apps in one process (tests) never collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route',
      labelNames: ['method', 'route'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    events: new Counter({
      name: 'agent_ledger_events_total',
      help: 'Recorded events by kind and verdict',
      labelNames: ['kind', 'verdict'] as const,
      registers: [registry],
    }),
    ledgerAppends: new Histogram({
      name: 'agent_ledger_append_batch_size',
      help: 'Leaves appended per log transaction',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [registry],
    }),
    ledgerSteps: new Histogram({
      name: 'agent_ledger_log_step_seconds',
      help: "Where a request's time in the log goes: queued until a transaction takes it, the transaction's lock (waiting behind the one writing), planning under the lock, the write with COMMIT and its WAL flush",
      labelNames: ['step'] as const,
      buckets: [0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    ledgerDecidedAhead: new Counter({
      name: 'agent_ledger_decided_ahead_total',
      help: 'Log transactions whose events were decided while the one before was writing: written as decided, or decided again (another node wrote, or it failed)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
