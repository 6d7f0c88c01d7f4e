// Profiling driver: runs scan() (or one detector, --only NAME) over the benchmark's mixed text in 4 KB
// records for a few seconds, for `node --cpu-prof bench/profile-detect.ts`.
import { DETECTORS, scan } from '../src/detect/index.ts';
import { mixedRecords } from './mixed-text.ts';

const i = process.argv.indexOf('--only');
const only = i >= 0 ? process.argv[i + 1] : undefined;
const f = only ? DETECTORS[only]! : (t: string) => scan(t);
const { text, records } = mixedRecords(1_000_000);
const t0 = performance.now();
let n = 0;
while (performance.now() - t0 < Number(process.env.PROFILE_MS ?? 4000)) {
  for (const r of records) f(r);
  n++;
}
console.log(`${only ?? 'scan'}: ${((n * text.length) / 1e6 / ((performance.now() - t0) / 1000)).toFixed(1)} MB/s`);
