import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wilson } from './score.ts';

describe('wilson', () => {
  it('matches the published interval for 81 of 263 (Newcombe 1998: 0.2553-0.3662)', () => {
    const [lo, hi] = wilson(81, 263)!;
    assert.equal(lo.toFixed(4), '0.2553');
    assert.equal(hi.toFixed(4), '0.3662');
  });
  it('stays inside [0, 1] at the edges and is null without trials', () => {
    assert.deepEqual(wilson(0, 10)![0], 0);
    assert.ok(wilson(10, 10)![1] <= 1 && wilson(10, 10)![0] > 0.6);
    assert.equal(wilson(0, 0), null);
  });
});
