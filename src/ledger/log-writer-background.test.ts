// Background work (SubmitOptions.background, SetJob.background) and the
// requests being answered share a workspace's log, one transaction at a time.
// A transaction takes one kind only, so an answer never waits for a
// background scan's statements inside its own transaction; the answered
// kind goes first when both wait, background work passed over once goes
// next (it never starves), and a background set with maxItems holds the log
// for short turns, with what waits going between them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { eachTestDb } from '../testing/test-db.ts';
import type { OpenAppend } from './append.ts';
import { LogWriter, type SetJob } from './log-writer.ts';

/** Notes which transaction (its OpenAppend, shared by every unit of one transaction) ran what, in order. */
function transactions() {
  const ids = new Map<OpenAppend, number>();
  const ran: Array<{ tx: number; what: string }> = [];
  return {
    note(log: OpenAppend, what: string) {
      if (!ids.has(log)) ids.set(log, ids.size);
      ran.push({ tx: ids.get(log)!, what });
    },
    /** What each transaction ran, in commit order. */
    list(): string[][] {
      const out: string[][] = [];
      for (const r of ran) (out[r.tx] ??= []).push(r.what);
      return out;
    },
  };
}

eachTestDb('background work in the log writer', (testDb) => {
  function setup() {
    const t = transactions();
    const writer = new LogWriter(testDb.db);
    const tenantId = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const isHolding = new Promise<void>((r) => (holding = r));
    // A job that holds the workspace's lock until released: what is queued meanwhile waits for the next transactions.
    const holder = writer.submit(tenantId, async (_tx, log) => {
      t.note(log, 'holder');
      holding();
      await held;
      return log.add({ kind: 'test_item', name: 'holder' }, new Date());
    });
    const job = (name: string, background: boolean) =>
      writer.submit(
        tenantId,
        async (_tx, log) => {
          t.note(log, name);
          return log.add({ kind: 'test_item', name }, new Date());
        },
        { background },
      );
    const set = (
      name: string,
      opts: Pick<SetJob<number, number>, 'background' | 'maxItems'> = {},
      during?: () => void,
    ) =>
      ({
        ...opts,
        async run(_tx, log, items) {
          t.note(log, `${name}:${items.join(',')}`);
          during?.();
          return items.map((n) => log.add({ kind: 'test_item', name, n }, new Date()));
        },
      }) satisfies SetJob<number, number>;
    return { t, writer, tenantId, release, holder, isHolding, job, set };
  }

  test('a request queued behind background work goes first, in a transaction of its own', async () => {
    const { t, writer, tenantId, release, holder, isHolding, job, set } = setup();
    await isHolding;
    const scanA = job('scan-a', true);
    const scanB = job('scan-b', true);
    const answered = writer.submitSet(tenantId, set('event'), [1]);
    const ui = job('decision', false);
    release();
    assert.deepEqual(await Promise.all([holder, scanA, scanB, answered, ui]), [0, 3, 4, [1], 2]);
    assert.deepEqual(t.list(), [['holder'], ['event:1', 'decision'], ['scan-a', 'scan-b']]);
  });

  test('background work passed over once goes next, before requests queued after', async () => {
    const { t, writer, tenantId, release, holder, isHolding, job, set } = setup();
    await isHolding;
    const scan = job('scan', true);
    let later: Promise<unknown> | undefined;
    // Queued while the first event's transaction runs, behind the scan it passed over.
    const first = writer.submitSet(
      tenantId,
      set('first', {}, () => {
        later ??= writer.submitSet(tenantId, set('later'), [2]);
      }),
      [1],
    );
    release();
    await Promise.all([holder, scan, first]);
    await later;
    assert.deepEqual(t.list(), [['holder'], ['first:1'], ['scan'], ['later:2']]);
  });

  test('a background set goes in parts of maxItems, and a request queued meanwhile goes between them', async () => {
    const { t, writer, tenantId, release, holder, isHolding, set } = setup();
    await isHolding;
    let later: Promise<unknown> | undefined;
    const burst = writer.submitSet(
      tenantId,
      set('burst', { background: true, maxItems: 4 }, () => {
        later ??= writer.submitSet(tenantId, set('later'), [0]);
      }),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    release();
    await Promise.all([holder, burst]);
    await later;
    assert.deepEqual(t.list(), [['holder'], ['burst:1,2,3,4'], ['later:0'], ['burst:5,6,7,8'], ['burst:9,10']]);
  });

  test('with nothing else waiting, background work is grouped as before', async () => {
    const { t, release, holder, isHolding, job } = setup();
    await isHolding;
    const scans = [job('scan-a', true), job('scan-b', true), job('scan-c', true)];
    release();
    await Promise.all([holder, ...scans]);
    assert.deepEqual(t.list(), [['holder'], ['scan-a', 'scan-b', 'scan-c']]);
  });
});
