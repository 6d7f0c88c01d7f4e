// utcDay remembers the last day it named, isoTime the last time it wrote: each must still answer for every instant
// its own, in any order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isoTime, utcDay } from './utc-day.ts';

test('utcDay names the UTC day of any instant, whatever it named before (midnights, years before 1970, after 9999 excluded)', () => {
  const instant = fc.oneof(
    fc.integer({ min: -62_000_000_000_000, max: 253_000_000_000_000 }),
    // around midnights: the last and first milliseconds of a day
    fc
      .integer({ min: -700_000, max: 2_900_000 })
      .chain((d) => fc.integer({ min: -2, max: 1 }).map((ms) => d * 86_400_000 + ms)),
  );
  fc.assert(
    fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (ts) => {
      for (const t of ts) assert.equal(utcDay(new Date(t)), new Date(t).toISOString().slice(0, 10));
    }),
    { numRuns: 2000 },
  );
});

test('utcDay of an invalid date throws, as toISOString does', () => {
  assert.throws(() => utcDay(new Date(Number.NaN)), RangeError);
});

test('isoTime writes what toISOString writes for any instant, whatever it wrote before (the same time again, the same Date changed)', () => {
  const instant = fc.oneof(
    fc.integer({ min: -62_000_000_000_000, max: 253_000_000_000_000 }),
    fc.constantFrom(0, 1, -1, 86_400_000),
  );
  fc.assert(
    fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (ts) => {
      const d = new Date(0);
      for (const t of ts) {
        assert.equal(isoTime(new Date(t)), new Date(t).toISOString());
        d.setTime(t);
        assert.equal(isoTime(d), new Date(t).toISOString());
      }
    }),
    { numRuns: 2000 },
  );
  assert.throws(() => isoTime(new Date(Number.NaN)), RangeError);
});
