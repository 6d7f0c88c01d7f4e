// OpenAppend.prepareCommit: the log's statement made before it is sent (a
// transaction decided ahead makes it before it holds the lock). What commit()
// sends must be exactly what it would have built then: the prepared statement
// while nothing changed, a fresh one once a ride-along came after it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Queryable, Statement } from '../db/db.ts';
import { eachTestDb } from '../testing/test-db.ts';
import { OpenAppend } from './append.ts';
import { lockHead } from './log-store.ts';
import { leafHash, rootFromLeafHashes } from './merkle.ts';

/** A ride-along that records `last_id` for the kind 'invocation' in event_ids. */
const probe = (tenantId: string, lastId: number) => ({
  ctes: `probe AS (INSERT INTO event_ids (tenant_id, kind, last_id) VALUES ($1, 'invocation', $2))`,
  params: [tenantId, lastId],
});

eachTestDb("an append's statement made ahead", (testDb) => {
  /**
   * Appends three entries to a new workspace's log, `steps` run between
   * seal() and commit(); returns whether the log statement sent was the one
   * prepareCommit made, and what is stored.
   */
  async function append(steps: (log: OpenAppend, prepare: () => void) => void) {
    const tenantId = randomUUID();
    const made = new WeakSet<readonly unknown[]>();
    const encode = (s: Statement) => {
      const encoded = testDb.db.encodeParams?.(s) ?? { sql: s.sql, params: [...s.params] };
      made.add(encoded.params);
      return encoded;
    };
    let sentMade: boolean | undefined;
    await testDb.db.withTenant(tenantId, async (tx) => {
      const log = new OpenAppend(tenantId, await lockHead(tx, tenantId), []);
      log.lastWork = true;
      for (let i = 0; i < 3; i++) log.add({ kind: 'note', n: i }, new Date());
      log.seal();
      steps(log, () => log.prepareCommit(encode));
      const send = (params: readonly unknown[]) => {
        sentMade = made.has(params);
      };
      const watched: Queryable = {
        query: (sql, params) => {
          if (sql.includes('log_entries')) send(params!);
          return tx.query(sql, params);
        },
        exec: (sql) => tx.exec(sql),
        ...(tx.queryThenCommit
          ? {
              queryThenCommit: (sql: string, params: readonly unknown[]) => {
                send(params);
                return tx.queryThenCommit!(sql, params);
              },
            }
          : {}),
      };
      await log.commit(watched, { last: true });
    });
    const leaves = await testDb.db.query<{ leaf: string }>(
      'SELECT leaf FROM log_entries WHERE tenant_id = $1 ORDER BY idx',
      [tenantId],
    );
    const [head] = await testDb.db.query<{ size: number; root: Uint8Array }>(
      'SELECT size::int AS size, root FROM log_heads WHERE tenant_id = $1',
      [tenantId],
    );
    const ids = await testDb.db.query<{ last_id: number }>(
      'SELECT last_id::int AS last_id FROM event_ids WHERE tenant_id = $1',
      [tenantId],
    );
    assert.equal(leaves.length, 3);
    assert.equal(head!.size, 3);
    assert.deepEqual(
      Buffer.from(head!.root),
      Buffer.from(rootFromLeafHashes(leaves.map((l) => leafHash(Buffer.from(l.leaf))))),
    );
    return { sentMade, ids: ids.map((r) => r.last_id) };
  }

  test('made after the ride-along: commit() sends it as made, and its rows are stored', async () => {
    const out = await append((log, prepare) => {
      log.rideAlong(probe(log.tenantId, 41));
      prepare();
    });
    assert.deepEqual(out, { sentMade: true, ids: [41] });
  });

  test('a ride-along after it undoes it: commit() builds the statement again, with those rows', async () => {
    const out = await append((log, prepare) => {
      prepare();
      log.rideAlong(probe(log.tenantId, 42));
    });
    assert.deepEqual(out, { sentMade: false, ids: [42] });
  });

  test('not made: commit() builds it', async () => {
    assert.deepEqual(await append(() => {}), { sentMade: false, ids: [] });
  });
});
