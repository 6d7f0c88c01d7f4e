// How long an agent in enforced mode waits for its verdict (issue #40): 16
// agents, each on its own keep-alive connection, each posting one enforced
// metadata event and waiting for the 201 (decided, and committed: durable)
// before the next, for a fixed time, against a spawned `agent-ledger serve`
// (PostgreSQL by default). Latency is timed per request by this process
// (sub-millisecond), not rounded by autocannon.
//
//   npm run bench -- decision [--store pglite|postgres] [--runs 3] [--seconds 5] [--agents 16] [--profile DIR]
//
// Baselines of the same run, in turn with each run:
//   observed the same events in observed mode (recorded the same way; the agent does not wait on them in
//            practice, but the service answers them the same way)
//   noop     the same requests to a no-op Fastify route in its own process (bench/lib/noop-server.ts):
//            what HTTP, the client and the machine's scheduling cost alone
//   commit   (PostgreSQL) one-row INSERT commits from 16 connections straight to the same PostgreSQL: what
//            a durable commit (its WAL flush) costs on this machine now, which every enforced verdict waits for
// Prints per run and as medians: p50, p99 and max of each, events/s, and the
// share of the enforced requests the server answered within 10 ms by its
// own clock (its latency histogram). Target (issue #40): enforced p99 ≤ 10 ms
// on PostgreSQL.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { NODE } from '../src/testing/server-process.ts';
import { startBenchServer } from './lib/server.ts';
import { benchArgs, fmt, median, quantile, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const RUNS = args.int('runs', 3);
const SECONDS = args.int('seconds', 5);
const AGENTS = args.int('agents', 16);
const PROFILE = args.get('profile');
const stores =
  args.get('store') === undefined && args.stores.includes('postgres') ? ['postgres' as const] : args.stores;
const METRICS_TOKEN = randomBytes(16).toString('hex');
const INVOCATION = '/api/v1/admin/agents/events/invocation';

interface Measured {
  latencies: number[];
  perSecond: number;
  failed: number;
  /** The share answered within 10 ms by the server's clock, and its log transactions a second (enforced). */
  within?: number;
  txPerSecond?: number;
  /** Where the enforced requests' time in the log went, by the server's step histograms (stepsIn). */
  steps?: Steps;
}

const STEPS = ['queued', 'lock', 'plan', 'write'] as const;
type Step = (typeof STEPS)[number];
/** Per step: its count, sum (s) and cumulative bucket counts (upper bound in s, count). */
type Steps = Record<Step, { count: number; sum: number; buckets: Array<[number, number]> }>;

/** AGENTS loops, each on its own connection, sending `body(agent, n)` and waiting for the answer, for SECONDS. */
async function load(url: string, path: string, token: string, body: (agent: number, n: number) => string) {
  const u = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: AGENTS });
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + SECONDS * 1000;
  const one = (a: number, n: number) =>
    new Promise<number>((ok, fail) => {
      const data = body(a, n);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path,
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(data),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => ok(res.statusCode ?? 0));
        },
      );
      req.on('error', fail);
      req.end(data);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: AGENTS }, async (_, a) => {
      for (let n = 0; performance.now() < end; n++) {
        const t = performance.now();
        const status = await one(a, n).catch(() => 0);
        latencies.push(performance.now() - t);
        if (status !== 201) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, perSecond: latencies.length / seconds, failed } satisfies Measured;
}

/** One-row commits from AGENTS connections to PostgreSQL for SECONDS: the WAL flush every durable answer waits for. */
async function commits(databaseUrl: string): Promise<Measured> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const table = `bench_commit_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE TABLE ${table} (agent int, n int)`);
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: AGENTS }, async (_, a) => {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        try {
          for (let n = 0; performance.now() < end; n++) {
            const t = performance.now();
            await c.query(`INSERT INTO ${table} VALUES ($1, $2)`, [a, n]);
            latencies.push(performance.now() - t);
          }
        } finally {
          await c.end();
        }
      }),
    );
  } finally {
    await admin.query(`DROP TABLE ${table}`);
    await admin.end();
  }
  return { latencies, perSecond: latencies.length / ((performance.now() - started) / 1000), failed: 0 };
}

