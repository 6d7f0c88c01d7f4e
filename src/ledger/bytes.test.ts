import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBase64, encodeBase64, equalBytes } from './bytes.ts';

describe('bytes: strict base64', () => {
  it('decodes canonical padded standard base64', () => {
    assert.deepEqual(decodeBase64(''), new Uint8Array());
    assert.deepEqual(decodeBase64('AA=='), Uint8Array.of(0));
    assert.deepEqual(decodeBase64('+/8='), Uint8Array.of(0xfb, 0xff));
    assert.equal(encodeBase64(Uint8Array.of(0xfb, 0xff)), '+/8=');
  });

  it('refuses every other spelling of the same bytes', () => {
    for (const text of ['AA', 'AA=', 'AB==', 'AAA=x', 'A A=', 'AA==\n', '-_8=', 'AA==AA==', '====']) {
      assert.equal(decodeBase64(text), undefined, JSON.stringify(text));
    }
  });

  it('encodes a view of a larger buffer by its own bytes only', () => {
    const whole = Uint8Array.of(1, 2, 3, 4);
    assert.equal(encodeBase64(whole.subarray(1, 3)), Buffer.from([2, 3]).toString('base64'));
  });

  it('compares bytes', () => {
    assert.ok(equalBytes(Uint8Array.of(1, 2), Buffer.from([1, 2])));
    assert.ok(!equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1)));
    assert.ok(!equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 3)));
  });
});
