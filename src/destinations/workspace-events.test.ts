// Events about the workspace rather than an agent's action reach destinations
// like any other, through the audit trail: a witness that stops cosigning
// (`witness.failed`) and a quota used up (`quota.reached`), each once per
// occurrence — not once per retry of the witness, nor per refused request.
// Delivered to a real HTTP receiver, verified with the standardwebhooks package.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { formatSignerKey, generateSignerKey } from '../ledger/note.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { expectProblem, INVOCATION, leaves, newWorkspace, post } from '../testing/ingest-kit.ts';
import { freePort } from '../testing/server-process.ts';
import { cosignerKeyOf, formatCosignerKey } from '../witness/index.ts';
import { type Receiver, startReceiver } from './testing/receiver.ts';

const PER_DAY = 3;
// A witness nobody runs: every submission to it fails (connection refused).
const deadWitnessPort = await freePort();
const WITNESS_KEY = formatCosignerKey(cosignerKeyOf(generateSignerKey('down.witness.test')));

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
      LEDGER_SIGNING_KEY: formatSignerKey(generateSignerKey('agent-ledger.local')),
      WITNESS_URLS: `http://127.0.0.1:${deadWitnessPort}`,
      WITNESS_KEYS: WITNESS_KEY,
      WITNESS_RETRY_MAX_SECONDS: '1',
    },
  },
);
