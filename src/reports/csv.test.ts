// The CSV formula guard as properties: whichever separator a spreadsheet
// splits at (RFC 4180 commas, or the semicolons, tabs and pipes of other
// locales, always at line breaks), no cell it sees starts a formula; and an
// RFC 4180 reader gets every value back, changed only by the ' that
// neutralizes a formula start.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { csvField, neutralizeFormulas } from './csv.ts';

const LEADS = /^[=+\-@\t\r]/;
const SEPARATORS = [',', ';', '|', '\t'];

/** The cells a reader that splits at `sep` (and line breaks), ignoring quotes, sees; leading spaces and double quotes dropped. */
function naiveCells(line: string, sep: string): string[] {
  return line
    .split(/\r\n|\r|\n/)
    .flatMap((l) => l.split(sep))
    .map((c) => c.replace(/^[ "]*/, ''));
}

/** RFC 4180: one field back from its encoding. */
function parseField(f: string): string {
  if (!f.startsWith('"')) return f;
  assert.ok(f.endsWith('"') && f.length >= 2, f);
  const inner = f.slice(1, -1);
  assert.equal(/(^|[^"])"("")*($|[^"])/.test(inner.replace(/""/g, '')), false, `a lone quote in ${f}`);
  return inner.replace(/""/g, '"');
}

// Strings made mostly of the characters that matter, so the interesting cases are frequent.
const risky = fc.string({
  unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '|', ' ', '"', "'", 'x', '1', 'é', 'A'),
  maxLength: 40,
});
const anyText = fc.oneof(risky, fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));

test('no reader, whatever separator it splits at, sees a cell that starts a formula', () => {
  fc.assert(
    fc.property(fc.array(anyText, { minLength: 1, maxLength: 4 }), (values) => {
      const line = values.map(csvField).join(',');
      for (const sep of SEPARATORS)
        for (const cell of naiveCells(line, sep))
          assert.equal(LEADS.test(cell), false, `${sep}: ${JSON.stringify(cell)}`);
    }),
    { numRuns: 3000 },
  );
});

test('an RFC 4180 reader gets the value back, with a neutralizing quote only where a formula could start', () => {
  fc.assert(
    fc.property(anyText, (v) => {
      const back = parseField(csvField(v));
      assert.equal(back, neutralizeFormulas(v));
      assert.equal(back.replace(/'/g, '').length, v.replace(/'/g, '').length, 'only quotes are added');
      // Text with no formula start anywhere comes back unchanged.
      if (!/(^|[,;|\t\r\n])[ "]*[=+\-@\t\r]/.test(v)) assert.equal(back, v);
    }),
    { numRuns: 3000 },
  );
});

test('the separators of every locale: the cases that slipped through before', () => {
  assert.equal(csvField(`x;=cmd|' /C calc'!A0`), `"x;'=cmd|' /C calc'!A0"`);
  assert.equal(csvField('a|@SUM(1+1)'), `"a|'@SUM(1+1)"`);
  assert.equal(csvField('a\t-1'), `"a\t'-1"`);
  assert.equal(csvField('a; "=1"'), `"a; ""'=1"""`);
  assert.equal(csvField('line\n+1'), `"line\n'+1"`);
  assert.equal(csvField('=1'), `'=1`);
  // Ordinary values are left alone: dates, ids, hyphenated names, negative numbers.
  assert.equal(csvField('2026-04-02T09:00:00.000Z'), '2026-04-02T09:00:00.000Z');
  assert.equal(csvField('pay-bot'), 'pay-bot');
  assert.equal(csvField(-3), '-3');
  assert.equal(csvField(null), '');
});

test('linear time on 32,000-character values', () => {
  for (const v of [' '.repeat(32_000) + '=', ' -'.repeat(16_000), ';'.repeat(32_000), '"'.repeat(31_999) + '@']) {
    const started = performance.now();
    const out = csvField(v);
    assert.ok(performance.now() - started < 200, `${v.slice(0, 4)}…: ${performance.now() - started} ms`);
    assert.ok(out.length >= v.length);
  }
});
