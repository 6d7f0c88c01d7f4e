// Detector benchmark: throughput of scan() on mixed text and worst-case time per detector on
// adversarial 32,000-character inputs (medians over several runs), each next to a baseline measured in
// the same run on the same data: one `text.toLowerCase()` plus one simple global regex pass.
// Run: ./node_modules/.bin/node bench/detect.ts

import { adversarialInputs } from "../src/detect/adversarial.ts";
import { DETECTORS, scan } from "../src/detect/index.ts";

function median(xs: number[]): number {
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

const RUNS = 7;

// warm-up (dictionary loading, JIT)
for (let i = 0; i < 3; i++) scan(mixedText(50_000));

const text = mixedText(1_000_000);
const records: string[] = [];
for (let off = 0; off < text.length; off += 4096) records.push(text.slice(off, off + 4096));
const mb = Buffer.byteLength(text) / 1e6;

function timeRecords(f: (t: string) => unknown): number {
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    for (const rec of records) f(rec);
    times.push(performance.now() - t0);
  }
  return median(times);
}

const baseMs = timeRecords(baseline);
const scanMs = timeRecords((t) => scan(t));
console.log(`scan() on mixed text: ${(mb / (scanMs / 1000)).toFixed(1)} MB/s (median of ${RUNS} runs, ${mb.toFixed(2)} MB in 4 KB records, ${scanMs.toFixed(0)} ms)`);
console.log(`baseline (toLowerCase + one regex pass): ${(mb / (baseMs / 1000)).toFixed(1)} MB/s; scan() costs ${(scanMs / baseMs).toFixed(1)}x the baseline`);

console.log("\nper detector on the same records (median, MB/s):");
for (const [name, det] of Object.entries(DETECTORS)) {
  const ms = timeRecords(det);
  console.log(`  ${name.padEnd(14)} ${(mb / (ms / 1000)).toFixed(1).padStart(8)} MB/s`);
}

const whole: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const t0 = performance.now();
  scan(text);
  whole.push(performance.now() - t0);
}
console.log(`\nscan() on one 1 MB text: ${(mb / (median(whole) / 1000)).toFixed(1)} MB/s`);

console.log("\nworst case per detector on adversarial 32,000-char inputs (median of runs, ms; ratio to the baseline on the same input):");
const adv = adversarialInputs();
const baseAdv = new Map<string, number>();
for (const [inName, input] of Object.entries(adv)) {
  const ts: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    baseline(input);
    ts.push(performance.now() - t0);
  }
  baseAdv.set(inName, Math.max(median(ts), 0.001));
}
for (const [name, det] of Object.entries({ ...DETECTORS, scan: (t: string) => scan(t).findings })) {
  let worst = 0;
  let worstInput = "";
  for (const [inName, input] of Object.entries(adv)) {
    const ts: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      det(input);
      ts.push(performance.now() - t0);
    }
    const m = median(ts);
    if (m > worst) {
      worst = m;
      worstInput = inName;
    }
  }
  const ratio = worst / baseAdv.get(worstInput)!;
  console.log(`  ${name.padEnd(14)} ${worst.toFixed(2).padStart(8)} ms  (${worstInput}; ${ratio.toFixed(0)}x baseline)`);
}
