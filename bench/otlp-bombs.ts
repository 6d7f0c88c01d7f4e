// What a hostile OTLP export costs the service: each bomb of
// src/testing/otlp-bombs.ts (16 KB gzip bodies that would decode into
// millions of spans, attributes, events, links or nesting levels, protobuf and
// JSON) sent at a spawned `agent-ledger serve` (PGlite by default).
//
//   ./node_modules/.bin/node bench/otlp-bombs.ts [--store pglite|postgres] [--runs 5]
//
// Per bomb: the answer (413 expected) and its time, the slowest answer another
// request (GET /healthz, every 5 ms) got meanwhile (an event loop held by a
// decoder shows here), and how far the server's peak RSS (VmHWM, reset before
// each bomb through /proc/<pid>/clear_refs) rose above its RSS before it.

import { readFileSync, writeFileSync } from 'node:fs';
import { gzipped, otlpBombs } from '../src/testing/otlp-bombs.ts';
import { startBenchServer } from './lib/server.ts';
import { benchArgs, fmt, median, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const RUNS = args.int('runs', 5);
const store = args.get('store') === 'postgres' ? 'postgres' : 'pglite';

const memory = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

const server = await startBenchServer(store);
try {
  const url = `${server.url}/api/v1/otel/v1/traces`;
  const bombs = otlpBombs().map((b) => ({ ...b, zipped: gzipped(b.body) }));
  // Warm up: a valid export, and each route once.
  await fetch(url, {
    method: 'POST',
    body: '{}',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
  });
  const before = memory(server.pid, 'VmRSS');
  console.log(`# otlp-bombs [${store}]: ${RUNS} runs of each bomb; server RSS before: ${fmt(before)} MB`);
  const rows: string[][] = [];
  for (const bomb of bombs) {
    const times: number[] = [];
    const stalls: number[] = [];
    const statuses = new Set<number>();
    const growth: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      writeFileSync(`/proc/${server.pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
      const rss = memory(server.pid, 'VmRSS');
      let done = false;
      let slowest = 0;
      const probe = (async () => {
        while (!done) {
          const t = performance.now();
          await (await fetch(`${server.url}/healthz`)).text();
          slowest = Math.max(slowest, performance.now() - t);
          await new Promise((res) => setTimeout(res, 5));
        }
      })();
      const t = performance.now();
      const res = await fetch(url, {
        method: 'POST',
        body: bomb.zipped,
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': bomb.contentType,
          'content-encoding': 'gzip',
        },
      });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      statuses.add(res.status);
      growth.push(memory(server.pid, 'VmHWM') - rss);
      done = true;
      await probe;
      stalls.push(slowest);
    }
    rows.push([
      bomb.name,
      fmt(bomb.zipped.length / 1024, 1),
      fmt(bomb.body.length / 1024 / 1024, 1),
      [...statuses].join('/'),
      fmt(median(times), 1),
      fmt(Math.max(...times), 1),
      fmt(median(stalls), 1),
      fmt(Math.max(...growth), 1),
    ]);
  }
  table(
    [
      'bomb',
      'gzip KB',
      'inflated MB',
      'status',
      'answer p50 ms',
      'answer max ms',
      'other request max ms (p50 of runs)',
      'peak RSS growth max MB',
    ],
    rows,
  );
} finally {
  await server.stop();
}
