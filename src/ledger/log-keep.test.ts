// LOG_KEEP_IN_DB_ENTRIES: once published, a workspace's log entries beyond
// the newest N leave the database, and the service reads them back from the
// published tiles — from a file:// directory and from an S3-compatible
// stand-in. What a reader sees does not change: entries, proofs that verify
// against the signed checkpoint, tiles byte for byte, evidence, a report's
// entry range, a checkpoint of an older size. A tile changed in the store is
// refused (503), and nothing is dropped that is not published.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startS3StandIn, type S3StandIn } from '../testing/s3-stand-in.ts';
import { type SignedIn, startTestService, type TestService } from '../testing/harness.ts';
import { testStores } from '../testing/test-db.ts';
import { auditPublishedLog, openCheckpoint } from '../testing/tile-client.ts';
import { beginAppend } from './append.ts';
import { decodeBase64 } from './bytes.ts';
import { originOf } from './checkpoints.ts';
import { entryRange } from './log-store.ts';
import { LogArchive } from './log-archive.ts';
import { LogPruner } from './log-pruning.ts';
import { leafHash, rootFromLeafHashes, verifyConsistency, verifyInclusion } from './merkle.ts';
import { LogPublisher } from './publisher.ts';
import { FileStore, openPublishStore, type PublishStore } from './publish-stores.ts';
import { verifyBundle } from './verify-bundle.ts';

const KEEP = 256;

/** A store whose writes fail: a publication that never gets through. */
class FailingStore implements PublishStore {
  readonly inner: PublishStore;
  readonly where: string;
  constructor(inner: PublishStore) {
    this.inner = inner;
    this.where = inner.where;
  }
  async put(): Promise<void> {
    throw new Error('the store refuses writes');
  }
  get(key: string) {
    return this.inner.get(key);
  }
  close() {
    this.inner.close();
  }
}

interface Entry {
  index: number;
  leaf: string;
  leaf_hash: string;
}

