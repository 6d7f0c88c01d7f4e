import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';
import { countryRegionsBefore, cueRegionsBefore } from './phone-regions.ts';

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

  it("a label's language says where a national number is dialled (tlf. Norway/Denmark, Tél. France…)", () => {
    assert.deepEqual(phones('tlf 22 33 44 55'), ['22 33 44 55']);
    assert.deepEqual(cueRegionsBefore('Tlf.: ', 6), ['NO', 'DK']);
    assert.deepEqual(cueRegionsBefore('Téléphone : ', 12), ['FR', 'BE', 'CH', 'LU']);
    assert.deepEqual(cueRegionsBefore('Order: ', 7), []);
  });

  it('European national forms: dotted pairs after a label, the trunk digit after the country code, short local numbers', () => {
    assert.deepEqual(phones('Tél. 06.12.34.56.78'), ['06.12.34.56.78']);
    assert.deepEqual(phones('Tel: +41 (0)71 234 56 78'), ['+41 (0)71 234 56 78']);
    assert.deepEqual(phones('Tel. 23 45 67 (Durchwahl)'), ['23 45 67']);
    // without a label: a version, a date, six digits are no phone
    assert.deepEqual(phones('version 1.2.3.4.5'), []);
    assert.deepEqual(phones('06.12.34.56.78'), []);
    assert.deepEqual(phones('le 06.12.24 à 10.30'), []);
    assert.deepEqual(phones('Rufnummer: 06.12.34'), []);
    assert.deepEqual(phones('build 12 34 56'), []);
  });
});
