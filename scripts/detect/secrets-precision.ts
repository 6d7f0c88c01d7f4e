// Secret findings per MB on real text other people wrote, which holds no live credentials: the READMEs,
// docs and source files of the installed npm packages (node_modules), read in a fixed order. Every finding
// there is a false positive unless reading it shows otherwise, so the script prints each one (the value
// masked but its shape kept) for a person to judge, and the count per type and per MB.
// Run: node scripts/detect/secrets-precision.ts [--mb N] [--ext md,js] [--show N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { detectSecrets } from '../../src/detect/secrets/index.ts';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
}
const MB = Number(arg('mb', '40'));
const EXTS = arg('ext', 'md,markdown,txt,js,cjs,mjs,ts,json,yml,yaml').split(',');
const SHOW = Number(arg('show', '60'));
const root = new URL('../../node_modules/', import.meta.url).pathname;

function* files(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const n of names) {
    const p = join(dir, n);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) yield* files(p);
    else if (st.size < 2_000_000 && EXTS.some((e) => n.endsWith('.' + e))) yield p;
  }
}

/** The value with letters as a/A and digits as 9 past its first 8 characters: its shape, not its content. */
const mask = (v: string) =>
  v.slice(0, 8) + v.slice(8, 60).replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/\d/g, '9');

let bytes = 0;
const byType = new Map<string, number>();
const shown: string[] = [];
for (const f of files(root)) {
  if (bytes > MB * 1e6) break;
  const text = readFileSync(f, 'utf8');
  bytes += Buffer.byteLength(text);
  // 4 KB records, as the service scans them
  for (let i = 0; i < text.length; i += 4096) {
    const rec = text.slice(i, i + 4096);
    for (const x of detectSecrets(rec)) {
      byType.set(x.type, (byType.get(x.type) ?? 0) + 1);
      if (shown.length < SHOW)
        shown.push(
          `${x.type.padEnd(16)} ${f.slice(root.length)}: …${rec.slice(Math.max(0, x.start - 30), x.start).replace(/\s+/g, ' ')}[${mask(rec.slice(x.start, x.end))}]`,
        );
    }
  }
}
console.log(`${(bytes / 1e6).toFixed(1)} MB of ${EXTS.join('/')} files under node_modules`);
for (const s of shown) console.log('  ' + s);
const total = [...byType.values()].reduce((a, b) => a + b, 0);
console.log(`findings: ${total} (${(total / (bytes / 1e6)).toFixed(2)} per MB)`);
for (const [t, n] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`  ${t.padEnd(16)} ${n}`);
