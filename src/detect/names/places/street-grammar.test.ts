import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../../index.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));

describe('streets by their grammar (names/places/street-grammar.ts)', () => {
  it('a house number beside a street type, before or after the name, in many languages', () => {
    assert.deepEqual(found('We moved to 4224 Pelham Hollow in May.', 'STREET_ADDRESS'), ['4224 Pelham Hollow']);
    assert.deepEqual(found('Envoyez-le au 6 Impasse de la Gare.', 'STREET_ADDRESS'), ['6 Impasse de la Gare']);
    assert.deepEqual(found('Adresimiz: Bağdat Caddesi 39, Kadıköy.', 'STREET_ADDRESS'), ['Bağdat Caddesi 39']);
    assert.deepEqual(found('Адрес доставки: улица Садовая, 12', 'STREET_ADDRESS'), ['улица Садовая, 12']);
    assert.deepEqual(found('Mūsu birojs: Brīvības iela 88.', 'STREET_ADDRESS'), ['Brīvības iela 88']);
    assert.deepEqual(found('Vivo en Travesía Olmos s/n, Burgos.', 'STREET_ADDRESS'), ['Travesía Olmos s/n']);
    assert.deepEqual(found('请寄到长宁路1187号。', 'STREET_ADDRESS'), ['长宁路1187号']);
  });

  it('a number-bearing line before a postcode and town, and the town after the postcode', () => {
    assert.deepEqual(found('Jan Novák\nKřižíkova 14\n186 00 Praha', 'STREET_ADDRESS'), ['Křižíkova 14']);
    assert.deepEqual(found('{"addr": "Rūpniecības iela 7, LV-1010 Rīga"}', 'LOCATION'), ['Rīga']);
    assert.deepEqual(found('Ship it to 12 Harbour Road, D02 X285 Dublin.', 'LOCATION'), ['Dublin']);
  });

  it('not counts, versions, years or ranks', () => {
    for (const t of [
      'We found 3 Data Points worth a look.',
      'Sie landete auf Platz 3.',
      'Take Route 66 west.',
      'Upgrade to Windows 10 Pro today.',
      'Version 2 Release Notes',
    ]) {
      assert.deepEqual(found(t, 'STREET_ADDRESS'), [], t);
    }
  });
});
