// Detector benchmark: throughput of scan() and of each detector on mixed text, and the worst case per
// detector on adversarial 32,000-character inputs. Every figure is a median over RUNS runs, measured as
// process CPU time (process.cpuUsage(): user + system, robust on a shared, loaded machine) and as wall
// time, next to a baseline measured in the same run on the same data: one `text.toLowerCase()` plus one
// simple global regex pass.
// It ends with the targets on one line each: "MB/s per core, whole scan" (scan(), models included,
// CPU time over 4 KB records), "worst adversarial ms" (the slowest detector or scan() on any adversarial
// input, CPU time) and the start-up: importing the detectors and the first scan() (which loads the
// dictionaries and the models), wall and CPU time, in this process (Node's own start excluded) —
// with Node's compile cache when NODE_COMPILE_CACHE names its directory, as the CLI enables it (src/cli/main.ts).
// With --ref REF, scan() of the detectors of that git revision (unpacked by scripts/detect/frozen.ts) is
// measured in the same run, interleaved with the current one, and the ratio printed (same-run A/B).
// Run: ./node_modules/.bin/node bench/detect.ts [--runs N] [--mb N] [--only name,name] [--ref REF]

import { getCompileCacheDir } from 'node:module';
import { loadavg as loadAverage } from 'node:os';
import { adversarialInputs } from '../src/detect/eval/adversarial.ts';
import { mixedRecords, mixedText } from './mixed-text.ts';
import { importFrozen } from '../scripts/detect/frozen.ts';

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
/**
 * CPU time of this (the main) thread alone: process.cpuUsage() also counts V8's helper threads, which
 * compile hot functions and mark the heap concurrently; on a detector's first calls on a new input they
 * take as much CPU as the detector itself (docs/performance.md, "Detectors").
 */
function mainCpuMs(): number {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
}

// start-up: the import (the injection model is read at import) and the first scan(), which loads the name
// dictionaries, the named-entity model and the phone regions' names
const startText = mixedText(50_000);
const startCpu = cpuMs();
const startMain = mainCpuMs();
const startWall = performance.now();
const { DETECTORS, scan } = await import('../src/detect/index.ts');
scan(startText);
const startup = { cpu: cpuMs() - startCpu, main: mainCpuMs() - startMain, wall: performance.now() - startWall };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const RUNS = Math.max(5, Number(arg('runs') ?? 7));
const MB_TARGET = Number(arg('mb') ?? 1);
const ONLY = arg('only')?.split(',');
const REF = arg('ref');
const frozen = REF ? await importFrozen<{ scan: typeof scan }>(REF, 'src/detect/index.ts') : undefined;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The baseline: what one trivial pass over the same text costs on this machine, right now. */
const BASELINE_RE = /\bpassword\b/g;
function baseline(t: string): number {
  const l = t.toLowerCase();
  BASELINE_RE.lastIndex = 0;
  let n = 0;
  while (BASELINE_RE.exec(l)) n++;
  return n;
}

interface Sample {
  cpu: number;
  wall: number;
  /** the main thread's CPU (the rest of `cpu` is V8's compiler and garbage-collector threads) */
  main: number;
}

/** One run of `body`, repeated until at least `minMs` of wall time has passed; per-repetition CPU and wall ms. */
function measure(body: () => void, minMs = 0): Sample {
  let reps = 0;
  const c0 = cpuMs();
  const m0 = mainCpuMs();
  const w0 = performance.now();
  do {
    body();
    reps++;
  } while (performance.now() - w0 < minMs);
  return { cpu: (cpuMs() - c0) / reps, wall: (performance.now() - w0) / reps, main: (mainCpuMs() - m0) / reps };
}

function medians(body: () => void, minMs = 0): Sample {
  const xs: Sample[] = [];
  for (let r = 0; r < RUNS; r++) xs.push(measure(body, minMs));
  return {
    cpu: median(xs.map((x) => x.cpu)),
    wall: median(xs.map((x) => x.wall)),
    main: median(xs.map((x) => x.main)),
  };
}

const pad = (s: string, n: number) => s.padStart(n);
const rate = (mb: number, ms: number) => (mb / (ms / 1000)).toFixed(1);

// warm-up (dictionary loading), then each measured function runs over the records for WARM_MS before its
// runs are timed, so that no run includes JIT compilation
for (let i = 0; i < 3; i++) scan(startText);
const WARM_MS = 300;

const { text, records } = mixedRecords(Math.round(MB_TARGET * 1_000_000));
const mb = Buffer.byteLength(text) / 1e6;
const overRecords = (f: (t: string) => unknown) => {
  const pass = () => {
    for (const rec of records) f(rec);
  };
  const t0 = performance.now();
  while (performance.now() - t0 < WARM_MS) pass();
  return pass;
};

// steady state, as in a long-running service: the first seconds of scanning still spend CPU on JIT
// compilation and on collecting the garbage of loading the dictionaries
{
  const t0 = performance.now();
  while (performance.now() - t0 < 2000) for (const rec of records) scan(rec);
}
const base = medians(overRecords(baseline));
console.log(
  `mixed text: ${mb.toFixed(2)} MB in 4 KB records (each its own string, as JSON.parse hands them to ingest); medians of ${RUNS} runs; MB/s by CPU time (process.cpuUsage) and by wall time`,
);
console.log(
  `  ${''.padEnd(14)} ${pad('cpu MB/s', 9)} ${pad('wall MB/s', 9)} ${pad('cpu ms/MB', 9)} ${pad('x baseline', 10)}`,
);
const row = (name: string, s: Sample) =>
  console.log(
    `  ${name.padEnd(14)} ${pad(rate(mb, s.cpu), 9)} ${pad(rate(mb, s.wall), 9)} ${pad((s.cpu / mb).toFixed(1), 9)} ${pad((s.cpu / base.cpu).toFixed(1), 10)}`,
  );
