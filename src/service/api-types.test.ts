import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { API_TYPE_FILES, apiTypes } from '../../scripts/api-types.ts';
import { currentOpenApi, repoRoot } from './openapi-doc.ts';

// The client's and the console's API types are generated from /openapi.json
// and committed: they must be what the service's document generates now.

/** The first line where the committed file and the generated types differ. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return `line ${i + 1}: committed ${JSON.stringify(a[i] ?? '(end of file)')}, generated ${JSON.stringify(b[i] ?? '(end of file)')}`;
  }
  return '';
}

describe('generated API types', () => {
  let generated = '';
  before(async () => {
    generated = await apiTypes(await currentOpenApi());
  });

  for (const [name, { path, command }] of Object.entries(API_TYPE_FILES)) {
    test(`the ${name}'s ${path} is up to date with the service's /openapi.json`, () => {
      const committed = readFileSync(join(repoRoot, path), 'utf8');
      const diff = firstDifference(committed, generated);
      assert.ok(
        diff === '',
        `${path} is out of date with /openapi.json (${diff}): run \`${command}\` and commit the result`,
      );
    });
  }
});
