import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';
import { cueRegionsBefore, scriptRegionsNear } from './phone-regions.ts';

const phones = (text: string) =>
  scan(text)
    .findings.filter((f) => f.type === 'PHONE_NUMBER')
    .map((f) => text.slice(f.start, f.end));

describe('phone numbers in the national forms people write (numbers/phone.ts)', () => {
  it('digits of other scripts are read as the same number, at the same offsets (text/digits.ts)', () => {
    assert.deepEqual(phones('اتصل على +١ ٦٥٠ ٧٠١ ٨٨٨٧ اليوم'), ['+١ ٦٥٠ ٧٠١ ٨٨٨٧']);
    assert.deepEqual(phones('Tel: ۰۹۱۲ ۳۴۵ ۶۷۸۹'), ['۰۹۱۲ ۳۴۵ ۶۷۸۹']);
    assert.deepEqual(phones('फ़ोन: +९१ ९८७६५ ४३२१०'), ['+९१ ९८७६५ ४३२१०']);
    assert.deepEqual(phones('电话 ＋８６ １３８ ００１３ ８０００'), ['＋８６ １３８ ００１３ ８０００']);
    const card = scan('card ４１１１ １１１１ １１１１ １１１１').findings.find((f) => f.type === 'CREDIT_CARD');
    assert.ok(card, 'a full-width card number is a card');
    // the same text in ASCII digits finds the same
    assert.deepEqual(phones('اتصل على +1 650 701 8887 اليوم'), ['+1 650 701 8887']);
  });

  it('pairs after a phone label that have the lengths of a date but no day and month are a short local number', () => {
    assert.deepEqual(phones('Tel: 63-06-75'), ['63-06-75']);
    assert.deepEqual(phones('Tél. 75.21.52'), ['75.21.52']);
    assert.deepEqual(phones('Telefon: 26-30-65'), ['26-30-65']);
  });

  it('"ph." and "ph:" label a phone number; "Ph.D." does not', () => {
    assert.deepEqual(phones('ph. 566 8083'), ['566 8083']);
    assert.deepEqual(phones('Ph: 26 23 76'), ['26 23 76']);
    assert.deepEqual(phones('She has a Ph.D. from 1998 and 23 45 67 patents'), []);
    assert.deepEqual(phones('Ph.D. thesis 2019, student 4512 8891'), []);
  });

  it('four pairs with one separator are no date, even when the first three could be one', () => {
    assert.deepEqual(phones('Tel: 70.12.23.09'), ['70.12.23.09']);
    assert.deepEqual(phones('Tel: 06-03-60-34'), ['06-03-60-34']);
  });

  it('a date stays a date, with or without a label before it', () => {
    assert.deepEqual(phones('Rufnummer: 06.12.34'), []);
    assert.deepEqual(phones('Call on 12.06.24 about the order'), []);
    assert.deepEqual(phones('Tel: 2024-01-15'), []);
    assert.deepEqual(phones('le 06.12.24 à 10.30'), []);
    // dotted pairs with no label stay unread (versions, timestamps)
    assert.deepEqual(phones('build 63.06.75.12'), []);
  });
});

describe('the international call prefix 00 (numbers/phone.ts)', () => {
  it('after a phone cue, one run of digits starting 00 and a country code is an international number', () => {
    assert.deepEqual(phones('My phone number is 004917612345678.'), ['004917612345678']);
    assert.deepEqual(phones('Ligue para 00351912345678'), ['00351912345678']);
    // without a cue, a run of digits with leading zeros is an id, not a number dialled abroad
    assert.deepEqual(phones('Order 004917612345678 shipped'), []);
  });

  it('00 and the country code in parentheses, as the "+" form writes them', () => {
    assert.deepEqual(phones('Tel: (0045) 12 34 56 78'), ['(0045) 12 34 56 78']);
  });
});

describe('phone words of more languages (numbers/phone-rules.ts)', () => {
  it('Hindi: a number after "फोन नंबर" is a phone; Portuguese "conta número" is an account', () => {
    assert.deepEqual(phones('मेरा फोन नंबर 9834257234 है.'), ['9834257234']);
    assert.deepEqual(phones('conta número: 12345678'), []);
    assert.deepEqual(phones('número de contato: 12345678'), ['12345678']);
  });
});

describe('candidate regions from the language of the text (numbers/phone-regions.ts)', () => {
  it('a number written against the words of a script without spaces is no part of a word', () => {
    assert.deepEqual(phones('请明天拨打131 2345 4797联系我。'), ['131 2345 4797']);
    assert.deepEqual(phones('電話番号は090-1234-4643です。'), ['090-1234-4643']);
    assert.deepEqual(phones('내일 010-2000-9812로 전화 주세요.'), ['010-2000-9812']);
  });

  it('the script of the words around a national number says where it is dialled', () => {
    assert.deepEqual(phones('Καλέστε με στο 691 234 1435 το απόγευμα.'), ['691 234 1435']);
    assert.deepEqual(scriptRegionsNear('Καλέστε με στο 691', 15, 18), ['GR', 'CY']);
    assert.deepEqual(scriptRegionsNear('明日090-1234-0396に', 2, 15), ['CN', 'TW', 'HK', 'JP']);
    assert.deepEqual(scriptRegionsNear('Call 691 234 1435 now', 5, 17), []);
    // the same digits in English prose with no phone word: no region, no phone
    assert.deepEqual(phones('Reference 691 234 1435 in the ledger.'), []);
  });

  it('phone words of more languages are cues and name their regions', () => {
    assert.deepEqual(phones('Nazovite me na broj 092 123 7251.'), ['092 123 7251']);
    assert.deepEqual(phones('Ligue-me para o (11) 96123-1371 amanhã.'), ['(11) 96123-1371']);
    assert.deepEqual(cueRegionsBefore('Proszę dzwonić pod numer ', 25), ['PL']);
    // a word that only begins like one is none ("numerous", "numeric")
    assert.deepEqual(cueRegionsBefore('numerous ', 9), []);
  });
});

describe('phone cues are words, not pieces of words', () => {
  it('"ring" inside "bring", "during" or "rings" is no phone cue; "ring me" is', () => {
    // from public annotated text (datasets/detect/ner): a plane's model, a range of years, a date range
    assert.deepEqual(phones('shoulder fired missile to bring down a 777 - 200 at that altitude .'), []);
    assert.deepEqual(phones('The Lord of the Rings (1954 – 55).'), []);
    assert.deepEqual(phones('price during 13 December, 1998-30 June 2001'), []);
    assert.deepEqual(phones('Ring mig på 070-123 45 67 i morgon.'), ['070-123 45 67']);
    assert.deepEqual(phones('ring me on 2345 678'), ['2345 678']);
  });
});
