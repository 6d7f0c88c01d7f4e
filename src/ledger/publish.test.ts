// The log published to static storage (LOG_PUBLISH_URL) as an auditor reads
// it: a plain static web server over the file:// directory, and the same
// objects from an S3-compatible stand-in through @aws-sdk/client-s3, checked
// by a tile client that shares no code with the service (testing/tile-client.ts):
// signature, root rebuilt from tiles, inclusion proofs of several leaves. What
// is published is byte for byte what the service serves at the same paths,
// each workspace under its own origin and nothing of another's.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3StandIn, type S3StandIn } from '../testing/s3-stand-in.ts';
import { startStaticServer, type StaticServer } from '../testing/static-server.ts';
import { auditPublishedLog, tileUrl, type Fetch } from '../testing/tile-client.ts';
import { type SignedIn, startTestService, type TestService } from '../testing/harness.ts';
import { testStores } from '../testing/test-db.ts';
import { appendLeaves, leafHash } from './merkle.ts';
import { beginAppend } from './append.ts';
import { originOf } from './checkpoints.ts';
import { fullTilesBetween, LogPublisher, partialTilesOf, tilePath } from './publisher.ts';
import { FileStore, openPublishStore, type PublishStore } from './publish-stores.ts';
import { parseTilePath, tileNodes } from './tiles.ts';

test('the tiles a tree has: full ones completed by a range, partial ones of a size, paths the service parses', () => {
  // The spec's tree of 70,000: 273 full level-0 tiles + 112, one full level-1 tile + 17, a level-2 tile of 1.
  const full = fullTilesBetween(0, 273 * 256);
  const partial = partialTilesOf(70_000);
  const count = (refs: typeof full, kind: string, level: number) =>
    refs.filter((r) => r.kind === kind && r.level === level).length;
  assert.equal(count(full, 'entries', 0), 273);
  assert.equal(count(full, 'hash', 0), 273);
  assert.equal(count(full, 'hash', 1), 1);
  assert.equal(count(full, 'hash', 2), 0);
  assert.deepEqual(
    partial.map((r) => tilePath(r)),
    ['tile/entries/273.p/112', 'tile/0/273.p/112', 'tile/1/001.p/17', 'tile/2/000.p/1'],
  );
  // In chunks, the same full tiles, each once.
  const chunked = [0, 16_384, 32_768, 49_152, 65_536, 69_888].flatMap((from, i, all) =>
    i + 1 < all.length ? fullTilesBetween(from, all[i + 1]!) : [],
  );
  assert.deepEqual(chunked.map(tilePath).sort(), full.map(tilePath).sort());
  assert.equal(new Set(chunked.map(tilePath)).size, chunked.length);
  // Every path is the one spelling the service accepts, and names a tile of the tree.
  const leaves = Array.from({ length: 70_000 }, (_, i) => leafHash(new TextEncoder().encode(`${i}`)));
  const nodes = appendLeaves(0, leaves, []).nodes;
  for (const ref of [...full, ...partial]) {
    assert.deepEqual(parseTilePath(tilePath(ref).slice('tile/'.length)), ref);
    if (ref.kind === 'hash') {
      const { level, end } = tileNodes(ref);
      assert.ok(nodes.some((n) => n.level === level && n.index === end - 1));
    }
  }
  assert.equal(tilePath({ kind: 'hash', level: 0, index: 1_234_067, width: 256 }), 'tile/0/x001/x234/067');
  assert.deepEqual(partialTilesOf(512).map(tilePath), ['tile/1/000.p/2']);
  assert.deepEqual(partialTilesOf(65_536).map(tilePath), ['tile/2/000.p/1']);
});

