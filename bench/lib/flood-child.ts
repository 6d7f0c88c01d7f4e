// The flooding workspace of bench/ingest-fair.ts, in a process of its own so
// that sending megabytes of batches does not delay the victim's client (its
// latency is what is measured). Reads its orders as JSON in argv[2], prints
// its result as one JSON line when done.
import { cannon } from './autocannon.ts';
import { batchItemsFailed, floodBatches } from './ingest-bodies.ts';

const o = JSON.parse(process.argv[2]!) as {
  url: string;
  token: string;
  connections: number;
  seconds: number;
  batch: number;
  promptChars: number;
};
const bodies = floodBatches(o.batch, o.promptChars);
let k = 0;
let failedItems = 0;
const r = await cannon({
  url: o.url,
  connections: o.connections,
  duration: o.seconds,
  // A flood's batch may wait long; a timeout would only resend it.
  timeout: 120,
  headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' },
  requests: [
    {
      method: 'POST',
      path: '/api/v1/admin/agents/events/batch',
      setupRequest: (req) => ({ ...req, body: bodies[k++ % bodies.length]! }),
      onResponse: (status, body) => {
        if (status === 207) failedItems += batchItemsFailed(body);
      },
    },
  ],
});
console.log(
  JSON.stringify({
    requests: r['2xx'],
    events: r['2xx'] * o.batch - failedItems,
    failedItems,
    bad: r.non2xx + r.errors + r.timeouts,
    statusCodeStats: r.statusCodeStats,
    seconds: r.seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
  }),
);
