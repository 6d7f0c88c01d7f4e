// Deciding ahead (log-writer.ts onSent, record.ts ahead): while one
// transaction's last write runs, the next takes the queue and decides it on
// the head and state that write leaves; once it holds the lock it writes what
// it decided only if the head and the state it reads are as assumed, and
// decides again otherwise. Whatever happens, the stored log must be exactly
// what deciding after the lock would have stored: ids gap-free, caps exact,
// the head's root the root of the stored leaves.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import type { PlanCaps } from '../config/config.ts';
import type { Db, Queryable, SendAhead, Statement } from '../db/db.ts';
import { evidenceIdOf } from '../ledger/evidence.ts';
import { ItemFailed, LogWriter } from '../ledger/log-writer.ts';
import { leafHash, rootFromLeafHashes } from '../ledger/merkle.ts';
import { metaItem } from '../testing/record-items.ts';
import { eachTestDb } from '../testing/test-db.ts';
import { KnownAgents } from './known-agents.ts';
import { recordSet } from './record.ts';
import type { RecordOutcome } from './set-items.ts';

const caps = (perDay: number) =>
  ({ agents: 100, invocations_per_day: perDay, multi_judge_calls_per_month: 0 }) as PlanCaps;

type Outcome = RecordOutcome | ItemFailed;
const statusOf = (o: Outcome) =>
  o instanceof ItemFailed ? 'failed' : 'status' in o ? o.status : 'refused' in o ? o.refused : 'stale';

/**
 * A Db whose log writes (the statement that writes the leaves, the nodes and
 * the head) take `ms` longer while holding the head lock, as on a loaded
 * database: events arrive while a write runs, as they do under load.
 */
function slowWrites(db: Db, ms: number, onWrite: () => void = () => {}): Db {
  return holdWrites(db, () => setTimeout(ms), onWrite);
}

/**
 * A Db whose log writes wait for `hold()` (when it gives a promise), after
 * telling `onWrite` (with the parameters they are sent with, and whether they
 * went behind the lock, sent ahead).
 */
function holdWrites(
  db: Db,
  hold: () => Promise<void> | undefined,
  onWrite: (params: readonly unknown[] | undefined, sentAhead: boolean) => void,
): Db {
  const held = (tx: Queryable): Queryable => {
    const out: Queryable = {
      query: async (sql, params) => {
        if (sql.startsWith('WITH')) {
          onWrite(params, false);
          await hold();
        }
        return tx.query(sql, params);
      },
      exec: (sql) => tx.exec(sql),
    };
    const commit = tx.queryThenCommit?.bind(tx);
    if (commit) {
      out.queryThenCommit = async (sql, params) => {
        onWrite(params, false);
        await hold();
        return commit(sql, params);
      };
    }
    return out;
  };
  // A write sent ahead (behind the lock, with its guards) is held before it is sent.
  const heldSend =
    (send: SendAhead): SendAhead =>
    (statements) => {
      onWrite(statements.at(-1)?.params, true);
      const h = hold();
      return h ? h.then(() => send(statements)) : send(statements);
    };
  return {
    ...db,
    withTenant: (tenantId, fn, opening, onOpened) =>
      db.withTenant(
        tenantId,
        (tx, opened) => fn(held(tx), opened),
        opening,
        onOpened && ((send) => onOpened(heldSend(send))),
      ),
  };
}

/** A node: its writer, its set job, and how its transactions decided ahead went. */
function node(db: Db, onWrite?: () => void) {
  const known = new KnownAgents();
  const counts = { written: 0, decided_again: 0 };
  // Single events decide ahead too here (the default waits for 100 queued), to test them.
  const writer = new LogWriter(slowWrites(db, 15, onWrite), { minAheadItems: 1, onDecidedAhead: (o) => counts[o]++ });
  return { known, counts, writer, set: recordSet(known) };
}

