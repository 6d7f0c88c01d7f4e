// tlog-tiles as a client that knows only the spec sees them: the client
// (testing/tile-client.ts: tile URLs, entry bundles, RFC 6962 hashing, the
// checkpoint's Ed25519 note signature; the whole-tree check below) shares no
// code with the server. It reads a workspace log of a few hundred entries,
// rebuilds the checkpoint's root from the tiles, and keeps doing so while the
// log grows.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import {
  indexPath,
  leafHash,
  type OpenedCheckpoint,
  openCheckpoint,
  splitBundle,
  tileUrl,
} from '../testing/tile-client.ts';
import { beginAppend } from './append.ts';
import { appendLeaves } from './merkle.ts';
import { parseTilePath, tileNodes } from './tiles.ts';

// ---- the whole tree, layer by layer -----------------------------------------

const sha256 = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const nodeHash = (l: Uint8Array, r: Uint8Array) => sha256(Uint8Array.of(1), l, r);
function mth(hashes: Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return sha256();
  if (hashes.length === 1) return hashes[0]!;
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return nodeHash(mth(hashes.slice(0, k)), mth(hashes.slice(k)));
}
const hashesOf = (tile: Uint8Array) =>
  Array.from({ length: tile.length / 32 }, (_, i) => tile.subarray(i * 32, i * 32 + 32));

/** Reads the whole tree of `size` from tiles, checks every layer, returns the root it rebuilt. */
async function rootFromTiles(fetchTile: (path: string) => Promise<Uint8Array>, size: number): Promise<Uint8Array> {
  const leaves: Uint8Array[] = [];
  const level0: Uint8Array[][] = [];
  for (let n = 0; n * 256 < size; n++) {
    const w = Math.min(256, size - n * 256);
    const hashes = hashesOf(await fetchTile(tileUrl(0, n, w)));
    assert.equal(hashes.length, w);
    const entries = splitBundle(await fetchTile(tileUrl('entries', n, w)));
    assert.deepEqual(entries.map(leafHash), hashes, `entry bundle ${n} hashes to level-0 tile ${n}`);
    leaves.push(...hashes);
    level0.push(hashes);
  }
  const fullTiles = Math.floor(size / 256);
  if (fullTiles > 0) {
    const upper = hashesOf(await fetchTile(tileUrl(1, 0, fullTiles % 256 || 256)));
    assert.deepEqual(
      upper,
      level0.slice(0, fullTiles).map(mth),
      'level-1 hashes are the roots of the full level-0 tiles',
    );
  }
  return mth(leaves);
}

// ---- the tests -------------------------------------------------------------

test('tile index paths: 3-digit groups, x-prefixed but the last; one spelling per tile', () => {
  assert.equal(indexPath(1234067), 'x001/x234/067');
  assert.equal(indexPath(0), '000');
  assert.equal(indexPath(1000), 'x001/000');
  for (const n of [0, 7, 999, 1000, 65535, 1234067, 2 ** 40 + 3])
    assert.equal(parseTilePath(`0/${indexPath(n)}`)?.index, n);
  assert.deepEqual(parseTilePath('0/x001/x234/067'), { kind: 'hash', level: 0, index: 1234067, width: 256 });
  assert.deepEqual(parseTilePath('entries/001.p/17'), { kind: 'entries', level: 0, index: 1, width: 17 });
  // The largest tiles a log of 2^53 entries (MAX_LOG_SIZE) can hold.
  assert.deepEqual(parseTilePath('6/000.p/32'), { kind: 'hash', level: 6, index: 0, width: 32 });
  assert.deepEqual(parseTilePath('5/031'), { kind: 'hash', level: 5, index: 31, width: 256 });
  assert.equal(parseTilePath(`0/${indexPath(2 ** 45 - 1)}`)?.index, 2 ** 45 - 1);
  assert.equal(parseTilePath(`entries/${indexPath(2 ** 45 - 1)}`)?.index, 2 ** 45 - 1);
  for (const bad of [
    '0/x000/001',
    '0/1',
    '0/0001',
    '00/000',
    '64/000',
    '0/000.p/0',
    '0/000.p/256',
    '0/000.p/01',
    '0/001/002',
    '0/x1/002',
    'x/000',
    '0/000.p/',
    // Tiles no log can reach (more than 2^53 entries): levels 7 and up, huge indexes, too wide at level 6.
    '7/000.p/1',
    '8/000',
    '63/000.p/255',
    '6/000.p/33',
    '6/001.p/1',
    '5/032.p/1',
    `0/${indexPath(2 ** 45)}`,
    `entries/${indexPath(2 ** 45)}`,
    `entries/${indexPath(2 ** 53 - 1)}`,
    `0/${indexPath(Number.MAX_SAFE_INTEGER)}`,
    '0/x999/x999/x999/x999/x999/x999/999',
  ]) {
    assert.equal(parseTilePath(bad), undefined, bad);
  }
});

