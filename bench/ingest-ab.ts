// Ingest, this checkout against another revision, both servers up at once and
// loaded in turn: a change's effect measured on a machine whose speed drifts.
//
//   npm run bench -- ingest-ab [--base REV] [--case 'meta single'|'content single'|'meta batch100'|'content batch100'|'invalid single'|'malformed single'] [--pairs 10] [--seconds 2, batches 6] [--connections 64] [--store postgres|pglite] [--ids repeating|fresh]
//                              [--b-env KEY=VALUE,…]   (B's server also gets these variables: a setting against the default, e.g. DETECT_WORKERS=1)
//
// A (the base, default HEAD, taken with `git archive`) and B (this working
// tree, uncommitted changes included) each run as an `agent-ledger serve` on a
// fresh database of its own. Each pair loads A then B (B then A every other
// pair) for SECONDS each, so both sides of a pair see the machine of the same
// few seconds. Printed: events/s, p99, the server's and (PostgreSQL)
// the database's CPU per event, per run; then the medians, the median of the
// per-pair ratios B/A and in how many pairs B was faster.
//
// Why: on this project's machine the same build's events/s moved by 2x within
// minutes (the no-op route 7,800-52,000 requests/s across days); runs of A and
// B minutes apart showed gains of 15-20 % that an interleaved run of the same
// two builds did not. Without a change (the default: HEAD against
// a clean checkout) it measures the noise floor.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cannon } from './lib/autocannon.ts';
import {
  batches,
  batchItemsFailed,
  contentEvent,
  idsOption,
  metaEvent,
  singles,
  withFreshIds,
} from './lib/ingest-bodies.ts';
import { cpuMicros, postgresCpuMicros, postgresCpuSince } from './lib/proc-cpu.ts';
import type { BenchServer, startBenchServer as StartBenchServer } from './lib/server.ts';
import { benchArgs, fmt, median, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const BASE = args.get('base') ?? 'HEAD';
const PAIRS = args.int('pairs', 10);
const N = args.int('connections', 64);
const CASE = args.get('case') ?? 'meta single';
const IDS = idsOption(args.get('ids'));
const B_ENV: Record<string, string> = Object.fromEntries(
  (args.get('b-env') ?? '')
    .split(',')
    .filter((kv) => kv !== '')
    .map((kv) => {
      const at = kv.indexOf('=');
      if (at < 1) throw new Error(`--b-env takes KEY=VALUE pairs, comma-separated: ${kv}`);
      return [kv.slice(0, at), kv.slice(at + 1)];
    }),
);
// A run must last well beyond the case's latency, or the requests still in flight at its end
// weigh on its figures: batches of 100 take about a second each at 64 connections.
const SECONDS = Number(args.get('seconds') ?? (CASE.includes('batch') ? '6' : '2'));

const INVOCATION = '/api/v1/admin/agents/events/invocation';
const BATCH = '/api/v1/admin/agents/events/batch';
// `refused`: every request is answered with that status, nothing stored (the cost of saying no): per second, the answers.
const CASES: Record<string, { path: string; bodies: string[]; perRequest: number; refused?: number }> = {
  'meta single': { path: INVOCATION, bodies: singles(metaEvent), perRequest: 1 },
  'content single': { path: INVOCATION, bodies: singles(contentEvent), perRequest: 1 },
  'meta batch100': { path: BATCH, bodies: batches(metaEvent), perRequest: 100 },
  'content batch100': { path: BATCH, bodies: batches(contentEvent), perRequest: 100 },
  'invalid single': { path: INVOCATION, bodies: ['{"tool_name":"search"}'], perRequest: 1, refused: 422 },
  'malformed single': { path: INVOCATION, bodies: ['{"agent_key":"a",'], perRequest: 1, refused: 400 },
};
const chosen = CASES[CASE];
if (!chosen) throw new Error(`--case is one of: ${Object.keys(CASES).join(', ')}`);
if (!(PAIRS > 0 && SECONDS > 0)) throw new Error('--pairs and --seconds must be positive');

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The base revision's tree in a temporary folder, sharing this checkout's node_modules. */
function checkOut(rev: string): { dir: string; commit: string; remove(): void } {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
      cwd: repoRoot,
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error(`--base ${rev}: not a commit of this repository`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'agent-ledger-ab-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`], { cwd: repoRoot });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, commit, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

interface Run {
  perSecond: number;
  p99: number;
  cpu: number;
  pg: number;
  bad: number;
}

async function load(server: BenchServer, seconds: number, connections: number): Promise<Run> {
  let k = 0;
  let failedItems = 0;
  const cpuBefore = cpuMicros(server.pid);
  const pgBefore = postgresCpuMicros();
  const r = await cannon({
    url: server.url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: chosen!.path,
        setupRequest: (req) => {
          const n = k++;
          const body = chosen!.bodies[n % chosen!.bodies.length]!;
          return { ...req, body: IDS === 'fresh' ? withFreshIds(body, n) : body };
        },
        onResponse: (status, body) => {
          if (status === 207) failedItems += batchItemsFailed(body);
        },
      },
    ],
  });
  const refused = chosen!.refused;
  const answered = refused === undefined ? r['2xx'] : (r.statusCodeStats[String(refused)]?.count ?? 0);
  // A batch answered 207 with an item refused stored less than its events: only what was stored counts.
  const events = Math.max(1, answered * chosen!.perRequest - failedItems);
  return {
    perSecond: refused === undefined ? events / r.seconds : answered / r.seconds,
    p99: r.latency.p99,
    cpu: (cpuMicros(server.pid) - cpuBefore) / events,
    pg: postgresCpuSince(pgBefore) / events,
    bad: r['2xx'] + r.non2xx - answered + r.errors + r.timeouts + failedItems,
  };
}

const base = checkOut(BASE);
let failures = 0;
try {
  const startBase = (await import(pathToFileURL(join(base.dir, 'bench', 'lib', 'server.ts')).href))
    .startBenchServer as typeof StartBenchServer;
  const startHere = (await import('./lib/server.ts')).startBenchServer;
  for (const store of args.stores) {
    console.log(
      `# ingest-ab ${store}: A = ${BASE} (${base.commit.slice(0, 10)}), B = this working tree${
        Object.keys(B_ENV).length > 0
          ? ` with ${Object.entries(B_ENV)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : ''
      }; ${CASE} x${N}${IDS === 'fresh' ? ', fresh correlation ids' : ''}, ${PAIRS} pairs of ${SECONDS} s; ${new Date().toISOString()}`,
    );
    const a = await startBase(store);
    let b: BenchServer | undefined;
    try {
      b = await startHere(store, B_ENV);
      // Warm-up: agents registered, JIT, connection pools.
      for (const s of [a, b]) await load(s, 1, 16);
      const runs: Array<{ a: Run; b: Run }> = [];
      for (let i = 0; i < PAIRS; i++) {
        const order = i % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        const pair = {} as { a: Run; b: Run };
        for (const side of order) pair[side] = await load(side === 'a' ? a : b, SECONDS, N);
        runs.push(pair);
        failures += pair.a.bad + pair.b.bad;
        const show = (r: Run) =>
          `${fmt(r.perSecond)}/s p99 ${r.p99} cpu ${fmt(r.cpu)}${store === 'postgres' ? ` pg ${fmt(r.pg)}` : ''}${r.bad ? ` (${r.bad} failed)` : ''}`;
        console.log(
          `#   pair ${i + 1} (${order.join(' then ').toUpperCase()}): A ${show(pair.a)} | B ${show(pair.b)} | B/A ${fmt(pair.b.perSecond / pair.a.perSecond, 3)}`,
        );
      }
      const ratios = runs.map((r) => r.b.perSecond / r.a.perSecond);
      const row = (side: 'a' | 'b', name: string) => [
        name,
        fmt(median(runs.map((r) => r[side].perSecond))),
        fmt(median(runs.map((r) => r[side].p99))),
        fmt(median(runs.map((r) => r[side].cpu))),
        store === 'postgres' ? fmt(median(runs.map((r) => r[side].pg))) : '',
      ];
      table(
        ['side', 'events/s', 'p99 ms', 'CPU µs/event', 'PG µs/event'],
        [row('a', `A ${BASE}`), row('b', 'B working tree')],
      );
      // The mean ratio with about 95 % of its sampling spread (two standard errors): a change
      // whose interval holds 1 is not shown by this run.
      const mean = ratios.reduce((x, y) => x + y, 0) / ratios.length;
      const se =
        ratios.length > 1
          ? Math.sqrt(ratios.reduce((x, r) => x + (r - mean) ** 2, 0) / (ratios.length - 1) / ratios.length)
          : Number.NaN;
      console.log(
        `B/A events/s: median of per-pair ratios ${fmt(median(ratios), 3)} (lowest ${fmt(Math.min(...ratios), 3)}, highest ${fmt(Math.max(...ratios), 3)}); mean ${fmt(mean, 3)} ± ${fmt(2 * se, 3)}; B faster in ${ratios.filter((r) => r > 1).length} of ${ratios.length} pairs`,
      );
    } finally {
      await b?.stop();
      await a.stop();
    }
  }
} finally {
  base.remove();
}
if (failures > 0) {
  console.log(`${failures} requests failed`);
  process.exitCode = 1;
}
