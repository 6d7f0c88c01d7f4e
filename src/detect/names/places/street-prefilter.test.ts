import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EN_STREET_AT, NUM_PREFIX_STREET_AT, streetMayFollow } from './address-rules.ts';

// streetMayFollow lets locations.ts skip a number without running the street regexes: it may say false only
// where the regex cannot match.
const PARTS = [
  '1',
  '23',
  '1234567',
  ' ',
  '  ',
  '\t',
  '\n',
  'Main',
  'main',
  'Street',
  'St.',
  'rue',
  'Via',
  'A',
  'b',
  "O'",
  '-',
  '.',
  ',',
  'ſ',
  'é',
  '’',
  '12A',
];

function matchesAt(re: RegExp, text: string, p: number): boolean {
  re.lastIndex = p;
  return re.exec(text) !== null;
}

describe('streetMayFollow', () => {
  it('says false only where EN_STREET and NUM_PREFIX_STREET do not match', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        for (let p = 0; p < text.length; p++) {
          if (!/[0-9]/.test(text[p]!)) continue;
          if (!streetMayFollow(text, p, false)) assert.ok(!matchesAt(EN_STREET_AT, text, p), `EN at ${p}: ${text}`);
          if (!streetMayFollow(text, p, true))
            assert.ok(!matchesAt(NUM_PREFIX_STREET_AT, text, p), `prefix at ${p}: ${text}`);
        }
      }),
      { numRuns: 3000 },
    );
  });
  it('skips the numbers of "12 Main 12 Main" and keeps real streets', () => {
    assert.equal(streetMayFollow('12 Main 12 Main', 0, false), false);
    assert.equal(streetMayFollow('12 Main 12 Main', 0, true), false);
    assert.equal(streetMayFollow('12 Main Street', 0, false), true);
    assert.equal(streetMayFollow('12 rue de la Paix', 0, true), true);
    assert.ok(matchesAt(EN_STREET_AT, '12 Main Street', 0));
  });
});
