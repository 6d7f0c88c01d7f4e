// Where a leaf's hash is stored (migration 0125): in its entry's row, not as
// a level-0 row of log_nodes. Logs written before keep theirs in log_nodes;
// appends, proofs and tiles must read a level-0 hash from either place, and a
// log holding both layouts must still give the root its leaves give.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { migrate } from '../db/migrate.ts';
import { createTestDb, type TestDb, testStores } from '../testing/test-db.ts';
import { OpenAppend } from './append.ts';
import { lockHead, readEntries, readNodes } from './log-store.ts';
import { consistencyNeeds, consistencyProof, inclusionNeeds, inclusionProof, leafHashOfText, rootFromLeafHashes, verifyConsistency, verifyInclusion } from './merkle.ts';
import { buildTile } from './tiles.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

for (const store of testStores()) {
  describe(`leaf hashes stored in their entries [${store}]`, () => {
    let testDb: TestDb;
    before(async () => {
      testDb = await createTestDb(store);
      await migrate(testDb.db);
    });
    after(async () => {
      await testDb?.dispose();
    });

    /** Appends `count` entries in one transaction; the tree's right edge is read from storage unless the log is new. */
    async function append(tenantId: string, count: number): Promise<void> {
      await testDb.db.withTenant(tenantId, async (tx) => {
        const head = await lockHead(tx, tenantId);
        const log = new OpenAppend(tenantId, head, head.size === 0 ? [] : undefined);
        for (let i = 0; i < count; i++) log.add({ kind: 'note', n: head.size + i }, new Date());
        await log.commit(tx);
      });
    }

    const query = <R>(tenantId: string, sql: string, params: unknown[] = []) =>
      testDb.db.withTenant(tenantId, (tx) => tx.query<R & Record<string, unknown>>(sql, [tenantId, ...params]));

    async function leafHashes(tenantId: string): Promise<Uint8Array[]> {
      const rows = await query<{ leaf: string }>(tenantId, 'SELECT leaf FROM log_entries WHERE tenant_id = $1 ORDER BY idx');
      return rows.map((r) => leafHashOfText(r.leaf));
    }

    test('an append writes each leaf hash in its entry row and no level-0 node', async () => {
      const tenantId = randomUUID();
      await append(tenantId, 5);
      await append(tenantId, 6);
      const rows = await query<{ leaf: string; leaf_hash: Uint8Array }>(tenantId, 'SELECT leaf, leaf_hash FROM log_entries WHERE tenant_id = $1 ORDER BY idx');
      assert.equal(rows.length, 11);
      assert.deepEqual(rows.map((r) => hex(r.leaf_hash)), rows.map((r) => hex(leafHashOfText(r.leaf))));
      const levels = await query<{ level: number; n: number }>(tenantId, 'SELECT level, count(*)::int AS n FROM log_nodes WHERE tenant_id = $1 GROUP BY level ORDER BY level');
      // 11 leaves complete 5 subtrees of 2, 2 of 4, 1 of 8; none of 1 is a node row.
      assert.deepEqual(levels.map((l) => [l.level, l.n]), [[1, 5], [2, 2], [3, 1]]);
      const [head] = await query<{ size: number; root: Uint8Array }>(tenantId, 'SELECT size::int AS size, root FROM log_heads WHERE tenant_id = $1');
      assert.equal(hex(head!.root), hex(rootFromLeafHashes(await leafHashes(tenantId))));
    });

    test('a log whose first entries keep their leaf hashes in log_nodes (written before migration 0125) appends, proves and tiles as one log', async () => {
      const tenantId = randomUUID();
      await append(tenantId, 7);
      // The layout before migration 0125, for the 7 entries so far: leaf hashes as level-0 node rows, none in the entries.
      await testDb.db.withTenant(tenantId, async (tx) => {
        await tx.query(
          `INSERT INTO log_nodes (tenant_id, level, idx, hash) SELECT tenant_id, 0, idx, leaf_hash FROM log_entries WHERE tenant_id = $1`,
          [tenantId],
        );
        await tx.query('UPDATE log_entries SET leaf_hash = NULL WHERE tenant_id = $1', [tenantId]);
      });
      // The next append needs the right edge of 7 leaves, leaf 6 among it: from log_nodes.
      await append(tenantId, 6);
      const hashes = await leafHashes(tenantId);
      assert.equal(hashes.length, 13);
      const [head] = await query<{ root: Uint8Array }>(tenantId, 'SELECT root FROM log_heads WHERE tenant_id = $1');
      assert.equal(hex(head!.root), hex(rootFromLeafHashes(hashes)), 'the head is the root of every leaf, old and new');

      const entries = await testDb.db.withTenant(tenantId, (tx) => readEntries(tx, tenantId, 0, 13));
      assert.deepEqual(entries.map((e) => hex(e.leafHash)), hashes.map(hex), 'each entry with its leaf hash, from either place');

      const root = rootFromLeafHashes(hashes);
      for (const index of [0, 5, 6, 7, 12]) {
        const nodes = await testDb.db.withTenant(tenantId, (tx) => readNodes(tx, tenantId, inclusionNeeds(index, 13)));
        const proof = inclusionProof(index, 13, nodes);
        assert.ok(verifyInclusion(index, 13, hashes[index]!, proof, root), `inclusion of ${index}`);
      }
      for (const first of [3, 7, 8]) {
        const nodes = await testDb.db.withTenant(tenantId, (tx) => readNodes(tx, tenantId, consistencyNeeds(first, 13)));
        assert.ok(verifyConsistency(first, 13, consistencyProof(first, 13, nodes), rootFromLeafHashes(hashes.slice(0, first)), root), `consistency ${first} → 13`);
      }
      const tile = await testDb.db.withTenant(tenantId, (tx) => buildTile(tx, tenantId, { kind: 'hash', level: 0, index: 0, width: 13 }));
      assert.equal(hex(tile!), hashes.map(hex).join(''), 'the level-0 hash tile holds every leaf hash in order');
    });
  });
}
