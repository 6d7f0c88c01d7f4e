import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { commitment, encodeLeaf, LeafEncodingError, leafHashOf, newSalt, SALT_SIZE } from './leaf.ts';

describe('leaf: RFC 8785 canonical JSON', () => {
  it('canonicalizes the §3.2.2 sample to the §3.2.4 bytes', () => {
    // The sample as JSON.parse reads it, escapes and all.
    const sample = JSON.parse(
      String.raw`{
        "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
        "literals": [null, true, false]
      }`,
    );
    const bytes = `7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72
      75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a
      5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31
      65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37
      5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30
      30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d`.split(/\s+/);
    assert.equal(Buffer.from(encodeLeaf(sample), 'utf8').toString('hex'), bytes.join(''));
    assert.equal(
      encodeLeaf(sample),
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('sorts keys by UTF-16 code units (§3.2.3 example)', () => {
    const entry = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const order = ['\\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    const keys = [...encodeLeaf(entry).matchAll(/"([^"]*)":/g)].map((m) => m[1]);
    assert.deepEqual(keys, order);
    // Nested objects are sorted too; arrays keep their order.
    assert.equal(
      encodeLeaf({ b: [{ z: 1, a: 2 }, 0], a: { d: null, c: true } }),
      '{"a":{"c":true,"d":null},"b":[{"a":2,"z":1},0]}',
    );
  });

  it('writes numbers the ECMAScript way (Appendix B samples)', () => {
    const samples: Array<[string, string]> = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [ieee, text] of samples) {
      const n = Buffer.from(ieee, 'hex').readDoubleBE(0);
      assert.equal(encodeLeaf({ n }), `{"n":${text}}`, ieee);
    }
  });

  it('escapes only what JSON must, in lowercase hex, and keeps other characters as UTF-8', () => {
    assert.equal(
      encodeLeaf({ s: '\u0000\u0008\t\n\u000b\f\r\u001f "\\/\u007f\u2028' }),
      '{"s":"\\u0000\\b\\t\\n\\u000b\\f\\r\\u001f \\"\\\\/\u007f\u2028"}',
    );
    assert.equal(encodeLeaf({ s: 'é😀<>&' }), '{"s":"é😀<>&"}');
  });

  it('is independent of key insertion order and round-trips through JSON.parse', () => {
    const json = fc.jsonValue({ maxDepth: 2, noUnicodeString: false });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), (entry) => {
        const leaf = encodeLeaf(entry);
        const reversed = Object.fromEntries(Object.entries(entry).reverse());
        assert.equal(encodeLeaf(reversed), leaf);
        assert.equal(encodeLeaf(JSON.parse(leaf)), leaf);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses values JSON cannot carry faithfully, naming where they are', () => {
    const cases: Array<[string, unknown]> = [
      ['/n', { n: Number.NaN }],
      ['/n', { n: Number.POSITIVE_INFINITY }],
      ['/a/1', { a: [1, Number.NEGATIVE_INFINITY] }],
      ['/u', { u: undefined }],
      ['/a/0', { a: [undefined] }],
      ['/a/1', { a: Object.assign([1], { 2: 3 }) }], // [1, <hole>, 3]
      ['/f', { f: () => 1 }],
      ['/b', { b: 10n }],
      ['/s', { s: Symbol('s') }],
      ['/d', { d: new Date(0) }],
      ['/m', { m: new Map() }],
      ['/x', { x: new (class Point {})() }],
      ['/t/toJSON', { t: { toJSON: () => 'sneaky' } }],
      ['/lone', { lone: '\ud800' }],
      ['/a~1b', { 'a/b': Number.NaN }],
    ];
    for (const [path, entry] of cases) {
      assert.throws(
        () => encodeLeaf(entry as Record<string, unknown>),
        (err: unknown) => err instanceof LeafEncodingError && err.path === path,
        path,
      );
    }
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    assert.throws(() => encodeLeaf(loop), LeafEncodingError);
    assert.throws(() => encodeLeaf([1] as unknown as Record<string, unknown>), LeafEncodingError);
    assert.throws(() => encodeLeaf({ [String.fromCharCode(0xdc00)]: 1 }), LeafEncodingError);
  });

  it('accepts a value shared by two members (not a cycle) and null-prototype objects', () => {
    const shared = { x: 1 };
    assert.equal(encodeLeaf({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: 'v' });
    assert.equal(encodeLeaf(bare), '{"k":"v"}');
  });

  it('hashes a leaf as SHA-256(0x00 ‖ UTF-8 bytes)', () => {
    const leaf = encodeLeaf({ kind: 'invocation', note: 'café' });
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), Buffer.from(leaf, 'utf8')]))
      .digest();
    assert.deepEqual(Buffer.from(leafHashOf(leaf)), expected);
  });
});

describe('leaf: commitments', () => {
  const salt = Uint8Array.from({ length: SALT_SIZE }, (_, i) => i);

  it('is "sha256:" + base64(SHA-256(salt ‖ UTF-8 text))', () => {
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from(salt), Buffer.from('héllo', 'utf8')]))
      .digest('base64');
    assert.equal(commitment(salt, 'héllo'), `sha256:${expected}`);
  });

  it('changes with the salt and with the text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.string(), fc.string(), (other, a, b) => {
        if (a !== b) assert.notEqual(commitment(salt, a), commitment(salt, b));
        if (!Buffer.from(other).equals(Buffer.from(salt))) assert.notEqual(commitment(other, a), commitment(salt, a));
      }),
    );
  });

  it('makes fresh 32-byte salts', () => {
    const a = newSalt();
    assert.equal(a.length, 32);
    assert.notDeepEqual(a, newSalt());
  });

  it('refuses short salts and broken text', () => {
    assert.throws(() => commitment(new Uint8Array(16), 'x'), RangeError);
    assert.throws(() => commitment(salt, 'x\ud800'), RangeError);
  });
});