for (const store of testStores()) {
  for (const kind of ['file', 's3'] as const) {
    describe(`log entries beyond the newest ${KEEP} read from the published tiles [${store}, ${kind}]`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'agent-ledger-keep-'));
      let s3: S3StandIn | undefined;
      let t: TestService;
      let a: SignedIn;
      let b: SignedIn;
      let vkeyA: string;
      let publishUrl: string;
      const savedEnv = { ...process.env };
      const origin = (s: SignedIn) => originOf('agent-ledger.local', s.account.tenant_id);
      const openStore = () => openPublishStore(publishUrl, s3 ? { s3Endpoint: s3.url, env: process.env } : {});

      /** Reads and replaces a published object, in the directory or the stand-in's bucket. */
      const object = {
        read(key: string): Buffer | undefined {
          if (s3) return s3.buckets.get('audit')!.get(`tlog/${key}`)?.body;
          try {
            return readFileSync(join(dir, key));
          } catch {
            return undefined;
          }
        },
        write(key: string, data: Buffer | undefined) {
          if (s3) {
            const bucket = s3.buckets.get('audit')!;
            const was = bucket.get(`tlog/${key}`) ?? { contentType: undefined, cacheControl: undefined, etag: '"x"' };
            if (data === undefined) bucket.delete(`tlog/${key}`);
            else bucket.set(`tlog/${key}`, { ...was, body: data });
          } else if (data === undefined) rmSync(join(dir, key));
          else writeFileSync(join(dir, key), data);
        },
      };

      const append = async (who: SignedIn, n: number) => {
        await t.testDb.db.withTenant(who.account.tenant_id, async (tx) => {
          const log = await beginAppend(tx, who.account.tenant_id);
          for (let i = 0; i < n; i++) log.add({ kind: 'keep_test', n: log.nextIndex }, t.clock.now());
          await log.commit(tx);
        });
      };
      const get = async (who: SignedIn, url: string, headers: Record<string, string> = {}) =>
        t.request({ method: 'GET', url, token: who.token, headers });
      const ok = async (who: SignedIn, url: string, headers: Record<string, string> = {}) => {
        const res = await get(who, url, headers);
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        return res;
      };
      const rows = async (who: SignedIn, sql: string) =>
        t.testDb.db.withTenant(who.account.tenant_id, (tx) =>
          tx.query<{ n: number }>(sql, [who.account.tenant_id]).then((r) => r[0]!.n),
        );
      const allEntries = async (who: SignedIn, size: number) => {
        const out: Entry[] = [];
        for (let start = 0; start < size; start += 1000) {
          const res = await ok(who, `/api/v1/audit/entries?start=${start}&end=${Math.min(size, start + 1000)}`);
          out.push(...(res.json() as { entries: Entry[] }).entries);
        }
        return out;
      };

      before(async () => {
        if (kind === 's3') {
          s3 = await startS3StandIn(['audit']);
          Object.assign(process.env, {
            AWS_ACCESS_KEY_ID: s3.accessKeyId,
            AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
            AWS_REGION: 'us-east-1',
          });
          publishUrl = 's3://audit/tlog';
        } else publishUrl = `file://${dir}`;
        t = await startTestService(store, {
          manualJobs: true,
          env: {
            LOG_PUBLISH_URL: publishUrl,
            ...(s3 ? { LOG_PUBLISH_S3_ENDPOINT: s3.url } : {}),
            LOG_KEEP_IN_DB_ENTRIES: String(KEEP),
          },
        });
        a = await t.signIn('auditor@keep-a.io');
        b = await t.signIn('auditor@keep-b.io');
        vkeyA = ((await ok(a, '/api/v1/audit/key')).json() as { verifier_key: string }).verifier_key;
      });
      after(async () => {
        await t?.close();
        await s3?.close();
        process.env = savedEnv;
        rmSync(dir, { recursive: true, force: true });
      });

      test('published entries leave the database; entries, proofs, tiles, evidence and reports read the same', async () => {
        const t0 = t.clock.now();
        await append(a, 500);
        t.clock.advance(3_600_000);
        const t1 = t.clock.now();
        await append(a, 700);
        const note = (await ok(a, '/api/v1/audit/tlog/' + a.account.tenant_id + '/checkpoint')).body;
        const cp = openCheckpoint(note, vkeyA);
        const size = cp.size;
        assert.ok(size >= 1200);
        const tenant = a.account.tenant_id;
        const prefix = `/api/v1/audit/tlog/${tenant}`;

        // What a reader sees before anything is pruned.
        const tiles = [
          'tile/0/000',
          'tile/entries/000',
          'tile/0/002',
          'tile/entries/001',
          'tile/0/001.p/7',
          'tile/entries/002.p/100',
          'tile/1/000.p/3',
          `tile/0/00${Math.floor(size / 256)}.p/${size % 256}`,
        ];
        const snapshot = async () => ({
          tiles: await Promise.all(tiles.map(async (p) => new Uint8Array((await ok(a, `${prefix}/${p}`)).rawPayload))),
          gzipped: new Uint8Array(
            (await ok(a, `${prefix}/tile/entries/001`, { 'accept-encoding': 'gzip' })).rawPayload,
          ),
          entries: await allEntries(a, size),
          one: (await ok(a, '/api/v1/audit/entries/300')).json(),
          inclusion: await Promise.all(
            [3, 300, 777, size - 1].map(
              async (i) =>
                (await ok(a, `/api/v1/audit/proof/inclusion?index=${i}&tree_size=${size}`)).json() as {
                  hashes: string[];
                },
            ),
          ),
          consistency: await Promise.all(
            [
              [100, size],
              [512, size],
              [700, 1000],
            ].map(
              async ([f, s]) =>
                (await ok(a, `/api/v1/audit/proof/consistency?first=${f}&second=${s}`)).json() as { hashes: string[] },
            ),
          ),
          evidence: (await ok(a, '/api/v1/audit/evidence/6')).json(),
          ranges: await t.testDb.db.withTenant(tenant, async (tx) => [
            await entryRange(tx, tenant, t0.toISOString(), t1.toISOString(), size, t.service.ledger.archive),
            await entryRange(
              tx,
              tenant,
              t1.toISOString(),
              new Date(+t1 + 1000).toISOString(),
              size,
              t.service.ledger.archive,
            ),
            await entryRange(
              tx,
              tenant,
              '2000-01-01T00:00:00Z',
              '2000-01-02T00:00:00Z',
              size,
              t.service.ledger.archive,
            ),
          ]),
        });
        const before = await snapshot();
        const stored = await rows(a, 'SELECT count(*)::int AS n FROM log_entries WHERE tenant_id = $1');
        assert.equal(stored, size);

        await t.service.publisher!.drain();

        // The rows are gone: whole tiles up to the newest 256 entries of the published checkpoint.
        const pruned = Math.floor((size - KEEP) / 256) * 256;
        assert.ok(pruned >= 768);
        const [mark] = await t.testDb.db.withTenant(tenant, (tx) =>
          tx.query<{ size: string }>('SELECT size::text AS size FROM log_pruned WHERE tenant_id = $1', [tenant]),
        );
        assert.equal(Number(mark!.size), pruned);
        assert.equal(await rows(a, 'SELECT count(*)::int AS n FROM log_entries WHERE tenant_id = $1'), size - pruned);
        assert.equal(
          await rows(a, `SELECT count(*)::int AS n FROM log_entries WHERE tenant_id = $1 AND idx < ${pruned}`),
          0,
        );
        assert.equal(
          await rows(
            a,
            `SELECT count(*)::int AS n FROM log_tiles WHERE tenant_id = $1 AND level = 0 AND idx < ${pruned / 256}`,
          ),
          0,
        );
        // What stays of the pruned tiles: one hash per tile (level 8), and the levels above, in log_nodes.
        assert.equal(
          await rows(
            a,
            `SELECT count(*)::int AS n FROM log_nodes WHERE tenant_id = $1 AND level = 8 AND idx < ${pruned / 256}`,
          ),
          pruned / 256,
        );
        assert.equal(await rows(a, 'SELECT count(*)::int AS n FROM log_nodes WHERE tenant_id = $1 AND level < 8'), 0);

        // Everything reads as before, byte for byte.
        const afterwards = await snapshot();
        assert.deepEqual(afterwards, before);

        // And checks out against the signed checkpoint.
        const leaves = afterwards.entries.map((e) => decodeBase64(e.leaf_hash)!);
        afterwards.entries.forEach((e) =>
          assert.deepEqual(leafHash(new TextEncoder().encode(e.leaf)), leaves[e.index]),
        );
        [3, 300, 777, size - 1].forEach((i, n) =>
          assert.ok(
            verifyInclusion(
              i,
              size,
              leaves[i]!,
              afterwards.inclusion[n]!.hashes.map((h) => decodeBase64(h)!),
              cp.root,
            ),
          ),
        );
        assert.ok(
          verifyConsistency(
            100,
            size,
            afterwards.consistency[0]!.hashes.map((h) => decodeBase64(h)!),
            rootFromLeafHashes(leaves.slice(0, 100)),
            cp.root,
          ),
        );
        assert.ok(
          verifyConsistency(
            512,
            size,
            afterwards.consistency[1]!.hashes.map((h) => decodeBase64(h)!),
            rootFromLeafHashes(leaves.slice(0, 512)),
            cp.root,
          ),
        );
        const key = ((await ok(a, '/api/v1/audit/key')).json() as { verifier_key: string }).verifier_key;
        assert.deepEqual(
          verifyBundle({ verifierKeys: [key], checkpoint: note, entries: afterwards.entries, complete: true }),
          [],
        );
        // A report's range: the first period's entries start among the pruned ones, the second's too.
        assert.equal(afterwards.ranges[0]!.start < pruned, true);
        assert.equal(afterwards.ranges[1]!.start < pruned, true);
        assert.equal(afterwards.ranges[1]!.end, size);
        assert.equal(afterwards.ranges[2], null);
        // A checkpoint of a size inside the pruned tiles, signed now from their published hashes.
        const old = await t.testDb.db.withTenant(tenant, (tx) => t.service.ledger.checkpointOfSize(tx, tenant, 301));
        assert.deepEqual(old.root, rootFromLeafHashes(leaves.slice(0, 301)));
        // The log keeps growing over it, and publishing it leaves the pruned tiles in place.
        await append(a, 300);
        await ok(a, `${prefix}/checkpoint`);
        await t.service.publisher!.drain();
        const grown = openCheckpoint((await ok(a, `${prefix}/checkpoint`)).body, vkeyA);
        const entries = await allEntries(a, grown.size);
        assert.deepEqual(
          verifyBundle({
            verifierKeys: [key],
            checkpoint: (await ok(a, `${prefix}/checkpoint`)).body,
            entries,
            complete: true,
          }),
          [],
        );
        assert.equal(
          await rows(a, 'SELECT count(*)::int AS n FROM log_entries WHERE tenant_id = $1'),
          grown.size - Math.floor((grown.size - KEEP) / 256) * 256,
        );
      });

      test('another store after pruning: its publisher finds the dropped tiles there once copied, and fails until then', async () => {
        const tenant = a.account.tenant_id;
        const target = mkdtempSync(join(tmpdir(), 'agent-ledger-moved-'));
        const moved = new FileStore(target);
        const origins = (id: string) => originOf('agent-ledger.local', id);
        const publisher = new LogPublisher(
          t.testDb.db,
          moved,
          { origin: origins, note: async (_id, c) => c.note, tenants: async () => [] },
          { leaseMs: 60_000, archive: new LogArchive(moved, origins) },
        );
        try {
          const [mark] = await t.testDb.db.withTenant(tenant, (tx) =>
            tx.query<{ size: string }>('SELECT size::text AS size FROM log_pruned WHERE tenant_id = $1', [tenant]),
          );
          const pruned = Number(mark!.size);
          assert.ok(pruned >= 1024);
          await assert.rejects(publisher.publish(tenant), /The published log has no tile\/(0|entries)\/000/);
          // The operator copies the old store's objects over: the new one is then complete and verifies.
          const old = openStore();
          for (let n = 0; n < pruned / 256; n++) {
            for (const path of [`tile/0/00${n}`, `tile/entries/00${n}`]) {
              const key = `${origin(a)}/${path}`;
              await moved.put(key, (await old.get(key))!);
            }
          }
          old.close();
          const cp = await publisher.publish(tenant);
          const local = async (path: string) => new Uint8Array(readFileSync(join(target, origin(a), path)));
          const audit = await auditPublishedLog(local, vkeyA, [0, 300, pruned - 1, pruned, cp!.size - 1]);
          assert.equal(audit.checkpoint.size, cp!.size);
        } finally {
          rmSync(target, { recursive: true, force: true });
        }
      });

      test('a tile changed or missing in the store is refused with a 503: never served, never folded into a proof', async () => {
        const tenant = a.account.tenant_id;
        const prefix = `/api/v1/audit/tlog/${tenant}`;
        const size = openCheckpoint((await ok(a, `${prefix}/checkpoint`)).body, vkeyA).size;
        const bundleKey = `${origin(a)}/tile/entries/001`;
        const hashKey = `${origin(a)}/tile/0/000`;
        const bundle = object.read(bundleKey)!;
        const hashes = object.read(hashKey)!;
        assert.ok(bundle && hashes, 'published');

        // One character of one leaf changed (the same length: the bundle still parses).
        const leafAt = bundle.indexOf('"keep_test"');
        const changed = Buffer.from(bundle);
        changed[leafAt + 1] = 'K'.charCodeAt(0);
        object.write(bundleKey, changed);
        for (const url of [
          '/api/v1/audit/entries/300',
          '/api/v1/audit/entries?start=250&end=260',
          `${prefix}/tile/entries/001`,
          '/api/v1/audit/evidence/301',
        ]) {
          const res = await get(a, url);
          assert.equal(res.statusCode, 503, `${url}: ${res.body}`);
          const problem = res.json() as { code: string; detail: string };
          assert.equal(problem.code, 'service_unavailable');
          assert.match(problem.detail, /tile\/entries\/001 does not match the signed log/);
          assert.doesNotMatch(res.body, /at .*\.ts:\d+/);
          assert.equal(res.headers['retry-after'], '60');
        }
        object.write(bundleKey, bundle);
        assert.equal((await get(a, '/api/v1/audit/entries/300')).statusCode, 200);

        // A hash in the level-0 tile changed: no proof through it, no tile.
        const wrong = Buffer.from(hashes);
        wrong[40] = wrong[40]! ^ 1;
        object.write(hashKey, wrong);
        for (const url of [
          `/api/v1/audit/proof/inclusion?index=5&tree_size=${size}`,
          `/api/v1/audit/proof/consistency?first=7&second=${size}`,
          `${prefix}/tile/0/000`,
          '/api/v1/audit/evidence/2',
        ]) {
          const res = await get(a, url);
          assert.equal(res.statusCode, 503, `${url}: ${res.body}`);
          assert.match((res.json() as { detail: string }).detail, /tile\/0\/000 does not match the signed log/);
        }
        // Entries themselves are checked against the kept hash, not the hash tile: they still read.
        assert.equal((await get(a, '/api/v1/audit/entries/5')).statusCode, 200);
        // Gone from the store.
        object.write(hashKey, undefined);
        const gone = await get(a, `/api/v1/audit/proof/inclusion?index=5&tree_size=${size}`);
        assert.equal(gone.statusCode, 503);
        assert.match((gone.json() as { detail: string }).detail, /has no tile\/0\/000/);
        object.write(hashKey, hashes);
        assert.equal((await get(a, `/api/v1/audit/proof/inclusion?index=5&tree_size=${size}`)).statusCode, 200);
        // Entries the database still holds never touch the store.
        assert.equal((await get(a, `/api/v1/audit/entries/${size - 1}`)).statusCode, 200);
      });

      test('nothing unpublished is pruned: a publication that fails, a store without the tiles the cursor claims', async () => {
        const tenant = b.account.tenant_id;
        await append(b, 1000);
        const size = openCheckpoint(
          (await ok(b, `/api/v1/audit/tlog/${tenant}/checkpoint`)).body,
          ((await ok(b, '/api/v1/audit/key')).json() as { verifier_key: string }).verifier_key,
        ).size;
        const count = () => rows(b, 'SELECT count(*)::int AS n FROM log_entries WHERE tenant_id = $1');
        const prunedRows = () => rows(b, 'SELECT count(*)::int AS n FROM log_pruned WHERE tenant_id = $1 AND size > 0');
        const failing = new FailingStore(openStore());
        const pruner = new LogPruner({
          db: t.testDb.db,
          store: failing,
          origin: (id) => originOf('agent-ledger.local', id),
          keep: KEEP,
        });
        const publisher = new LogPublisher(
          t.testDb.db,
          failing,
          {
            origin: (id) => originOf('agent-ledger.local', id),
            note: async (_id, c) => c.note,
            tenants: async () => [],
          },
          { leaseMs: 60_000, pruner, onError: () => {} },
        );
        // The publication fails: nothing of b is dropped.
        await t.testDb.db.withTenant(tenant, (tx) => publisher.signed(tx, tenant));
        await publisher.drain();
        assert.equal(await count(), size);
        assert.equal(await prunedRows(), 0);
        assert.equal(await pruner.prune(tenant), 0, 'nothing is recorded as published');
        // The cursor says published, but the store holds none of b's tiles: refused before anything is dropped.
        await t.testDb.db.query(
          `INSERT INTO log_published (tenant_id, target, tiles_size, checkpoint_size) VALUES ($1, $2, $3, $4)
           ON CONFLICT (tenant_id, target) DO UPDATE SET tiles_size = $3, checkpoint_size = $4`,
          [tenant, failing.where, Math.floor(size / 256) * 256, size],
        );
        await assert.rejects(pruner.prune(tenant), /tile\/0\/000 of .* is not in .* as published; nothing pruned/);
        assert.equal(await count(), size);
        assert.equal(await prunedRows(), 0);
        // Published for real (by a node that does not prune), it may go — but not past what a reader of the
        // database still needs (a destination's cursor, through readsFrom): only the tile before entry 300.
        await t.testDb.db.query('DELETE FROM log_published WHERE tenant_id = $1', [tenant]);
        const real = openStore();
        await new LogPublisher(
          t.testDb.db,
          real,
          {
            origin: (id) => originOf('agent-ledger.local', id),
            note: async (_id, c) => c.note,
            tenants: async () => [],
          },
          { leaseMs: 60_000 },
        ).publish(tenant);
        const held = new LogPruner({
          db: t.testDb.db,
          store: real,
          origin: (id) => originOf('agent-ledger.local', id),
          keep: KEEP,
          readsFrom: async () => 300,
        });
        assert.equal(await held.prune(tenant), 256);
        assert.equal(await count(), size - 256);
        // The service's own publisher and pruner (no destination in b) take it to the newest 256.
        await t.testDb.db.query('UPDATE log_publish_queue SET due_at = now() WHERE tenant_id = $1', [tenant]);
        await t.service.publisher!.drain();
        assert.equal(await count(), size - Math.floor((size - KEEP) / 256) * 256);
        real.close();
        failing.close();
      });
    });
  }
}
