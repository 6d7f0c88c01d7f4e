import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { HttpProblem } from '../core/problems.ts';
import { checkRange, decodeTimeKey, encodeTimeKey, isoMicros, Where } from './cursor.ts';

test('isoMicros writes every microsecond exactly', () => {
  assert.equal(isoMicros(0), '1970-01-01T00:00:00.000000Z');
  assert.equal(isoMicros(1_780_315_200_123_456), '2026-06-01T12:00:00.123456Z');
  assert.equal(isoMicros(1_780_315_200_000_001), '2026-06-01T12:00:00.000001Z');
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 8_000_000_000_000_000 }), (us) => {
      const s = isoMicros(us);
      assert.match(s, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      assert.equal(Date.parse(s), Math.floor(us / 1000));
      assert.equal(Number(s.slice(20, 26)) % 1000, us % 1000);
    }),
  );
});

test('time keys round-trip; anything else is a 422 naming the cursor', () => {
  const k = { us: 1_780_315_200_123_456, id: 42 };
  assert.deepEqual(decodeTimeKey(encodeTimeKey(k)), k);
  assert.equal(decodeTimeKey(undefined), null);
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  for (const bad of [
    '***',
    enc({ us: 1, id: 2 }),
    enc([1]),
    enc([1, 2, 3]),
    enc(['1', 2]),
    enc([1.5, 2]),
    enc([-1, 2]),
    enc([1, 2 ** 60]),
  ]) {
    assert.throws(
      () => decodeTimeKey(bad),
      (e: unknown) => e instanceof HttpProblem && e.status === 422 && e.errors?.[0]?.field === '/cursor',
      bad,
    );
  }
});

test('Where numbers parameters in order', () => {
  const w = new Where().add('a = ?', 1).add('(b, c) < (?, ?)', 'x', 2);
  const lim = w.param(51);
  assert.equal(w.sql(), 'a = $1 AND (b, c) < ($2, $3)');
  assert.equal(lim, '$4');
  assert.deepEqual(w.params, [1, 'x', 2, 51]);
});

test('since must come before until', () => {
  checkRange(undefined, undefined);
  checkRange('2026-01-01T00:00:00Z', undefined);
  checkRange('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.001Z');
  assert.throws(() => checkRange('2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'), HttpProblem);
  assert.throws(() => checkRange('2026-01-01T02:00:00+02:00', '2026-01-01T00:00:00Z'), HttpProblem);
});