/** Counts and, when told, fails writes: a process dying after `failAfter` of them. */
class CountingStore implements PublishStore {
  readonly inner: PublishStore;
  readonly where: string;
  puts: string[] = [];
  failAfter = Infinity;
  constructor(inner: PublishStore) {
    this.inner = inner;
    this.where = inner.where;
  }
  async put(key: string, data: Uint8Array, kind: 'tile' | 'checkpoint') {
    if (this.puts.length >= this.failAfter) throw new Error('killed mid-publication');
    this.puts.push(key);
    await this.inner.put(key, data, kind);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  close() {}
}

function walk(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

for (const store of testStores()) {
  describe(`log published to static storage [${store}]`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-ledger-published-'));
    let t: TestService;
    let web: StaticServer;
    let s3: S3StandIn;
    let a: SignedIn;
    let b: SignedIn;
    let vkeyA: string;
    let vkeyB: string;
    const origin = (s: SignedIn) => originOf('agent-ledger.local', s.account.tenant_id);

    const append = async (who: SignedIn, n: number) => {
      await t.testDb.db.withTenant(who.account.tenant_id, async (tx) => {
        const log = await beginAppend(tx, who.account.tenant_id);
        for (let i = 0; i < n; i++) log.add({ kind: 'publish_test', n: log.nextIndex }, t.clock.now());
        await log.commit(tx);
      });
    };
    /** Signs the head (as a reader of the checkpoint does) and returns the service's bytes. */
    const served = async (who: SignedIn, path: string) => {
      const res = await t.request({
        method: 'GET',
        url: `/api/v1/audit/tlog/${who.account.tenant_id}/${path}`,
        token: who.token,
      });
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      return new Uint8Array(res.rawPayload);
    };
    const fromWeb =
      (who: SignedIn): Fetch =>
      async (path) => {
        const res = await fetch(`${web.url}/${origin(who)}/${path}`);
        assert.equal(res.status, 200, `static ${path}`);
        return new Uint8Array(await res.arrayBuffer());
      };
    const vkeyOf = async (who: SignedIn) =>
      (
        (await t.request({ method: 'GET', url: '/api/v1/audit/key', token: who.token })).json() as {
          verifier_key: string;
        }
      ).verifier_key;

    before(async () => {
      t = await startTestService(store, { manualJobs: true, env: { LOG_PUBLISH_URL: `file://${dir}` } });
      web = await startStaticServer(dir);
      s3 = await startS3StandIn(['audit-logs']);
      a = await t.signIn('auditor@publish-a.io');
      b = await t.signIn('auditor@publish-b.io');
      vkeyA = await vkeyOf(a);
      vkeyB = await vkeyOf(b);
    });
    after(async () => {
      await t?.close();
      await web?.close();
      await s3?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a static web server serves the published log; a tile client verifies it; bytes as the service serves', async () => {
      await append(a, 700);
      await append(b, 300);
      const checkpointA = await served(a, 'checkpoint');
      await served(b, 'checkpoint');
      await t.service.publisher!.drain();

      const audit = await auditPublishedLog(fromWeb(a), vkeyA, [0, 1, 255, 256, 511, 600, 699]);
      assert.ok(audit.checkpoint.size > 700);
      assert.equal(audit.entries.filter((e) => JSON.parse(e).kind === 'publish_test').length >= 5, true);
      // The checkpoint and every tile read, byte for byte what the service serves at the same path.
      assert.deepEqual(await fromWeb(a)('checkpoint'), checkpointA);
      assert.ok(audit.reader.fetched.includes('tile/1/000.p/2'), 'a level-1 tile was read');
      for (const path of audit.reader.fetched) assert.deepEqual(await fromWeb(a)(path), await served(a, path), path);
      // The other workspace verifies with its own key; a's key does not open it.
      const auditB = await auditPublishedLog(fromWeb(b), vkeyB, [0, 150, 299]);
      assert.ok(auditB.checkpoint.size > 300);
      await assert.rejects(auditPublishedLog(fromWeb(b), vkeyA, []), /signed by the pinned key/);
    });

    test("each workspace under its own origin, holding nothing of another's", () => {
      const files = walk(dir).filter((f) => !f.startsWith('.tmp/'));
      const prefixes = new Set(files.map((f) => f.split('/').slice(0, 2).join('/')));
      assert.deepEqual([...prefixes].sort(), [origin(a), origin(b)].sort());
      for (const who of [a, b]) {
        const bundles = files.filter((f) => f.startsWith(`${origin(who)}/tile/entries/`));
        assert.ok(bundles.length >= 2);
        for (const f of bundles) {
          const bytes = readFileSync(join(dir, f));
          for (let at = 0; at < bytes.length;) {
            const len = bytes.readUInt16BE(at);
            const leaf = JSON.parse(bytes.subarray(at + 2, at + 2 + len).toString()) as { tenant_id: string };
            assert.equal(leaf.tenant_id, who.account.tenant_id, f);
            at += 2 + len;
          }
        }
      }
      assert.deepEqual(walk(join(dir, '.tmp')), [], 'no temporary file left');
    });

    test('as the log grows: full tiles written once, new partials and the checkpoint after them', async () => {
      const fullTile = join(dir, origin(a), 'tile', '0', '000');
      const before = statSync(fullTile).ino;
      const oldSize = (await auditPublishedLog(fromWeb(a), vkeyA, [])).checkpoint.size;
      await append(a, 300);
      await served(a, 'checkpoint');
      await t.service.publisher!.drain();
      const grown = await auditPublishedLog(fromWeb(a), vkeyA, [0, oldSize - 1, oldSize, oldSize + 299]);
      assert.ok(grown.checkpoint.size >= oldSize + 300);
      assert.equal(statSync(fullTile).ino, before, 'a full tile is not written again');
      // The older checkpoint's partial tiles stay, for readers holding it.
      const oldPartial = tileUrl(0, Math.floor(oldSize / 256), oldSize % 256);
      assert.deepEqual(await fromWeb(a)(oldPartial), await served(a, oldPartial));
      const [cursor] = await t.testDb.db.query<{ tiles_size: string; checkpoint_size: string }>(
        'SELECT tiles_size::text AS tiles_size, checkpoint_size::text AS checkpoint_size FROM log_published WHERE tenant_id = $1',
        [a.account.tenant_id],
      );
      assert.deepEqual(cursor, {
        tiles_size: String(Math.floor(grown.checkpoint.size / 256) * 256),
        checkpoint_size: String(grown.checkpoint.size),
      });
    });

    test('a publication cut off at any write leaves a tree that verifies, and the next run completes it', async () => {
      const target = mkdtempSync(join(tmpdir(), 'agent-ledger-cut-'));
      try {
        const counting = new CountingStore(new FileStore(target));
        const make = () =>
          new LogPublisher(
            t.testDb.db,
            counting,
            {
              origin: (id) => originOf('agent-ledger.local', id),
              note: async (_id, cp) => cp.note,
              tenants: async () => [],
            },
            { leaseMs: 60_000 },
          );
        const local: Fetch = async (path) => new Uint8Array(readFileSync(join(target, origin(a), path)));
        await append(a, 200);
        await served(a, 'checkpoint');
        // Cut after 1, 3, 5 … writes: each time, what is there is either nothing or a whole verifying tree.
        for (const cut of [1, 3, 5, 7]) {
          counting.puts = [];
          counting.failAfter = cut;
          await assert.rejects(make().publish(a.account.tenant_id), /killed mid-publication/);
          try {
            await auditPublishedLog(local, vkeyA, [0]);
          } catch (err) {
            assert.match(String(err), /ENOENT.*checkpoint/, `after ${cut} writes: no checkpoint yet, or a valid tree`);
          }
        }
        counting.failAfter = Infinity;
        counting.puts = [];
        const cp = await make().publish(a.account.tenant_id);
        assert.equal(counting.puts.at(-1), `${origin(a)}/checkpoint`, 'the checkpoint is written last');
        const audit = await auditPublishedLog(local, vkeyA, [0, 700, cp!.size - 1]);
        assert.equal(audit.checkpoint.size, cp!.size);
        // Every full tile of the tree is there (the cursor never ran ahead of the writes).
        for (let n = 0; n < Math.floor(cp!.size / 256); n++) {
          for (const path of [tileUrl(0, n, 256), tileUrl('entries', n, 256)])
            assert.deepEqual(await local(path), await served(a, path), path);
        }
      } finally {
        rmSync(target, { recursive: true, force: true });
      }
    });

    test('two nodes: one takes an armed log (the lease), and racing publications never put back a smaller checkpoint', async () => {
      const target = mkdtempSync(join(tmpdir(), 'agent-ledger-two-'));
      try {
        const stores = [new CountingStore(new FileStore(target)), new CountingStore(new FileStore(target))];
        const nodes = stores.map(
          (st) =>
            new LogPublisher(
              t.testDb.db,
              st,
              {
                origin: (id) => originOf('agent-ledger.local', id),
                note: async (_id, cp) => cp.note,
                tenants: async () => [],
              },
              { leaseMs: 60_000 },
            ),
        );
        // The service's checkpoint scheduler signs what is pending and stops, so
        // from here on a log is armed only when this test signs it.
        await t.service.ledger.close();
        // Both nodes see the armed row at once: one of them publishes it.
        await t.testDb.db.query('UPDATE log_publish_queue SET due_at = NULL');
        await append(a, 50);
        await t.testDb.db.withTenant(a.account.tenant_id, (tx) => nodes[0]!.signed(tx, a.account.tenant_id));
        await Promise.all(nodes.map((n) => n.drain()));
        const wrote = stores.map((st) => st.puts.filter((k) => k === `${origin(a)}/checkpoint`).length);
        assert.deepEqual(wrote.sort(), [0, 1], 'one node took the log');
        // A lease run out: both publish the same log at once while it grows; what is published only grows and verifies.
        const local: Fetch = async (path) => new Uint8Array(readFileSync(join(target, origin(a), path)));
        let last = 0;
        for (let round = 0; round < 4; round++) {
          await append(a, 90);
          await served(a, 'checkpoint');
          await Promise.all([...nodes.map((n) => n.publish(a.account.tenant_id)), append(a, 5)]);
          const audit = await auditPublishedLog(local, vkeyA, [0, last]);
          assert.ok(audit.checkpoint.size >= last);
          last = audit.checkpoint.size;
        }
        // A node that read an older checkpoint than the one already published leaves the published one in place.
        await t.testDb.db.query(
          'UPDATE log_published SET checkpoint_size = checkpoint_size + 1000000 WHERE tenant_id = $1 AND target = $2',
          [a.account.tenant_id, stores[0]!.where],
        );
        await append(a, 10);
        await served(a, 'checkpoint');
        const newer = await nodes[0]!.publish(a.account.tenant_id);
        assert.ok(newer!.size > last);
        assert.equal((await auditPublishedLog(local, vkeyA, [])).checkpoint.size, last);
      } finally {
        rmSync(target, { recursive: true, force: true });
      }
    });

    test('published through @aws-sdk/client-s3 to an S3-compatible store: the same bytes as the file:// directory', async () => {
      const s3store = openPublishStore('s3://audit-logs/tlog', {
        s3Endpoint: s3.url,
        env: { AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey, AWS_REGION: 'eu-west-1' },
      });
      const publisher = new LogPublisher(
        t.testDb.db,
        s3store,
        {
          origin: (id) => originOf('agent-ledger.local', id),
          note: async (_id, cp) => cp.note,
          tenants: async () => [],
        },
        { leaseMs: 60_000 },
      );
      // The file:// run first catches up with everything signed so far. The
      // nodes of the test before took the logs' armings (the queue is one per
      // log, shared by every publisher), so they are armed again here.
      for (const who of [a, b]) await served(who, 'checkpoint');
      await t.testDb.db.query('UPDATE log_publish_queue SET due_at = now()');
      await t.service.publisher!.drain();
      for (const who of [a, b]) await publisher.publish(who.account.tenant_id);
      const reader = new S3Client({
        region: 'eu-west-1',
        endpoint: s3.url,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
      try {
        // The S3 run starts from the tree as it is now: the directory has that, plus older checkpoints' partial tiles.
        const files = walk(dir).filter((f) => !f.startsWith('.tmp/') && !/\.p\//.test(f));
        const keys = [...s3.buckets.get('audit-logs')!.keys()].map((k) => k.replace(/^tlog\//, ''));
        assert.deepEqual(keys.filter((k) => !/\.p\//.test(k)).sort(), files.sort());
        assert.ok(keys.some((k) => /\.p\//.test(k)));
        for (const f of keys) {
          const got = await reader.send(new GetObjectCommand({ Bucket: 'audit-logs', Key: `tlog/${f}` }));
          assert.deepEqual(Buffer.from(await got.Body!.transformToByteArray()), readFileSync(join(dir, f)), f);
        }
        const head = await reader.send(
          new HeadObjectCommand({ Bucket: 'audit-logs', Key: `tlog/${origin(a)}/checkpoint` }),
        );
        assert.equal(head.CacheControl, 'public, max-age=5');
        assert.equal(head.ContentType, 'text/plain; charset=utf-8');
        const tile = await reader.send(
          new HeadObjectCommand({ Bucket: 'audit-logs', Key: `tlog/${origin(a)}/tile/0/000` }),
        );
        assert.equal(tile.CacheControl, 'public, max-age=31536000, immutable');
        // A tile client reading through the SDK verifies it.
        const viaS3: Fetch = async (path) => {
          const got = await reader.send(
            new GetObjectCommand({ Bucket: 'audit-logs', Key: `tlog/${origin(a)}/${path}` }),
          );
          return got.Body!.transformToByteArray();
        };
        await auditPublishedLog(viaS3, vkeyA, [0, 300, 900]);
        // A wrong secret is refused by the store and the publication fails (and is retried later).
        const denied = openPublishStore('s3://audit-logs/tlog', {
          s3Endpoint: s3.url,
          env: { AWS_ACCESS_KEY_ID: 'AKIANOTKNOWN', AWS_SECRET_ACCESS_KEY: 'x'.repeat(40) },
        });
        await assert.rejects(denied.put(`${origin(a)}/checkpoint`, new Uint8Array(1), 'checkpoint'), /Access Key/);
        denied.close();
      } finally {
        reader.destroy();
        s3store.close();
      }
    });
  });
}
