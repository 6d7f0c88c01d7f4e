import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cyclesOf, folderGraph, importsOf, isTest, isTestKit, sourceFiles } from './source-tree.ts';

// The module structure, checked from the source: which folder may import
// which. Production files only (tests may reach anywhere); test kits count as
// the testing/ folder wherever they live.

/**
 * Folder edges that close a cycle and are allowed, each with why. Keep this
 * short: a new entry means two folders can no longer be understood apart.
 */
const ALLOWED_EDGES: Record<string, string> = {};

/** Who may import http/: the HTTP layer itself, the composition root, the CLI, tests, and each module's route and schema files. */
const mayImportHttp = (path: string) =>
  /^(http|service|cli|testing)\//.test(path) ||
  isTestKit(path) ||
  /(^|\/|-)routes\.ts$/.test(path) ||
  /\/schemas\.ts$/.test(path);

/** What the domain core may depend on: infrastructure types, never a feature module or HTTP. */
const CORE_MAY_IMPORT = new Set(['config', 'db', 'mail']);

const production = sourceFiles().filter((f) => !isTest(f.path));

test('the folder import graph has no cycle (but the documented edges)', () => {
  const graph = folderGraph(production);
  for (const edge of Object.keys(ALLOWED_EDGES)) {
    const [from, to] = edge.split('→') as [string, string];
    assert.ok(graph.get(from)?.has(to), `ALLOWED_EDGES names ${edge}, which no longer exists: remove it`);
    graph.get(from)!.delete(to);
  }
  const cycles = cyclesOf(graph);
  const explain = cycles.map((c) => {
    const steps = c.slice(0, -1).map((from, i) => `  ${from} → ${c[i + 1]}: ${graph.get(from)!.get(c[i + 1]!)![0]}`);
    return `${c.join(' → ')}\n${steps.join('\n')}`;
  });
  assert.deepEqual(explain, [], `folder cycles:\n${explain.join('\n')}`);
});

test('the cycle finder finds a cycle through three folders, and none in a chain', () => {
  const g = (edges: string[]) => {
    const m = new Map<string, Map<string, string[]>>();
    for (const e of edges) {
      const [a, b] = e.split('>') as [string, string];
      if (!m.has(a)) m.set(a, new Map());
      m.get(a)!.set(b, [e]);
    }
    return m;
  };
  assert.deepEqual(cyclesOf(g(['a>b', 'b>c', 'c>a'])), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(cyclesOf(g(['a>b', 'b>c', 'a>c'])), []);
});

test('only http/, route and schema files, the CLI, the composition root and tests import http/', () => {
  const offenders = production
    .filter((f) => f.folder !== 'http' && !mayImportHttp(f.path))
    .flatMap((f) =>
      importsOf(f)
        .filter((t) => t.startsWith('http/'))
        .map((t) => `${f.path} → ${t}`),
    );
  assert.deepEqual(offenders, []);
});

test('the domain core (core/) depends on no module and not on HTTP', () => {
  const core = production.filter((f) => f.folder === 'core');
  assert.ok(core.length >= 4, 'core/ holds identity, context, problems and paging');
  const offenders = core.flatMap((f) =>
    importsOf(f)
      .filter((t) => !t.startsWith('core/') && !CORE_MAY_IMPORT.has(t.slice(0, t.indexOf('/'))))
      .map((t) => `${f.path} → ${t}`),
  );
  assert.deepEqual(offenders, []);
});

test('no production file imports a test kit; test kits live in a testing/ folder', () => {
  const offenders = production
    .filter((f) => f.folder !== 'testing')
    .flatMap((f) =>
      importsOf(f)
        .filter((t) => isTestKit(t))
        .map((t) => `${f.path} → ${t}`),
    );
  assert.deepEqual(offenders, []);
  const misplaced = production.filter((f) => /test-?kit/i.test(f.path) && !isTestKit(f.path)).map((f) => f.path);
  assert.deepEqual(misplaced, []);
});
