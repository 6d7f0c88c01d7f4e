import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuzzTexts } from '../../scripts/detect/fuzz-text.ts';
import { scan } from './index.ts';

const found = (text: string, type: string) =>
  scan(text)
    .findings.filter((f) => f.type === type)
    .map((f) => text.slice(f.start, f.end));

describe('recall where the development set showed it weak (issue #13)', () => {
  it('phones: a one-digit prefix after the country code, an unformatted number after a cue, cues in other languages', () => {
    assert.deepEqual(found('Bel me op +31 6 12345678.', 'PHONE_NUMBER'), ['+31 6 12345678']);
    assert.deepEqual(found('Call me on 71239376 after six.', 'PHONE_NUMBER'), ['71239376']);
    assert.deepEqual(found('Llámame al 612 34 56 78 mañana.', 'PHONE_NUMBER'), ['612 34 56 78']);
    // a one-digit group after a country code that does not make a valid number stays out
    assert.deepEqual(found('ref +44 9 1234567', 'PHONE_NUMBER'), []);
  });

  it('US SSNs in the spellings people use', () => {
    for (const t of ['soc. sec. # 536227351', 'my social is 536 22 7351', 'SSN: 536.22.7351', 'ss no 536227351'])
      assert.equal(found(t, 'US_SSN').length, 1, t);
    assert.deepEqual(found('order 536227351 shipped', 'US_SSN'), []);
  });

  it('generic secrets in more assignment shapes, and none for references', () => {
    const v = 'Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB';
    for (const t of [
      `os.environ["DB_PASSWORD"] = "${v}"`,
      `<add key="client_secret" value="${v}" />`,
      `set SMTP_PASSWORD ${v}`,
      `mysqldump --password ${v} shop`,
      `db_pass=${v}`,
    ]) {
      assert.deepEqual(found(t, 'GENERIC_SECRET'), [v], t);
    }
    assert.deepEqual(found('os.environ["DB_PASSWORD"] = os.getenv("X")', 'GENERIC_SECRET'), []);
    assert.deepEqual(
      found('{"secretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz"}', 'AWS_SECRET_KEY').length,
      1,
    );
  });

  it("streets after 'at' or a comma, towns after a postcode, and place cues that stop at the place", () => {
    assert.deepEqual(found('Our new office is at 759 Giri Divide. Ask for Sam.', 'STREET_ADDRESS'), [
      '759 Giri Divide',
    ]);
    assert.deepEqual(found('Stuur het pakket naar Jan de Vries, Kerkstraat 12, 1017 GC Amsterdam.', 'STREET_ADDRESS'), [
      'Kerkstraat 12',
    ]);
    assert.deepEqual(found('She moved to Mauritius last year.', 'LOCATION'), ['Mauritius']);
    assert.deepEqual(found('{"address": "Erlenweg 606, 5510 Graz"}', 'LOCATION'), ['Graz']);
    // times and years are not streets
    assert.deepEqual(found('See you at 5 PM, 2024 Annual Report attached.', 'STREET_ADDRESS'), []);
  });

  it('a name on the line after a signature delimiter or a closing line; a title alone is not a person', () => {
    assert.deepEqual(found('Thanks for the call.\n--\nMareike Kaul\nSenior Account Manager', 'PERSON'), [
      'Mareike Kaul',
    ]);
    // without the delimiter the named-entity model still reads a name there (redaction errs on the side of hiding)
    assert.deepEqual(found('Thanks for the call.\nMareike Kaul\nSenior Account Manager', 'PERSON'), ['Mareike Kaul']);
    assert.deepEqual(found('{"holder": "Mevr. Stella Maas"}', 'PERSON'), ['Stella Maas']);
  });

  it('scan() is a function of its text: the same findings on a second call (the phone memo no longer changes them)', () => {
    for (const t of fuzzTexts(1, 300)) assert.deepEqual(scan(t), scan(t));
  });
});
