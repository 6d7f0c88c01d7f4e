// A transaction's last statements sent behind its opening, before the
// opening's answer (Db.withTenant's onOpened, postgres.ts sendAhead): the log
// writer sends a write decided ahead behind the head's lock, with guards
// (log_expect) that abort it unless what it was decided on still holds. The
// server must run them only once the lock is granted, commit them all or
// nothing, and never commit behind an opening that failed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createTestDb, type TestDb } from '../testing/test-db.ts';
import { CommitOutcomeUnknown, type SendAhead, type Statement } from './db.ts';

describe(
  'statements sent ahead on PostgreSQL',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL' },
  () => {
    let t: TestDb;
    let holder: pg.Client;
    before(async () => {
      t = await createTestDb('postgres');
      await t.db.exec(
        'CREATE TABLE sa_lock (k int PRIMARY KEY); INSERT INTO sa_lock VALUES (1); CREATE TABLE sa (id text PRIMARY KEY, v text)',
      );
      holder = new pg.Client({ connectionString: t.url });
      await holder.connect();
    });
    after(async () => {
      await holder?.end();
      await t?.dispose();
    });

    const lock: Statement = { sql: 'SELECT k FROM sa_lock WHERE k = $1 FOR UPDATE', params: [1] };
    const insert = (id: string, v: string): Statement => ({
      sql: 'INSERT INTO sa (id, v) VALUES ($1, $2)',
      params: [id, v],
    });
    const stored = async (prefix: string) =>
      (
        await t.db.query<{ id: string; v: string }>('SELECT id, v FROM sa WHERE id LIKE $1 ORDER BY id', [`${prefix}%`])
      ).map((r) => `${r.id.slice(prefix.length)}=${r.v}`);

    /**
     * A transaction whose opening waits for the lock another connection holds,
     * with `statements` sent ahead the moment it opens; fn awaits what was sent.
     */
    function behindHeldLock(statements: Statement[], opening: Statement[] = [lock]) {
      let sent: Promise<void> | undefined;
      let opened: unknown[][] | undefined;
      const done = t.db.withTenant(
        randomUUID(),
        async (_tx, rows) => {
          opened = rows;
          assert.ok(sent, 'sent before the opening answered');
          await sent;
        },
        opening,
        (send: SendAhead) => {
          sent = send(statements);
          sent.catch(() => {});
        },
      );
      return { done, sent: () => sent, opened: () => opened };
    }

    test('they wait behind the opening that waits for a lock, run once it is granted, and commit with it', async () => {
      const id = randomUUID();
      await holder.query('BEGIN');
      await holder.query('SELECT k FROM sa_lock WHERE k = 1 FOR UPDATE');
      const tx = behindHeldLock([insert(`${id}-a`, "it's"), insert(`${id}-b`, '\\x')]);
      let settled = false;
      void tx.done.then(
        () => (settled = true),
        () => (settled = true),
      );
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(tx.sent(), 'sent while the opening waits for the lock');
      assert.equal(settled, false, 'nothing answered while the lock is held');
      assert.deepEqual(await stored(id), []);
      await holder.query('COMMIT');
      await tx.done;
      assert.deepEqual(tx.opened(), [[{ k: 1 }]], 'the opening took the lock and read its row');
      assert.deepEqual(await stored(id), ["-a=it's", '-b=\\x']);
      // The lock was released with the commit: it can be taken at once.
      await holder.query('BEGIN');
      await holder.query("SET LOCAL lock_timeout = '1s'");
      await holder.query('SELECT k FROM sa_lock WHERE k = 1 FOR UPDATE');
      await holder.query('COMMIT');
    });

    test("a guard that raises (log_expect) aborts it: nothing sent is committed, the error is the guard's, the pool still answers", async () => {
      const id = randomUUID();
      for (let i = 0; i < 3; i++) {
        const tx = behindHeldLock([
          insert(`${id}-${i}-before`, 'x'),
          { sql: 'SELECT log_expect($1 = 2, $2)', params: [1, 'a test'] },
          insert(`${id}-${i}`, 'y'),
        ]);
        await assert.rejects(
          tx.done,
          (err: unknown) => err instanceof pg.DatabaseError && err.code === 'AL001' && /a test/.test(err.message),
        );
        await assert.rejects(tx.sent()!, (err: unknown) => err instanceof pg.DatabaseError && err.code === 'AL001');
      }
      assert.deepEqual(await stored(id), []);
      // A guard that holds lets them through.
      const ok = behindHeldLock([
        { sql: 'SELECT log_expect($1 = 2, $2)', params: [2, 'a test'] },
        insert(`${id}-ok`, 'z'),
      ]);
      await ok.done;
      assert.deepEqual(await stored(id), ['-ok=z']);
      assert.deepEqual(await t.db.query('SELECT 1 AS one'), [{ one: 1 }]);
    });

    test('an opening that fails takes what was sent behind it down: nothing is committed', async () => {
      const id = randomUUID();
      const tx = behindHeldLock([insert(`${id}-x`, 'x')], [lock, { sql: 'SELECT 1 / $1::int AS q', params: [0] }]);
      await assert.rejects(tx.done, (err: unknown) => err instanceof pg.DatabaseError && err.code === '22012');
      // Behind an aborted transaction: refused, not committed.
      await assert.rejects(tx.sent()!, (err: unknown) => err instanceof pg.DatabaseError && err.code === '25P02');
      assert.deepEqual(await stored(id), []);
      assert.deepEqual(await t.db.query('SELECT 1 AS one'), [{ one: 1 }]);
    });

    test('once sent, nothing more runs in the transaction; what was sent and committed is never reported as a plain failure', async () => {
      const id = randomUUID();
      await assert.rejects(
        t.db.withTenant(
          randomUUID(),
          async (tx) => {
            await tx.query('SELECT 1');
          },
          [lock],
          (send) => void send([insert(id, 'x')]).catch(() => {}),
        ),
        // fn failed without awaiting what it sent, which committed: a caller must not run it again as if nothing was stored.
        (err: unknown) =>
          err instanceof CommitOutcomeUnknown && /has committed/.test(String((err.cause as Error).message)),
      );
      assert.deepEqual(await stored(id), ['=x']);
    });
  },
);

describe('statements sent ahead on PGlite', () => {
  test('there is no round trip to save: onOpened is never called', async () => {
    const t = await createTestDb('pglite');
    try {
      let called = false;
      const rows = await t.db.withTenant(
        randomUUID(),
        async (_tx, opened) => opened,
        [{ sql: 'SELECT 1 AS one', params: [] }],
        () => (called = true),
      );
      assert.equal(called, false);
      assert.ok(rows === undefined || Array.isArray(rows));
    } finally {
      await t.dispose();
    }
  });
});
