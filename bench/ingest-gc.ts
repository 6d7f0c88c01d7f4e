// What one workspace's writes leave to V8's garbage collector: the log writer
// and the ingest set (LogWriter + recordSet, in this process, no HTTP) taking
// single metadata events from many clients at once, with V8 tracing each
// collection. A set's objects should die with its transaction (a few ms);
// what outlives two scavenges is promoted to the old generation, lengthens
// every scavenge (the server, with every request in flight, stops for it) and
// ends in a full collection. A getter in an object literal made for every set
// promoted ~2 KB an event (docs/performance.md, "Garbage collection").
//
//   npm run bench -- ingest-gc [--store pglite|postgres] [--seconds 6] [--clients 64]
//
// Runs itself again under --trace-gc-nvp for each store and reads V8's lines
// for the measured seconds: events/s, scavenges, their median and p90 pause,
// what each one copied and promoted (medians), the bytes promoted per event,
// and the full collections.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { PlanCaps } from '../src/config/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { KnownAgents } from '../src/ingest/known-agents.ts';
import { recordSet } from '../src/ingest/record.ts';
import { LogWriter } from '../src/ledger/log-writer.ts';
import { metaItems } from '../src/testing/record-items.ts';
import { createTestDb, type Store } from '../src/testing/test-db.ts';
import { benchArgs, fmt, median, quantile, table } from './lib/stats.ts';

const CHILD = '--measure-in-this-process';

if (process.argv[2] === CHILD) {
  await measure(process.argv[3] as Store, Number(process.argv[4]), Number(process.argv[5]));
} else {
  const args = benchArgs(process.argv.slice(2));
  const seconds = args.int('seconds', 6);
  const clients = args.int('clients', 64);
  const rows: string[][] = [];
  for (const store of args.stores) {
    const run = spawnSync(
      process.execPath,
      ['--trace-gc-nvp', fileURLToPath(import.meta.url), CHILD, store, String(seconds), String(clients)],
      {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    if (run.status !== 0) throw new Error(`ingest-gc on ${store} failed (${run.status ?? run.signal}):\n${run.stderr}`);
    const window = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { from: number; to: number; events: number };
    const gcs = traceLines(run.stdout).filter((g) => g.at >= window.from && g.at <= window.to);
    const scavenges = gcs.filter((g) => g.kind === 's');
    const promoted = scavenges.reduce((n, g) => n + g.promoted, 0);
    console.log(
      `#   ${store}: ${window.events} events in ${fmt((window.to - window.from) / 1000, 1)} s, ${scavenges.length} scavenges, ${gcs.length - scavenges.length} full collections`,
    );
    rows.push([
      store,
      fmt(window.events / ((window.to - window.from) / 1000)),
      String(scavenges.length),
      fmt(median(scavenges.map((g) => g.pause)), 1),
      fmt(
        quantile(
          scavenges.map((g) => g.pause),
          0.9,
        ),
        1,
      ),
      fmt(median(scavenges.map((g) => g.survived)) / 1024),
      fmt(median(scavenges.map((g) => g.promoted)) / 1024),
      fmt(promoted / Math.max(1, window.events)),
      String(gcs.length - scavenges.length),
    ]);
  }
  console.log(
    `\n${clients} clients, 1 metadata event a request, ${seconds} s measured after 2 s of warm-up (pause: ms a scavenge; survived, promoted: KiB a scavenge, medians; promoted/event: bytes)`,
  );
  table(
    ['store', 'events/s', 'scavenges', 'pause p50', 'pause p90', 'survived', 'promoted', 'promoted/event', 'full GCs'],
    rows,
  );
}

/** V8's --trace-gc-nvp lines: when (ms since the isolate started), the kind (s: scavenge), the pause, bytes copied and promoted. */
function traceLines(stdout: string) {
  const out: Array<{ at: number; kind: string; pause: number; survived: number; promoted: number }> = [];
  for (const line of stdout.split('\n')) {
    const m = /\]\s+(\d+) ms: pause=([\d.]+) .*?\bgc=(\w+)/.exec(line);
    if (!m) continue;
    const num = (name: string) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
    out.push({
      at: Number(m[1]),
      pause: Number(m[2]),
      kind: m[3]!,
      survived: num('new_space_survived'),
      promoted: num('promoted'),
    });
  }
  return out;
}

/** The child: `clients` loops, each submitting one event at a time to one workspace's log writer. */
async function measure(store: Store, seconds: number, clients: number): Promise<void> {
  const caps = { agents: 100, invocations_per_day: 1_000_000_000, multi_judge_calls_per_month: 0 } as PlanCaps;
  const testDb = await createTestDb(store);
  try {
    await migrate(testDb.db);
    const known = new KnownAgents();
    const writer = new LogWriter(testDb.db);
    const set = recordSet(known);
    const tenantId = randomUUID();
    await writer.submitSet(tenantId, set, metaItems(tenantId, 4, new Date(), caps));
    for (let a = 0; a < 4; a++) known.add(tenantId, `agent-${a}`);
    let events = 0;
    const warmUntil = performance.now() + 2000;
    const end = warmUntil + seconds * 1000;
    let from = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < end) {
          const [out] = await writer.submitSet(tenantId, set, metaItems(tenantId, 1, new Date(), caps));
          if (!out || !('status' in out) || out.status !== 201)
            throw new Error(`an event was not stored: ${JSON.stringify(out)}`);
          if (performance.now() < warmUntil) continue;
          if (from === 0) from = performance.now();
          events++;
        }
      }),
    );
    // performance.now() counts from the process's start, V8's trace from its isolate's: a few ms apart.
    process.stderr.write(`${JSON.stringify({ from: Math.round(from), to: Math.round(performance.now()), events })}\n`);
  } finally {
    await testDb.dispose();
  }
}
