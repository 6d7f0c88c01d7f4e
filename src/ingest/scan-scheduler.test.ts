// The scan scheduler: events scanned at once while the event loop has time,
// else in their workspace's queue, served round-robin a slice of the loop at a
// time (and on the detector workers as their slots free). A clock stepped by
// the scans themselves makes every slice exact.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ContentField } from '../policy/engine.ts';
import type { ScanResult } from './prepare.ts';
import { type ScanFields, ScanScheduler } from './scan-scheduler.ts';

/** A scanner that notes what it scanned and takes `ms` of the stepped clock for each text. */
function steppedScanner(ms: number) {
  let t = 0;
  const scanned: string[] = [];
  return {
    scanned,
    now: () => t,
    scan(_field: ContentField, text: string): ScanResult {
      scanned.push(text);
      t += ms;
      return { findings: [], stored: text.toUpperCase(), storedFindings: [], pii_count: 0 };
    },
  };
}

const fields = (text: string): ScanFields => [['prompt', text]];

describe('the scan scheduler', () => {
  test('scans at once, on this turn, while the loop has scanned less than a slice', async () => {
    const s = steppedScanner(1);
    const scheduler = new ScanScheduler({ scan: s.scan, sliceMs: 5, offloadChars: 1024, now: s.now });
    const answers = ['a', 'b', 'c'].map((x) => scheduler.scan('t1', fields(x)));
    assert.deepEqual(s.scanned, ['a', 'b', 'c'], 'scanned before anything was awaited');
    assert.equal(scheduler.queued(), 0);
    assert.deepEqual(
      (await Promise.all(answers)).map((r) => r[0]!.stored),
      ['A', 'B', 'C'],
    );
  });

  test("a workspace's backlog is served round-robin with another's, one slice of the loop a turn", async () => {
    const s = steppedScanner(2);
    const scheduler = new ScanScheduler({ scan: s.scan, sliceMs: 5, offloadChars: 1024, now: s.now });
    // The flood: 3 scans fill this turn's slice (2 + 2 + 2 ms >= 5), the other 17 wait in its queue.
    const flood = Array.from({ length: 20 }, (_, i) => scheduler.scan('flood', fields(`f${i}`)));
    assert.equal(s.scanned.length, 3);
    assert.equal(scheduler.queued('flood'), 17);
    // Another workspace's event comes while the backlog waits: it waits behind one of the flood's, not 17.
    const other = scheduler.scan('other', fields('o0'));
    assert.equal(scheduler.queued('other'), 1);
    await nextTurn();
    assert.deepEqual(s.scanned.slice(3), ['f3', 'o0', 'f4'], 'one turn: a slice, the workspaces in turn');
    assert.equal((await other)[0]!.stored, 'O0');
    assert.ok(scheduler.queued('flood') > 10, 'the other workspace was answered before the backlog');
    const all = await Promise.all(flood);
    assert.deepEqual(
      all.map((r) => r[0]!.stored),
      Array.from({ length: 20 }, (_, i) => `F${i}`),
    );
    assert.equal(scheduler.queued(), 0);
  });

  test('a scan that throws fails its event only', async () => {
    const s = steppedScanner(3);
    const scheduler = new ScanScheduler({
      scan: (f, text) => {
        if (text === 'bad') throw new Error('detector failed');
        return s.scan(f, text);
      },
      sliceMs: 5,
      offloadChars: 1024,
      now: s.now,
    });
    const first = [scheduler.scan('t', fields('x')), scheduler.scan('t', fields('y'))];
    const bad = scheduler.scan('t', fields('bad'));
    const last = scheduler.scan('t', fields('z'));
    await assert.rejects(bad, /detector failed/);
    assert.equal((await last)[0]!.stored, 'Z');
    await Promise.all(first);
  });

  test('with workers: long texts go to them, at most their slots at once, the workspaces in turn', async () => {
    const s = steppedScanner(1);
    const handed: string[] = [];
    const release: Array<() => void> = [];
    const scheduler = new ScanScheduler({
      scan: s.scan,
      workers: {
        slots: 2,
        run(f) {
          handed.push(f[0]![1].slice(0, 3));
          return new Promise((resolve) => release.push(() => resolve(f.map(([field, text]) => s.scan(field, text)))));
        },
      },
      sliceMs: 5,
      offloadChars: 10,
      now: s.now,
    });
    const long = (x: string) => fields(`${x}`.padEnd(12, '.'));
    const flood = ['f0', 'f1', 'f2', 'f3'].map((x) => scheduler.scan('flood', long(x)));
    const other = scheduler.scan('other', long('o0'));
    const short = scheduler.scan('other', fields('s'));
    assert.equal(s.scanned.length, 0, 'a short text waits its turn behind the queued ones');
    assert.deepEqual(handed, ['f0.', 'f1.'], 'two slots: two handed, the rest waiting in the scheduler');
    assert.equal(scheduler.queued(), 4);
    release.shift()!();
    await flood[0];
    release.shift()!();
    await flood[1];
    assert.deepEqual(handed, ['f0.', 'f1.', 'f2.', 'o0.'], 'freed slots go to the workspaces in turn');
    release.shift()!();
    release.shift()!();
    await other;
    assert.deepEqual(handed, ['f0.', 'f1.', 'f2.', 'o0.', 'f3.', 's']);
    assert.equal(s.scanned.length, 4, 'only the four the workers answered: the loop scanned nothing that waited');
    while (release.length > 0) release.shift()!();
    assert.equal((await short)[0]!.stored, 'S');
    assert.equal((await Promise.all(flood)).length, 4);
    assert.equal(scheduler.queued(), 0);
  });
});
