import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Poller } from './poller.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A round that takes whatever is queued, counting its calls and how many ran at once. */
function worker() {
  const w = { queued: 0, rounds: 0, inFlight: 0, maxInFlight: 0, fail: false, errors: [] as unknown[] };
  const round = async () => {
    w.rounds++;
    w.inFlight++;
    w.maxInFlight = Math.max(w.maxInFlight, w.inFlight);
    await sleep(5);
    w.inFlight--;
    if (w.fail) throw new Error('round failed');
    const n = Math.min(w.queued, 2);
    w.queued -= n;
    return n;
  };
  return Object.assign(w, { round });
}

test('rounds repeat at once while they find work, then wait for the poll', async () => {
  const w = worker();
  const p = new Poller({ round: () => roundOf(w), pollMs: 10_000, onError: (e) => w.errors.push(e) });
  w.queued = 5;
  p.start();
  await until(() => w.queued === 0 && w.inFlight === 0);
  await sleep(50);
  // 3 rounds take 2+2+1; a fourth finds nothing; then nothing until the poll, 10 s away.
  assert.equal(w.rounds, 4);
  await p.stop();
});

test('a poke runs a round now; during a round, right after it; one round at a time', async () => {
  const w = worker();
  const p = new Poller({ round: () => roundOf(w), pollMs: 10_000, onError: (e) => w.errors.push(e) });
  p.start();
  await until(() => w.rounds === 1 && w.inFlight === 0);
  w.queued = 1;
  p.poke();
  await until(() => w.queued === 0);
  for (let i = 0; i < 20; i++) {
    w.queued++;
    p.poke();
    await sleep(1);
  }
  await until(() => w.queued === 0 && w.inFlight === 0);
  assert.equal(w.maxInFlight, 1);
  await p.stop();
});

test('a failed round is reported and the loop goes on', async () => {
  const w = worker();
  const p = new Poller({ round: () => roundOf(w), pollMs: 20, onError: (e) => w.errors.push(e) });
  w.fail = true;
  p.start();
  await until(() => w.errors.length >= 2);
  w.fail = false;
  w.queued = 3;
  await until(() => w.queued === 0);
  await p.stop();
  assert.match(String(w.errors[0]), /round failed/);
});

test('not started or stopped: pokes do nothing; stop waits for the round in flight', async () => {
  const w = worker();
  const p = new Poller({ round: () => roundOf(w), pollMs: 10, onError: (e) => w.errors.push(e) });
  p.poke();
  await sleep(30);
  assert.equal(w.rounds, 0, 'a poller not started stays idle');
  p.start();
  await until(() => w.inFlight === 1);
  await p.stop();
  assert.equal(w.inFlight, 0, 'stop() returned after the round ended');
  const rounds = w.rounds;
  p.poke();
  p.start();
  await sleep(40);
  assert.equal(w.rounds, rounds, 'nothing runs after stop()');
  w.queued = 3;
  await p.drain();
  assert.equal(w.queued, 0, 'drain() still runs rounds by hand');
});

function roundOf(w: ReturnType<typeof worker>): Promise<number> {
  return w.round();
}

async function until(ok: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < deadline, 'timed out');
    await sleep(2);
  }
}
