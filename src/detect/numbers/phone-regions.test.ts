import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';
import { countryRegionsBefore } from './phone-regions.ts';

const phones = (text: string) =>
  scan(text)
    .findings.filter((f) => f.type === 'PHONE_NUMBER')
    .map((f) => text.slice(f.start, f.end));

describe('national phone numbers dialled where the text says (numbers/phone-regions.ts)', () => {
  it('a country named before a number without a country code is tried as its region', () => {
    assert.deepEqual(phones('Our Malawi office: 0991 23 76 22'), ['0991 23 76 22']);
    assert.deepEqual(phones('Our Bahrain office: 3600 2677'), ['3600 2677']);
    assert.deepEqual(phones('{"country": "Dänemark", "phone": "34 41 47 18"}'), ['34 41 47 18']);
  });

  it('no country before it, or a number its country does not have: no phone', () => {
    assert.deepEqual(phones('Our office: 3600 2677'), []);
    assert.deepEqual(phones('Our Bahrain office: 0000 0000'), []);
  });

  it('country names in the languages read, nearest first, at most two', () => {
    assert.deepEqual(countryRegionsBefore('Wir sind in Österreich, nicht in der Schweiz: 0664 1234567', 45), [
      'CH',
      'AT',
    ]);
    assert.deepEqual(countryRegionsBefore('Bureau des États-Unis : ', 24), ['US']);
  });
});
