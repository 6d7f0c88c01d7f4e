// Per-workspace admission to the event endpoints (admission.ts): a workspace
// has at most maxBytes of request bodies in processing on a node; its further
// requests wait in its own FIFO (or get 429), others' never wait for its room.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { HttpProblem } from '../core/problems.ts';
import { Admission } from './admission.ts';

describe('admission per workspace', () => {
  test("a workspace's requests past its bytes wait in order; another workspace's go at once", async () => {
    const a = new Admission({ maxBytes: 100, waitMs: 60_000 });
    const first = await a.enter('flood', 60);
    const order: string[] = [];
    const second = a.enter('flood', 60).then((r) => (order.push('second'), r));
    const third = a.enter('flood', 30).then((r) => (order.push('third'), r));
    assert.equal(a.waiting('flood'), 2, 'the third waits behind the second although it would fit: FIFO');
    const other = await a.enter('other', 100);
    other();
    await nextTurn();
    assert.deepEqual(order, []);
    first();
    first(); // idempotent: giving the room back twice frees it once
    await nextTurn();
    assert.deepEqual(order, ['second', 'third'], '60 + 30 fit once the first left');
    (await second)();
    (await third)();
    assert.equal(a.waiting('flood'), 0);
  });

  test('a request larger than the whole room goes when it is alone', async () => {
    const a = new Admission({ maxBytes: 100, waitMs: 60_000 });
    const big = await a.enter('t', 5_000);
    let next = false;
    const small = a.enter('t', 1).then((r) => ((next = true), r));
    await nextTurn();
    assert.equal(next, false);
    big();
    (await small)();
    assert.equal(next, true);
  });

  test('429 with Retry-After past the wait, or when too many wait already', async () => {
    const a = new Admission({ maxBytes: 10, waitMs: 20, maxWaiting: 1 });
    const held = await a.enter('t', 10);
    const waited = a.enter('t', 5);
    await assert.rejects(a.enter('t', 5), (e: unknown) => e instanceof HttpProblem && e.status === 429);
    await assert.rejects(waited, (e: unknown) => {
      assert.ok(e instanceof HttpProblem);
      assert.equal(e.status, 429);
      assert.equal(e.code, 'rate_limited');
      assert.equal(e.headers['retry-after'], '1');
      return true;
    });
    assert.equal(a.waiting('t'), 0);
    held();
    (await a.enter('t', 10))();
  });
});
