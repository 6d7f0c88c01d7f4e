// node scripts/architecture/invocation-path.ts [--root DIR] [--json]
//
// Follows one invocation through the code, measured rather than counted by hand: a service on an embedded
// database (PGlite) takes one POST /api/v1/admin/agents/events/invocation from an ingress token (after two
// warm-up requests). Every function of src/ is instrumented at load (trace-hooks.ts: its first statement
// records V8's stack, async callers included, a few times per function), and the script reports
//   - the source files whose functions ran for the request, by folder (V8 precise coverage as a cross-check);
//   - the calls between files those stacks show, and the folder crossings among them: calls from a file in
//     one folder of src/ to a file in another (each caller -> callee file pair once);
//   - the path hop by hop: each call between two files in the order it first happened.
// The request is answered after its group commit (ledger/log-writer.ts), so recording stops with the answer;
// a queued batch starts a stack of its own (V8 keeps a function's awaited callers, not the code that queued
// its work), and the call that queued it is a path step of its own.
//
// --root DIR measures another checkout (e.g. `git worktree add /tmp/old <commit>` with this node_modules
// linked in), so that before and after are measured by the same script. Checkouts from before the test kits
// moved to testing/ (9554b8b) keep theirs as <module>/*-test-kit.ts: found there, and left out the same way.

import { existsSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { register } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const root = resolve(arg('root') ?? new URL('../..', import.meta.url).pathname);
const src = root + sep + 'src' + sep;
const json = process.argv.includes('--json');

interface Frame {
  file: string; // relative to src/
  fn: string;
}

/** The frames of a V8 stack that lie in src/, outermost first. */
function srcFrames(stack: string): Frame[] {
  const out: Frame[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const m = /^\s*at (?:async )?(?:(.*?) \()?(file:\/\/[^)]+?|\/[^)]+?):\d+:\d+\)?$/.exec(line);
    if (!m) continue;
    const path = decodeURIComponent(m[2]!.replace(/^file:\/\//, ''));
    if (!path.startsWith(src) || path.includes(`${sep}node_modules${sep}`)) continue;
    out.push({ file: path.slice(src.length), fn: m[1] ?? '(anonymous)' });
  }
  return out.reverse();
}

/** Test kits, wherever a checkout keeps them (testing/, or <module>/*-test-kit.ts before 9554b8b). */
const isKit = (file: string) =>
  file.startsWith('testing/') || file.includes('/testing/') || file.endsWith('test-kit.ts');

const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/** Consecutive frames of one file merged into one hop. */
function hops(frames: readonly Frame[]): { file: string; fns: string[] }[] {
  const out: { file: string; fns: string[] }[] = [];
  for (const f of frames) {
    const last = out[out.length - 1];
    if (last && last.file === f.file) {
      if (last.fns[last.fns.length - 1] !== f.fn) last.fns.push(f.fn);
    } else out.push({ file: f.file, fns: [f.fn] });
  }
  return out;
}

function crossings(h: readonly { file: string }[]): number {
  let n = 0;
  for (let i = 1; i < h.length; i++) if (folderOf(h[i]!.file) !== folderOf(h[i - 1]!.file)) n++;
  return n;
}

const traced = new Map<string, number>(); // function -> stacks recorded
const chains: Frame[][] = [];
let recording = false;
Error.stackTraceLimit = 200;
(globalThis as { __pathTrace?: (id: string) => void }).__pathTrace = (id) => {
  if (!recording) return;
  const n = traced.get(id) ?? 0;
  if (n >= 3) return;
  traced.set(id, n + 1);
  chains.push(srcFrames(new Error().stack ?? ''));
};
register(pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'trace-hooks.ts')).href, { data: { src } });

