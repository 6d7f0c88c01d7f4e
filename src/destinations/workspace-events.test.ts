// Events about the workspace rather than an agent's action reach destinations
// like any other, through the audit trail: a witness that stops cosigning
// (`witness.failed`) and a quota used up (`quota.reached`), each once per
// occurrence — not once per retry of the witness, nor per refused request.
// Delivered to a real HTTP receiver, verified with the standardwebhooks package.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { formatSignerKey, formatVerifierKey, generateSignerKey, verifierKeyFor } from '../ledger/note.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { expectProblem, INVOCATION, leaves, newWorkspace, post, ROGUE } from '../testing/ingest-kit.ts';
import { freePort, MAIN, NODE } from '../testing/server-process.ts';
import { cosignerKeyOf, formatCosignerKey } from '../witness/index.ts';
import { type Receiver, startReceiver } from './testing/receiver.ts';

const PER_DAY = 3;
// A witness nobody runs: every submission to it fails (connection refused).
const deadWitnessPort = await freePort();
const WITNESS_SIGNER = generateSignerKey('down.witness.test');
const WITNESS_KEY = formatCosignerKey(cosignerKeyOf(WITNESS_SIGNER));
const SERVICE_KEY = generateSignerKey('agent-ledger.local');

/** Runs `agent-ledger witness` with the witness's key on its port, vouching for the service's logs; resolves once it listens. */
async function startWitness(dir: string): Promise<ChildProcess> {
  const family = formatVerifierKey(verifierKeyFor(SERVICE_KEY, 'agent-ledger.local'));
  const child = spawn(
    NODE,
    [
      MAIN,
      'witness',
      '--key',
      formatSignerKey(WITNESS_SIGNER),
      '--store',
      join(dir, 'w.json'),
      '--log-family',
      family,
      '--port',
      String(deadWitnessPort),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.resume();
  // Generous: at load 17 a CLI took over 15 s to load. One that does not start is
  // killed, or it would answer on the port meant to be dead and its pipes would
  // keep this file's process alive after its tests.
  const deadline = Date.now() + 60_000;
  while (!/cosigner key: \S+\n/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`witness did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return child;
}

interface Delivered {
  id: string;
  type: string;
  data: Record<string, unknown>;
  evidence: { index: number };
}

eachStore(
  'workspace events at destinations: witness.failed and quota.reached',
  (get) => {
    let t: TestService;
    let a: SignedIn;
    let receiver: Receiver;
    let secret = '';

    /** What the receiver took so far, each request's signature verified. */
    const delivered = (): Delivered[] =>
      receiver.requests.map((r) => {
        const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
        return new Webhook(secret).verify(r.body, headers) as Delivered;
      });
    const checkpoint = async () => {
      const res = await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: a.token });
      assert.equal(res.statusCode, 200, res.body);
    };

    test('setup: a workspace with a webhook for both types', async () => {
      t = get();
      a = await newWorkspace(t, 'ws-events');
      receiver = await startReceiver({ status: 204 });
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/destinations',
        token: a.token,
        payload: {
          name: 'ops',
          kind: 'webhook',
          url: `${receiver.url}/hook`,
          events: ['witness.failed', 'quota.reached'],
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      secret = res.json().secret as string;
    });

    test('a witness that fails: one witness.failed, however often it is retried', async () => {
      assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'w-bot', tool_name: 'search' })).statusCode, 201);
      await checkpoint(); // signs the grown log, which queues it for the witness
      await t.service.witnesses.drain();
      const failed = (await leaves(t, a.account.tenant_id)).filter((l) => l.kind === 'witness_failed');
      assert.equal(failed.length, 1);
      assert.equal(failed[0]!.reason, 'unreachable');
      assert.match(String(failed[0]!.witness), /^down\.witness\.test\+[0-9a-f]{8}$/);
      // Tried again (the entry grew the log: a new checkpoint to submit) and again: still one entry.
      for (let i = 0; i < 2; i++) {
        await checkpoint();
        await new Promise((r) => setTimeout(r, 1_100)); // WITNESS_RETRY_MAX_SECONDS=1
        await t.service.witnesses.drain();
      }
      const states = await t.service.ctx.db.withTenant(a.account.tenant_id, (tx) =>
        tx.query<{ last_error: string | null }>('SELECT last_error FROM witness_states WHERE tenant_id = $1', [
          a.account.tenant_id,
        ]),
      );
      assert.match(states[0]!.last_error ?? '', /unreachable/);
      assert.equal((await leaves(t, a.account.tenant_id)).filter((l) => l.kind === 'witness_failed').length, 1);

      await t.service.deliveries.drain();
      const got = delivered().filter((e) => e.type === 'witness.failed');
      assert.equal(got.length, 1);
      assert.equal(got[0]!.data.reason, 'unreachable');
      assert.equal(got[0]!.data.witness, failed[0]!.witness);
      assert.equal(typeof got[0]!.data.checkpoint_size, 'number');
      const entry = await t.request({
        method: 'GET',
        url: `/api/v1/audit/entries/${got[0]!.evidence.index}`,
        token: a.token,
      });
      assert.equal(JSON.parse(entry.json().leaf as string).kind, 'witness_failed');
    });

    test('the witness cosigns again, then fails again: a second failing episode, a second witness.failed', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ws-events-witness-'));
      const witness = await startWitness(dir);
      const tenant = a.account.tenant_id;
      const lastError = async () =>
        (
          await t.service.ctx.db.withTenant(tenant, (tx) =>
            tx.query<{ last_error: string | null }>('SELECT last_error FROM witness_states WHERE tenant_id = $1', [
              tenant,
            ]),
          )
        )[0]!.last_error;
      try {
        const deadline = Date.now() + 60_000;
        while ((await lastError()) !== null) {
          assert.ok(Date.now() < deadline, 'the witness never cosigned');
          await new Promise((r) => setTimeout(r, 300));
          await t.service.witnesses.drain();
        }
      } finally {
        const exited = new Promise((r) => witness.once('exit', r));
        witness.kill('SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      }
      const failedCount = async () => (await leaves(t, tenant)).filter((l) => l.kind === 'witness_failed').length;
      assert.equal(await failedCount(), 1, 'cosigning appends nothing');
      // Down again: the next checkpoint it misses starts a new episode.
      assert.equal((await post(t, ROGUE, a.token, { event_type: 'loop', agent_key: 'w-bot' })).statusCode, 201);
      const deadline = Date.now() + 15_000;
      while ((await failedCount()) < 2) {
        assert.ok(Date.now() < deadline, 'no second witness_failed');
        await checkpoint();
        await t.service.witnesses.drain();
        await new Promise((r) => setTimeout(r, 300));
      }
      // And the retries of this episode append nothing more.
      for (let i = 0; i < 2; i++) {
        await new Promise((r) => setTimeout(r, 1_100));
        await checkpoint();
        await t.service.witnesses.drain();
      }
      assert.equal(await failedCount(), 2);
      receiver.requests.length = 0;
      await t.service.deliveries.drain();
      assert.deepEqual(
        delivered().map((e) => [e.type, e.data.reason]),
        [['witness.failed', 'unreachable']],
      );
    });

    test('a quota used up: one quota.reached for the day, none for the requests refused after it', async () => {
      receiver.requests.length = 0;
      // w-bot's invocation above counted too: PER_DAY - 1 more use the day up.
      for (let i = 1; i < PER_DAY; i++)
        assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'q-bot', tool_name: 'search' })).statusCode, 201);
      for (let i = 0; i < 3; i++)
        expectProblem(await post(t, INVOCATION, a.token, { agent_key: 'q-bot' }), 429, 'quota_exceeded');
      await t.service.deliveries.drain();
      const got = delivered().filter((e) => e.type === 'quota.reached');
      assert.equal(got.length, 1, JSON.stringify(delivered().map((e) => e.type)));
      assert.deepEqual(got[0]!.data, { quota: 'invocations_per_day', limit: PER_DAY, period: '2026-06-01' });
      // Nothing else was asked for, nothing else came.
      assert.deepEqual(
        delivered().map((e) => e.type),
        ['quota.reached'],
      );
    });

    test('teardown', async () => {
      await receiver.close();
    });
  },
  {
    manualJobs: true,
    env: {
      PLAN_CAPS: JSON.stringify({ team: { invocations_per_day: PER_DAY } }),
      LEDGER_SIGNING_KEY: formatSignerKey(SERVICE_KEY),
      WITNESS_URLS: `http://127.0.0.1:${deadWitnessPort}`,
      WITNESS_KEYS: WITNESS_KEY,
      WITNESS_RETRY_MAX_SECONDS: '1',
    },
  },
);
