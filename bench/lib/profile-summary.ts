// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by
// where the code lives (our modules, each dependency, Node internals, GC/idle).
//
//   node bench/lib/profile-summary.ts FILE.cpuprofile [--top 30] [--from S --to S]
//
// --from/--to keep the samples of that window (seconds from the profile's
// start), e.g. one case of a benchmark; --buckets prints the busy share per
// quarter second, to find the window.
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [--top N]');
const topArg = process.argv.indexOf('--top');
const TOP = topArg > 0 ? Number(process.argv[topArg + 1]) : 30;
const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : undefined;
};
const from = (arg('--from') ?? 0) * 1e6;
const to = (arg('--to') ?? Infinity) * 1e6;
const self = new Map<number, number>();
const buckets: Array<[number, number]> = [];
let at = 0;
for (let i = 0; i < prof.samples.length; i++) {
  const dt = prof.timeDeltas[i] ?? 0;
  at += dt;
  const idle = byId.get(prof.samples[i]!)?.callFrame.functionName === '(idle)';
  const b = (buckets[Math.floor(at / 250_000)] ??= [0, 0]);
  b[1] += dt;
  if (!idle) b[0] += dt;
  if (at < from || at > to) continue;
  self.set(prof.samples[i]!, (self.get(prof.samples[i]!) ?? 0) + dt);
}
if (process.argv.includes('--buckets')) {
  console.log(buckets.map((b, i) => `${(i / 4).toFixed(2)}s:${b[1] ? Math.round((100 * b[0]) / b[1]) : 0}%`).join(' '));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);

function place(url: string, fn: string): string {
  if (fn === '(idle)' || fn === '(program)' || fn === '(garbage collector)') return fn;
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  const src = /\/(src|bench)\/([^/]+)\//.exec(url);
  if (src) return `${src[1]}/${src[2]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url === '' ? 'native/V8' : url;
}
const fns = new Map<string, number>();
const places = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const where = place(n.callFrame.url, n.callFrame.functionName);
  const short = n.callFrame.url.split('/').slice(-2).join('/');
  const key = `${n.callFrame.functionName || '(anonymous)'} ${short}:${n.callFrame.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  places.set(where, (places.get(where) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`.padStart(6);
const busy = total - (places.get('(idle)') ?? 0);
console.log(`total ${(total / 1e6).toFixed(1)} s sampled, busy ${(busy / 1e6).toFixed(1)} s (${pct(busy).trim()})`);
console.log('\nself time by place:');
for (const [k, v] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(v)}  ${k}`);
console.log(`\nself time by function (top ${TOP}):`);
for (const [k, v] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(v)}  ${k}`);