eachTestDb('deciding the next transaction while the last one writes', (testDb, store) => {
  /** A workspace whose four agents are registered and known to the node. */
  async function warmed(n: ReturnType<typeof node>): Promise<string> {
    const tenantId = randomUUID();
    const out = await n.writer.submitSet(
      tenantId,
      n.set,
      [0, 1, 2, 3].map((i) => metaItem(tenantId, i, new Date(), caps(1_000_000))),
    );
    assert.deepEqual(out.map(statusOf), [201, 201, 201, 201]);
    for (let a = 0; a < 4; a++) n.known.add(tenantId, `agent-${a}`);
    return tenantId;
  }

  /** What is stored, and the root recomputed from the stored leaves. */
  async function stored(tenantId: string) {
    const [row] = await testDb.db.query<{
      ids: number[] | null;
      usage: number;
      size: number;
      last: number;
      root: Uint8Array;
    }>(
      `SELECT (SELECT array_agg(invocation_id::int ORDER BY invocation_id) FROM invocations WHERE tenant_id = $1) AS ids,
                (SELECT coalesce(sum(invocations), 0)::int FROM usage_daily WHERE tenant_id = $1) AS usage,
                (SELECT size::int FROM log_heads WHERE tenant_id = $1) AS size,
                (SELECT root FROM log_heads WHERE tenant_id = $1) AS root,
                (SELECT last_id::int FROM event_ids WHERE tenant_id = $1 AND kind = 'invocation') AS last`,
      [tenantId],
    );
    const leaves = await testDb.db.query<{ idx: number; leaf: string }>(
      'SELECT idx::int AS idx, leaf FROM log_entries WHERE tenant_id = $1 ORDER BY idx',
      [tenantId],
    );
    assert.deepEqual(
      leaves.map((l) => l.idx),
      Array.from({ length: row!.size }, (_, i) => i),
      'the log has one entry per index, gap-free',
    );
    const root = rootFromLeafHashes(leaves.map((l) => leafHash(Buffer.from(l.leaf))));
    assert.equal(
      Buffer.from(row!.root).toString('hex'),
      Buffer.from(root).toString('hex'),
      "the head's root is the root of the stored leaves",
    );
    // Every stored tree node is the hash the leaves give (nodes written ahead were written right).
    const nodes = await testDb.db.query<{ idx: number; hash: Uint8Array }>(
      'SELECT idx::int AS idx, leaf_hash AS hash FROM log_entries WHERE tenant_id = $1 ORDER BY idx',
      [tenantId],
    );
    assert.deepEqual(
      nodes.map((n) => Buffer.from(n.hash).toString('hex')),
      leaves.map((l) => Buffer.from(leafHash(Buffer.from(l.leaf))).toString('hex')),
    );
    return row!;
  }

  /**
   * Clients sending single events one after the other, as agents do: while
   * one transaction writes, the events of the clients it does not hold queue
   * for the next.
   */
  async function clients(
    n: ReturnType<typeof node>,
    tenantId: string,
    count: number,
    each: number,
    c: PlanCaps,
    gapMs = 3,
  ): Promise<Outcome[]> {
    let i = 4;
    const one = async (_: unknown, client: number) => {
      const out: Outcome[] = [];
      for (let k = 0; k < each; k++) {
        // Spread out, as over a network: some arrive while a transaction writes.
        await setTimeout((client + k) % gapMs);
        out.push(...(await n.writer.submitSet(tenantId, n.set, [metaItem(tenantId, i++, new Date(), c)])));
      }
      return out;
    };
    return (await Promise.all(Array.from({ length: count }, one))).flat();
  }

  test('one node under load (writes slowed so that events arrive while one runs): the log is exactly what deciding after the lock gives', async () => {
    const a = node(testDb.db);
    const tenantId = await warmed(a);
    const out = await clients(a, tenantId, 16, 20, caps(1_000_000));
    assert.ok(out.every((o) => statusOf(o) === 201));
    const s = await stored(tenantId);
    assert.deepEqual(
      s.ids,
      Array.from({ length: 4 + 320 }, (_, i) => i + 1),
    );
    assert.equal(s.usage, 324);
    assert.equal(s.last, 324);
    assert.equal(s.size, 4 + 324);
    // Each answer names the id and the evidence its leaf got.
    const bodies = out.map((o) => (o as Extract<RecordOutcome, { status: 201 }>).body);
    assert.deepEqual(new Set(bodies.map((b) => b.invocation_id)).size, 320);
    const byId = await testDb.db.query<{ invocation_id: number; log_index: number }>(
      'SELECT invocation_id::int AS invocation_id, log_index::int AS log_index FROM invocations WHERE tenant_id = $1',
      [tenantId],
    );
    const index = new Map(byId.map((r) => [r.invocation_id, r.log_index]));
    for (const b of bodies) assert.equal(b.evidence_id, evidenceIdOf(index.get(b.invocation_id as number)!));
  });

  test('the daily cap is exact when it is reached in a transaction decided ahead', async () => {
    const a = node(testDb.db);
    const tenantId = await warmed(a);
    const out = await clients(a, tenantId, 12, 15, caps(100));
    const statuses = out.map(statusOf);
    assert.equal(statuses.filter((x) => x === 201).length, 96, '4 stored before, 96 more up to the cap of 100');
    assert.equal(statuses.filter((x) => x === 'quota_exceeded').length, 180 - 96);
    const s = await stored(tenantId);
    assert.equal(s.usage, 100);
    assert.deepEqual(
      s.ids,
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
  });

  /**
   * One event is written, its write held; while it is held `size` events
   * come (decided ahead when at least `minAheadItems`) and their transaction
   * is kept from opening; then, when `overtaken`, another node appends one
   * event; then the transaction opens. Returns the counts and the answers.
   */
  async function scenario(opts: { minAheadItems?: number; size: number; overtaken: boolean | 'epoch' }) {
    let writeHeld: PromiseWithResolvers<void> | undefined;
    // Set once the first event is sent (the workspace's warm-up writes pass unnoticed).
    const writeReached: { current?: PromiseWithResolvers<void> } = {};
    let openHeld: PromiseWithResolvers<void> | undefined;
    const gated: Db = {
      ...testDb.db,
      withTenant: async (tenantId, fn, opening, onOpened) => {
        await openHeld?.promise;
        return testDb.db.withTenant(tenantId, fn, opening, onOpened);
      },
    };
    // The log statements made ahead (encodeParams), and whether each log write was sent with one.
    const madeAhead = new WeakSet<readonly unknown[]>();
    const encode =
      testDb.db.encodeParams?.bind(testDb.db) ?? ((s: Statement) => ({ sql: s.sql, params: [...s.params] }));
    gated.encodeParams = (s) => {
      const encoded = encode(s);
      madeAhead.add(encoded.params);
      return encoded;
    };
    const sentMadeAhead: boolean[] = [];
    const sentAhead: boolean[] = [];
    const counts = { written: 0, decided_again: 0 };
    const known = new KnownAgents();
    const writer = new LogWriter(
      holdWrites(
        gated,
        () => writeHeld?.promise,
        (params, ahead) => {
          sentMadeAhead.push(params !== undefined && madeAhead.has(params));
          sentAhead.push(ahead);
          writeReached.current?.resolve();
        },
      ),
      {
        ...(opts.minAheadItems !== undefined ? { minAheadItems: opts.minAheadItems } : {}),
        onDecidedAhead: (o) => counts[o]++,
      },
    );
    const a = { known, counts, set: recordSet(known), writer };
    const b = node(testDb.db);
    const tenantId = await warmed(a);
    for (let k = 0; k < 4; k++) b.known.add(tenantId, `agent-${k}`);
    writeHeld = Promise.withResolvers();
    writeReached.current = Promise.withResolvers();
    const first = a.writer.submitSet(tenantId, a.set, [metaItem(tenantId, 4, new Date(), caps(1_000_000))]);
    await writeReached.current.promise;
    await setTimeout(1);
    // The next events come while the first one's write runs.
    openHeld = Promise.withResolvers();
    const second = a.writer.submitSet(
      tenantId,
      a.set,
      Array.from({ length: opts.size }, (_, i) => metaItem(tenantId, 5 + i, new Date(), caps(1_000_000))),
    );
    await setTimeout(1);
    const held = openHeld;
    writeHeld.resolve();
    writeHeld = undefined;
    assert.equal(statusOf((await first)[0]!), 201);
    if (opts.overtaken === true)
      assert.equal(
        statusOf(
          (await b.writer.submitSet(tenantId, b.set, [metaItem(tenantId, 99, new Date(), caps(1_000_000))]))[0]!,
        ),
        201,
      );
    // A policy or scope edited on some node: the change epoch moves (as bump_change_epoch does).
    if (opts.overtaken === 'epoch') {
      await testDb.db.query(
        'INSERT INTO change_epochs (tenant_id, epoch) VALUES ($1, 1) ON CONFLICT (tenant_id) DO UPDATE SET epoch = change_epochs.epoch + 1',
        [tenantId],
      );
    }
    openHeld = undefined;
    held.resolve();
    const out = await second;
    if (opts.overtaken === 'epoch') {
      // Decided on the epoch before: every event is stale (the request decides them again with what it reads afresh).
      assert.deepEqual(
        out.map(statusOf),
        out.map(() => 'stale'),
      );
      const s = await stored(tenantId);
      assert.equal(s.size, 4 + 5, 'nothing of them was written');
      return {
        counts,
        bodies: [],
        n: 5,
        lastSentMadeAhead: sentMadeAhead.at(-1),
        sentAhead: sentAhead.filter(Boolean).length,
      };
    }
    assert.ok(out.every((o) => statusOf(o) === 201));
    const n = 5 + opts.size + (opts.overtaken ? 1 : 0);
    const s = await stored(tenantId);
    assert.deepEqual(
      s.ids,
      Array.from({ length: n }, (_, i) => i + 1),
    );
    assert.equal(s.usage, n);
    assert.equal(s.size, 4 + n);
    // The writes of the warm-up and of the first event, then the second transaction's.
    return {
      counts,
      bodies: out.map((o) => (o as Extract<RecordOutcome, { status: 201 }>).body),
      n,
      lastSentMadeAhead: sentMadeAhead.at(-1),
      // Writes sent behind the lock before its answer (PostgreSQL only).
      sentAhead: sentAhead.filter(Boolean).length,
    };
  }

  // On PostgreSQL a write decided ahead goes behind the lock before the lock's answer, its guards first (log_expect).
  const aheadOnWire = store === 'postgres' ? 1 : 0;

  test('another node appends between the write decided on and the one decided ahead: it is decided again, and the log stays exact', async () => {
    const alone = await scenario({ minAheadItems: 1, size: 1, overtaken: false });
    assert.deepEqual(alone.counts, { written: 1, decided_again: 0 });
    // Its log statement was made, parameters encoded, before it held the lock: only sending it was left.
    assert.equal(alone.lastSentMadeAhead, true);
    assert.equal(alone.sentAhead, aheadOnWire);
    const overtaken = await scenario({ minAheadItems: 1, size: 1, overtaken: true });
    // On PostgreSQL the write went behind the lock and its head guard refused it; elsewhere the head read with the lock did.
    assert.equal(overtaken.sentAhead, aheadOnWire);
    assert.deepEqual(overtaken.counts, { written: 0, decided_again: 1 });
    // Decided again: the statement made ahead (of a head that moved) is not the one sent.
    assert.equal(overtaken.lastSentMadeAhead, false);
    // The answer names the id and index its leaf finally got, not the ones decided ahead.
    assert.equal(overtaken.bodies[0]!.invocation_id, overtaken.n);
    assert.equal(overtaken.bodies[0]!.evidence_id, evidenceIdOf(4 + overtaken.n - 1));
  });

  test('the change epoch moves between deciding ahead and the lock (a policy edited on another node): refused, decided again, nothing written', async () => {
    const moved = await scenario({ minAheadItems: 1, size: 3, overtaken: 'epoch' });
    // On PostgreSQL its state guard refused the write sent ahead; elsewhere the state read with the lock did.
    assert.equal(moved.sentAhead, aheadOnWire);
    assert.deepEqual(moved.counts, { written: 0, decided_again: 1 });
  });

  test('by default only a queue of 100 events or more is decided ahead; fewer wait for the lock', async () => {
    assert.deepEqual((await scenario({ size: 99, overtaken: false })).counts, { written: 0, decided_again: 0 });
    const ahead = await scenario({ size: 100, overtaken: false });
    assert.deepEqual(ahead.counts, { written: 1, decided_again: 0 });
    assert.equal(ahead.lastSentMadeAhead, true);
    const batch = await scenario({ size: 100, overtaken: true });
    assert.deepEqual(batch.counts, { written: 0, decided_again: 1 });
    assert.deepEqual(
      batch.bodies.map((b) => b.invocation_id),
      Array.from({ length: 100 }, (_, i) => 7 + i),
    );
  });
});