async function startNoop(): Promise<{ url: string; stop(): void }> {
  const child = spawn(NODE, [fileURLToPath(new URL('./lib/noop-server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((ok, fail) => {
    child.stdout.setEncoding('utf8').once('data', (d: string) => ok(d.trim()));
    child.once('exit', (code) => fail(new Error(`noop server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/**
 * The server's count of POSTs to the event endpoint, all and answered within
 * 10 ms by its own clock, of its log transactions, and its log steps.
 */
async function within10ms(url: string): Promise<{ all: number; within: number; tx: number; steps: Steps }> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const lines = text
    .split('\n')
    .filter((l) => l.includes('method="POST"') && l.includes(`route="${INVOCATION}"`) && !l.startsWith('#'));
  const value = (l: string | undefined) => Number(l?.split(' ').at(-1) ?? 0);
  return {
    all: value(lines.find((l) => l.startsWith('http_request_duration_seconds_count{'))),
    within: value(lines.find((l) => l.startsWith('http_request_duration_seconds_bucket{') && l.includes('le="0.01"'))),
    tx: Number(/^agent_ledger_append_batch_size_count (\d+)/m.exec(text)?.[1] ?? 0),
    steps: stepsIn(text),
  };
}

/** The log writer's step histograms (agent_ledger_log_step_seconds) in a /metrics text. */
function stepsIn(text: string): Steps {
  const steps = Object.fromEntries(STEPS.map((s) => [s, { count: 0, sum: 0, buckets: [] }])) as unknown as Steps;
  for (const l of text.split('\n')) {
    const m = /^agent_ledger_log_step_seconds_(bucket|sum|count)\{([^}]*)\} (\S+)$/.exec(l);
    const step = m && /step="([^"]+)"/.exec(m[2]!)?.[1];
    if (!m || !step || !(step in steps)) continue;
    const s = steps[step as Step];
    const value = Number(m[3]);
    if (m[1] === 'sum') s.sum = value;
    else if (m[1] === 'count') s.count = value;
    else s.buckets.push([Number(/le="([^"]+)"/.exec(m[2]!)?.[1]), value]);
  }
  return steps;
}

/** What was observed between two readings of the step histograms. */
function stepsBetween(a: Steps, b: Steps): Steps {
  const out = {} as Steps;
  for (const step of STEPS)
    out[step] = {
      count: b[step].count - a[step].count,
      sum: b[step].sum - a[step].sum,
      buckets: b[step].buckets.map(([le, n], i) => [le, n - (a[step].buckets[i]?.[1] ?? 0)]),
    };
  return out;
}

/** Each step's mean and the bucket bound its 99th percentile falls under, in ms. */
function describeSteps(steps: Steps): string {
  return STEPS.map((step) => {
    const { count, sum, buckets } = steps[step];
    if (count === 0) return `${step} -`;
    const p99 = buckets.find(([, n]) => n >= 0.99 * count)?.[0] ?? Infinity;
    return `${step} ${fmt((1000 * sum) / count, 2)} (p99 ≤ ${fmt(1000 * p99, 1)})`;
  }).join(', ');
}

const eventIn = (mode: 'enforced' | 'observed') => (agent: number, n: number) =>
  JSON.stringify({
    agent_key: `agent-${agent}`,
    tool_name: 'crm.lookup',
    mode,
    outcome: 'success',
    correlation_id: `decision-${agent}-${n}`,
  });
const event = eventIn('enforced');

console.log(
  `# decision: ${RUNS} runs of ${SECONDS} s, ${AGENTS} agents each waiting for its enforced verdict; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const rows: string[][] = [];
let failures = 0;
const noop = await startNoop();
try {
  for (const store of stores) {
    const server = await startBenchServer(store, {
      METRICS_TOKEN,
      ...(PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE}` } : {}),
    });
    try {
      await load(server.url, INVOCATION, server.token, event); // warm-up: agents registered, JIT, pools
      const runs: Record<string, Measured[]> = {
        noop: [],
        enforced: [],
        observed: [],
        commit: [],
      };
      for (let run = 1; run <= RUNS; run++) {
        const line: string[] = [];
        const cases = ['noop', 'enforced', 'observed', ...(store === 'postgres' ? ['commit'] : [])];
        for (const c of run % 2 === 1 ? cases : cases.reverse()) {
          let m: Measured;
          if (c === 'noop') m = await load(noop.url, '/noop', server.token, event);
          else if (c === 'commit') m = await commits(process.env.TEST_DATABASE_URL!);
          else if (c === 'observed') m = await load(server.url, INVOCATION, server.token, eventIn('observed'));
          else {
            const before = await within10ms(server.url);
            m = await load(server.url, INVOCATION, server.token, event);
            const after = await within10ms(server.url);
            m.within = (after.within - before.within) / Math.max(1, after.all - before.all);
            m.txPerSecond = (after.tx - before.tx) / SECONDS;
            m.steps = stepsBetween(before.steps, after.steps);
          }
          failures += m.failed;
          runs[c]!.push(m);
          line.push(
            `${c} ${fmt(m.perSecond)}/s p50 ${fmt(quantile(m.latencies, 0.5), 2)} p99 ${fmt(quantile(m.latencies, 0.99), 2)} ms${m.within === undefined ? '' : `, server ≤ 10 ms ${fmt(100 * m.within, 1)}%, ${fmt(m.txPerSecond!)} log transactions/s`}${m.failed ? ` (${m.failed} failed)` : ''}`,
          );
        }
        console.log(`#   ${store} run ${run}: ${line.join('; ')}`);
        const steps = runs.enforced!.at(-1)?.steps;
        if (steps) console.log(`#     enforced, the log's steps (server's clock, mean ms): ${describeSteps(steps)}`);
      }
      for (const [c, ms] of Object.entries(runs)) {
        if (ms.length === 0) continue;
        const p99 = median(ms.map((m) => quantile(m.latencies, 0.99)));
        rows.push([
          store,
          c,
          fmt(median(ms.map((m) => m.perSecond))),
          fmt(median(ms.map((m) => quantile(m.latencies, 0.5))), 2),
          fmt(p99, 2),
          fmt(median(ms.map((m) => m.latencies.reduce((a, b) => Math.max(a, b), 0))), 1),
          c === 'enforced' ? `${fmt(100 * median(ms.map((m) => m.within ?? 0)), 1)}%` : '',
          c === 'enforced' ? fmt(median(ms.map((m) => m.perSecond / Math.max(1, m.txPerSecond ?? 0))), 1) : '',
          c === 'enforced' && store === 'postgres' ? `${p99 <= 10 ? 'met' : 'MISSED'}: p99 <= 10 ms` : '',
        ]);
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  noop.stop();
}
console.log(
  `\nmedians of ${RUNS} runs, ${AGENTS} agents (latency of one request as the agent sees it, ms; server ≤ 10 ms: the share of enforced requests the server answered within 10 ms by its own clock)`,
);
table(
  ['store', 'case', 'per s', 'p50', 'p99', 'max', 'server ≤ 10 ms', 'events a transaction', 'issue #40 target'],
  rows,
);
if (failures > 0) process.exitCode = 1;
