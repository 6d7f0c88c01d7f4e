import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// Reads src/ as files and folders, for the architecture checks: which folder
// imports which, and which module's SQL names which table.

export const SRC = fileURLToPath(new URL('..', import.meta.url));

export interface SourceFile {
  /** Path below src/, with '/' separators. */
  path: string;
  /** The top-level folder under src/ (the module); 'testing' for every test kit (see isTestKit). */
  folder: string;
  text: string;
}

export function sourceFiles(root = SRC, ext = /\.ts$/): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(full);
      } else if (ext.test(e.name)) {
        const path = relative(root, full).split(sep).join('/');
        if (!path.includes('/')) continue;
        const folder = isTestKit(path) ? 'testing' : path.slice(0, path.indexOf('/'));
        out.push({ path, folder, text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(root);
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

export const isTest = (path: string) => path.endsWith('.test.ts');

/** Test kits: files only tests use, kept in a testing/ folder (src/testing/ or <module>/testing/). */
export const isTestKit = (path: string) => path.startsWith('testing/') || path.includes('/testing/');

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/** The src/-relative paths a file imports (relative specifiers only). */
export function importsOf(file: SourceFile): string[] {
  const out: string[] = [];
  for (const m of file.text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec?.startsWith('.')) continue;
    const base = file.path.split('/').slice(0, -1);
    for (const part of spec.split('/')) {
      if (part === '..') base.pop();
      else if (part !== '.') base.push(part);
    }
    out.push(base.join('/'));
  }
  return out;
}

/** Folder → folders it imports from, with the files that make each edge. */
export function folderGraph(files: SourceFile[]): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const f of files) {
    for (const target of importsOf(f)) {
      const to = isTestKit(target) ? 'testing' : target.slice(0, target.indexOf('/'));
      if (to === f.folder || to === '') continue;
      const edges = graph.get(f.folder) ?? new Map<string, string[]>();
      graph.set(f.folder, edges);
      const why = edges.get(to) ?? [];
      edges.set(to, why);
      why.push(`${f.path} → ${target}`);
    }
  }
  return graph;
}

/** Every elementary cycle's folders, found by a depth-first search from each folder. */
export function cyclesOf(graph: Map<string, Map<string, string[]>>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const nodes = [...graph.keys()].sort();
  for (const start of nodes) {
    const stack: string[] = [start];
    const visit = (node: string) => {
      for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
        if (next === start) {
          const key = [...stack].sort().join(',');
          if (!seen.has(key)) {
            seen.add(key);
            cycles.push([...stack, start]);
          }
        } else if (!stack.includes(next) && next > start) {
          stack.push(next);
          visit(next);
          stack.pop();
        }
      }
    };
    visit(start);
  }
  return cycles;
}
