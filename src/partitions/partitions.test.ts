// Time partitions kept by the service's own maintenance, on both stores, under
// a clock the test moves: across a simulated year each pass makes the
// partitions ahead and drops those behind the table's cutoff (rows inside a
// kept partition stay, rows of a dropped one are gone); a row that arrived
// before its partition existed waits in the default partition and is moved
// into its own; a key read names only the partitions it can find rows in; a
// partition that fills without statistics is analyzed by the next pass, and a
// read by key's cached generic plan then takes the primary key, not the
// (tenant_id, created_at) index over the whole range.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IDEMPOTENCY_PARTITIONS } from '../ingest/index.ts';
import { TestClock } from '../testing/harness.ts';
import { createTestDb, type TestDb, testStores } from '../testing/test-db.ts';
import { PartitionMaintainer, partitionName, periodAfter, periodStart, type PartitionedTable } from './index.ts';

const DAY_MS = 86_400_000;
const TENANT = '00000000-0000-4000-8000-0000000000aa';

/**
 * What the maintenance must have left at `now`, its first pass at `first`: the
 * partitions from the first not yet due (or the first made) through `ahead`.
 */
function expected(t: PartitionedTable, now: Date, first = new Date(0)): string[] {
  const cutoff = t.dropBefore?.(now);
  const names: string[] = [];
  let start = periodStart(now, t.unit);
  // Back to the oldest period still wanted (rows were written into every period).
  while (
    cutoff !== undefined &&
    periodAfter(start, t.unit, -1) >= periodStart(first, t.unit) &&
    periodAfter(periodAfter(start, t.unit, -1), t.unit) > cutoff
  )
    start = periodAfter(start, t.unit, -1);
  for (let p = start; p <= periodAfter(periodStart(now, t.unit), t.unit, t.ahead); p = periodAfter(p, t.unit))
    names.push(partitionName(t.table, p, t.unit));
  return names;
}

async function names(m: PartitionMaintainer, t: PartitionedTable): Promise<string[]> {
  return [...(await m.partitions(t)).keys()].sort();
}

