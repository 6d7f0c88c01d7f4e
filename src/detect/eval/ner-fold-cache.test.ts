import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { N_TAGS, TABLE_BITS } from '../models/ner-features.ts';
import { cachedFold, foldFile } from './ner-fold-cache.ts';

describe('held-out models kept between runs (ner-fold-cache.ts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ner-fold-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a fold is named by its training sources, not their order', () => {
    assert.equal(foldFile(dir, ['btc', 'wnut17']), foldFile(dir, ['wnut17', 'btc']));
    assert.notEqual(foldFile(dir, ['btc', 'wnut17']), foldFile(dir, ['btc']));
  });

  it('trains once; the second run reads the same weights', () => {
    const w = new Int16Array((1 << TABLE_BITS) * N_TAGS);
    w[7] = 1234;
    w[w.length - 1] = -42;
    let trained = 0;
    const train = () => (trained++, w);
    assert.deepEqual(cachedFold(dir, ['btc'], train), w);
    const again = cachedFold(dir, ['btc'], train);
    assert.equal(trained, 1);
    assert.deepEqual(again, w);
  });
});
