// A request whose Idempotency-Key is still being recorded by another request
// waits for it and gets its answer; after IDEMPOTENCY_WAIT_MS of waiting it is
// 409 idempotency_key_in_flight (with Retry-After), stores nothing, and a
// later retry gets the first answer. The first request is held "in flight" by
// a transaction of the test that locks the workspace's log head, which every
// write of the workspace needs (on PGlite it holds the one connection).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type TestService } from '../testing/harness.ts';
import { expectProblem, INVOCATION, leaves, newWorkspace, stored } from '../testing/ingest-kit.ts';

function postKey(t: TestService, token: string, key: string, payload: unknown) {
  return t.request({
    method: 'POST',
    url: INVOCATION,
    token,
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    payload: JSON.stringify(payload),
  });
}

/** Locks the workspace's log head until the returned function is called. */
async function holdLog(t: TestService, tenantId: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = t.service.ctx.db.transaction(async (tx) => {
    await tx.query('SELECT size FROM log_heads WHERE tenant_id = $1 FOR UPDATE', [tenantId]);
    locked();
    await released;
  });
  await Promise.race([isLocked, done]);
  return async () => {
    release();
    await done;
  };
}

/**
 * A workspace whose token, plan, policy, scope and the agent's pseudonym this
 * node already keeps in memory (one event recorded), so a held log stops a
 * request only at its write, after it has claimed its key.
 */
async function warmWorkspace(t: TestService, label: string) {
  const a = await newWorkspace(t, label);
  const warm = await t.request({
    method: 'POST',
    url: INVOCATION,
    token: a.token,
    payload: { agent_key: 'retry-bot' },
  });
  assert.equal(warm.statusCode, 201, warm.body);
  return a;
}

const BODY = { agent_key: 'retry-bot', tool_name: 'crm.lookup', correlation_id: 'in-flight' };

eachStore('Idempotency-Key in flight: the second request waits for the first', (get) => {
  test('two requests with one key while the first is held: both get the first answer, one event is recorded', async () => {
    const t = get();
    const a = await warmWorkspace(t, 'idem-wait');
    const tenant = a.account.tenant_id;
    const before = await stored(t, tenant);
    const release = await holdLog(t, tenant);
    let answers;
    try {
      const first = postKey(t, a.token, 'wait-key', BODY);
      const second = postKey(t, a.token, 'wait-key', BODY);
      // Both are now stuck (one on the log, the other on its key) well within the 30 s wait.
      await new Promise((r) => setTimeout(r, 300));
      await release();
      answers = await Promise.all([first, second]);
    } finally {
      await release();
    }
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      [201, 201],
      answers.map((r) => r.body).join('\n'),
    );
    assert.equal(answers[0]!.body, answers[1]!.body, 'the same answer, byte for byte');
    assert.deepEqual(
      answers.map((r) => r.headers['idempotent-replayed'] ?? 'no').sort(),
      ['no', 'true'],
      'one recorded, one replayed',
    );
    const after = await stored(t, tenant);
    assert.equal(after.invocations, before.invocations + 1);
    assert.equal(after.usage, before.usage + 1);
    const id = answers[0]!.json().invocation_id as number;
    assert.equal((await leaves(t, tenant)).filter((l) => l.kind === 'invocation' && l.invocation_id === id).length, 1);
  });
});

eachStore(
  'Idempotency-Key in flight: after IDEMPOTENCY_WAIT_MS the second request is 409',
  (get) => {
    test('the waiting request is 409 idempotency_key_in_flight with Retry-After and stores nothing; the retry replays the first', async () => {
      const t = get();
      const a = await warmWorkspace(t, 'idem-409');
      const tenant = a.account.tenant_id;
      const before = await stored(t, tenant);
      const release = await holdLog(t, tenant);
      let firstDone;
      try {
        const requests = [postKey(t, a.token, 'busy-key', BODY), postKey(t, a.token, 'busy-key', BODY)];
        // The one held on the log cannot answer while the log is held: whichever answers is the one that waited.
        const waited = await Promise.race(requests);
        expectProblem(waited, 409, 'idempotency_key_in_flight');
        assert.equal(waited.headers['retry-after'], '1');
        // (The store is not read here: on PGlite the held transaction holds its one connection.)
        await release();
        firstDone = (await Promise.all(requests)).find((r) => r !== waited)!;
      } finally {
        await release();
      }
      assert.equal(firstDone.statusCode, 201, firstDone.body);
      const retry = await postKey(t, a.token, 'busy-key', BODY);
      assert.equal(retry.statusCode, 201);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, firstDone.body);
      const after = await stored(t, tenant);
      assert.equal(after.invocations, before.invocations + 1, 'the 409 stored nothing');
      assert.equal(after.usage, before.usage + 1);
    });
  },
  { env: { IDEMPOTENCY_WAIT_MS: '300' } },
);
