// detect/ modules bind what they import from each other once (README.md, "Imports"): a named value
// import read in a scanning loop cost detectNames about 17 % of its CPU. Classes and types may still be
// imported by name.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const DIR = new URL('.', import.meta.url);

test("no detect/ module imports a sibling's functions or constants by name", () => {
  const offenders: string[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    for (const m of readFileSync(new URL(file, DIR), 'utf8').matchAll(/^import \{([^}]*)\} from "\.\/[^"]+";$/gm)) {
      const names = m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type '));
      for (const name of names) if (!/^[A-Z][a-z]/.test(name)) offenders.push(`${file}: ${name}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the check reads the imports it is meant to refuse', () => {
  const line = 'import { isAsciiDigit, SPACE, type Finding, AsciiSet } from "./chars.ts";';
  const m = /^import \{([^}]*)\} from "\.\/[^"]+";$/m.exec(line)!;
  const refused = m[1]!
    .split(',')
    .map((s) => s.trim())
    .filter((s) => !s.startsWith('type ') && !/^[A-Z][a-z]/.test(s));
  assert.deepEqual(refused, ['isAsciiDigit', 'SPACE']);
});
