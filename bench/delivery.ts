// Delivery to a SIEM keeping up with ingest (issue #39): one `agent-ledger
// serve`, one workspace, and a local Splunk HEC stand-in in a process of its
// own (bench/lib/hec-receiver.ts). Metadata batches of 100 are posted for a
// fixed time at the ingest benchmark's batch load (N connections, default
// 64, no rate cap), in turn without a destination and with one Splunk HEC
// destination (events "*", native format; created before the run, so it
// starts at the log's head, and deleted after its events arrived), odd runs
// the other way round, so both see the same machine and the same workspace.
//
//   npm run bench -- delivery [--store pglite|postgres] [--runs 3] [--seconds 10] [--connections 64] [--kind hec|syslog]
//                             [--env KEY=VALUE,…]   (the server's environment, e.g. DESTINATION_POLL_MS=100)
//                             [--profile DIR]       (the server writes a V8 CPU profile there on exit)
//
// --kind syslog: a syslog destination (syslog+tcp://, RFC 6587 octet-counted
// RFC 5424 messages, one connection a batch of 100) to the same stand-in
// process instead; "requests" then counts messages.
//
// Prints per run the events/s stored without and with the destination (their
// ratio: ingest must not wait on a destination), and for the events of the
// runs with it the lag from each event's recorded_at (its audit-trail entry's
// time: when ingest acknowledged it) to its receipt by the HEC stand-in — p50,
// p99, max — and how long after the load stopped the last one arrived. Target
// (issue #39): p99 lag ≤ 5 s. After a run with the destination the next waits
// until every event stored has arrived.

