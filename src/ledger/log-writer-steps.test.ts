// LogWriterOptions.onStep times each step of a request's way through the log
// (agent_ledger_log_step_seconds): the time a request waits in the queue, a
// transaction's wait for the head's lock, the planning under it and the write
// with COMMIT — so that where an enforced event's time goes can be read off a
// running server. Each step is charged where the time was spent.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { eachTestDb } from '../testing/test-db.ts';
import type { OpenAppend } from './append.ts';
import { LogWriter, type LogStep, type SetJob } from './log-writer.ts';

const HOLD_MS = 40;

/** Appends one leaf per item; the first transaction's work takes HOLD_MS while it holds the lock. */
function holdingJob(started: () => void): SetJob<number, number> {
  let first = true;
  return {
    async run(_tx, log: OpenAppend, items) {
      if (first) {
        first = false;
        started();
        await new Promise((r) => setTimeout(r, HOLD_MS));
      }
      return items.map((n) => log.add({ kind: 'test_item', n }, new Date()));
    },
  };
}

eachTestDb("the log's steps, timed", (testDb) => {
  test('requests queued behind a transaction that holds the lock: their wait is queued time, its work is planning', async () => {
    const steps: Array<[LogStep, number]> = [];
    const writer = new LogWriter(testDb.db, { onStep: (step, seconds) => steps.push([step, seconds * 1000]) });
    const tenant = randomUUID();
    let onStarted!: () => void;
    const started = new Promise<void>((r) => (onStarted = r));
    const job = holdingJob(onStarted);
    const first = writer.submitSet(tenant, job, [0]);
    // Queued while the first transaction holds the lock: both go in the next one.
    await started;
    const queuedAt = performance.now();
    const rest = [writer.submitSet(tenant, job, [1]), writer.submitSet(tenant, job, [2, 3])];
    assert.deepEqual(await Promise.all([first, ...rest]), [[0], [1], [2, 3]], 'gap-free, in order');
    const waited = performance.now() - queuedAt;

    const of = (step: LogStep) => steps.filter(([s]) => s === step).map(([, ms]) => ms);
    assert.equal(of('queued').length, 3, 'one queued time a request');
    for (const step of ['lock', 'plan', 'write'] as const)
      assert.equal(of(step).length, 2, `one ${step} time a transaction: ${JSON.stringify(steps)}`);
    // The two requests behind it waited in the queue for most of the first transaction's hold...
    const [, ...behind] = of('queued');
    for (const ms of behind) assert.ok(ms >= HOLD_MS / 2 && ms <= waited, `queued ${ms} ms (hold ${HOLD_MS})`);
    // ...which is charged to the first transaction's planning (its work ran under the lock)...
    assert.ok(of('plan')[0]! >= HOLD_MS - 5, `the first transaction planned for ${of('plan')[0]} ms`);
    // ...and to the second's wait for the lock, opened behind it.
    assert.ok(of('lock')[1]! >= HOLD_MS / 2, `the second transaction waited ${of('lock')[1]} ms for the lock`);
    for (const [step, ms] of steps) assert.ok(ms >= 0, `${step} ${ms} ms`);
  });
});
