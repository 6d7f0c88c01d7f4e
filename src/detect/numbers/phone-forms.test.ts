import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scan } from '../index.ts';

const phones = (text: string) =>
  scan(text)
    .findings.filter((f) => f.type === 'PHONE_NUMBER')
    .map((f) => text.slice(f.start, f.end));

describe('phone numbers in the national forms people write (numbers/phone.ts)', () => {
  it('pairs after a phone label that have the lengths of a date but no day and month are a short local number', () => {
    assert.deepEqual(phones('Tel: 63-06-75'), ['63-06-75']);
    assert.deepEqual(phones('Tél. 75.21.52'), ['75.21.52']);
    assert.deepEqual(phones('Telefon: 26-30-65'), ['26-30-65']);
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