import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { cannon } from './lib/autocannon.ts';
import { startHecReceiver } from './lib/hec-receiver.ts';
import { batches, batchItemsFailed, metaEvent } from './lib/ingest-bodies.ts';
import { cpuMicros, postgresCpuMicros, postgresCpuSince } from './lib/proc-cpu.ts';
import { startBenchServer } from './lib/server.ts';
import { benchArgs, fmt, median, quantile, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const RUNS = args.int('runs', 3);
const SECONDS = args.int('seconds', 10);
const N = args.int('connections', 64);
const PROFILE = args.get('profile');
const KIND = args.get('kind') ?? 'hec';
if (KIND !== 'hec' && KIND !== 'syslog') throw new Error('--kind is hec or syslog');
const ENV = Object.fromEntries(
  (args.get('env') ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const BATCH = '/api/v1/admin/agents/events/batch';
const DRAIN_TIMEOUT_MS = 180_000;

const bodies = batches(metaEvent);

async function ingest(url: string, token: string, seconds: number, pid: number) {
  let failedItems = 0;
  let k = 0;
  const cpu0 = cpuMicros(pid);
  const pg0 = postgresCpuMicros();
  const r = await cannon({
    url,
    connections: N,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: BATCH,
        setupRequest: (req) => ({ ...req, body: bodies[k++ % bodies.length]! }),
        onResponse: (status, body) => {
          if (status === 207) failedItems += batchItemsFailed(body);
        },
      },
    ],
  });
  const events = r['2xx'] * 100 - failedItems;
  return {
    events,
    perSecond: events / r.seconds,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts + failedItems,
    cpuUs: (cpuMicros(pid) - cpu0) / Math.max(1, events),
    pgUs: postgresCpuSince(pg0) / Math.max(1, events),
  };
}

console.log(
  `# delivery: ${RUNS} runs, metadata batches of 100 from ${N} connections for ${SECONDS} s a case, one ${KIND === 'hec' ? 'Splunk HEC' : 'syslog (TCP)'} destination${
    Object.keys(ENV).length ? `, server env ${JSON.stringify(ENV)}` : ''
  }; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const rows: string[][] = [];
let failures = 0;
for (const store of args.stores) {
  const server = await startBenchServer(store, {
    ...ENV,
    ...(PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE}` } : {}),
  });
  const hecToken = randomBytes(16).toString('hex');
  const hec = await startHecReceiver(hecToken);
  try {
    const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    const addDestination = async () => {
      const res = await fetch(`${server.url}/api/v1/destinations`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(
          KIND === 'hec'
            ? { name: 'siem', kind: 'splunk_hec', url: hec.url, events: ['*'], token: hecToken }
            : { name: 'siem', kind: 'syslog', url: hec.syslogUrl, events: ['*'] },
        ),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`creating the destination: ${res.status} ${text}`);
      const id = (JSON.parse(text) as { destination_id: string }).destination_id;
      return async () => {
        const gone = await fetch(`${server.url}/api/v1/destinations/${id}`, {
          method: 'DELETE',
          headers: { authorization: auth.authorization },
        });
        await gone.body?.cancel();
        if (!gone.ok) throw new Error(`deleting the destination: ${gone.status}`);
      };
    };
    // Warm-up, a whole case long without (agents registered, JIT, pools: after a shorter one the first case
    // measured ran slower), and briefly with; then every event delivered so far.
    await ingest(server.url, server.token, SECONDS, server.pid);
    let removeDestination = await addDestination();
    const warm = await ingest(server.url, server.token, 1, server.pid);
    const until = async (expected: number) => {
      const end = Date.now() + DRAIN_TIMEOUT_MS;
      while ((await hec.counts()).events < expected && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      return (await hec.counts()).events >= expected;
    };
    // The load's last requests, cut off by its end, were stored but not counted: their events arrive after
    // `expected`. Until nothing more arrives for a while (longer than a poll), so none of them, sent before the
    // destination was deleted or in a pass still under way, is counted as a lag of the next run.
    const settled = async () => {
      let last = -1;
      while ((await hec.counts()).events !== last) {
        last = (await hec.counts()).events;
        await new Promise((r) => setTimeout(r, 1_500));
      }
      return last;
    };
    let expected = warm.events;
    if (!(await until(expected))) throw new Error('the warm-up events never all arrived');
    await settled();
    await removeDestination();
    expected = await settled();
    await hec.take();
    const perRun: Array<{ ratio: number; without: number; with: number; p50: number; p99: number; drain: number }> = [];
    const allLags: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const order = run % 2 === 1 ? ['without', 'with'] : ['with', 'without'];
      const got: Record<string, Awaited<ReturnType<typeof ingest>>> = {};
      let drain = 0;
      for (const which of order) {
        if (which === 'without') {
          got.without = await ingest(server.url, server.token, SECONDS, server.pid);
          continue;
        }
        removeDestination = await addDestination();
        got.with = await ingest(server.url, server.token, SECONDS, server.pid);
        const stopped = performance.now();
        expected += got.with.events;
        if (!(await until(expected))) {
          failures++;
          console.log(
            `#   run ${run}: ${expected - (await hec.counts()).events} events not delivered after ${DRAIN_TIMEOUT_MS} ms`,
          );
        }
        drain = performance.now() - stopped;
        await settled();
        await removeDestination();
        expected = await settled();
      }
      const lags = await hec.take();
      for (const l of lags) allLags.push(l);
      failures += got.with!.failed + got.without!.failed;
      const r = {
        ratio: got.with!.perSecond / got.without!.perSecond,
        without: got.without!.perSecond,
        with: got.with!.perSecond,
        p50: quantile(lags, 0.5),
        p99: quantile(lags, 0.99),
        drain,
      };
      perRun.push(r);
      console.log(
        `#   ${store} run ${run}: without ${fmt(r.without)}/s (p99 ${got.without!.p99} ms, server ${fmt(got.without!.cpuUs, 1)} µs/event), with ${fmt(r.with)}/s (p99 ${got.with!.p99} ms, server ${fmt(got.with!.cpuUs, 1)} µs/event${store === 'postgres' ? `, PG ${fmt(got.with!.pgUs, 1)} vs ${fmt(got.without!.pgUs, 1)}` : ''}), ratio ${fmt(r.ratio, 3)}; ${lags.length} events delivered, lag p50 ${fmt(r.p50)} p99 ${fmt(r.p99)} max ${fmt(lags.reduce((a, b) => Math.max(a, b), 0))} ms, last ${fmt(drain)} ms after the load stopped`,
      );
    }
    const p99 = quantile(allLags, 0.99);
    const counts = await hec.counts();
    rows.push([
      store,
      fmt(median(perRun.map((r) => r.without))),
      fmt(median(perRun.map((r) => r.with))),
      fmt(median(perRun.map((r) => r.ratio)), 3),
      fmt(quantile(allLags, 0.5)),
      fmt(p99),
      fmt(allLags.reduce((a, b) => Math.max(a, b), 0)),
      fmt(median(perRun.map((r) => r.drain))),
      `${counts.requests} / ${fmt(counts.events / Math.max(1, counts.requests), 1)} / ${fmt(counts.bytes / Math.max(1, counts.events))}`,
      `${p99 <= 5000 ? 'met' : 'MISSED'}: p99 lag <= 5 s`,
    ]);
    if (counts.refused > 0) failures += counts.refused;
  } finally {
    await hec.close();
    await server.stop();
  }
}
console.log(
  `\nmedians of ${RUNS} runs (events/s stored; with/without: median of the per-run ratios; lag in ms from recorded_at to receipt, over every event of the runs with the destination; drain: from the end of the load to the last event's receipt)`,
);
table(
  [
    'store',
    'without /s',
    'with /s',
    'with/without',
    'lag p50',
    'lag p99',
    'lag max',
    'drain',
    KIND === 'hec' ? 'HEC requests / events each / bytes an event' : 'syslog messages / events each / bytes an event',
    'issue #39 target',
  ],
  rows,
);
if (failures > 0) process.exitCode = 1;
