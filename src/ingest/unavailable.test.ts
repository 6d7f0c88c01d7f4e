// The event endpoints when the database fails: 500 internal_error, nothing
// acknowledged that was not stored, nothing half-written. A write the database
// refuses inside a grouped append; on PostgreSQL a connection killed in the
// middle of a write and a database that refuses every connection; on PGlite a
// closed database.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { eachStore, FALLBACK_TOKEN, type TestService } from '../testing/harness.ts';
import {
  expectProblem,
  INVOCATION,
  leaves,
  newWorkspace,
  post,
  pseudonymOf,
  query,
  ROGUE,
  stored,
} from '../testing/ingest-kit.ts';

const BATCH = '/api/v1/admin/agents/events/batch';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until fn returns a value (not undefined), for at most `ms`. */
async function waitFor<T>(fn: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A client of the test database outside the service's pool (PostgreSQL only). */
async function adminClient(t: TestService): Promise<pg.Client> {
  assert.ok(t.testDb.url);
  const c = new pg.Client({ connectionString: t.testDb.url });
  await c.connect();
  return c;
}

/**
 * Holds an ACCESS EXCLUSIVE lock on a table until released: a write that
 * reaches the table stops there, inside its transaction, and can be killed.
 */
async function lockTable(t: TestService, table: string) {
  const locker = await adminClient(t);
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  // Watched from outside the locking transaction: pg_stat_activity read inside one is a snapshot.
  const observer = await adminClient(t);
  const blocked = async () => {
    const { rows } = await observer.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows.map((r) => r.pid);
  };
  return {
    /** The backends blocked on the lock now (maybe none). */
    blocked,
    /** Waits for a blocked backend other than these. */
    nextBlocked: (except: number[] = []) =>
      waitFor(async () => (await blocked()).find((pid) => !except.includes(pid)), `a write blocked on ${table}`),
    terminate: async (pids: number[]) => {
      for (const pid of pids) await observer.query('SELECT pg_terminate_backend($1)', [pid]);
    },
    release: async () => {
      await locker.query('ROLLBACK');
      await locker.end();
      await observer.end();
    },
  };
}

/** Every invocation leaf of the workspace log is a stored invocation, and the reverse; usage counts them. */
async function assertConsistent(t: TestService, tenantId: string): Promise<void> {
  const s = await stored(t, tenantId);
  assert.equal(s.entries, s.head, 'log entries and head size agree');
  const inv = (await leaves(t, tenantId)).filter((l) => l.kind === 'invocation').map((l) => l.invocation_id as number);
  const rows = await query<{ invocation_id: number }>(
    t,
    'SELECT invocation_id FROM invocations WHERE tenant_id = $1 ORDER BY invocation_id',
    [tenantId],
  );
  assert.deepEqual(
    [...inv].sort((x, y) => x - y),
    rows.map((r) => r.invocation_id),
  );
  assert.equal(s.usage, s.invocations);
}

eachStore('event endpoints when the database fails', (get) => {
  test('a write the database refuses is 500 internal_error and leaves nothing; the rest of its batch is stored once', async () => {
    const t = get();
    const a = await newWorkspace(t, 'refused-write');
    const before = await stored(t, a.account.tenant_id);
    await t.service.ctx.db.exec(
      "ALTER TABLE invocations ADD CONSTRAINT test_poison CHECK (correlation_id IS DISTINCT FROM 'poison')",
    );
    try {
      // A new agent: its registration is written in the same transaction as the refused write.
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post(t, INVOCATION, a.token, {
            agent_key: 'batch-bot',
            correlation_id: i === 10 ? 'poison' : `ok-${i}`,
            prompt: `p${i}`,
          }),
        ),
      );
      expectProblem(results[10]!, 500, 'internal_error');
      const ok = results.filter((_, i) => i !== 10);
      assert.deepEqual(
        ok.map((r) => r.statusCode),
        Array(19).fill(201),
      );
      const s = await stored(t, a.account.tenant_id);
      assert.equal(s.invocations, before.invocations + 19);
      assert.equal(s.content, before.content + 19);
      assert.equal(s.agents, 1, 'the agent is registered once');
      const agent = await pseudonymOf(t, a.account.tenant_id, 'agent', 'batch-bot');
      const regs = (await leaves(t, a.account.tenant_id)).filter(
        (l) => l.kind === 'agent_registered' && l.agent === agent,
      );
      assert.equal(regs.length, 1, 'one agent_registered leaf');
      const rows = await query<{ invocation_id: number; correlation_id: string }>(
        t,
        'SELECT invocation_id, correlation_id FROM invocations WHERE tenant_id = $1',
        [a.account.tenant_id],
      );
      assert.deepEqual(
        rows.map((r) => r.invocation_id).sort((x, y) => x - y),
        ok.map((r) => r.json().invocation_id as number).sort((x, y) => x - y),
        'exactly the acknowledged invocations are stored',
      );
      assert.equal(
        rows.some((r) => r.correlation_id === 'poison'),
        false,
      );
      await assertConsistent(t, a.account.tenant_id);
    } finally {
      await t.service.ctx.db.exec('ALTER TABLE invocations DROP CONSTRAINT test_poison');
    }
    // The agent known, the service keeps recording.
    assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'batch-bot' })).statusCode, 201);
  });

  test('PostgreSQL: a connection killed in the middle of a write is 500 internal_error, nothing half-written', async (tc) => {
    const t = get();
    if (t.store !== 'postgres') return tc.skip('needs a server whose backends can be terminated');
    const a = await newWorkspace(t, 'killed-write');
    const before = await stored(t, a.account.tenant_id);
    // The agent's registration and the daily count are written before the transaction reaches invocations.
    const lock = await lockTable(t, 'invocations');
    let res: Awaited<ReturnType<typeof post>>;
    try {
      const pending = post(t, INVOCATION, a.token, { agent_key: 'cut-bot', prompt: 'half' });
      let settled = false;
      void pending.finally(() => {
        settled = true;
      });
      // Kill every attempt (a retry included) until the request is answered.
      while (!settled) {
        await lock.terminate(await lock.blocked());
        await sleep(20);
      }
      res = await pending;
    } finally {
      await lock.release();
    }
    expectProblem(res, 500, 'internal_error');
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
    // The pool replaces the dead connection; the same event is then recorded, its agent registered once.
    const again = await post(t, INVOCATION, a.token, { agent_key: 'cut-bot', prompt: 'whole' });
    assert.equal(again.statusCode, 201, again.body);
    const s = await stored(t, a.account.tenant_id);
    assert.equal(s.agents, before.agents + 1);
    assert.equal(s.invocations, before.invocations + 1);
    await assertConsistent(t, a.account.tenant_id);
  });

  test('PostgreSQL: a batch killed at commit after registering a new agent; its events, retried one by one, register it once', async (tc) => {
    const t = get();
    if (t.store !== 'postgres') return tc.skip('needs a server whose backends can be terminated');
    const a = await newWorkspace(t, 'killed-batch');
    assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'warm-bot' })).statusCode, 201);
    const before = await stored(t, a.account.tenant_id);
    // Leaves are written at the end of a batch: every job of it has run when the commit blocks.
    const lock = await lockTable(t, 'log_entries');
    let blockerRes: Awaited<ReturnType<typeof post>>;
    let batch: Array<Promise<Awaited<ReturnType<typeof post>>>>;
    try {
      // One event holds the workspace's writer; ten events of a new agent queue behind it, for one batch.
      const blocker = post(t, INVOCATION, a.token, { agent_key: 'warm-bot', correlation_id: 'blocker' });
      const first = await lock.nextBlocked();
      batch = Array.from({ length: 10 }, (_, i) =>
        post(t, INVOCATION, a.token, { agent_key: 'fresh-bot', correlation_id: `b-${i}` }),
      );
      await sleep(300);
      await lock.terminate([first]);
      blockerRes = await blocker;
      // The batch of ten registered fresh-bot and recorded its events; its commit now waits. Kill it.
      const second = await lock.nextBlocked([first]);
      await lock.terminate([second]);
    } finally {
      await lock.release();
    }
    expectProblem(blockerRes, 500, 'internal_error');
    const results = await Promise.all(batch);
    assert.deepEqual(
      results.map((r) => r.statusCode),
      Array(10).fill(201),
      results.map((r) => r.body).join('\n'),
    );
    const s = await stored(t, a.account.tenant_id);
    assert.equal(s.invocations, before.invocations + 10);
    assert.equal(s.agents, before.agents + 1, 'fresh-bot has its agents row');
    const fresh = await pseudonymOf(t, a.account.tenant_id, 'agent', 'fresh-bot');
    const regs = (await leaves(t, a.account.tenant_id)).filter(
      (l) => l.kind === 'agent_registered' && l.agent === fresh,
    );
    assert.equal(regs.length, 1, 'one agent_registered leaf for fresh-bot');
    await assertConsistent(t, a.account.tenant_id);
  });

  test('PostgreSQL: a database that refuses every connection is 500 internal_error on both endpoints; nothing stored', async (tc) => {
    const t = get();
    if (t.store !== 'postgres') return tc.skip('needs a server that can refuse connections');
    const a = await newWorkspace(t, 'refused-db');
    // A workspace in use: its token, plan and policy are in the node's memory,
    // so the requests below reach the write itself.
    assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'down-bot' })).statusCode, 201);
    const before = await stored(t, a.account.tenant_id);
    const base = process.env.TEST_DATABASE_URL!;
    const name = new URL(t.testDb.url!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      for (const [url, body, token] of [
        [INVOCATION, { agent_key: 'down-bot' }, a.token],
        [ROGUE, { event_type: 'loop', agent_key: 'down-bot' }, a.token],
        [INVOCATION, { agent_key: 'down-bot', tenant_id: a.account.tenant_id }, FALLBACK_TOKEN],
      ] as const) {
        expectProblem(await post(t, url, token, body), 500, 'internal_error');
      }
      // A batch: 500 (the node dropped what it kept when its NOTIFY connection
      // was cut, so it cannot even authorize) or 500 in every slot; never a 201.
      const batch = await post(t, BATCH, a.token, {
        events: [
          { kind: 'invocation', event: { agent_key: 'down-bot' } },
          { kind: 'rogue', event: { event_type: 'loop', agent_key: 'down-bot' } },
        ],
      });
      if (batch.statusCode === 207) {
        assert.deepEqual(
          batch.json().results.map((r: { status: number; code: string }) => [r.status, r.code]),
          [
            [500, 'internal_error'],
            [500, 'internal_error'],
          ],
        );
      } else expectProblem(batch, 500, 'internal_error');
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
    assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'down-bot' })).statusCode, 201);
  });

  // Last: it closes the file's database.
  test('PGlite: a closed database is 500 internal_error on both endpoints, for every kind of token', async (tc) => {
    const t = get();
    if (t.store !== 'pglite') return tc.skip('closes the embedded database');
    const a = await newWorkspace(t, 'closed-db');
    await t.service.ctx.db.close();
    for (const [url, body, token] of [
      [INVOCATION, { agent_key: 'gone-bot', prompt: 'x' }, a.token],
      [ROGUE, { event_type: 'loop', agent_key: 'gone-bot' }, a.token],
      [INVOCATION, { agent_key: 'gone-bot', tenant_id: a.account.tenant_id }, FALLBACK_TOKEN],
      [ROGUE, { event_type: 'loop', agent_key: 'gone-bot', tenant_id: a.account.tenant_id }, FALLBACK_TOKEN],
    ] as const) {
      expectProblem(await post(t, url, token, body), 500, 'internal_error');
    }
    const batch = await post(t, BATCH, a.token, { events: [{ kind: 'invocation', event: { agent_key: 'gone-bot' } }] });
    assert.ok(batch.statusCode === 500 || batch.json().results[0].status === 500, batch.body);
  });
});
