import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));

describe('numbers whose groups a word processor joined with typographic dashes', () => {
  it("en dash, figure dash, non-breaking hyphen and minus sign read as '-'", () => {
    assert.deepEqual(found('SSN: 536\u201322\u20137351', 'US_SSN'), ['536\u201322\u20137351']);
    assert.deepEqual(found('my social security number is 536\u201222\u20127351', 'US_SSN'), ['536\u201222\u20127351']);
    assert.deepEqual(found('card 4111\u20111111\u20111111\u20111111', 'CREDIT_CARD'), [
      '4111\u20111111\u20111111\u20111111',
    ]);
    assert.deepEqual(found('call 555\u2212123\u22124567 today', 'PHONE_NUMBER'), ['555\u2212123\u22124567']);
  });

  it('a dash between a year and a count is still no SSN', () => {
    assert.deepEqual(found('pages 2019\u20132024 of volume 12', 'US_SSN'), []);
  });
});
