// One side of bench/detect-ab.ts: loads the detectors of one revision (argv: its src/detect/index.ts,
// the number of timed passes, optionally one detector's name), runs scan() (or that detector) over the
// benchmark's mixed text until the JIT has settled, then prints the CPU milliseconds per MB of each timed
// pass as JSON.
import { pathToFileURL } from 'node:url';
import { mixedRecords } from '../mixed-text.ts';

const [file, passesArg, only] = process.argv.slice(2);
const mod = (await import(pathToFileURL(file!).href)) as {
  scan: (t: string) => unknown;
  DETECTORS?: Record<string, (t: string) => unknown>;
};
const f = only ? mod.DETECTORS?.[only] : mod.scan;
if (!f) throw new Error(`no detector ${only} in ${file}`);
const { text, records } = mixedRecords(1_000_000);
const mb = Buffer.byteLength(text) / 1e6;
const pass = () => {
  for (const r of records) f(r);
};
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t0 = performance.now();
while (performance.now() - t0 < 2500) pass();
const msPerMb: number[] = [];
for (let i = 0; i < Number(passesArg ?? 5); i++) {
  const c0 = cpu();
  pass();
  msPerMb.push((cpu() - c0) / mb);
}
process.stdout.write(JSON.stringify({ msPerMb }) + '\n');
