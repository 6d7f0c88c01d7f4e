// What an append stores of the tree (migrations 0125, 0126, log-store.ts):
// each entry's row holds its leaf hash and the hashes of the subtrees it
// completes; log_nodes gets nothing. Logs written before kept their nodes in
// log_nodes (every node before 0125; the nodes above the leaves between 0125
// and 0126); appends, proofs and tiles must read a log holding all three
// layouts as one log, and every node read must be the node the leaves give.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { eachTestDb } from '../testing/test-db.ts';
import { OpenAppend } from './append.ts';
import { lockHead, readEntries, readNodes } from './log-store.ts';
import {
  appendLeaves,
  consistencyNeeds,
  consistencyProof,
  inclusionNeeds,
  inclusionProof,
  leafHashOfText,
  type NodeId,
  rootFromLeafHashes,
  type StoredNode,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';
import { buildTile } from './tiles.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

eachTestDb('the tree an append stores', (testDb) => {
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
    const rows = await query<{ leaf: string }>(
      tenantId,
      'SELECT leaf FROM log_entries WHERE tenant_id = $1 ORDER BY idx',
    );
    return rows.map((r) => leafHashOfText(r.leaf));
  }

  /** Every node of the tree over `hashes`, computed in memory, level by level. */
  function everyNode(hashes: readonly Uint8Array[]): StoredNode[] {
    return appendLeaves(0, hashes, []).nodes;
  }

  /** Every node read back (readNodes) is the node the leaves give, at every level; and the head is their root. */
  async function assertTreeReads(tenantId: string): Promise<Uint8Array[]> {
    const hashes = await leafHashes(tenantId);
    const expected = everyNode(hashes);
    const read = await testDb.db.withTenant(tenantId, (tx) =>
      readNodes(
        tx,
        tenantId,
        expected.map((n): NodeId => ({ level: n.level, index: n.index })),
      ),
    );
    const key = (n: StoredNode) => `${n.level}/${n.index}/${hex(n.hash)}`;
    assert.deepEqual(read.map(key).sort(), expected.map(key).sort());
    const [head] = await query<{ root: Uint8Array }>(tenantId, 'SELECT root FROM log_heads WHERE tenant_id = $1');
    assert.equal(hex(head!.root), hex(rootFromLeafHashes(hashes)), 'the head is the root of every leaf');
    return hashes;
  }

  /** Moves entries [from, to)'s stored nodes to log_nodes, as appends before migration 0125 (`leaves`: leaf hashes too) or 0126 stored them. */
  async function asBefore(tenantId: string, from: number, to: number, leaves: boolean): Promise<void> {
    const nodes = everyNode(await leafHashes(tenantId)).filter((n) => {
      const holder = (n.index + 1) * 2 ** n.level - 1;
      return holder >= from && holder < to && (leaves || n.level > 0);
    });
    await testDb.db.withTenant(tenantId, async (tx) => {
      await tx.query(
        'INSERT INTO log_nodes (tenant_id, level, idx, hash) SELECT $1, n.level, n.idx, n.hash FROM unnest($2::int[], $3::bigint[], $4::bytea[]) AS n(level, idx, hash)',
        [tenantId, nodes.map((n) => n.level), nodes.map((n) => n.index), nodes.map((n) => Buffer.from(n.hash))],
      );
      await tx.query(
        `UPDATE log_entries SET subtree_hashes = NULL${leaves ? ', leaf_hash = NULL' : ''} WHERE tenant_id = $1 AND idx >= $2 AND idx < $3`,
        [tenantId, from, to],
      );
    });
  }

  test("each entry's row holds its leaf hash and the subtrees it completes; log_nodes gets no row", async () => {
    const tenantId = randomUUID();
    for (const n of [5, 95, 200, 300]) await append(tenantId, n);
    const rows = await query<{ idx: number; leaf: string; leaf_hash: Uint8Array; subtree_hashes: Uint8Array }>(
      tenantId,
      'SELECT idx::int AS idx, leaf, leaf_hash, subtree_hashes FROM log_entries WHERE tenant_id = $1 ORDER BY idx',
    );
    assert.equal(rows.length, 600);
    const nodes = everyNode(rows.map((r) => leafHashOfText(r.leaf)));
    for (const r of rows) {
      assert.equal(hex(r.leaf_hash), hex(leafHashOfText(r.leaf)));
      // Entry i completes the subtrees of levels 1 … t, where 2^t divides i + 1.
      const completed = nodes.filter((n) => n.level > 0 && (n.index + 1) * 2 ** n.level - 1 === r.idx);
      assert.equal(hex(r.subtree_hashes), completed.map((n) => hex(n.hash)).join(''), `entry ${r.idx}`);
    }
    assert.equal(hex(rows[255]!.subtree_hashes).length, 8 * 64, 'entry 255 completes levels 1 to 8');
    assert.equal(rows[254]!.subtree_hashes.length, 0, 'entry 254 completes none');
    const [{ n }] = (await query<{ n: number }>(
      tenantId,
      'SELECT count(*)::int AS n FROM log_nodes WHERE tenant_id = $1',
    )) as [{ n: number }];
    assert.equal(n, 0);
    await assertTreeReads(tenantId);
  });

  test('a node the tree does not hold yet is not read', async () => {
    const tenantId = randomUUID();
    await append(tenantId, 6);
    const read = await testDb.db.withTenant(tenantId, (tx) =>
      readNodes(tx, tenantId, [
        { level: 1, index: 2 },
        { level: 1, index: 3 },
        { level: 2, index: 1 },
        { level: 3, index: 0 },
        { level: 0, index: 6 },
        { level: 8, index: 0 },
      ]),
    );
    assert.deepEqual(
      read.map((n) => [n.level, n.index]),
      [[1, 2]],
    );
  });

  test('a log holding the layouts before migrations 0125 and 0126 appends, proves and tiles as one log', async () => {
    const tenantId = randomUUID();
    await append(tenantId, 7);
    await asBefore(tenantId, 0, 7, true); // every node in log_nodes
    // The next append needs the right edge of 7 leaves, leaf 6 among it, from log_nodes.
    await append(tenantId, 6);
    await asBefore(tenantId, 7, 13, false); // leaf hashes in the entries, the nodes above in log_nodes
    await append(tenantId, 287);
    const hashes = await assertTreeReads(tenantId);
    assert.equal(hashes.length, 300);

    const entries = await testDb.db.withTenant(tenantId, (tx) => readEntries(tx, tenantId, 0, 300));
    assert.deepEqual(
      entries.map((e) => hex(e.leafHash)),
      hashes.map(hex),
      'each entry with its leaf hash, from either place',
    );

    const root = rootFromLeafHashes(hashes);
    for (const index of [0, 5, 6, 7, 12, 13, 255, 256, 299]) {
      const nodes = await testDb.db.withTenant(tenantId, (tx) => readNodes(tx, tenantId, inclusionNeeds(index, 300)));
      assert.ok(
        verifyInclusion(index, 300, hashes[index]!, inclusionProof(index, 300, nodes), root),
        `inclusion of ${index}`,
      );
    }
    for (const first of [3, 7, 8, 13, 256, 299]) {
      const nodes = await testDb.db.withTenant(tenantId, (tx) => readNodes(tx, tenantId, consistencyNeeds(first, 300)));
      assert.ok(
        verifyConsistency(
          first,
          300,
          consistencyProof(first, 300, nodes),
          rootFromLeafHashes(hashes.slice(0, first)),
          root,
        ),
        `consistency ${first} → 300`,
      );
    }
    const tile = (level: number, index: number, width: number) =>
      testDb.db.withTenant(tenantId, (tx) => buildTile(tx, tenantId, { kind: 'hash', level, index, width }));
    assert.equal(
      hex((await tile(0, 0, 256))!),
      hashes.slice(0, 256).map(hex).join(''),
      'the full level-0 tile: every leaf hash in order, of each layout',
    );
    assert.equal(hex((await tile(0, 1, 44))!), hashes.slice(256).map(hex).join(''), 'a partial level-0 tile');
    const level8 = everyNode(hashes).find((n) => n.level === 8 && n.index === 0)!;
    assert.equal(hex((await tile(1, 0, 1))!), hex(level8.hash), 'the level-1 tile: the level-8 node');
    assert.equal(await tile(0, 1, 45), undefined, 'a tile wider than the tree');
  });
});
