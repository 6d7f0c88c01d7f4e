// Attaching tools' results (attach-outputs.ts) holds a workspace's log for
// two round trips: what it decides on (the invocations' rows, whether each
// has a tool_output or erased content, the workspace's retention) is read in
// the round trip that takes the lock, and the rows it writes ride in the
// log's own statement. It must answer exactly as reading under the lock
// would: a second result a conflict, another token's invocation not found, an
// invocation past retention erased, and a request the opening did not read
// for read inside.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { PlanCaps } from '../config/config.ts';
import { LogWriter } from '../ledger/log-writer.ts';
import { contentDaysSql } from '../retention/index.ts';
import { countingDb } from '../testing/counting-db.ts';
import { metaItems } from '../testing/record-items.ts';
import { eachTestDb } from '../testing/test-db.ts';
import { attachItem, attachOutputSet } from './attach-outputs.ts';
import { KnownAgents } from './known-agents.ts';
import { recordSet } from './record.ts';

const caps = { agents: 100, invocations_per_day: 1_000_000, multi_judge_calls_per_month: 0 } as PlanCaps;
const READ = 'WITH found AS';
const DAY_MS = 86_400_000;

eachTestDb('attaching results reads ahead with the lock and writes in the log statement', (testDb) => {
  const kek = randomBytes(32);

  /** A workspace with `n` invocations recorded `daysAgo` days ago (ids 1..n), each by an agent of its own (2n leaves). */
  async function recorded(writer: LogWriter, n: number, daysAgo = 0): Promise<string> {
    const tenantId = randomUUID();
    const out = await writer.submitSet(
      tenantId,
      recordSet(new KnownAgents()),
      metaItems(tenantId, n, new Date(Date.now() - daysAgo * DAY_MS), caps),
    );
    assert.ok(out.every((o) => 'status' in o && o.status === 201));
    return tenantId;
  }

  async function stored(tenantId: string) {
    const [row] = await testDb.db.query<{ outputs: number[] | null; jobs: number; size: number; leaves: number }>(
      `SELECT (SELECT array_agg(invocation_id::int ORDER BY invocation_id) FROM invocation_content
                 WHERE tenant_id = $1 AND field = 'tool_output' AND sealed IS NOT NULL) AS outputs,
              (SELECT count(*)::int FROM jobs WHERE tenant_id = $1 AND kind = 'tool_output_scan') AS jobs,
              (SELECT size::int FROM log_heads WHERE tenant_id = $1) AS size,
              (SELECT count(*)::int FROM log_entries WHERE tenant_id = $1 AND leaf LIKE '%"kind":"tool_output_attached"%') AS leaves`,
      [tenantId],
    );
    return row!;
  }

  test('two round trips under the lock: the read with the lock, the rows in the log statement; stored as read under it', async () => {
    const { db, statements } = countingDb(testDb.db);
    const writer = new LogWriter(db);
    const set = attachOutputSet({ now: () => new Date(), contentDaysSql });
    const tenantId = await recorded(writer, 3);
    statements.length = 0;
    const out = await writer.submitSet(tenantId, set, [
      attachItem(kek, tenantId, 1, 'first result', null),
      attachItem(kek, tenantId, 2, 'second result', null),
      attachItem(kek, tenantId, 2, 'the second again', null),
      attachItem(kek, tenantId, 99, 'no such call', null),
    ]);
    assert.deepEqual(statements, ['opening: INSERT INTO log_heads', `opening: ${READ}`, 'WITH attached AS']);
    assert.deepEqual(
      out.map((o) => ('ok' in o ? (o.ok ? o.logIndex : o.reason) : String(o))),
      [6, 7, 'conflict', 'not_found'],
    );
    assert.deepEqual(await stored(tenantId), { outputs: [1, 2], jobs: 2, size: 8, leaves: 2 });

    // Already attached, as read with the lock: a conflict, nothing written.
    statements.length = 0;
    const again = await writer.submitSet(tenantId, set, [attachItem(kek, tenantId, 1, 'once more', null)]);
    assert.deepEqual(again, [{ ok: false, reason: 'conflict' }]);
    assert.deepEqual(statements, ['opening: INSERT INTO log_heads', `opening: ${READ}`]);
    assert.deepEqual(await stored(tenantId), { outputs: [1, 2], jobs: 2, size: 8, leaves: 2 });
  });

  test("another token's invocation is not found; past the workspace's retention is erased", async () => {
    const writer = new LogWriter(testDb.db);
    const set = attachOutputSet({ now: () => new Date(), contentDaysSql });
    const tenantId = await recorded(writer, 2, 200);
    await testDb.db.withTenant(tenantId, (tx) =>
      tx.query('INSERT INTO retention_settings (tenant_id, content_days) VALUES ($1, 183)', [tenantId]),
    );
    const out = await writer.submitSet(tenantId, set, [
      attachItem(kek, tenantId, 1, 'too late', null),
      attachItem(kek, tenantId, 2, 'not mine', randomUUID()),
    ]);
    assert.deepEqual(out, [
      { ok: false, reason: 'erased' },
      { ok: false, reason: 'not_found' },
    ]);
    assert.deepEqual(await stored(tenantId), { outputs: null, jobs: 0, size: 4, leaves: 0 });
    // Within retention (the setting raised): attached.
    await testDb.db.withTenant(tenantId, (tx) =>
      tx.query('UPDATE retention_settings SET content_days = 365 WHERE tenant_id = $1', [tenantId]),
    );
    const later = await writer.submitSet(tenantId, set, [attachItem(kek, tenantId, 1, 'in time', null)]);
    assert.deepEqual(later, [{ ok: true, logIndex: 4 }]);
  });

  test('requests the opening did not read for are read inside, and each is answered as alone', async () => {
    const { db, statements } = countingDb(testDb.db);
    const writer = new LogWriter(db);
    const set = attachOutputSet({ now: () => new Date(), contentDaysSql });
    const tenantId = await recorded(writer, 4);
    statements.length = 0;
    // Concurrent requests share a transaction; the opening read the first one's ids only.
    const [a, b] = await Promise.all([
      writer.submitSet(tenantId, set, [attachItem(kek, tenantId, 1, 'one', null)]),
      writer.submitSet(tenantId, set, [
        attachItem(kek, tenantId, 1, 'one again', null),
        attachItem(kek, tenantId, 3, 'three', null),
      ]),
    ]);
    assert.ok(a[0] && 'ok' in a[0] && a[0].ok);
    assert.deepEqual(b[0], { ok: false, reason: 'conflict' });
    assert.ok(b[1] && 'ok' in b[1] && b[1].ok);
    assert.ok(statements.includes(`opening: ${READ}`));
    assert.deepEqual(await stored(tenantId), { outputs: [1, 3], jobs: 2, size: 10, leaves: 2 });
  });
});