async function insertKey(db: TestDb['db'], key: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, response, created_at) VALUES ($1, $2, '\\x00', '{}', $3)`,
    [TENANT, key, at.toISOString()],
  );
}

for (const store of testStores()) {
  describe(`time partitions (${store})`, () => {
    let testDb: TestDb;
    before(async () => {
      testDb = await createTestDb(store);
      // A monthly table kept 183 days, the shape the record tables take.
      await testDb.db.exec(`CREATE TABLE part_events (tenant_id uuid NOT NULL, id bigint NOT NULL,
          created_at timestamptz NOT NULL, PRIMARY KEY (tenant_id, id, created_at)) PARTITION BY RANGE (created_at);
        CREATE TABLE part_events_default PARTITION OF part_events DEFAULT`);
    });
    after(async () => {
      await testDb.dispose();
    });

    test('a partition filled without statistics is analyzed once: the generic plan of a read by key takes the primary key', async () => {
      const { db } = testDb;
      // The shape of invocations: the key with the time last, and a (tenant_id, created_at, id) index for pages.
      await db.exec(`CREATE TABLE plan_events (tenant_id uuid NOT NULL, id bigint NOT NULL,
          created_at timestamptz NOT NULL, PRIMARY KEY (tenant_id, id, created_at)) PARTITION BY RANGE (created_at);
        CREATE TABLE plan_events_default PARTITION OF plan_events DEFAULT;
        CREATE INDEX plan_events_created ON plan_events (tenant_id, created_at DESC, id DESC)`);
      const t: PartitionedTable = { table: 'plan_events', column: 'created_at', unit: 'month', ahead: 1 };
      const month = new Date('2027-03-01T00:00:00.000Z');
      const m = new PartitionMaintainer({ db, now: () => month, tables: [t] });
      const first = await m.maintain();
      assert.deepEqual(first.created, ['plan_events_p202703', 'plan_events_p202704']);
      assert.deepEqual(first.analyzed, [], 'empty partitions are left alone');
      // No autovacuum either (PGlite has none): the statistics come from the pass or not at all.
      await db.exec('ALTER TABLE plan_events_p202703 SET (autovacuum_enabled = off)');
      // A day of one workspace's rows, 4 s apart, ids rising with time.
      await db.query(
        `INSERT INTO plan_events SELECT $1, g, $2::timestamptz + g * interval '4 seconds' FROM generate_series(1, 20000) g`,
        [TENANT, month.toISOString()],
      );
      const statistics = async () =>
        Number(
          (
            await db.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stats WHERE tablename = 'plan_events_p202703'`)
          )[0]!.n,
        );
      // The read by key with its day's bounds, as a statement's cached generic plan.
      const genericPlan = () =>
        db.transaction(async (tx) => {
          await tx.exec(`SET LOCAL plan_cache_mode = force_generic_plan;
            PREPARE by_key (uuid, bigint, timestamptz, timestamptz) AS SELECT id FROM plan_events
              WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND created_at < $4`);
          try {
            const rows = await tx.query<{ 'QUERY PLAN': string }>(
              `EXPLAIN EXECUTE by_key ('${TENANT}', 10000, '2027-03-01T00:00:00Z', '2027-03-02T00:00:00Z')`,
            );
            return rows.map((r) => r['QUERY PLAN']).join('\n');
          } finally {
            await tx.exec('DEALLOCATE by_key');
          }
        });
      assert.equal(await statistics(), 0);
      const before = await genericPlan();
      assert.match(before, /Index (Only )?Scan using plan_events_p202703_tenant_id_created_at_id_idx/, before);

      const pass = await m.maintain();
      assert.deepEqual(pass.analyzed, ['plan_events_p202703']);
      assert.equal(await statistics(), 3, 'one row per column');
      const after = await genericPlan();
      assert.match(after, /Index (Only )?Scan using plan_events_p202703_pkey/, after);
      assert.doesNotMatch(after, /created_at_id_idx/, after);
      assert.deepEqual((await m.maintain()).analyzed, [], 'analyzed once');
    });

    test('idempotency keys by day across a simulated year: made 2 days ahead, dropped 25 h behind', async () => {
      const { db } = testDb;
      const first = new Date('2027-01-01T12:00:00.000Z');
      const clock = new TestClock(first.getTime());
      const m = new PartitionMaintainer({ db, now: clock.now, tables: [IDEMPOTENCY_PARTITIONS] });
      const t = IDEMPOTENCY_PARTITIONS;
      let created = 0;
      let dropped = 0;
      // A pass every third day (each makes the next three days' partitions), then the last two days one by one.
      const days = [...Array.from({ length: 122 }, (_, i) => i * 3), 364, 365];
      for (const day of days) {
        clock.set(new Date(first.getTime() + day * DAY_MS));
        const pass = await m.maintain();
        created += pass.created.length;
        dropped += pass.dropped.length;
        assert.deepEqual(await names(m, t), expected(t, clock.now(), first), clock.now().toISOString());
        await insertKey(db, `k${day}`, clock.now());
      }
      clock.advance(DAY_MS);
      // Every day got a partition ahead of its first key; none of them took the default partition's way.
      assert.equal(created, 366 + t.ahead);
      assert.equal(dropped, 366 + t.ahead - expected(t, new Date(clock.now().getTime() - DAY_MS), first).length);
      const rows = await db.query<{ key: string; part: string }>(
        'SELECT key, tableoid::regclass::text AS part FROM idempotency_keys ORDER BY created_at',
      );
      // The last two days' keys are kept (the 24 h they answer, and the hour of slack), each in its day's partition.
      assert.deepEqual(
        rows.map((r) => r.key),
        ['k364', 'k365'],
      );
      assert.deepEqual(
        rows.map((r) => r.part),
        [
          partitionName(t.table, new Date(Date.parse('2027-12-31T00:00:00Z')), 'day'),
          partitionName(t.table, new Date(Date.parse('2028-01-01T00:00:00Z')), 'day'),
        ],
      );
      const [def] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys_default');
      assert.equal(def!.n, 0);
    });

    test('monthly partitions across a year: kept forever, then dropped past a 183-day cutoff', async () => {
      const { db } = testDb;
      const clock = new TestClock(Date.parse('2027-01-15T08:00:00.000Z'));
      // No cutoff at first (kept forever), 183 days once the year is written.
      const keep: { days?: number } = {};
      const t: PartitionedTable = {
        table: 'part_events',
        column: 'created_at',
        unit: 'month',
        ahead: 1,
        dropBefore: (now) => (keep.days === undefined ? undefined : new Date(now.getTime() - keep.days * DAY_MS)),
      };
      const m = new PartitionMaintainer({ db, now: clock.now, tables: [t] });
      let id = 0;
      for (let week = 0; week < 53; week++) {
        await m.maintain();
        await db.query('INSERT INTO part_events VALUES ($1, $2, $3)', [TENANT, ++id, clock.now().toISOString()]);
        clock.advance(7 * DAY_MS);
      }
      // Kept forever so far: every month of the year and the one ahead.
      const all = await names(m, t);
      assert.equal(all.length, 14, all.join());
      assert.equal(all[0], 'part_events_p202701');
      keep.days = 183;
      const pass = await m.maintain();
      assert.deepEqual(await names(m, t), expected(t, clock.now()));
      assert.deepEqual(
        pass.dropped,
        all.filter((n) => !expected(t, clock.now()).includes(n)),
      );
      // What is left is exactly the rows of the months kept, none of the months dropped.
      const [oldest] = await db.query<{ at: Date; n: number }>(
        'SELECT min(created_at) AS at, count(*)::int AS n FROM part_events',
      );
      const firstKept = periodStart(new Date(clock.now().getTime() - 183 * DAY_MS), 'month');
      assert.ok(new Date(oldest!.at) >= firstKept, `${String(oldest!.at)} before ${firstKept.toISOString()}`);
      assert.ok(new Date(oldest!.at).getTime() - firstKept.getTime() < 7 * DAY_MS);
      assert.ok(oldest!.n >= 26 && oldest!.n <= 31, String(oldest!.n));
    });

    test('a row written before its partition exists waits in the default partition and is moved into its own', async () => {
      const { db } = testDb;
      const clock = new TestClock(Date.parse('2027-06-10T12:00:00.000Z'));
      const m = new PartitionMaintainer({ db, now: clock.now, tables: [IDEMPOTENCY_PARTITIONS] });
      await m.maintain();
      // A clock ten days ahead (no partition yet): the write succeeds, into the default partition.
      const far = new Date(clock.now().getTime() + 10 * DAY_MS);
      await insertKey(db, 'early', far);
      const [where] = await db.query<{ part: string }>(
        "SELECT tableoid::regclass::text AS part FROM idempotency_keys WHERE key = 'early'",
      );
      assert.equal(where!.part, 'idempotency_keys_default');
      const pass = await m.maintain();
      const own = partitionName('idempotency_keys', periodStart(far, 'day'), 'day');
      assert.deepEqual(pass.created, [own]);
      assert.equal(pass.defaultRowsMoved, 1);
      const [moved] = await db.query<{ part: string; n: number }>(
        "SELECT tableoid::regclass::text AS part, count(*) OVER ()::int AS n FROM idempotency_keys WHERE key = 'early'",
      );
      assert.deepEqual({ ...moved }, { part: own, n: 1 });
      // Due to go: the default partition's rows before the cutoff are deleted, not given a partition.
      await insertKey(db, 'stale', new Date(clock.now().getTime() - 30 * DAY_MS));
      const again = await m.maintain();
      assert.deepEqual(again.created, []);
      assert.equal(again.defaultRowsDeleted, 1);
      // The tenant role reaches a partition only through the parent (its row-level security).
      const [grant] = await db.query<{ ok: boolean }>(
        "SELECT has_table_privilege('agent_ledger_tenant', $1, 'SELECT') AS ok",
        [own],
      );
      assert.equal(grant!.ok, false);
    });

    test("a key lookup reads only the partitions of the last 24 hours' keys (partition pruning)", async () => {
      const { db } = testDb;
      const clock = new TestClock(Date.parse('2027-09-20T09:00:00.000Z'));
      // Kept for a week here, so that there are older partitions to leave out.
      const t: PartitionedTable = {
        ...IDEMPOTENCY_PARTITIONS,
        dropBefore: (now) => new Date(now.getTime() - 7 * DAY_MS),
      };
      const m = new PartitionMaintainer({ db, now: clock.now, tables: [t] });
      for (let i = 0; i < 7; i++) {
        await m.maintain();
        await insertKey(db, `p${i}`, clock.now());
        clock.advance(DAY_MS);
      }
      const now = new Date(clock.now().getTime() - DAY_MS);
      const kept = await names(m, t);
      assert.ok(kept.length >= 8, kept.join());
      // The statement ingest's read runs (src/ingest/set-state.ts stateSql): keys younger than 24 hours.
      const plan = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT key FROM idempotency_keys WHERE tenant_id = $1 AND key = ANY($2::text[]) AND created_at > $3`,
        [TENANT, ['p5', 'p6'], new Date(now.getTime() - DAY_MS - 60_000).toISOString()],
      );
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      const scanned = kept.filter((n) => text.includes(n));
      const yesterday = partitionName(t.table, periodStart(new Date(now.getTime() - DAY_MS), 'day'), 'day');
      const today = partitionName(t.table, periodStart(now, 'day'), 'day');
      assert.ok(scanned.includes(yesterday) && scanned.includes(today), text);
      assert.deepEqual(
        scanned.filter((n) => n < yesterday),
        [],
        `partitions before yesterday's are pruned:\n${text}`,
      );
      const rows = await db.query<{ key: string }>(
        'SELECT key FROM idempotency_keys WHERE tenant_id = $1 AND key = ANY($2::text[]) AND created_at > $3',
        [TENANT, ['p4', 'p5', 'p6'], new Date(now.getTime() - DAY_MS - 60_000).toISOString()],
      );
      assert.deepEqual(rows.map((r) => r.key).sort(), ['p5', 'p6']);
    });
  });
}
