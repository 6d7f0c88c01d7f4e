// Loads the detectors of another git revision next to the current ones: `git archive <ref> src` is
// unpacked under .detect-frozen/<commit>/ in the repository (git-ignored, so the copy resolves the same
// node_modules), and its src/detect/index.ts imported as a module of its own.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function commitOf(ref: string): string {
  return execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: REPO, encoding: 'utf8' }).trim();
}

/** The root of the unpacked copy of `ref`'s src/ (unpacked once per commit). */
export function unpack(ref: string): string {
  const commit = commitOf(ref);
  const dir = join(REPO, '.detect-frozen', commit);
  if (!existsSync(join(dir, 'src', 'detect', 'index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', '--format=tar', commit, 'src'], { cwd: REPO, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  }
  return dir;
}

export async function importFrozen<T>(ref: string, path: string): Promise<T | undefined> {
  const file = join(unpack(ref), path);
  if (!existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as T;
}

/** The shared corpus (read in place, never copied): --corpus DIR, $DETECT_CORPUS, or a `shared/corpus` above the repository. */
export function findCorpus(explicit?: string): string | undefined {
  const candidates = [explicit, process.env.DETECT_CORPUS];
  for (let d = REPO; ; d = dirname(d)) {
    candidates.push(join(d, 'shared', 'corpus'), join(d, '..', 'shared', 'corpus'));
    if (dirname(d) === d) break;
  }
  for (const c of candidates)
    if (c && existsSync(join(c, 'injection.json')) && readdirSync(c).includes('pii.json')) return resolve(c);
  return undefined;
}
