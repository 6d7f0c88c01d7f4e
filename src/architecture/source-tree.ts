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

/** A module's entry file: the only file of it that other modules import. */
export const entryFileOf = (module: string) => `${module}/index.ts`;

export interface ImportCrossing {
  file: string;
  target: string;
}

/**
 * Every import of another src/ module's file other than its entry file. Test
 * kits may reach anywhere, as tests do; paths outside src/ (packages/,
 * scripts/) are not modules and are left out.
 */
export function entryPointCrossings(
  files: SourceFile[],
  modules = new Set(files.map((f) => f.folder)),
): ImportCrossing[] {
  const folders = new Set([...modules, ...sourceFolders()]);
  const out: ImportCrossing[] = [];
  for (const f of files) {
    if (isTestKit(f.path)) continue;
    for (const target of importsOf(f)) {
      const to = target.slice(0, target.indexOf('/'));
      if (to === f.folder || isTestKit(target) || !folders.has(to)) continue;
      if (target !== entryFileOf(to)) out.push({ file: f.path, target });
    }
  }
  return out;
}

let folderList: string[] | undefined;
/** The top-level folders under src/. */
function sourceFolders(): string[] {
  folderList ??= readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  return folderList;
}

/** Every file import cycle (strongly connected files), each as a path from its first file back to it. */
export function fileCycles(files: SourceFile[]): string[][] {
  const graph = new Map(files.map((f) => [f.path, importsOf(f).filter((t) => t !== f.path)]));
  // Tarjan's strongly connected components.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  // Each component shown as one cycle through it, from its first file.
  return components.sort().map((c) => {
    const inC = new Set(c);
    const path = [c[0]!];
    const seen = new Set(path);
    const walk = (v: string): boolean => {
      for (const w of graph.get(v)!) {
        if (w === c[0]) {
          path.push(w);
          return true;
        }
        if (inC.has(w) && !seen.has(w)) {
          seen.add(w);
          path.push(w);
          if (walk(w)) return true;
          path.pop();
        }
      }
      return false;
    };
    walk(c[0]!);
    return path;
  });
}