row('baseline', base);
const scanS = medians(overRecords((t) => scan(t)));
row('scan()', scanS);

/**
 * Each record timed on its own (wall time of the main thread, after scan() of another record, so that the
 * caches hold what a service's would), the fastest of RUNS rounds kept per record, summed over the
 * records: what a record costs when nothing else takes the core, a figure the machine's load moves far
 * less than the medians above (a lower bound, not the target's figure).
 */
function fastestPerRecord(f: (t: string) => unknown): number {
  const best = new Float64Array(records.length).fill(Infinity);
  for (let r = 0; r < RUNS; r++)
    for (let j = 0; j < records.length; j++) {
      scan(records[(j + 7) % records.length]!);
      const t0 = performance.now();
      f(records[j]!);
      best[j] = Math.min(best[j]!, performance.now() - t0);
    }
  return best.reduce((a, b) => a + b, 0);
}
const scanFastest = fastestPerRecord((t) => scan(t));
console.log(
  `  (scan(), each record's fastest of ${RUNS} rounds by wall time, summed: ${rate(mb, scanFastest)} MB/s, ${(scanFastest / mb).toFixed(1)} ms/MB)`,
);
for (const [name, det] of Object.entries(DETECTORS)) {
  if (ONLY && !ONLY.includes(name)) continue;
  row(name, medians(overRecords(det)));
}

if (frozen) {
  // interleaved A/B: each run measures the reference and the current code back to back
  const refScan = frozen.scan;
  for (let i = 0; i < 3; i++) for (const rec of records) refScan(rec);
  const a: number[] = [];
  const b: number[] = [];
  const passRef = overRecords((t) => refScan(t));
  const passCur = overRecords((t) => scan(t));
  for (let r = 0; r < RUNS; r++) {
    a.push(measure(passRef).cpu);
    b.push(measure(passCur).cpu);
  }
  const ma = median(a);
  const mbb = median(b);
  console.log(
    `  ${('scan() ' + REF).padEnd(14).slice(0, 14)} ${pad(rate(mb, ma), 9)} ${pad('', 9)} ${pad((ma / mb).toFixed(1), 9)}`,
  );
  console.log(
    `  A/B: current / ${REF} CPU time per MB = ${(mbb / ma).toFixed(3)} (median of ${RUNS} interleaved runs; < 1 is faster)`,
  );
}

const whole = medians(() => scan(text));
console.log(
  `\nscan() on one ${mb.toFixed(2)} MB text: ${rate(mb, whole.cpu)} MB/s cpu, ${rate(mb, whole.wall)} MB/s wall`,
);

console.log(
  "\nworst case per detector on adversarial 32,000-char inputs (median ms per call, CPU, the main thread's CPU and wall; ratio of CPU time to the baseline on the same input):",
);
const adv = adversarialInputs();
let worstAdv = { cpu: -1, wall: 0, main: 0, detector: '', input: '' };
const baseAdv = new Map<string, Sample>();
for (const [inName, input] of Object.entries(adv))
  baseAdv.set(
    inName,
    medians(() => baseline(input), 5),
  );
console.log(`  ${''.padEnd(14)} ${pad('cpu ms', 8)} ${pad('main ms', 8)} ${pad('wall ms', 8)}  input`);
for (const [name, det] of Object.entries({ ...DETECTORS, scan: (t: string) => scan(t).findings })) {
  if (ONLY && !ONLY.includes(name) && name !== 'scan') continue;
  let worst: Sample = { cpu: -1, wall: 0, main: 0 };
  let worstInput = '';
  for (const [inName, input] of Object.entries(adv)) {
    det(input); // warm-up: the first calls on a new input shape include JIT compilation
    const s = medians(() => det(input), 5);
    if (s.cpu > worst.cpu) {
      worst = s;
      worstInput = inName;
    }
  }
  const b = baseAdv.get(worstInput)!;
  if (worst.cpu > worstAdv.cpu) worstAdv = { ...worst, detector: name, input: worstInput };
  console.log(
    `  ${name.padEnd(14)} ${pad(worst.cpu.toFixed(2), 8)} ${pad(worst.main.toFixed(2), 8)} ${pad(worst.wall.toFixed(2), 8)}  ${worstInput} (${(worst.cpu / Math.max(b.cpu, 0.001)).toFixed(0)}x baseline)`,
  );
}

console.log(`
targets (each a CPU-time figure, so that other processes' load changes it less than wall time; load average ${loadAverage()
  .map((l) => l.toFixed(1))
  .join(' ')}):
  MB/s per core, whole scan: ${rate(mb, scanS.cpu)} (scan(), models included, ${mb.toFixed(2)} MB in 4 KB records; each record's fastest: ${rate(mb, scanFastest)}; target >= 20)
  worst adversarial ms: ${worstAdv.cpu.toFixed(2)} (${worstAdv.detector} on ${worstAdv.input}, 32,000 chars, ${worstAdv.main.toFixed(2)} of it the main thread's; target <= 5)
  start-up ms, models loaded: ${startup.wall.toFixed(0)} wall, ${startup.cpu.toFixed(0)} CPU, ${startup.main.toFixed(0)} the main thread's (import and first scan() of 50 KB, ${getCompileCacheDir() ? 'compile cache on' : 'no compile cache'}; target < 1000)`);
