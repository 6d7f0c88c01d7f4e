// `npm run bench`: runs every benchmark script in bench/ (bench/*.ts but this
// one; helpers live in bench/lib/) one after the other, with the Node running
// this script, and fails if any of them does. Arguments after `--` are passed
// to each script (e.g. `npm run bench -- --store postgres`); a first argument
// that is not an option names the benchmarks to run (`npm run bench -- ingest`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const only = argv[0] !== undefined && !argv[0].startsWith('--') ? argv.shift()!.split(',') : undefined;
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== self && (only === undefined || only.includes(basename(f, '.ts'))))
  .sort();
if (scripts.length === 0) throw new Error(`no benchmark named ${only?.join(', ')} in bench/`);

const failed: string[] = [];
for (const script of scripts) {
  console.log(`\n=== bench/${script}`);
  const started = performance.now();
  const r = spawnSync(process.execPath, [join(dir, script), ...argv], { stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    failed.push(script);
    console.log(`=== bench/${script} FAILED (${r.status ?? r.signal}) after ${seconds} s`);
  } else {
    console.log(`=== bench/${script} done in ${seconds} s`);
  }
}
if (failed.length > 0) {
  console.log(`\nfailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
