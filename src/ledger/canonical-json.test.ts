// canonicalJson must write exactly the RFC 8785 text the `canonicalize`
// package writes for every plain JSON value (leaves already in the log were
// written by it), and decline everything that is not plain JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson } from './canonical-json.ts';
import { encodeLeaf } from './leaf.ts';

const anyText = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => s.isWellFormed());
// JSON values with keys and strings of any Unicode (key order by UTF-16 units, escapes), and any finite double.
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    anyText,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(anyText, tie('value'), { maxKeys: 6 }),
  ),
})).value;

test('the same text as the canonicalize package for any JSON value', () => {
  fc.assert(
    fc.property(json, (v) => {
      assert.equal(canonicalJson(v), canonicalize(v));
    }),
    { numRuns: 3000 },
  );
});

test('strings and keys made of what JSON escapes (quotes, backslashes, controls) and of surrogates, paired or lone', () => {
  const unit = fc.constantFrom(
    '"',
    '\\',
    '\u0000',
    '\u001f',
    '\n',
    '\u007f',
    '\u2028',
    'a',
    '\u00e9',
    '\ud83d\ude00',
    '\ud800',
    '\udc00',
  );
  const text = fc.string({ unit, maxLength: 8 });
  fc.assert(
    fc.property(text, text, (key, value) => {
      const v = { [key]: value, k: [value] };
      assert.equal(canonicalJson(v), key.isWellFormed() && value.isWellFormed() ? canonicalize(v) : undefined);
    }),
    { numRuns: 3000 },
  );
});

test('RFC 8785 examples: key order by UTF-16 code units, numbers as ECMAScript writes them, escapes', () => {
  // RFC 8785 §3.2.3's sorting example (keys of \u20ac, \r, \ufb33, 1, \ud83d\ude00, \u0080, \u00f6).
  const sorted = {
    '\u20ac': 'Euro Sign',
    '\r': 'Carriage Return',
    '\ufb33': 'Hebrew Letter Dalet With Dagesh',
    '1': 'One',
    '\ud83d\ude00': 'Emoji: Grinning Face',
    '\u0080': 'Control',
    '\u00f6': 'Latin Small Letter O With Diaeresis',
  };
  assert.equal(
    canonicalJson(sorted),
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  );
  assert.equal(
    canonicalJson([1e21, 1e-7, -0, 0.000001, Number('333333333.33333329'), 4.5, 2e-3]),
    '[1e+21,1e-7,0,0.000001,333333333.3333333,4.5,0.002]',
  );
  assert.equal(
    canonicalJson({ b: [true, false, null], a: '\u2028"\\\n\u001f' }),
    '{"a":"\u2028\\"\\\\\\n\\u001f","b":[true,false,null]}',
  );
});

test('declines what is not plain JSON, at any depth', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { again: cyclic };
  // eslint-disable-next-line no-sparse-arrays
  const holey = [1, , 3];
  for (const bad of [
    { a: undefined },
    { a: Number.NaN },
    { a: Number.POSITIVE_INFINITY },
    { a: '\ud800' },
    { ['\udc00']: 1 },
    { a: new Date(0) },
    { a: [1, 2n] },
    { a: () => 1 },
    { a: holey },
    { a: Object.assign(Object.create({ inherited: 1 }), { own: 1 }) },
    { a: { [Symbol('s')]: 1 } },
    cyclic,
    undefined,
  ]) {
    assert.equal(canonicalJson(bad), undefined, String(bad && Object.keys(bad)));
  }
  // A prototype-less object is plain.
  const bare = Object.assign(Object.create(null), { z: 1, a: 2 });
  assert.equal(canonicalJson(bare), '{"a":2,"z":1}');
});

test('nesting past its depth is declined here and written by encodeLeaf all the same', () => {
  let deep: unknown = 'bottom';
  for (let i = 0; i < 300; i++) deep = i % 2 ? [deep] : { k: deep };
  assert.equal(canonicalJson({ a: deep }), undefined);
  assert.equal(encodeLeaf({ a: deep }), canonicalize({ a: deep }));
});
