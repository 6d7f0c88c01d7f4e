// detect/ modules bind what they import from each other once (README.md, "Imports"): a named value
// import read in a scanning loop cost detectNames about 17 % of its CPU. Classes and types may still be
// imported by name.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const DIR = new URL('.', import.meta.url);

/** `import { a, b } from './x.ts'`, either quote style. */
const NAMED_IMPORT = /^import \{([^}]*)\} from (["'])(\.\.?\/[^"']+)\2;$/gm;

/**
 * The names a file's imports of other detect/ modules bind that are neither types nor classes
 * (capitalised, then lower case). `file` is the importing file's URL.
 */
function refused(text: string, file = new URL('names/x.ts', DIR)): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NAMED_IMPORT)) {
    if (!new URL(m[3]!, file).href.startsWith(DIR.href)) continue; // another module: its own rules
    for (const name of m[1]!.split(',').map((s) => s.trim()))
      if (name && !name.startsWith('type ') && !/^[A-Z][a-z]/.test(name)) out.push(name);
  }
  return out;
}

test("no detect/ module imports a sibling's functions or constants by name", () => {
  const files = (readdirSync(DIR, { recursive: true }) as string[]).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('eval'),
  );
  assert.ok(files.length > 40, `the walk reads detect/'s folders (${files.length} files)`);
  const offenders: string[] = [];
  for (const file of files)
    for (const name of refused(readFileSync(new URL(file, DIR), 'utf8'), new URL(file, DIR)))
      offenders.push(`${file}: ${name}`);
  assert.deepEqual(offenders, []);
});

test('the check reads the imports it is meant to refuse', () => {
  assert.deepEqual(refused("import { isAsciiDigit, SPACE, type Finding, AsciiSet } from '../text/chars.ts';"), [
    'isAsciiDigit',
    'SPACE',
  ]);
  assert.deepEqual(refused('import { isAsciiDigit, TextContext } from "./chars.ts";'), ['isAsciiDigit']);
  assert.deepEqual(refused("import { readFileSync } from 'node:fs';"), []);
  assert.deepEqual(refused("import { checksum } from '../../core/index.ts';"), []);
});