test("the spec's tree of 70,000: 273 full level-0 tiles + 112, one full level-1 tile + 17, a level-2 tile of 1", () => {
  const leaves = Array.from({ length: 70_000 }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${i}`)));
  const { nodes } = appendLeaves(0, leaves, []);
  const byLevel = (l: number) => nodes.filter((n) => n.level === l).sort((a, b) => a.index - b.index);
  // What the server serves for tile (L, N, W): the stored nodes at level 8·L, [N·256, N·256+W).
  const tile = (level: number, index: number, width: number) => {
    const { level: at, start, end } = tileNodes({ kind: 'hash', level, index, width });
    return byLevel(at)
      .filter((n) => n.index >= start && n.index < end)
      .map((n) => n.hash);
  };
  assert.equal(byLevel(0).length, 273 * 256 + 112);
  assert.equal(byLevel(8).length, 256 + 17);
  assert.equal(byLevel(16).length, 1);
  assert.equal(byLevel(24).length, 0);
  // Each level-1 hash is the root of a full level-0 tile; the level-2 hash the root of the first 65,536 leaves.
  const hex = (hs: Uint8Array[]) => hs.map((h) => Buffer.from(h).toString('hex'));
  assert.deepEqual(hex([tile(1, 1, 17)[16]!]), hex([mth(tile(0, 272, 256))]));
  assert.deepEqual(hex([tile(2, 0, 1)[0]!]), hex([mth(leaves.slice(0, 65_536))]));
  assert.deepEqual(hex(tile(0, 273, 112)), hex(leaves.slice(273 * 256)));
});

eachStore('tlog-tiles', (get) => {
  let t: TestService;
  let admin: SignedIn;
  let vkey: string;
  let prefix: string;

  const append = async (n: number) => {
    await t.testDb.db.withTenant(admin.account.tenant_id, async (tx) => {
      const log = await beginAppend(tx, admin.account.tenant_id);
      for (let i = 0; i < n; i++)
        log.add({ kind: 'tile_test', n: log.nextIndex, pad: 'x'.repeat(log.nextIndex % 50) }, t.clock.now());
      await log.commit(tx);
    });
  };
  const getTile = (token: string | undefined) => async (path: string) => {
    const res = await t.request({ method: 'GET', url: `${prefix}/${path}`, ...(token ? { token } : {}) });
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.match(String(res.headers['cache-control']), /max-age=31536000, immutable/);
    return new Uint8Array(res.rawPayload);
  };
  const checkpoint = async (token?: string) => {
    const res = await t.request({ method: 'GET', url: `${prefix}/checkpoint`, ...(token ? { token } : {}) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(String(res.headers['cache-control']), /max-age=5$/);
    return openCheckpoint(res.body, vkey);
  };

  test('a client reads the tree from tiles alone and rebuilds the signed root', async () => {
    t = get();
    admin = await t.signIn('tiles@tile-co.io');
    prefix = `/api/v1/audit/tlog/${admin.account.tenant_id}`;
    vkey = (
      (await t.request({ method: 'GET', url: '/api/v1/audit/key', token: admin.token })).json() as {
        verifier_key: string;
      }
    ).verifier_key;
    await append(600);
    const cp = await checkpoint(admin.token);
    assert.ok(cp.size > 600);
    assert.deepEqual(await rootFromTiles(getTile(admin.token), cp.size), cp.root);
  });

  test('full tiles are stored once and then served from storage', async () => {
    const tenant = admin.account.tenant_id;
    const rows = await t.testDb.db.withTenant(tenant, (tx) =>
      tx.query<{ kind: string; level: number; idx: number; n: number }>(
        'SELECT kind, level, idx, length(data) AS n FROM log_tiles ORDER BY kind, idx',
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r.kind, r.level, Number(r.idx), r.n > 0]),
      [
        ['entries', 0, 0, true],
        ['entries', 0, 1, true],
        ['hash', 0, 0, true],
        ['hash', 0, 1, true],
      ],
    );
    // Entry bundles come gzipped to clients that take gzip, the same bytes once inflated.
    const plain = await getTile(admin.token)('tile/entries/000');
    const gz = await t.request({
      method: 'GET',
      url: `${prefix}/tile/entries/000`,
      token: admin.token,
      headers: { 'accept-encoding': 'gzip, identity' },
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers.vary, 'accept-encoding');
    assert.deepEqual(new Uint8Array(gunzipSync(gz.rawPayload)), plain);
    // What is served is the stored row, not a recomputation.
    await t.testDb.db.withTenant(tenant, (tx) =>
      tx.query(`UPDATE log_tiles SET data = '\\x00ff'::bytea WHERE kind = 'hash' AND idx = 1`),
    );
    assert.deepEqual([...(await getTile(admin.token)('tile/0/001'))], [0, 255]);
    await t.testDb.db.withTenant(tenant, (tx) => tx.query(`DELETE FROM log_tiles WHERE kind = 'hash' AND idx = 1`));
    assert.equal((await getTile(admin.token)('tile/0/001')).length, 8192);
  });

  test('no such tile: non-canonical paths, tiles beyond the tree, empty tiles', async () => {
    const cp = await checkpoint(admin.token);
    const beyond = Math.floor(cp.size / 256) + 1;
    for (const path of [
      'tile/0/x000/000',
      `tile/0/${indexPath(beyond)}`,
      'tile/0/000.p/0',
      'tile/2/000.p/1',
      'tile/1/000',
      'tile/entries/009.p/3',
      'tile/x',
    ]) {
      const res = await t.request({ method: 'GET', url: `${prefix}/${path}`, token: admin.token });
      assert.equal(res.statusCode, 404, path);
    }
  });

  test('private by default: 401 without a token, 404 for another workspace; an admin may make it public', async () => {
    const other = await t.signIn('someone@other-tiles.io');
    assert.equal((await t.request({ method: 'GET', url: `${prefix}/checkpoint` })).statusCode, 401);
    assert.equal((await t.request({ method: 'GET', url: `${prefix}/tile/0/000`, token: other.token })).statusCode, 404);
    assert.equal(
      (await t.request({ method: 'GET', url: `${prefix}/tile/0/000`, token: 'svc_live_bogus' })).statusCode,
      401,
    );
    const viewer = await (await import('../testing/workspace.ts')).addMember(t, admin, 'viewer@tile-co.io', 'viewer');
    const denied = await t.request({
      method: 'PUT',
      url: '/api/v1/workspace/transparency-log',
      token: viewer.token,
      payload: { public: true },
    });
    assert.equal(denied.statusCode, 403);
    const put = await t.request({
      method: 'PUT',
      url: '/api/v1/workspace/transparency-log',
      token: admin.token,
      payload: { public: true },
    });
    assert.deepEqual(put.json(), { public: true, prefix });
    const leaves = await (await import('../testing/workspace.ts')).auditLeaves(t, admin.token);
    assert.deepEqual(
      { ...leaves.at(-1), time: undefined },
      {
        kind: 'tlog_visibility',
        public: true,
        by_account_id: admin.account.id,
        tenant_id: admin.account.tenant_id,
        time: undefined,
      },
    );
    const cp = await checkpoint();
    const tile = await t.request({ method: 'GET', url: `${prefix}/tile/0/000` });
    assert.equal(tile.statusCode, 200);
    assert.equal(tile.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.deepEqual(await rootFromTiles(getTile(undefined), cp.size), cp.root);
    await t.request({
      method: 'PUT',
      url: '/api/v1/workspace/transparency-log',
      token: admin.token,
      payload: { public: false },
    });
    assert.equal((await t.request({ method: 'GET', url: `${prefix}/tile/0/000` })).statusCode, 401);
  });

  // Out-of-range coordinates are 404 problem+json for anyone who may read the
  // log (anonymous callers of a public log included), never a 500 from the
  // database's integer arithmetic.
  test('tiles beyond any log: every level, index and width out of range is a 404, on a public log too', async () => {
    const make = (pub: boolean) =>
      t.request({
        method: 'PUT',
        url: '/api/v1/workspace/transparency-log',
        token: admin.token,
        payload: { public: pub },
      });
    assert.equal((await make(true)).statusCode, 200);
    const paths: string[] = [];
    for (let level = 6; level <= 64; level++)
      paths.push(`tile/${level}/000`, `tile/${level}/000.p/1`, `tile/${level}/000.p/255`);
    for (const level of [0, 1, 2, 3, 4, 5, 6]) {
      paths.push(`tile/${level}/${indexPath(2 ** 45)}`, `tile/${level}/${indexPath(Number.MAX_SAFE_INTEGER)}`);
      paths.push(`tile/${level}/${indexPath(2 ** 53 / 256 ** (level + 1) - 1)}.p/255`);
    }
    paths.push(
      `tile/entries/${indexPath(2 ** 45)}`,
      `tile/entries/${indexPath(2 ** 45 - 1)}`,
      `tile/entries/${indexPath(Number.MAX_SAFE_INTEGER)}.p/1`,
      'tile/entries/x999/x999/x999/x999/x999/x999/x999/999',
      'tile/0/000.p/256',
      'tile/0/000.p/999',
      'tile/entries/000.p/0',
      'tile/-1/000',
    );
    try {
      for (const token of [undefined, admin.token]) {
        for (const path of paths) {
          const res = await t.request({ method: 'GET', url: `${prefix}/${path}`, ...(token ? { token } : {}) });
          assert.equal(res.statusCode, 404, `${path}: ${res.body}`);
          assert.match(String(res.headers['content-type']), /^application\/problem\+json/, path);
        }
      }
    } finally {
      await make(false);
    }
  });

  test('tiles read while the log grows never contradict a checkpoint served before', async () => {
    const seen: OpenedCheckpoint[] = [];
    for (let i = 0; i < 6; i++) {
      // An append in flight while the checkpoint and the tiles are read.
      const growing = append(37 + i * 11);
      const cp = await checkpoint(admin.token);
      seen.push(cp);
      // Every checkpoint seen so far, rebuilt from the tiles served now.
      for (const old of seen.slice(-3))
        assert.deepEqual(await rootFromTiles(getTile(admin.token), old.size), old.root, `size ${old.size}`);
      await growing;
    }
    assert.ok(new Set(seen.map((c) => c.size)).size >= 3, 'the log grew between reads');
  });
});
