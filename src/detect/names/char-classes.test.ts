import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bmpClass, isLetterUnit, U_ASTRAL_LU, U_LL, U_LU } from './char-classes.ts';

// The table is filled a block at a time on first lookup: every code unit must read as the regex classes say,
// whichever block was looked up first.
describe('BMP letter classes', () => {
  it('agree with \\p{L}, \\p{Lu} and \\p{Ll} for every code unit, looked up in an odd order', () => {
    const order = Array.from({ length: 65536 }, (_, k) => (k * 40503) & 0xffff); // a permutation (odd multiplier)
    for (const u of order) {
      const surrogate = u >= 0xd800 && u <= 0xdfff;
      const ch = String.fromCharCode(u);
      const k = bmpClass(u);
      assert.equal(isLetterUnit(u), !surrogate && /\p{L}/u.test(ch), `L of ${u.toString(16)}`);
      assert.equal((k & U_LU) !== 0, !surrogate && /\p{Lu}/u.test(ch), `Lu of ${u.toString(16)}`);
      assert.equal((k & U_LL) !== 0, !surrogate && /\p{Ll}/u.test(ch), `Ll of ${u.toString(16)}`);
    }
  });
  it('mark a lead surrogate whose plane has upper-case letters, and no other surrogate', () => {
    assert.notEqual(bmpClass(0xd801) & U_ASTRAL_LU, 0); // Deseret: 𐐀
    assert.notEqual(bmpClass(0xd835) & U_ASTRAL_LU, 0); // mathematical alphanumerics: 𝐀
    assert.equal(bmpClass(0xd83d), 0); // emoji
    assert.equal(bmpClass(0xdc00), 0);
  });
});
