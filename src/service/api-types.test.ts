import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { API_TYPES, apiTypes } from '../../scripts/api-types.ts';
import { currentOpenApi, repoRoot } from './openapi-doc.ts';

// The API types the client and the console share are generated from
// /openapi.json and committed: they must be what the service's document
// generates now.

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

  test(`${API_TYPES.path} is up to date with the service's /openapi.json`, () => {
    const { path, command } = API_TYPES;
    const committed = readFileSync(join(repoRoot, path), 'utf8');
    const diff = firstDifference(committed, generated);
    assert.ok(
      diff === '',
      `${path} is out of date with /openapi.json (${diff}): run \`${command}\` and commit the result`,
    );
  });

  test("the console has no copy of its own: it imports the client package's", () => {
    const client = readFileSync(join(repoRoot, 'console', 'src', 'api', 'client.ts'), 'utf8');
    assert.match(client, /from '@agent-ledger\/client\/schema'/);
  });
});