const harness = (await import(
  pathToFileURL(`${src}testing/harness.ts`).href
)) as typeof import('../../src/testing/harness.ts');
const kitFile = [`${src}testing/ingest-kit.ts`, `${src}ingest/ingest-test-kit.ts`].find((f) => existsSync(f))!;
const kit = (await import(pathToFileURL(kitFile).href)) as typeof import('../../src/testing/ingest-kit.ts');
const t = await harness.startTestService('pglite', { manualJobs: true });
const session = new Session();
session.connect();
try {
  const admin = await t.signIn('path@path-measure.io');
  const ingress = await kit.issueIngress(t, admin);
  const body = {
    agent_key: 'path-bot',
    tool_name: 'search',
    prompt: 'Find the invoice for Anna Berg',
    response: 'Found it.',
    tool_input: '{"q":"invoice"}',
  };
  for (let i = 0; i < 2; i++) await kit.post(t, kit.INVOCATION, ingress.token, body); // lazy loads, caches
  // the checkpoint these grew the log by is signed a second later (ledger/checkpoints.ts): not part of the request
  await new Promise((r) => setTimeout(r, 1_500));
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  recording = true;
  const res = await kit.post(t, kit.INVOCATION, ingress.token, body);
  recording = false;
  const { result } = await session.post('Profiler.takePreciseCoverage');
  if (res.statusCode !== 201) throw new Error(`invocation: ${res.statusCode} ${res.body}`);

  const covered = new Set<string>();
  for (const script of result) {
    const path = script.url.startsWith('file://') ? decodeURIComponent(script.url.slice(7)) : script.url;
    if (!path.startsWith(src) || path.includes(`${sep}node_modules${sep}`) || isKit(path.slice(src.length))) continue;
    if (script.functions.some((f) => f.ranges[0]!.count > 0 && f.functionName !== ''))
      covered.add(path.slice(src.length));
  }
  const paths = chains.map((c) => hops(c.filter((f) => !isKit(f.file))));
  const files = new Set(paths.flatMap((p) => p.map((h) => h.file)));
  const byFolder = new Map<string, number>();
  for (const f of files) byFolder.set(folderOf(f), (byFolder.get(folderOf(f)) ?? 0) + 1);
  const edges = new Set<string>();
  const crossing = new Set<string>();
  for (const p of paths) {
    for (let i = 1; i < p.length; i++) {
      const e = `${p[i - 1]!.file} -> ${p[i]!.file}`;
      edges.add(e);
      if (folderOf(p[i - 1]!.file) !== folderOf(p[i]!.file)) crossing.add(e);
    }
  }
  // The path in time order: each call from one file into another, the first time it happened (the callee is
  // the function whose entry recorded the stack, the caller the file before it on the stack).
  const path: { from: string; to: string; fn: string }[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    if (p.length < 2) continue;
    const to = p[p.length - 1]!;
    const from = p[p.length - 2]!;
    const key = `${from.file} -> ${to.file}`;
    if (seen.has(key)) continue;
    seen.add(key);
    path.push({ from: from.file, to: to.file, fn: to.fns[to.fns.length - 1]! });
  }
  const deepest = paths.reduce((x, y) => (y.length > x.length ? y : x), []);
  const report = {
    root,
    files: files.size,
    filesByFolder: Object.fromEntries([...byFolder].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
    filesRanPerCoverage: covered.size,
    fileCalls: edges.size,
    folderCrossings: crossing.size,
    folderPairs: new Set([...crossing].map((e) => e.split(' -> ').map(folderOf).join(' -> '))).size,
    deepestChain: {
      files: deepest.length,
      folderCrossings: crossings(deepest),
      hops: deepest.map((h) => `${h.file} (${h.fns.join(' > ')})`),
    },
    path: path.map((c) => `${c.from} -> ${c.to} (${c.fn})`),
    calls: [...edges].sort(),
    crossings: [...crossing].sort(),
    coveredNotTraced: [...covered].filter((f) => !files.has(f)).sort(),
  };
  if (json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(`one invocation through ${root}`);
    console.log(
      `  files whose functions ran: ${report.files} (${Object.entries(report.filesByFolder)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}); per V8 coverage: ${report.filesRanPerCoverage}`,
    );
    console.log(
      `  calls between files: ${report.fileCalls}; folder crossings (caller -> callee file pairs in different folders): ${report.folderCrossings}, between ${report.folderPairs} folder pairs`,
    );
    console.log(`  the path in time order (each call between two files, the first time; * crosses a folder):`);
    path.forEach((c, i) =>
      console.log(
        `    ${String(i + 1).padStart(2)}. ${folderOf(c.from) === folderOf(c.to) ? ' ' : '*'} ${c.from} -> ${c.to}  ${c.fn}`,
      ),
    );
    console.log(
      `  deepest stack: ${deepest.length} files, ${crossings(deepest)} folder crossings: ${deepest.map((h) => h.file).join(' > ')}`,
    );
    console.log('  folder crossings:');
    for (const e of report.crossings) console.log(`    ${e}`);
  }
} finally {
  session.disconnect();
  await t.close();
}
