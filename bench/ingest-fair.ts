// Fairness between workspaces on the ingest path: one workspace's single
// events (the victim), alone and then while another workspace floods the same
// server with batches.
//
//   npm run bench -- ingest-fair [--store pglite|postgres] [--seconds 10] [--runs 1]
//                                [--flood content|meta] [--flood-connections 4] [--batch 500] [--prompt-chars 8000]
//                                [--victim-connections 1] [--env KEY=VALUE,…] [--profile DIR]
//
// The victim sends metadata singles at --victim-connections for SECONDS
// alone, then again for SECONDS while the flooder (a process of its own,
// bench/lib/flood-child.ts) posts 500-event batches of 8,000-character
// prompts (--flood meta: metadata events) at --flood-connections, started a
// second before the victim's window and ending after it. Printed per run:
// the victim's p50/p99 and events/s alone and under the flood, the ratio of the
// p99s, and what the flood stored meanwhile; the target: the p99 under the
// flood within 5x of the p99 alone (issue #36).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE } from '../src/testing/server-process.ts';
import { cannon } from './lib/autocannon.ts';
import { metaEvent, singles } from './lib/ingest-bodies.ts';
import { startBenchServer } from './lib/server.ts';
import { benchArgs, fmt, median, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const SECONDS = args.int('seconds', 10);
const RUNS = args.int('runs', 1);
const FLOOD = args.get('flood') ?? 'content';
if (FLOOD !== 'content' && FLOOD !== 'meta') throw new Error('--flood is content or meta');
const FLOOD_CONNECTIONS = args.int('flood-connections', 4);
const BATCH = args.int('batch', 500);
const PROMPT_CHARS = FLOOD === 'meta' ? 0 : args.int('prompt-chars', 8000);
const VICTIM_CONNECTIONS = args.int('victim-connections', 1);
const PROFILE = args.get('profile');
const ENV: Record<string, string> = Object.fromEntries(
  (args.get('env') ?? '')
    .split(',')
    .filter((kv) => kv !== '')
    .map((kv) => {
      const at = kv.indexOf('=');
      if (at < 1) throw new Error(`--env takes KEY=VALUE pairs, comma-separated: ${kv}`);
      return [kv.slice(0, at), kv.slice(at + 1)];
    }),
);
const INVOCATION = '/api/v1/admin/agents/events/invocation';
const bodies = singles(metaEvent);

interface Victim {
  events: number;
  perSecond: number;
  p50: number;
  p99: number;
  bad: number;
}

async function victim(url: string, token: string, seconds: number): Promise<Victim> {
  let k = 0;
  const r = await cannon({
    url,
    connections: VICTIM_CONNECTIONS,
    duration: seconds,
    timeout: 60,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ method: 'POST', path: INVOCATION, setupRequest: (req) => ({ ...req, body: bodies[k++ % 200]! }) }],
  });
  return {
    events: r['2xx'],
    perSecond: r['2xx'] / r.seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

interface Flood {
  events: number;
  failedItems: number;
  bad: number;
  seconds: number;
  p50: number;
  p99: number;
  statusCodeStats: Record<string, { count: number }>;
}

/** The flooder's process: started now, answers when its SECONDS are over and its last batch answered. */
function flood(url: string, token: string, seconds: number): Promise<Flood> {
  const child = spawn(
    NODE,
    [
      fileURLToPath(new URL('./lib/flood-child.ts', import.meta.url)),
      JSON.stringify({
        url,
        token,
        connections: FLOOD_CONNECTIONS,
        seconds,
        batch: BATCH,
        promptChars: PROMPT_CHARS,
      }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  return new Promise((ok, fail) =>
    child.once('exit', (code) =>
      code === 0 ? ok(JSON.parse(out.trim().split('\n').at(-1)!) as Flood) : fail(new Error(`flood exited ${code}`)),
    ),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

console.log(
  `# ingest-fair: victim metadata singles x${VICTIM_CONNECTIONS} for ${SECONDS} s alone, then under a flood of ${FLOOD_CONNECTIONS} connections posting ${BATCH}-event batches${PROMPT_CHARS > 0 ? ` of ${PROMPT_CHARS}-character prompts` : ' of metadata events'} from another workspace; ${RUNS} run(s)${Object.keys(ENV).length > 0 ? `; server env ${JSON.stringify(ENV)}` : ''}; ${new Date().toISOString()}`,
);
const rows: string[][] = [];
let failures = 0;
for (const store of args.stores) {
  const server = await startBenchServer(store, {
    ...ENV,
    ...(PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE}` } : {}),
  });
  try {
    const other = await server.addWorkspace();
    // Warm-up: the victim's agents registered, JIT; one of the flooder's batches.
    await victim(server.url, other.token, 1);
    await flood(server.url, server.token, 1);
    const ratios: number[] = [];
    const alone: Victim[] = [];
    const flooded: Victim[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const a = await victim(server.url, other.token, SECONDS);
      const flooding = flood(server.url, server.token, SECONDS + 2);
      await sleep(1000);
      const f = await victim(server.url, other.token, SECONDS);
      const fl = await flooding;
      alone.push(a);
      flooded.push(f);
      ratios.push(f.p99 / a.p99);
      failures += a.bad + f.bad + fl.bad + fl.failedItems;
      console.log(
        `#   ${store} run ${run}: victim alone ${fmt(a.perSecond)}/s p50 ${a.p50} p99 ${a.p99}; under flood ${fmt(f.perSecond)}/s p50 ${f.p50} p99 ${f.p99} (${f.events} events); p99 ratio ${fmt(f.p99 / a.p99, 2)}; flood ${fmt(fl.events / fl.seconds)} events/s, its batches p50 ${fl.p50} p99 ${fl.p99} ms${fl.bad + fl.failedItems > 0 ? `, ${fl.bad} requests / ${fl.failedItems} items failed ${JSON.stringify(fl.statusCodeStats)}` : ''}`,
      );
    }
    const ratio = median(ratios);
    rows.push([
      store,
      fmt(median(alone.map((v) => v.p50))),
      fmt(median(alone.map((v) => v.p99))),
      fmt(median(flooded.map((v) => v.p50))),
      fmt(median(flooded.map((v) => v.p99))),
      fmt(median(flooded.map((v) => v.perSecond))),
      fmt(ratio, 2),
      `${ratio <= 5 ? 'met' : 'MISSED'}: p99 under flood <= 5x alone`,
    ]);
  } finally {
    await server.stop();
  }
}
console.log(
  '\nvictim metadata singles, request latency in ms (medians of the runs; ratio: p99 under the flood over p99 alone)',
);
table(['store', 'alone p50', 'alone p99', 'flood p50', 'flood p99', 'flood events/s', 'p99 ratio', 'issue #36'], rows);
if (failures > 0) {
  console.log(`${failures} requests or items failed`);
  process.exitCode = 1;
}
