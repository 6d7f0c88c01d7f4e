import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { AppContext } from '../core/context.ts';
import type { Queryable } from '../db/db.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';
import { createPolicy } from './policy.ts';
import { savePolicy } from './store.ts';

// The policy module keeps each workspace's policy in memory for the
// tool_output scan's re-decision. Another node's change must decide this
// node's next scan: the entry is used only while the workspace's change
// epoch, read in the caller's transaction, is the one it was read under.

/** The caller's transaction, counting its statements. */
function counting(tx: Queryable): { n: number; tx: Queryable } {
  const counted = {
    n: 0,
    tx: {
      query: (sql: string, params?: readonly unknown[]) => {
        counted.n++;
        return tx.query(sql, params);
      },
      exec: (sql: string) => tx.exec(sql),
    } as Queryable,
  };
  return counted;
}

for (const store of testStores()) {
  test(`a policy changed through another connection decides this node's next read, with no wait [${store}]`, async () => {
    const testDb = await createTestDb(store);
    try {
      const tenant = randomUUID();
      const node = createPolicy({
        ctx: { db: testDb.db } as AppContext,
        appendInTx: async () => {},
        personaInTx: async () => undefined,
      });
      const read = () =>
        testDb.db.withTenant(tenant, async (tx) => {
          const c = counting(tx);
          const p = await node.policyInTx(c.tx, tenant);
          return {
            version: p.version,
            verdict: p.decide({ agent_key: 'a', mode: 'observed', outcome: 'success', principal_id: 'a', findings: [] })
              .verdict,
            statements: c.n,
          };
        });

      // The built-in default, read once (the epoch, then the policy); then served from memory (the epoch only).
      assert.deepEqual(await read(), { version: 0, verdict: 'allow', statements: 2 });
      assert.deepEqual(await read(), { version: 0, verdict: 'allow', statements: 1 });

      // "Another node" stores version 1: nothing tells this module but the epoch its trigger moves.
      await testDb.db.withTenant(tenant, (tx) =>
        savePolicy(tx, tenant, { default_verdict: 'deny', rules: [] }, randomUUID(), new Date()),
      );
      assert.deepEqual(await read(), { version: 1, verdict: 'deny', statements: 2 });
      assert.deepEqual(await read(), { version: 1, verdict: 'deny', statements: 1 });
    } finally {
      await testDb.dispose();
    }
  });
}
