// A/B of scan() (or one detector) between two revisions of src/detect, each in a process of its own:
// each round starts the two processes AT ONCE (one per core), each warms up on its own, and their CPU
// time per MB on the same mixed text is compared. Running them together gives both the same machine
// (whatever else loads it loads both); separate processes share no JIT state, inline caches or garbage,
// as the two copies inside one process of `bench/detect.ts --ref` do — that method read 0.85–1.03 for a
// revision against itself, this one 0.99–1.00 (2 cores). Prints the median of the per-round ratios B/A
// with their range; --self also measures A against A, the method's noise, in the same run.
//
//   node bench/detect-ab.ts --a REF [--b REF|.] [--rounds 7] [--passes 7] [--only names] [--self]
//
// "." (the default for --b) is the working tree's src/detect; a REF is unpacked by scripts/detect/frozen.ts.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO, unpack } from '../scripts/detect/frozen.ts';
import { median } from './lib/stats.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const A = arg('a');
if (!A) throw new Error('--a REF is required');
const B = arg('b') ?? '.';
const ROUNDS = Number(arg('rounds') ?? 7);
const PASSES = arg('passes') ?? '7';
const ONLY = arg('only');
const SELF = process.argv.includes('--self');

const run = promisify(execFile);
const indexOf = (ref: string) =>
  ref === '.' ? join(REPO, 'src/detect/index.ts') : join(unpack(ref), 'src/detect/index.ts');
const CHILD = join(REPO, 'bench/lib/detect-ab-child.ts');

/** One side's median CPU ms per MB over PASSES timed passes. */
async function side(file: string): Promise<number> {
  const { stdout } = await run(process.execPath, [CHILD, file, PASSES, ...(ONLY ? [ONLY] : [])], { encoding: 'utf8' });
  return median((JSON.parse(stdout) as { msPerMb: number[] }).msPerMb);
}

async function ab(label: string, a: string, b: string): Promise<void> {
  const ratios: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [x, y] = await Promise.all([side(a), side(b)]);
    as.push(x);
    bs.push(y);
    ratios.push(y / x);
  }
  const sorted = [...ratios].sort((p, q) => p - q);
  console.log(
    `${label}: B/A CPU per MB = ${median(ratios).toFixed(3)} (median of ${ROUNDS} rounds, range ${sorted[0]!.toFixed(3)}–${sorted.at(-1)!.toFixed(3)}; < 1 is faster); ` +
      `A ${median(as).toFixed(1)} ms/MB, B ${median(bs).toFixed(1)} ms/MB [${ONLY ?? 'scan()'}]`,
  );
}

const a = indexOf(A);
await ab(`${A} -> ${B}`, a, indexOf(B));
if (SELF) await ab(`${A} -> ${A} (noise)`, a, a);
