// The set's read ahead (record.ts opening): when the request that opens a
// transaction brings only agents this node knows, what deciding needs (its
// idempotency keys too) is read in the round trip that takes the head lock,
// and the transaction sends no read of its own. It must decide exactly as the read
// would: caps counted on every node, ids gap-free, and a day it did not read
// read again.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { PlanCaps } from '../config/config.ts';
import { LogWriter } from '../ledger/log-writer.ts';
import { countingDb } from '../testing/counting-db.ts';
import { metaItems } from '../testing/record-items.ts';
import { eachTestDb } from '../testing/test-db.ts';
import { KnownAgents } from './known-agents.ts';
import { recordSet } from './record.ts';

const READ = 'SELECT coalesce((SELECT epoch';

const caps = (perDay: number) =>
  ({ agents: 100, invocations_per_day: perDay, multi_judge_calls_per_month: 0 }) as PlanCaps;

eachTestDb('read ahead with the head lock', (testDb) => {
  /** A workspace whose agents are registered and known to `known`. */
  async function warmed(
    writer: LogWriter,
    set: ReturnType<typeof recordSet>,
    known: KnownAgents,
    c: PlanCaps,
  ): Promise<string> {
    const tenantId = randomUUID();
    const out = await writer.submitSet(
      tenantId,
      set,
      metaItems(tenantId, 4, new Date(), { ...c, invocations_per_day: 1_000_000 }),
    );
    assert.ok(out.every((o) => 'status' in o && o.status === 201));
    for (let a = 0; a < 4; a++) known.add(tenantId, `agent-${a}`);
    return tenantId;
  }

  async function stored(tenantId: string) {
    const [row] = await testDb.db.query<{ ids: number[]; usage: number; size: number; last: number }>(
      `SELECT (SELECT array_agg(invocation_id::int ORDER BY invocation_id) FROM invocations WHERE tenant_id = $1) AS ids,
                (SELECT coalesce(sum(invocations), 0)::int FROM usage_daily WHERE tenant_id = $1) AS usage,
                (SELECT size::int FROM log_heads WHERE tenant_id = $1) AS size,
                (SELECT last_id::int FROM event_ids WHERE tenant_id = $1 AND kind = 'invocation') AS last`,
      [tenantId],
    );
    return row!;
  }

  test('known agents and no key: no read inside the transaction, for 1 event or 200', async () => {
    const { db, statements } = countingDb(testDb.db);
    const known = new KnownAgents();
    const writer = new LogWriter(db);
    const set = recordSet(known);
    const seen: Record<number, string[]> = {};
    for (const n of [1, 200]) {
      const tenantId = await warmed(writer, set, known, caps(1_000_000));
      statements.length = 0;
      const out = await writer.submitSet(tenantId, set, metaItems(tenantId, n, new Date(), caps(1_000_000)));
      assert.ok(out.every((o) => 'status' in o && o.status === 201 && !o.replayed));
      seen[n] = [...statements];
      const s = await stored(tenantId);
      assert.deepEqual(
        s.ids,
        Array.from({ length: 4 + n }, (_, i) => i + 1),
      );
      assert.equal(s.usage, 4 + n);
      assert.equal(s.size, 4 + 4 + n); // 4 agent registrations, 4 + n invocations
    }
    assert.deepEqual(seen[200], seen[1]);
    assert.deepEqual(seen[1], [`opening: INSERT INTO log_heads`, `opening: ${READ}`, 'WITH usage AS']);
  });

  test('an unknown agent reads inside the transaction instead', async () => {
    const { db, statements } = countingDb(testDb.db);
    const known = new KnownAgents();
    const writer = new LogWriter(db);
    const set = recordSet(known);
    const tenantId = await warmed(writer, set, known, caps(1_000_000));
    statements.length = 0;
    await writer.submitSet(tenantId, set, metaItems(tenantId, 5, new Date(), caps(1_000_000), 5)); // agent-4 is new
    assert.deepEqual(statements, ['opening: INSERT INTO log_heads', READ, 'WITH usage AS']);
    assert.equal((await stored(tenantId)).usage, 4 + 5);
  });

  test("the opening request's idempotency keys are looked up ahead: a replay answers first time's response, nothing stored again", async () => {
    const { db, statements } = countingDb(testDb.db);
    const known = new KnownAgents();
    const writer = new LogWriter(db);
    const set = recordSet(known);
    const tenantId = await warmed(writer, set, known, caps(1_000_000));
    const keyed = (n: number, prefix: string) =>
      metaItems(tenantId, n, new Date(), caps(1_000_000)).map((i, k) => ({
        ...i,
        idem: { key: `${prefix}-${k}`, fingerprint: 'ab'.repeat(32) },
      }));
    statements.length = 0;
    const first = await writer.submitSet(tenantId, set, keyed(2, 'k'));
    assert.deepEqual(statements, ['opening: INSERT INTO log_heads', `opening: ${READ}`, 'WITH usage AS']);
    assert.ok(first.every((o) => 'status' in o && o.status === 201 && !o.replayed));
    statements.length = 0;
    const again = await writer.submitSet(tenantId, set, keyed(2, 'k'));
    // Replays only: nothing to write, no read inside.
    assert.deepEqual(statements.slice(0, 2), ['opening: INSERT INTO log_heads', `opening: ${READ}`]);
    assert.ok(!statements.includes(READ));
    assert.deepEqual(
      again.map((o) => ('body' in o ? [o.replayed, o.body.invocation_id] : o)),
      first.map((o) => ('body' in o ? [true, o.body.invocation_id] : o)),
    );
    const s = await stored(tenantId);
    assert.equal(s.usage, 4 + 2);
    assert.equal(s.size, 4 + 4 + 2);
  });

  test('keys the opening did not look up (another request taken with it) are read inside the transaction', async () => {
    const { db, statements } = countingDb(testDb.db);
    const known = new KnownAgents();
    const writer = new LogWriter(db);
    const set = recordSet(known);
    const tenantId = await warmed(writer, set, known, caps(1_000_000));
    const keyed = (key: string) =>
      metaItems(tenantId, 1, new Date(), caps(1_000_000)).map((i) => ({
        ...i,
        idem: { key, fingerprint: 'cd'.repeat(32) },
      }));
    const firstB = await writer.submitSet(tenantId, set, keyed('b'));
    statements.length = 0;
    // Queued together: one transaction, opened by the first request; the second's key was not read ahead.
    const [a, b] = await Promise.all([
      writer.submitSet(tenantId, set, keyed('a')),
      writer.submitSet(tenantId, set, keyed('b')),
    ]);
    assert.deepEqual(statements, ['opening: INSERT INTO log_heads', `opening: ${READ}`, READ, 'WITH usage AS']);
    assert.ok(a![0] && 'status' in a![0] && a![0].status === 201 && !a![0].replayed);
    assert.ok(b![0] && 'body' in b![0] && b![0].replayed);
    assert.equal('body' in b![0] && b![0].body.invocation_id, 'body' in firstB[0]! && firstB[0].body.invocation_id);
    assert.equal((await stored(tenantId)).usage, 4 + 2);
  });

  test('the daily cap read ahead is exact: the events over it are refused and nothing of them is stored', async () => {
    const known = new KnownAgents();
    const writer = new LogWriter(testDb.db);
    const set = recordSet(known);
    const tenantId = await warmed(writer, set, known, caps(7));
    const out = await writer.submitSet(tenantId, set, metaItems(tenantId, 5, new Date(), caps(7)));
    assert.deepEqual(
      out.map((o) => ('status' in o ? o.status : 'refused' in o ? o.refused : 'stale')),
      [201, 201, 201, 'quota_exceeded', 'quota_exceeded'],
    );
    const s = await stored(tenantId);
    assert.equal(s.usage, 7);
    assert.deepEqual(s.ids, [1, 2, 3, 4, 5, 6, 7]);
  });

  test('two nodes appending to one workspace: ids gap-free and usage exact, each reading ahead after the other committed', async () => {
    const knownA = new KnownAgents();
    const knownB = new KnownAgents();
    const a = { writer: new LogWriter(testDb.db), set: recordSet(knownA) };
    const b = { writer: new LogWriter(testDb.db), set: recordSet(knownB) };
    const tenantId = await warmed(a.writer, a.set, knownA, caps(1_000_000));
    for (let i = 0; i < 4; i++) knownB.add(tenantId, `agent-${i}`);
    const rounds = Array.from({ length: 12 }, (_, r) => {
      const node = r % 2 === 0 ? a : b;
      return node.writer.submitSet(tenantId, node.set, metaItems(tenantId, 5, new Date(), caps(1_000_000)));
    });
    const outs = (await Promise.all(rounds)).flat();
    assert.equal(outs.length, 60);
    assert.ok(outs.every((o) => 'status' in o && o.status === 201));
    const ids = outs.map((o) => ('body' in o ? (o.body.invocation_id as number) : 0)).sort((x, y) => x - y);
    assert.deepEqual(
      ids,
      Array.from({ length: 60 }, (_, i) => i + 5),
    );
    const s = await stored(tenantId);
    assert.equal(s.usage, 64);
    assert.equal(s.last, 64);
    assert.equal(s.size, 68);
  });

  test('a day the opening did not read is read again inside the transaction and counted on its own', async () => {
    const { db, statements } = countingDb(testDb.db);
    const known = new KnownAgents();
    const writer = new LogWriter(db);
    const set = recordSet(known);
    const tenantId = await warmed(writer, set, known, caps(3));
    statements.length = 0;
    const today = new Date();
    const later = new Date(today.getTime() + 5 * 24 * 3600_000);
    // Queued in the same turn: one transaction, opened by the first request (today and tomorrow read ahead).
    const [first, second] = await Promise.all([
      writer.submitSet(tenantId, set, metaItems(tenantId, 2, today, caps(3))),
      writer.submitSet(tenantId, set, metaItems(tenantId, 3, later, caps(3))),
    ]);
    assert.deepEqual(statements, ['opening: INSERT INTO log_heads', `opening: ${READ}`, READ, 'WITH usage AS']);
    // Today had 4 of 3 already: both refused. Five days on: a new day, 3 of 3.
    assert.deepEqual(
      first!.map((o) => ('refused' in o ? o.refused : 'stored')),
      ['quota_exceeded', 'quota_exceeded'],
    );
    assert.deepEqual(
      second!.map((o) => ('status' in o ? o.status : 'refused')),
      [201, 201, 201],
    );
  });
});
