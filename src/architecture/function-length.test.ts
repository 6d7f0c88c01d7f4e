import assert from 'node:assert/strict';
import { test } from 'node:test';
import { functionLengths } from './function-length.ts';
import { isTest, sourceFiles } from './source-tree.ts';

// The write engine and the ledger are read more than they are written: no
// function in ingest/ or ledger/ longer than MAX_LINES, so each can be held in
// one's head. A route registration is one handler per function; a long
// computation is named steps.

const MAX_LINES = 80;
const FOLDERS = /^(ingest|ledger)\//;

/** Functions still over the limit, with their length when listed. To be emptied: a split removes its line. */
const NOT_YET_SPLIT: Record<string, number> = {};

test(`no function in ingest/ or ledger/ over ${MAX_LINES} lines (but the listed ones, which may not grow)`, () => {
  const long = sourceFiles()
    .filter((f) => FOLDERS.test(f.path) && !isTest(f.path))
    .flatMap(functionLengths)
    .filter((f) => f.lines > MAX_LINES);
  const found = new Set(long.map((f) => f.where));
  for (const where of Object.keys(NOT_YET_SPLIT))
    assert.ok(found.has(where), `NOT_YET_SPLIT names ${where}, which is no longer over ${MAX_LINES} lines: remove it`);
  assert.deepEqual(
    long.filter((f) => !(f.lines <= (NOT_YET_SPLIT[f.where] ?? 0))).map((f) => `${f.where} (${f.lines} lines)`),
    [],
  );
});

test('functions are found and measured by where they stand', () => {
  const file = { path: 'ingest/a.ts', folder: 'ingest', text: '' };
  file.text = [
    'export function outer() {',
    '  const inner = () => {',
    '    return 1;',
    '  };',
    '  app.get("/x", async () => 2);',
    '}',
    'class Writer {',
    '  #run(): void {}',
    '}',
  ].join('\n');
  assert.deepEqual(functionLengths(file), [
    { where: 'ingest/a.ts:outer', lines: 6 },
    { where: 'ingest/a.ts:outer.inner', lines: 3 },
    { where: 'ingest/a.ts:outer.(app.get /x)', lines: 1 },
    { where: 'ingest/a.ts:Writer.#run', lines: 1 },
  ]);
});
