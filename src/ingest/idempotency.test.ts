// Idempotency-Key on both event endpoints: a retry with the same key and body
// gets the first response again and records nothing; another body is 422
// idempotency_key_reused; concurrent retries record once; a failed first
// attempt stores nothing under its key; keys expire after 24 hours and belong
// to one workspace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type TestService } from '../testing/harness.ts';
import { DAY_MS, expectProblem, INVOCATION, leaves, newWorkspace, ROGUE, stored } from '../testing/ingest-kit.ts';

function postKey(t: TestService, url: string, token: string, key: string, payload: unknown) {
  return t.request({
    method: 'POST',
    url,
    token,
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    payload: JSON.stringify(payload),
  });
}

eachStore('Idempotency-Key on the event endpoints', (get) => {
  test('a retry with the same key and body gets the same answer and records nothing', async () => {
    const t = get();
    const a = await newWorkspace(t, 'idem-same');
    const tenant = a.account.tenant_id;
    const body = {
      agent_key: 'retry-bot',
      tool_name: 'crm.lookup',
      tool_input: 'mail jane@example.com',
      mode: 'enforced',
    };
    const first = await postKey(t, INVOCATION, a.token, 'order-42', body);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const before = await stored(t, tenant);
    // The same JSON spelled differently (key order, spacing) is the same request.
    const raw = `{ "mode":"enforced", "tool_input":"mail jane@example.com", "tool_name":"crm.lookup", "agent_key":"retry-bot" }`;
    const again = await t.request({
      method: 'POST',
      url: INVOCATION,
      token: a.token,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-42' },
      payload: raw,
    });
    assert.equal(again.statusCode, 201);
    assert.deepEqual(again.json(), first.json());
    assert.equal(first.json().pii_count, 1);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(await stored(t, tenant), before, 'no second row, leaf or quota count');
    // The rogue endpoint too.
    const rogue = { event_type: 'oos_tool', agent_key: 'retry-bot', tool: 'shell.exec' };
    const r1 = await postKey(t, ROGUE, a.token, 'rogue-1', rogue);
    const r2 = await postKey(t, ROGUE, a.token, 'rogue-1', rogue);
    assert.equal(r1.statusCode, 201);
    assert.deepEqual(r2.json(), r1.json());
    assert.equal((await stored(t, tenant)).rogue, before.rogue + 1);
  });

  test('the same key with another body is 422 idempotency_key_reused and records nothing', async () => {
    const t = get();
    const a = await newWorkspace(t, 'idem-reused');
    assert.equal((await postKey(t, INVOCATION, a.token, 'k', { agent_key: 'a', prompt: 'one' })).statusCode, 201);
    const before = await stored(t, a.account.tenant_id);
    expectProblem(
      await postKey(t, INVOCATION, a.token, 'k', { agent_key: 'a', prompt: 'two' }),
      422,
      'idempotency_key_reused',
    );
    // The same body on the other endpoint is another request.
    expectProblem(
      await postKey(t, ROGUE, a.token, 'k', { event_type: 'x', agent_key: 'a' }),
      422,
      'idempotency_key_reused',
    );
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });

  test('50 identical requests at once record one row, one leaf, one quota count, 50 identical answers', async () => {
    const t = get();
    const a = await newWorkspace(t, 'idem-burst');
    const tenant = a.account.tenant_id;
    const body = { agent_key: 'burst-bot', prompt: 'once only', correlation_id: 'burst' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postKey(t, INVOCATION, a.token, 'burst-key', body)),
    );
    assert.deepEqual([...new Set(answers.map((r) => r.statusCode))], [201]);
    assert.equal(new Set(answers.map((r) => r.body)).size, 1, 'identical bodies');
    const s = await stored(t, tenant);
    assert.equal(s.invocations, 1);
    assert.equal(s.usage, 1);
    assert.equal((await leaves(t, tenant)).filter((l) => l.kind === 'invocation').length, 1);
  });

  test('a first attempt that failed stores nothing under its key: the retry is recorded', async () => {
    const t = get();
    const a = await newWorkspace(t, 'idem-failed');
    const tenant = a.account.tenant_id;
    await t.service.ctx.db.exec(
      "ALTER TABLE invocations ADD CONSTRAINT idem_poison CHECK (correlation_id IS DISTINCT FROM 'idem-poison')",
    );
    try {
      expectProblem(
        await postKey(t, INVOCATION, a.token, 'fails-first', { agent_key: 'x', correlation_id: 'idem-poison' }),
        500,
        'internal_error',
      );
    } finally {
      await t.service.ctx.db.exec('ALTER TABLE invocations DROP CONSTRAINT idem_poison');
    }
    assert.equal((await stored(t, tenant)).invocations, 0);
    const retry = await postKey(t, INVOCATION, a.token, 'fails-first', {
      agent_key: 'x',
      correlation_id: 'idem-poison',
    });
    assert.equal(retry.statusCode, 201, retry.body);
    assert.equal((await stored(t, tenant)).invocations, 1);
  });

  test('keys belong to one workspace and expire after 24 hours; a malformed key is 400', async () => {
    const t = get();
    const a = await newWorkspace(t, 'idem-ws-a');
    const b = await newWorkspace(t, 'idem-ws-b');
    const ra = await postKey(t, INVOCATION, a.token, 'shared', { agent_key: 'x' });
    const rb = await postKey(t, INVOCATION, b.token, 'shared', { agent_key: 'x' });
    assert.equal(rb.statusCode, 201);
    assert.equal(rb.json().tenant_id, b.account.tenant_id);
    assert.equal((await stored(t, b.account.tenant_id)).invocations, 1, 'recorded in B, not a replay of A');
    const later = t.clock.now();
    t.clock.advance(DAY_MS - 60_000);
    try {
      assert.deepEqual(
        (await postKey(t, INVOCATION, a.token, 'shared', { agent_key: 'x' })).json(),
        ra.json(),
        'still kept just under 24 h',
      );
      t.clock.advance(120_000);
      const fresh = await postKey(t, INVOCATION, a.token, 'shared', { agent_key: 'x' });
      assert.equal(fresh.statusCode, 201);
      assert.notEqual(fresh.json().invocation_id, ra.json().invocation_id, 'a new event after 24 h');
    } finally {
      t.clock.set(later);
    }
    expectProblem(await postKey(t, INVOCATION, a.token, 'k'.repeat(256), { agent_key: 'x' }), 400, 'bad_request');
    // A control character breaks the one input rule for strings (docs/api.md): 422 naming the header.
    expectProblem(await postKey(t, INVOCATION, a.token, 'tab\there', { agent_key: 'x' }), 422, 'unprocessable');
  });

  test('keys expire by dropping day partitions: over 48 hours none is deleted, a replay within 24 h answers', async () => {
    const t = get();
    const a = await newWorkspace(t, 'idem-days');
    const start = t.clock.now();
    const { partitions } = t.service;
    const keyRows = async () =>
      (
        await t.testDb.db.query<{ key: string; part: string }>(
          `SELECT key, tableoid::regclass::text AS part FROM idempotency_keys WHERE tenant_id = $1 ORDER BY created_at`,
          [a.account.tenant_id],
        )
      ).map((r) => `${r.key}@${r.part.slice('idempotency_keys_'.length)}`);
    try {
      const first = await postKey(t, INVOCATION, a.token, 'day-one', { agent_key: 'x' });
      assert.equal(first.statusCode, 201, first.body);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
      for (let h = 1; h <= 48; h++) {
        t.clock.set(new Date(start.getTime() + h * 3600_000));
        await partitions.maintain();
        if (h === 23) {
          const again = await postKey(t, INVOCATION, a.token, 'day-one', { agent_key: 'x' });
          assert.equal(again.headers['idempotent-replayed'], 'true', 'replayed 23 h on, across the day boundary');
          assert.deepEqual(again.json(), first.json());
          await postKey(t, INVOCATION, a.token, 'day-two', { agent_key: 'x' });
        }
      }
      const twoDaysOn = start.getTime() + 48 * 3600_000;
      // day-one's day is past its 24 hours and the hour of slack: its partition is gone; day-two's stays.
      assert.deepEqual(await keyRows(), [`day-two@p${day(start.getTime() + 23 * 3600_000)}`]);
      const [gone] = await t.testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_class WHERE relname = $1',
        [`idempotency_keys_p${day(start.getTime())}`],
      );
      assert.equal(gone!.n, 0);
      const [ahead] = await t.testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_class WHERE relname = $1',
        [`idempotency_keys_p${day(twoDaysOn + 2 * DAY_MS)}`],
      );
      assert.equal(ahead!.n, 1, 'two days ahead are made');
      // Nothing was ever deleted row by row from a partition (the default one held no key).
      const [dead] = await t.testDb.db.query<{ n: number }>(
        `SELECT coalesce(sum(n_tup_del), 0)::int AS n FROM pg_stat_user_tables WHERE relname LIKE 'idempotency_keys%'`,
      );
      assert.equal(dead!.n, 0);
    } finally {
      t.clock.set(start);
    }
  });
});
