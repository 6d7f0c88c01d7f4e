// kill -9 of `agent-ledger serve` in the middle of publishing its log, then a
// restart on the same database: what was published at the kill verifies as it
// stands (an older checkpoint with all its tiles), and once the restarted node
// has caught up the published tree verifies with every tile present, byte for
// byte what the service serves. Both kinds of store: an S3-compatible one (the
// stand-in holds one full tile's PutObject open, so the process dies with a
// write in flight, its partial tiles and checkpoint not yet written), and a
// file:// directory (the test watches it and kills the process once a full
// tile beyond the published checkpoint is there, i.e. before the checkpoint
// that covers it; if a publication finishes between the look and the kill, it
// loads more and tries again).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { originOf } from './checkpoints.ts';
import { formatSignerKey, formatVerifierKey, generateSignerKey, verifierKeyFor } from './note.ts';
import { startSmtpPeer } from '../mail/testing/smtp-peer.ts';
import { startS3StandIn } from '../testing/s3-stand-in.ts';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';
import { auditPublishedLog, openCheckpoint, tileUrl, type Fetch } from '../testing/tile-client.ts';

const BATCH = '/api/v1/admin/agents/events/batch';

for (const store of testStores()) {
  for (const kind of ['s3', 'file'] as const) {
    test(
      `kill -9 while publishing to ${kind === 's3' ? 'S3' : 'a file:// directory'} loses nothing: a restart completes a tree that verifies [${store}]`,
      { timeout: 300_000 },
      async () => {
        const testDb = store === 'postgres' ? await createTestDb('postgres') : undefined;
        await testDb?.db.close();
        const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-publish-crash-'));
        const smtp = await startSmtpPeer();
        let hold = false;
        let held: string | undefined;
        const s3 = await startS3StandIn(['audit'], {
          onPut: (_bucket, key) => {
            // The first full tile asked for once armed: a publication is then mid-way by construction.
            if (hold && held === undefined && /\/tile\/(entries|\d+)\/[x\d/]+$/.test(key)) held = key;
            return hold && held !== undefined ? 'hold' : 'store';
          },
        });
        const signer = generateSignerKey('agent-ledger.local');
        const pubDir = join(dataDir, 'published');
        const env = {
          LEDGER_SIGNING_KEY: formatSignerKey(signer),
          SMTP_URL: smtp.url,
          ...(kind === 's3'
            ? {
                LOG_PUBLISH_URL: 's3://audit/tlog',
                LOG_PUBLISH_S3_ENDPOINT: s3.url,
                AWS_ACCESS_KEY_ID: s3.accessKeyId,
                AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
                AWS_REGION: 'us-east-1',
              }
            : { LOG_PUBLISH_URL: `file://${pubDir}` }),
        };
        const start = () => startServerProcess({ databaseUrl: testDb?.url, dataDir, env, timeoutMs: 120_000 });
        let server: ServerProcess | undefined;
        try {
          server = await start();
          const email = `crash@publish-${randomBytes(3).toString('hex')}.io`;
          const post = (path: string, body: unknown, token?: string) =>
            fetch(`${server!.url}${path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
              body: JSON.stringify(body),
            });
          assert.equal((await post('/api/v1/accounts/signup', { email })).status, 200);
          const mail = await smtp.waitFor((m) => m.to.includes(email), 15_000);
          const code = /\b(\d{6,})\b/.exec(mail.subject)![1];
          const { token, account } = (await (await post('/api/v1/accounts/verify', { email, code })).json()) as {
            token: string;
            account: { tenant_id: string };
          };
          const origin = originOf('agent-ledger.local', account.tenant_id);
          const vkey = formatVerifierKey(verifierKeyFor(signer, origin));
          const objects = s3.buckets.get('audit')!;
          /** The published object at a path below the log's origin, in the bucket or the directory. */
          const object = (path: string): Buffer | undefined => {
            if (kind === 's3') return objects.get(`tlog/${origin}/${path}`)?.body;
            const file = join(pubDir, origin, path);
            return existsSync(file) ? readFileSync(file) : undefined;
          };
          const published: Fetch = async (path) => {
            const obj = object(path);
            assert.ok(obj, `published ${path}`);
            return new Uint8Array(obj);
          };
          const served = async (path: string) => {
            const res = await fetch(`${server!.url}/api/v1/audit/tlog/${account.tenant_id}/${path}`, {
              headers: { authorization: `Bearer ${token}` },
            });
            assert.equal(res.status, 200, path);
            return new Uint8Array(await res.arrayBuffer());
          };
          const load = async (batches: number) => {
            for (let n = 0; n < batches; n++) {
              const events = Array.from({ length: 250 }, (_, i) => ({
                kind: 'invocation',
                event_id: `e${randomBytes(6).toString('hex')}-${i}`,
                event: { agent_key: `pub-${i % 3}`, correlation_id: `c${n}-${i}` },
              }));
              const res = await post(BATCH, { events }, token);
              assert.equal(res.status, 207, await res.text());
            }
          };
          const publishedSize = () => {
            const cp = object('checkpoint');
            return cp ? openCheckpoint(cp.toString(), vkey).size : 0;
          };
          /** file://: a full tile written beyond the published checkpoint — a publication between its tiles and its checkpoint. */
          const midway = (): string | undefined => {
            const size = publishedSize();
            for (const level of ['entries', '0']) {
              const dir = join(pubDir, origin, 'tile', level);
              const full = existsSync(dir) ? readdirSync(dir).filter((f) => /^\d{3}$/.test(f)) : [];
              const beyond = full.find((f) => (Number(f) + 1) * 256 > size);
              if (beyond !== undefined) return `tile/${level}/${beyond}`;
            }
            return undefined;
          };
          const until = async (what: string, ok: () => boolean, ms = 60_000) => {
            const deadline = Date.now() + ms;
            while (!ok()) {
              assert.ok(Date.now() < deadline, `${what}:\n${server!.stderr().slice(-2000)}`);
              await new Promise((r) => setTimeout(r, 25));
            }
          };

          // Published as it grows.
          await load(4);
          await until('the first publication', () => publishedSize() > 1000);
          let before: number;
          let cutOff: string;
          if (kind === 's3') {
            // Then a publication caught with a full tile's write in flight, and the process killed.
            hold = true;
            await load(3);
            await until('a full tile write in flight', () => held !== undefined);
            before = publishedSize();
            await server.stop('SIGKILL');
            hold = false;
            assert.ok(!objects.has(held!), 'the held tile was never stored');
            cutOff = held!.slice(`tlog/${origin}/`.length);
          } else {
            // Then the process killed as soon as a publication is seen between its tiles and its checkpoint.
            let caught: string | undefined;
            for (let attempt = 0; attempt < 8 && caught === undefined; attempt++) {
              let loadedAt: number | undefined;
              // Settled at once either way: the kill below cuts a request off, which is no failure.
              const loading = load(4).then(
                () => undefined,
                (err: unknown) => err,
              );
              void loading.then(() => (loadedAt = Date.now()));
              // Watched while loading and for a while after: on a fast machine the load is answered before the
              // publication that follows its checkpoint has begun.
              let seen: string | undefined;
              while ((seen = midway()) === undefined && (loadedAt === undefined || Date.now() - loadedAt < 3_000))
                await new Promise((r) => setTimeout(r, 1));
              if (seen === undefined) {
                const failed = await loading;
                if (failed) throw failed;
                continue;
              }
              await server.stop('SIGKILL');
              await loading;
              caught = midway(); // still beyond the checkpoint after the kill: cut off before its checkpoint
              if (caught === undefined) server = await start();
            }
            assert.ok(caught !== undefined, 'a publication was cut off between its tiles and its checkpoint');
            before = publishedSize();
            cutOff = caught;
          }

          // What the store holds at the kill verifies on its own: an older checkpoint, all its tiles there.
          const atKill = await auditPublishedLog(published, vkey, [0, 257, before - 1]);
          assert.equal(atKill.checkpoint.size, before);

          server = await start();
          const head = openCheckpoint(new TextDecoder().decode(await served('checkpoint')), vkey).size;
          assert.ok(head > before, `the log grew past what was published (${before} → ${head})`);
          await until('the restarted node caught up', () => publishedSize() >= head);
          const after = await auditPublishedLog(published, vkey, [0, before - 1, before, head - 1]);
          // Nothing missing: every full tile and the partial tiles of the published size, as the service serves them.
          const size = after.checkpoint.size;
          const paths: string[] = [];
          for (let n = 0; n < Math.floor(size / 256); n++) paths.push(tileUrl(0, n, 256), tileUrl('entries', n, 256));
          if (size % 256 > 0)
            paths.push(
              tileUrl(0, Math.floor(size / 256), size % 256),
              tileUrl('entries', Math.floor(size / 256), size % 256),
            );
          paths.push(tileUrl(1, 0, Math.floor(size / 256)));
          assert.ok(paths.includes(cutOff), `the tile cut off at the kill (${cutOff}) is among them`);
          for (const path of paths) assert.deepEqual(await published(path), await served(path), path);
          assert.equal(size, head);
          assert.deepEqual(await published('checkpoint'), await served('checkpoint'));
        } finally {
          await server?.stop();
          await s3.close();
          await smtp.close();
          await testDb?.dispose();
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    );
  }
}
