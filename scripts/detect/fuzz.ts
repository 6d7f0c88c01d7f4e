// npm run detect:fuzz -- [--seed N] [--n N] [--seeds K] [--ref REF]
//
// Fuzzes the detectors with seeded random texts (scripts/detect/fuzz-text.ts) and checks what must hold
// for every text: no exception; findings sorted, inside the text, with a type and a score in [0, 1];
// the same result twice; the storage scan's redacted text holds each redacted finding's placeholder at
// its re-indexed offsets and keeps the text between findings; injection findings keep their text; no
// call over the time budget, and 4x the text costing far less than 16x. With --ref it also compares
// scan() with that revision's (a differential fuzz; detect:equiv does this on fixed inputs too).

import { importFrozen } from './frozen.ts';
import { fuzzTexts, rng, fuzzText } from './fuzz-text.ts';
import { redactForStorage, scan, scanField } from '../../src/detect/index.ts';
import type { Finding } from '../../src/detect/index.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const BUDGET_MS = Number(arg('budget-ms') ?? 100); // per call on up to 32,000 chars; generous for a shared machine
const problems: string[] = [];
function fail(msg: string, text: string): void {
  if (problems.length < 20) problems.push(`${msg}: ${JSON.stringify(text.slice(0, 200))}`);
  else if (problems.length === 20) problems.push('…');
}

function checkFindings(fs: readonly Finding[], len: number, text: string, what: string, emptyInjection = false): void {
  let prev = -1;
  for (const f of fs) {
    const empty = emptyInjection && f.category === 'injection' && f.start === f.end;
    if (!(f.start >= 0 && f.end <= len && (f.start < f.end || empty)))
      fail(`${what}: span ${f.type} ${f.start}-${f.end} outside 0-${len}`, text);
    if (!(f.score >= 0 && f.score <= 1)) fail(`${what}: score ${f.score}`, text);
    if (typeof f.type !== 'string' || f.type.length === 0) fail(`${what}: no type`, text);
    if (f.start < prev) fail(`${what}: not sorted`, text);
    prev = f.start;
  }
}

async function main(): Promise<void> {
  const seed0 = Number(arg('seed') ?? 1);
  const seeds = Number(arg('seeds') ?? 3);
  const n = Number(arg('n') ?? 3000);
  const ref = arg('ref');
  const old = ref ? await importFrozen<{ scan: typeof scan }>(ref, 'src/detect/index.ts') : undefined;
  let texts = 0;
  let worst = 0;
  let differ = 0;
  scan('warm up');
  for (let s = seed0; s < seed0 + seeds; s++) {
    for (const t of fuzzTexts(s, n)) {
      texts++;
      // CPU time: a wall-clock budget fails whenever the machine is busy. The better of two calls: the
      // process's CPU time also counts a garbage collection, the optimising compiler and a table built on
      // first use (the BMP letter classes, ~65 ms) that fall into one call; an input that is slow is so twice.
      const t0 = process.cpuUsage();
      const r = scan(t);
      const d = process.cpuUsage(t0);
      const t1 = process.cpuUsage();
      const again = scan(t);
      const d1 = process.cpuUsage(t1);
      const ms = Math.min(d.user + d.system, d1.user + d1.system) / 1000;
      worst = Math.max(worst, ms);
      if (ms > BUDGET_MS) fail(`scan took ${ms.toFixed(1)} ms on ${t.length} chars`, t);
      checkFindings(r.findings, t.length, t, 'scan');
      if (JSON.stringify(again) !== JSON.stringify(r)) fail('scan not deterministic', t);
      const field = (['prompt', 'tool_output', 'context'] as const)[texts % 3]!;
      const st = scanField(field, t);
      checkFindings(st.findings, t.length, t, 'scanField.findings');
      // metadata and review notes are stored without the injection detector: the same text
      if (redactForStorage(t) !== st.stored) fail("redactForStorage differs from scanField's stored text", t);
      // an injection finding inside a redacted span shrinks to the placeholder's edge (stored text has no
      // room for it): an empty span there is allowed
      checkFindings(st.storedFindings, st.stored.length, t, 'scanField.storedFindings', true);
      for (const f of st.storedFindings) {
        if (f.category === 'injection') continue;
        if (st.stored.slice(f.start, f.end) !== `<${f.type}>`) fail(`stored text lacks <${f.type}> at ${f.start}`, t);
      }
      // the text outside redacted spans (the findings and the values hidden beyond them) is kept, in order
      let rest = st.stored;
      for (const f of [...st.storedFindings].reverse())
        if (f.category !== 'injection') rest = rest.slice(0, f.start) + rest.slice(f.end);
      let kept = '';
      let pos = 0;
      for (const f of [...st.findings, ...st.hidden]
        .filter((f) => f.category !== 'injection')
        .sort((a, b) => a.start - b.start)) {
        if (f.start > pos) kept += t.slice(pos, f.start);
        pos = Math.max(pos, f.end);
      }
      kept += t.slice(pos);
      if (rest !== kept) fail('stored text is not the text outside the redacted spans', t);
      if (old && JSON.stringify(old.scan(t)) !== JSON.stringify(r)) {
        differ++;
        fail(`differs from ${ref}`, t);
      }
    }
  }
  // linear growth: a text 4x as long costs far less than 16x (quadratic) on the same fragments
  const r = rng(seed0);
  const base = fuzzText(r, 8_000).slice(0, 8_000);
  const big = (base + base + base + base).slice(0, 32_000);
  const cost = (x: string) => {
    let best = Infinity;
    for (let i = 0; i < 9; i++) {
      const t0 = process.cpuUsage();
      scan(x);
      const d = process.cpuUsage(t0);
      best = Math.min(best, (d.user + d.system) / 1000);
    }
    return Math.max(best, 0.05);
  };
  let a = cost(base);
  let b = cost(big);
  // one more measurement before calling it quadratic: a collection or a busy machine can spoil one
  if (b > a * 10) {
    a = cost(base);
    b = cost(big);
  }
  if (b > a * 10) problems.push(`8k text ${a.toFixed(2)} ms, 32k ${b.toFixed(2)} ms: not linear`);
  console.log(
    `${texts} fuzz texts (seeds ${seed0}..${seed0 + seeds - 1}), worst scan ${worst.toFixed(1)} ms, 8k -> 32k ${a.toFixed(2)} -> ${b.toFixed(2)} ms${old ? `, ${differ} differ from ${ref}` : ''}`,
  );
  if (problems.length) {
    console.log('FAILED:');
    for (const p of problems) console.log('  ' + p);
    process.exitCode = 1;
  } else console.log('all invariants hold');
}

await main();
