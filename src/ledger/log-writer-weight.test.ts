// A transaction takes at most LogWriterOptions.maxWeight of its set's weight
// (for events: the characters of their texts), splitting a request when it
// must: one workspace's flood of long texts is written in bounded
// transactions, and another workspace's transaction runs between them instead
// of after the whole backlog (issue #36).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { eachTestDb } from '../testing/test-db.ts';
import type { OpenAppend } from './append.ts';
import { ItemFailed, LogWriter, type SetJob } from './log-writer.ts';

interface Item {
  tenant: string;
  n: number;
  weight: number;
}

/**
 * A set job that appends one leaf per item and notes each transaction's items, in the order they ran;
 * with `holdMs`, the flood's transactions hold the lock that long, so that where the other workspace's
 * transaction lands among them measures the scheduling, not the machine's load at that moment.
 */
function notingJob(runs: string[], holdMs = 0): SetJob<Item, number> {
  return {
    async run(_tx, log: OpenAppend, items) {
      runs.push(`${items[0]!.tenant}:${items.map((i) => i.n).join(',')}`);
      if (holdMs > 0 && items[0]!.tenant === 'F') await new Promise((r) => setTimeout(r, holdMs));
      return items.map((i) => log.add({ kind: 'test_item', n: i.n }, new Date()));
    },
    weight: (item) => item.weight,
  };
}

eachTestDb('transactions of bounded weight', (testDb) => {
  const items = (tenant: string, n: number, weight: number): Item[] =>
    Array.from({ length: n }, (_, i) => ({ tenant, n: i, weight }));

  async function logSize(tenantId: string): Promise<number> {
    const [row] = await testDb.db.query<{ size: number }>(
      'SELECT size::int AS size FROM log_heads WHERE tenant_id = $1',
      [tenantId],
    );
    return row?.size ?? 0;
  }

  test("a heavy request goes in parts, and another workspace's event is written before the rest of it", async () => {
    const runs: string[] = [];
    const job = notingJob(runs, 40);
    const writer = new LogWriter(testDb.db, { maxWeight: 250 });
    const flood = randomUUID();
    const other = randomUUID();
    // Ten items of 100: two fit a transaction of 250, the third would not.
    const flooding = writer.submitSet(flood, job, items('F', 10, 100));
    const single = writer.submitSet(other, job, [{ tenant: 'O', n: 0, weight: 100 }]);
    const [f, o] = await Promise.all([flooding, single]);
    assert.deepEqual(f, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'every item of the flood stored, in order, gap-free');
    assert.deepEqual(o, [0]);
    const floodRuns = runs.filter((r) => r.startsWith('F:'));
    assert.deepEqual(floodRuns, ['F:0,1', 'F:2,3', 'F:4,5', 'F:6,7', 'F:8,9']);
    // At most the flood's transaction holding the lock and the one waiting for it come first.
    const at = runs.indexOf('O:0');
    assert.ok(at >= 0 && at <= 2, `the other workspace's transaction ran ${at + 1}th of ${runs.join(' ')}`);
    assert.equal(await logSize(flood), 10);
    assert.equal(await logSize(other), 1);
  });

  test('an item heavier than a whole transaction still goes, alone; light ones after it share one; weightless items are not split', async () => {
    const runs: string[] = [];
    const writer = new LogWriter(testDb.db, { maxWeight: 250 });
    const heavy = randomUUID();
    const out = await writer.submitSet(heavy, notingJob(runs), [
      { tenant: 'H', n: 0, weight: 1000 },
      { tenant: 'H', n: 1, weight: 1000 },
      { tenant: 'H', n: 2, weight: 10 },
      { tenant: 'H', n: 3, weight: 10 },
    ]);
    assert.ok(out.every((o) => !(o instanceof ItemFailed)));
    assert.deepEqual(runs, ['H:0', 'H:1', 'H:2,3']);
    const light = randomUUID();
    runs.length = 0;
    await writer.submitSet(light, notingJob(runs), items('L', 50, 0));
    assert.equal(runs.length, 1);
    assert.equal(await logSize(light), 50);
  });
});
