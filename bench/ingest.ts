// Ingest throughput for one workspace over real HTTP: a spawned `agent-ledger
// serve` (PGlite or PostgreSQL), driven by autocannon from this process.
//
//   ./node_modules/.bin/node bench/ingest.ts [--store pglite|postgres] [--events N] [--clients 64] [--runs 3]
//
// Each run measures, against the same server and workspace:
//   healthz     GET /healthz with the same number of connections: the HTTP
//               baseline (what the server and this client manage doing nothing)
//   ingest x1   events from one client: each waits for its own commit
//   ingest xN   events from N clients: concurrent events share a transaction
// and the medians over the runs are printed with the ratios to the baselines.
// Events are invocations with prompt/response/context/tool_input text (PII in
// it, so detection and redaction run) and one rogue event in ten. At the end,
// `agent-ledger verify` checks the whole log with the key pinned.

import { eventBody } from '../src/testing/audit-load.ts';
import { runCli } from '../src/testing/server-process.ts';
import { cannon } from './lib/autocannon.ts';
import { startBenchServer } from './lib/server.ts';
import { benchArgs, fmt, median, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const EVENTS = args.int('events', 3000);
const CLIENTS = args.int('clients', 64);
const RUNS = args.int('runs', 3);
const SINGLE = Math.max(50, Math.min(300, Math.floor(EVENTS / 10)));

console.log(`# ingest: ${EVENTS} events from ${CLIENTS} clients, ${RUNS} runs per store (single-client baseline: ${SINGLE} events)`);

const rows: string[][] = [];
for (const store of args.stores) {
  const server = await startBenchServer(store);
  let seq = 0;
  const ingest = (connections: number, amount: number) =>
    cannon({
      url: server.url,
      connections,
      amount,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            const e = eventBody(seq++, { rogueEvery: 10, agents: 8, run: 'bench' });
            return { ...req, path: e.path, body: JSON.stringify(e.payload) };
          },
        },
      ],
    });
  try {
    await ingest(16, 200); // warm-up: agents registered, JIT, connection pools
    const healthz: number[] = [];
    const single: number[] = [];
    const many: number[] = [];
    const p50: number[] = [];
    const p99: number[] = [];
    // Ratios within each run, where both sides saw the same machine load; their median is reported.
    const vsSingle: number[] = [];
    const vsHealthz: number[] = [];
    let errors = 0;
    for (let run = 1; run <= RUNS; run++) {
      const h = await cannon({ url: `${server.url}/healthz`, connections: CLIENTS, amount: EVENTS * 2 });
      const one = await ingest(1, SINGLE);
      const n = await ingest(CLIENTS, EVENTS);
      errors += one.non2xx + one.errors + n.non2xx + n.errors + h.non2xx + h.errors;
      healthz.push(h.perSecond);
      single.push(one.perSecond);
      many.push(n.perSecond);
      p50.push(n.latency.p50);
      p99.push(n.latency.p99);
      vsSingle.push(n.perSecond / one.perSecond);
      vsHealthz.push(n.perSecond / h.perSecond);
      console.log(
        `#   ${store} run ${run}: healthz ${fmt(h.perSecond)}/s, ingest x1 ${fmt(one.perSecond)}/s, ` +
          `ingest x${CLIENTS} ${fmt(n.perSecond)}/s (p50 ${n.latency.p50} ms, p99 ${n.latency.p99} ms)` +
          (n.non2xx || n.errors ? `, ${n.non2xx} non-2xx, ${n.errors} errors` : ''),
      );
    }
    const started = performance.now();
    const verify = await runCli(['verify', '--url', server.url, '--key', server.verifierKey], { AGENT_LEDGER_TOKEN: server.token }, 300_000);
    const verifySeconds = (performance.now() - started) / 1000;
    const size = /checkpoint +size (\d+)/.exec(verify.stdout)?.[1] ?? '?';
    console.log(`#   ${store}: agent-ledger verify of ${size} entries: exit ${verify.code} in ${fmt(verifySeconds, 1)} s`);
    if (verify.code !== 0) console.log(verify.stdout, verify.stderr);
    rows.push([
      store,
      fmt(median(many)),
      fmt(median(p50)),
      fmt(median(p99)),
      fmt(median(single)),
      fmt(median(healthz)),
      `${fmt(median(vsSingle), 1)}x`,
      `${fmt(100 * median(vsHealthz), 1)}%`,
      String(errors),
      verify.code === 0 ? 'ok' : `FAILED (${verify.code})`,
    ]);
  } finally {
    await server.stop();
  }
}

console.log(`\nmedians of ${RUNS} runs (events/s; latency in ms; ratios: median of the per-run ratios)`);
table(
  ['store', `ingest x${CLIENTS}`, 'p50', 'p99', 'ingest x1', `healthz x${CLIENTS}`, `x${CLIENTS}/x1`, `x${CLIENTS}/healthz`, 'errors', 'verify'],
  rows,
);
if (rows.some((r) => r[8] !== '0' || r[9] !== 'ok')) process.exitCode = 1;
