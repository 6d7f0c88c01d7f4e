import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';

const of = (type: string, text: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));
const phones = (text: string) => of('PHONE_NUMBER', text);

// The sentences with a word in them are from UNER's Danish, Croatian and Swedish treebanks, where the
// detectors read these numbers as phone numbers before short cues had to start a word.
describe('short phone cues count at the start of a word only (numbers/cues.ts)', () => {
  it('a cue inside another word is no cue', () => {
    assert.deepEqual(phones('Spørgsmålet er, hvor meget Pio-episoden 1871-77 fortjener opmærksomhed.'), []);
    assert.deepEqual(phones('Kao ravnateljica za životni okoliš u razdoblju 2000 - 2004, vodila je pripreme.'), []);
    assert.deepEqual(phones('En nyhet är att det obligatoriska uppehållet kl 11.00 - 13.00 är slopat.'), []);
    assert.deepEqual(phones('The hotel booking 1871-77 was cancelled.'), []);
  });

  it('the same cues at a word start still count', () => {
    assert.deepEqual(phones('Tel: 63-06-75'), ['63-06-75']);
    assert.deepEqual(phones('GSM 0470 12 34 56'), ['0470 12 34 56']);
    assert.deepEqual(phones('Ligue para 221-2155.'), ['221-2155']);
    assert.deepEqual(phones('Mobiltelefon: 0171 2345678'), ['0171 2345678']);
    assert.deepEqual(phones('{"home_tel": "23 45 67 89"}'), ['23 45 67 89']);
    assert.deepEqual(phones('Hotel in Suva, reception 701 2883'), ['701 2883']);
  });

  it('"number" in another language names a phone unless it names another identifier', () => {
    assert.deepEqual(phones('Mon numéro: 06 12 34 56 78'), ['06 12 34 56 78']);
    assert.deepEqual(phones('Sozialversicherungsnummer 12 345678 A 123'), []);
    assert.deepEqual(phones('Bestellnummer: 4711 0815'), []);
  });
});

describe('ranges, amounts and SSNs are no phone numbers (numbers/phone.ts, rules.ts)', () => {
  it('a range of two numbers of one length, an amount, a year with a spaced dash', () => {
    assert.deepEqual(phones('Compensation: $60000 - 70000'), []);
    assert.deepEqual(phones('Surface Dressing Contract 2012 - 11/3976'), []);
    assert.deepEqual(phones('2017 - 01 - 25 01 : 00 : 11 . 530490'), []);
    // UNER Portuguese Bosque: "CEP" is the Brazilian postal code (and the Turkish word for a mobile)
    assert.deepEqual(phones('São Paulo (SP), CEP 01202-001, a.c. Junia'), []);
    assert.deepEqual(phones('Cep no: 05321234567'), ['05321234567']);
  });

  it('an SSN its context names is one with mixed or slashed separators, and only there', () => {
    assert.deepEqual(of('US_SSN', 'SSN: 710-31 0236'), ['710-31 0236']);
    assert.deepEqual(of('US_SSN', 'SSN: 710/31/0236'), ['710/31/0236']);
    assert.deepEqual(of('US_SSN', 'build 710-31 0236 ok'), []);
  });

  it('the groups of an SSN after a word for one are no phone number, even when no SSN check accepts them', () => {
    assert.deepEqual(phones('my ssn is 666-12-3456'), []);
    assert.deepEqual(phones('SSN: 900-12-3456'), []);
    assert.deepEqual(of('US_SSN', 'SSN: 710-31-0236'), ['710-31-0236']);
    assert.deepEqual(phones('call 555-12-3456'), ['555-12-3456']);
  });
});

describe('four dotted pairs after a phone label are a phone number, not an IP address (pii/index.ts)', () => {
  it('"Tlf. 32.12.34.56" is a Danish number; the same digits elsewhere stay an address', () => {
    assert.deepEqual(phones('Tlf. 32.12.34.56'), ['32.12.34.56']);
    assert.deepEqual(phones('Tel: 21.23.45.67'), ['21.23.45.67']);
    assert.deepEqual(of('IP_ADDRESS', 'Tlf. 32.12.34.56'), []);
    assert.deepEqual(of('IP_ADDRESS', 'host 21.23.45.67 is down'), ['21.23.45.67']);
    assert.deepEqual(of('IP_ADDRESS', 'Server at 10.0.0.1, tel 21.23.45.67'), ['10.0.0.1']);
  });
});
