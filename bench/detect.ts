// Detector benchmark: throughput of scan() and of each detector on mixed text, and the worst case per
// detector on adversarial 32,000-character inputs. Every figure is a median over RUNS runs, measured as
// process CPU time (process.cpuUsage(): user + system, robust on a shared, loaded machine) and as wall
// time, next to a baseline measured in the same run on the same data: one `text.toLowerCase()` plus one
// simple global regex pass.
// Run: ./node_modules/.bin/node bench/detect.ts [--runs N] [--mb N] [--only name,name]

import { adversarialInputs } from "../src/detect/adversarial.ts";
import { DETECTORS, scan } from "../src/detect/index.ts";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const RUNS = Math.max(5, Number(arg("runs") ?? 7));
const MB_TARGET = Number(arg("mb") ?? 1);
const ONLY = arg("only")?.split(",");

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Deterministic pseudo-random digits, so that numbers vary between records (no memo hits). */
let seed = 12345;
function digits(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    s += String(seed % 10);
  }
  return s;
}

function mixedText(bytes: number): string {
  const parts: (() => string)[] = [
    () => "The quarterly report was reviewed by the finance team on Tuesday; numbers look fine overall. ",
    () => `{"ts":"2024-03-${digits(1)}1T12:${digits(2)}:38Z","level":"info","msg":"request done","latency_ms":${digits(2)},"status":200,"path":"/api/v1/items"}\n`,
    () => `Please contact Maria Schneider at maria.schneider@example.org or +49 30 ${digits(7)} about invoice 2024-${digits(3)}.\n`,
    () => "const total = items.reduce((sum, item) => sum + item.price * item.qty, 0); // compute totals\n",
    () => "Customer paid with card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, from 203.0.113.42.\n",
    () => "Meeting notes: migrate the billing cron to the new scheduler, then update the runbook and wiki.\n",
    () => "export AWS_REGION=eu-west-1 GITHUB_TOKEN=ghp_0yKjZYF7fM11W3e5GzqzfJQnnbtuy4wuu5AT\n",
    () => "| Year | Venue | Position |\n| 1997 | Paris, France | 5th |\n",
    () => `Ship to Grace Boyle, ${digits(2)} Mavrokordatou Street, ${digits(4)} Foinikaria, Cyprus. Thanks!\n`,
    () => "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.\n",
  ];
  let s = "";
  let i = 0;
  while (s.length < bytes) s += parts[i++ % parts.length]!();
  return s.slice(0, bytes);
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
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** One run of `body`, repeated until at least `minMs` of wall time has passed; per-repetition CPU and wall ms. */
function measure(body: () => void, minMs = 0): Sample {
  let reps = 0;
  const c0 = cpuMs();
  const w0 = performance.now();
  do {
    body();
    reps++;
  } while (performance.now() - w0 < minMs);
  return { cpu: (cpuMs() - c0) / reps, wall: (performance.now() - w0) / reps };
}

function medians(body: () => void, minMs = 0): Sample {
  const xs: Sample[] = [];
  for (let r = 0; r < RUNS; r++) xs.push(measure(body, minMs));
  return { cpu: median(xs.map((x) => x.cpu)), wall: median(xs.map((x) => x.wall)) };
}

const pad = (s: string, n: number) => s.padStart(n);
const rate = (mb: number, ms: number) => (mb / (ms / 1000)).toFixed(1);

// warm-up (dictionary loading, JIT)
for (let i = 0; i < 3; i++) scan(mixedText(50_000));

const text = mixedText(Math.round(MB_TARGET * 1_000_000));
const records: string[] = [];
for (let off = 0; off < text.length; off += 4096) records.push(text.slice(off, off + 4096));
const mb = Buffer.byteLength(text) / 1e6;
const overRecords = (f: (t: string) => unknown) => () => {
  for (const rec of records) f(rec);
};

const base = medians(overRecords(baseline));
console.log(`mixed text: ${mb.toFixed(2)} MB in 4 KB records; medians of ${RUNS} runs; MB/s by CPU time (process.cpuUsage) and by wall time`);
console.log(`  ${"".padEnd(14)} ${pad("cpu MB/s", 9)} ${pad("wall MB/s", 9)} ${pad("cpu ms/MB", 9)} ${pad("x baseline", 10)}`);
const row = (name: string, s: Sample) =>
  console.log(`  ${name.padEnd(14)} ${pad(rate(mb, s.cpu), 9)} ${pad(rate(mb, s.wall), 9)} ${pad((s.cpu / mb).toFixed(1), 9)} ${pad((s.cpu / base.cpu).toFixed(1), 10)}`);
row("baseline", base);
const scanS = medians(overRecords((t) => scan(t)));
row("scan()", scanS);
for (const [name, det] of Object.entries(DETECTORS)) {
  if (ONLY && !ONLY.includes(name)) continue;
  row(name, medians(overRecords(det)));
}

const whole = medians(() => scan(text));
console.log(`\nscan() on one ${mb.toFixed(2)} MB text: ${rate(mb, whole.cpu)} MB/s cpu, ${rate(mb, whole.wall)} MB/s wall`);

console.log("\nworst case per detector on adversarial 32,000-char inputs (median ms per call, CPU and wall; ratio of CPU time to the baseline on the same input):");
const adv = adversarialInputs();
const baseAdv = new Map<string, Sample>();
for (const [inName, input] of Object.entries(adv)) baseAdv.set(inName, medians(() => baseline(input), 5));
console.log(`  ${"".padEnd(14)} ${pad("cpu ms", 8)} ${pad("wall ms", 8)}  input`);
for (const [name, det] of Object.entries({ ...DETECTORS, scan: (t: string) => scan(t).findings })) {
  if (ONLY && !ONLY.includes(name) && name !== "scan") continue;
  let worst: Sample = { cpu: -1, wall: 0 };
  let worstInput = "";
  for (const [inName, input] of Object.entries(adv)) {
    const s = medians(() => det(input), 5);
    if (s.cpu > worst.cpu) {
      worst = s;
      worstInput = inName;
    }
  }
  const b = baseAdv.get(worstInput)!;
  console.log(`  ${name.padEnd(14)} ${pad(worst.cpu.toFixed(2), 8)} ${pad(worst.wall.toFixed(2), 8)}  ${worstInput} (${(worst.cpu / Math.max(b.cpu, 0.001)).toFixed(0)}x baseline)`);
}
