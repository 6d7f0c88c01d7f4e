import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { consoleDir, distDir, repoRoot } from './paths.ts';

// The console is built by Vite into dist/console. `npm start` (prestart) and
// the browser tests call ensureConsoleBuilt(): it builds only when the sources
// changed since the last build (a hash of every file under console/ except
// node_modules, kept in dist/console/.source-hash), so a fresh clone builds
// once (~10 s) and later starts cost a hash of a few hundred KB.

const HASH_FILE = '.source-hash';

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else out.push(p);
  }
  return out;
}

export function sourceHash(): string {
  const h = createHash('sha256');
  for (const f of sourceFiles(consoleDir).sort()) {
    h.update(relative(consoleDir, f)).update('\0').update(readFileSync(f)).update('\0');
  }
  return h.digest('hex');
}

export function isBuilt(hash = sourceHash()): boolean {
  const f = join(distDir, HASH_FILE);
  return existsSync(f) && readFileSync(f, 'utf8') === hash;
}

/** Builds the console when dist/console is missing or older than the sources. Returns whether it built. */
export function ensureConsoleBuilt(log: (msg: string) => void = () => {}): boolean {
  const hash = sourceHash();
  if (isBuilt(hash)) return false;
  log('building the console (vite build)…');
  // Build into a directory of its own, then swap it in: a server or a second
  // test process never sees a half-written dist.
  const tmp = join(repoRoot, 'dist', `.console-${process.pid}-${Date.now()}`);
  const vite = join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--outDir', tmp, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: consoleDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`vite build of the console failed (exit ${r.status})`);
  }
  writeFileSync(join(tmp, HASH_FILE), hash);
  if (isBuilt(hash)) {
    rmSync(tmp, { recursive: true, force: true }); // another process finished the same build first
    return true;
  }
  const old = `${distDir}.old-${process.pid}`;
  if (existsSync(distDir) && statSync(distDir).isDirectory()) renameSync(distDir, old);
  try {
    renameSync(tmp, distDir);
  } catch {
    rmSync(tmp, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return true;
}
