// The service and two real witness processes (`agent-ledger witness`), on each
// store: every new checkpoint of a growing log gets both cosignatures; a
// witness that was down catches up when it returns; a log truncated and
// re-signed with the service's own key is refused by both witnesses, and
// `verify --witness-quorum 1` fails on it while plain `verify` passes.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { appendLeaves, consistencyProof, type StoredNode } from '../ledger/merkle.ts';
import { encodeLeaf, leafHashOf } from '../ledger/leaf.ts';
import {
  formatSignerKey,
  formatVerifierKey,
  generateSignerKey,
  openCheckpoint,
  parseVerifierKey,
  signCheckpoint,
  verifierKeyFor,
} from '../ledger/note.ts';
import { startTestService, type SignedIn, type TestService } from '../testing/harness.ts';
import { freePort, MAIN, NODE, runCli } from '../testing/server-process.ts';
import { testStores } from '../testing/test-db.ts';
import { parseCosignerKey, verifyCosignatures } from './cosignature.ts';
import { formatAddCheckpoint } from './protocol.ts';

const ORIGIN = 'agent-ledger.local';

interface WitnessProc {
  child: ChildProcess;
  url: string;
  key: string;
}

/** Starts `agent-ledger witness` and reads its address and cosigner key from its first lines. */
async function startWitness(signerKey: string, store: string, logFamily: string, port: number): Promise<WitnessProc> {
  const child = spawn(
    NODE,
    [MAIN, 'witness', '--key', signerKey, '--store', store, '--log-family', logFamily, '--port', String(port)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.resume();
  // Generous (at load 17 a CLI took over 15 s to load); one that does not start is killed,
  // or its pipes would keep this file's process alive after its tests.
  const deadline = Date.now() + 60_000;
  while (!/cosigner key: \S+\n/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`witness did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, url: /listening on (\S+)/.exec(out)![1]!, key: /cosigner key: (\S+)/.exec(out)![1]! };
}

async function stopWitness(w: WitnessProc): Promise<void> {
  if (w.child.exitCode !== null) return;
  const exited = new Promise((r) => w.child.once('exit', r));
  w.child.kill('SIGTERM');
  await exited;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const store of testStores()) {
  describe(`witnesses [${store}]`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'witnessing-'));
    const service = generateSignerKey(ORIGIN);
    const family = formatVerifierKey(verifierKeyFor(service, ORIGIN));
    const wSigners = [generateSignerKey('w1.witness.test'), generateSignerKey('w2.witness.test')].map(formatSignerKey);
    const ports: number[] = [];
    const w: WitnessProc[] = [];
    let t: TestService;
    let url: string;
    let admin: SignedIn;
    let logKey: string;

    before(async () => {
      for (let i = 0; i < 2; i++) {
        ports.push(await freePort());
        w.push(await startWitness(wSigners[i]!, join(dir, `w${i}.json`), family, ports[i]!));
      }
      t = await startTestService(store, {
        env: {
          LEDGER_SIGNING_KEY: formatSignerKey(service),
          WITNESS_URLS: w.map((x) => x.url).join(','),
          WITNESS_KEYS: w.map((x) => x.key).join(','),
          WITNESS_RETRY_MAX_SECONDS: '1',
        },
      });
      url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      admin = await t.signIn('audit@witnessed.io');
      logKey = formatVerifierKey(verifierKeyFor(service, `${ORIGIN}/${admin.account.tenant_id}`));
    });
    after(async () => {
      await t?.close();
      for (const x of w) await stopWitness(x);
      rmSync(dir, { recursive: true, force: true });
    });

    const grow = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/admin/agents/events/invocation',
          token: admin.token,
          payload: { agent_key: 'witnessed-bot', tool_name: 'search', prompt: `step ${i}` },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
    };
    const checkpoint = async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: admin.token });
      assert.equal(res.statusCode, 200);
      return res.body;
    };
    const cosigners = (note: string) =>
      verifyCosignatures(
        note,
        w.map((x) => parseCosignerKey(x.key)),
      )
        .map((c) => c.name)
        .sort();
    /** The latest checkpoint, once it carries cosignatures by exactly these witnesses. */
    const cosignedBy = (names: string[]) =>
      until(`cosignatures by ${names.join(', ')}`, async () => {
        const note = await checkpoint();
        return JSON.stringify(cosigners(note)) === JSON.stringify(names) ? note : undefined;
      });
    const verify = (...extra: string[]) =>
      runCli(['verify', '--url', url, '--token', admin.token, '--key', logKey, ...extra]);
    const witnessArgs = () => w.flatMap((x) => ['--witness', x.key]);

    test('two witnesses cosign every new checkpoint of a growing log', async () => {
      for (let round = 0; round < 3; round++) {
        await grow(3);
        const note = await cosignedBy(['w1.witness.test', 'w2.witness.test']);
        const size = openCheckpoint(note, [parseVerifierKey(logKey)]).checkpoint.size;
        // Each witness's own file holds that size now.
        for (let i = 0; i < 2; i++) {
          const state = JSON.parse(readFileSync(join(dir, `w${i}.json`), 'utf8')) as {
            logs: Record<string, { size: number }>;
          };
          assert.equal(state.logs[`${ORIGIN}/${admin.account.tenant_id}`]?.size, size);
        }
      }
      const ok = await verify(...witnessArgs(), '--witness-quorum', '2');
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /witnesses\s+2 of 2 cosigned \(quorum 2\).*quorum met/);
      // A compliance report carries its checkpoint cosigned (submitted when the report is made).
      const period = 'from=2026-05-31T00:00:00Z&to=2026-06-02T00:00:00Z';
      const report = await t.request({
        method: 'GET',
        url: `/api/v1/reports/compliance?${period}`,
        token: admin.token,
      });
      assert.equal(report.statusCode, 200, report.body);
      assert.deepEqual(cosigners(report.json().evidence.checkpoint), ['w1.witness.test', 'w2.witness.test']);
      const file = join(dir, 'report.json');
      writeFileSync(file, report.body);
      const checked = await verify('--report', file, ...witnessArgs(), '--witness-quorum', '2');
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    });

    test('a witness that is down delays nothing, and catches up when it returns', async () => {
      await stopWitness(w[1]!);
      await grow(4);
      const t0 = Date.now();
      const note = await cosignedBy(['w1.witness.test']); // served with what is available
      assert.ok(Date.now() - t0 < 10_000);
      const partial = await verify(...witnessArgs(), '--witness-quorum', '2');
      assert.equal(partial.code, 1, partial.stdout);
      assert.match(partial.stdout, /1 valid cosignature\(s\) by the given witnesses; 2 required/);
      assert.equal((await verify(...witnessArgs(), '--witness-quorum', '1')).code, 0);

      w[1] = await startWitness(wSigners[1]!, join(dir, 'w1.json'), family, ports[1]!);
      const caughtUp = await cosignedBy(['w1.witness.test', 'w2.witness.test']);
      assert.equal(caughtUp.split('\n\n')[0], note.split('\n\n')[0], 'the same checkpoint, now with both cosignatures');
    });

    test('a truncated log re-signed with the service key: refused by both witnesses, and verify --witness-quorum 1 fails', async () => {
      const held = openCheckpoint(await checkpoint(), [parseVerifierKey(logKey)]).checkpoint.size;
      const entries = (
        (
          await t.request({ method: 'GET', url: `/api/v1/audit/entries?start=0&end=${held}`, token: admin.token })
        ).json() as {
          entries: Array<{ index: number; leaf: string; leaf_hash: string }>;
        }
      ).entries;
      // The rewritten history: the first few entries kept, the rest replaced, then grown past the witnesses' size.
      const origin = `${ORIGIN}/${admin.account.tenant_id}`;
      const keep = entries.slice(0, 3);
      const forged = [
        ...keep.map((e) => e.leaf),
        ...Array.from({ length: held + 2 - keep.length }, (_, i) => encodeLeaf({ kind: 'forged', i })),
      ];
      const built = appendLeaves(0, forged.map(leafHashOf), []);
      const nodes: StoredNode[] = built.nodes;
      const truncated = signCheckpoint(
        { origin, size: 3, root: appendLeaves(0, forged.slice(0, 3).map(leafHashOf), []).root },
        service,
      );
      const regrown = signCheckpoint({ origin, size: forged.length, root: built.root }, service);
      for (const x of w) {
        const post = (body: string) =>
          fetch(`${x.url}/add-checkpoint`, { method: 'POST', body }).then(async (r) => [r.status, await r.text()]);
        // The truncated log as its own history: the witness holds a bigger tree.
        assert.deepEqual(await post(formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: truncated })), [
          409,
          `${held}\n`,
        ]);
        assert.equal((await post(formatAddCheckpoint({ oldSize: held, proof: [], checkpoint: truncated })))[0], 400);
        // Grown past the witness with a proof from the forged tree: inconsistent with what it cosigned.
        const proof = consistencyProof(held, forged.length, nodes);
        assert.equal((await post(formatAddCheckpoint({ oldSize: held, proof, checkpoint: regrown })))[0], 422);
      }
      // The forged log as a bundle: its own signature checks out, the witnesses' quorum does not.
      const bundle = join(dir, 'forged.json');
      writeFileSync(
        bundle,
        JSON.stringify({
          format: 'agent-ledger-audit-bundle',
          version: 1,
          origin,
          checkpoint: regrown,
          verifier_key: logKey,
          previous_verifier_keys: [],
          exported_at: new Date().toISOString(),
          entries: forged.map((leaf, index) => ({
            index,
            leaf,
            leaf_hash: Buffer.from(leafHashOf(leaf)).toString('base64'),
          })),
        }),
      );
      const plain = await runCli(['verify', '--bundle', bundle, '--key', logKey]);
      assert.equal(plain.code, 0, plain.stdout + plain.stderr);
      const witnessed = await runCli([
        'verify',
        '--bundle',
        bundle,
        '--key',
        logKey,
        ...witnessArgs(),
        '--witness-quorum',
        '1',
      ]);
      assert.equal(witnessed.code, 1, witnessed.stdout);
      assert.match(witnessed.stdout, /0 valid cosignature\(s\).*1 required/);
      // The genuine log, exported with its cosigned checkpoint, passes the same check offline.
      const genuine = join(dir, 'genuine.json');
      assert.equal((await verify('--export', genuine)).code, 0);
      const offline = await runCli([
        'verify',
        '--bundle',
        genuine,
        '--key',
        logKey,
        ...witnessArgs(),
        '--witness-quorum',
        '1',
      ]);
      assert.equal(offline.code, 0, offline.stdout + offline.stderr);
    });
  });
}
