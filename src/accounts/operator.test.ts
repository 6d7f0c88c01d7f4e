import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type SmtpPeer, startSmtpPeer } from '../mail/testing/smtp-peer.ts';
import { eachStore, OPERATOR_TOKEN, type SignedIn, startTestService, type TestService } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';
import { runCli, type ServerProcess, startServerProcess } from '../testing/server-process.ts';
import { createTestDb, type TestDb } from '../testing/test-db.ts';
import { auditLeaves } from '../testing/workspace.ts';

const LIST = '/api/v1/operator/workspaces';
const sub = (tenantId: string) => `/api/v1/operator/workspaces/${tenantId}/subscription`;
const NO_SUCH = '00000000-0000-4000-8000-000000000000';
const PLAN_VIEW_KEYS = [
  'account_status',
  'display_name',
  'plan_tier',
  'quotas',
  'subscription_status',
  'tenant_id',
  'trial_days_remaining',
  'trial_ends_at',
];

eachStore('operator API', (get) => {
  let a: SignedIn;
  let b: SignedIn;

  test('setup: two workspaces', async () => {
    const t = get();
    a = await t.signIn('alice@op-alpha.example');
    b = await t.signIn('bob@op-beta.example');
  });

  test('401 without the operator token, with a wrong one, or with an API token', async () => {
    const t = get();
    for (const token of [undefined, 'op_test_token_0123456789abcdeX', 'op_test_token', a.token]) {
      for (const req of [
        { method: 'GET', url: LIST },
        { method: 'PUT', url: sub(a.account.tenant_id), payload: { plan_tier: 'free' } },
      ] as const) {
        const res = await t.request({ ...req, ...(token ? { token } : {}) });
        assertProblem(res, 401, 'unauthorized');
        assert.equal(res.headers['www-authenticate'], 'Bearer');
      }
    }
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: a.token })).json().plan_tier,
      'team',
    );
  });

  test('list: every workspace with plan, status and usage, paged', async () => {
    const t = get();
    const res = await t.request({ method: 'GET', url: LIST, token: OPERATOR_TOKEN });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.next_cursor, null);
    const ids = body.items.map((w: { tenant_id: string }) => w.tenant_id);
    assert.deepEqual([...ids].sort(), [a.account.tenant_id, b.account.tenant_id].sort());
    for (const w of body.items) {
      assert.deepEqual(Object.keys(w).sort(), PLAN_VIEW_KEYS);
      assert.equal(w.plan_tier, 'team');
      assert.equal(w.subscription_status, 'trialing');
      assert.equal(w.account_status, 'active');
      for (const v of Object.values(w.quotas)) assert.ok(Number.isInteger(v));
    }
    assert.equal(
      body.items.find((w: { tenant_id: string }) => w.tenant_id === a.account.tenant_id).display_name,
      'op-alpha.example',
    );

    const first = (await t.request({ method: 'GET', url: `${LIST}?limit=1`, token: OPERATOR_TOKEN })).json();
    assert.equal(first.items.length, 1);
    assert.equal(typeof first.next_cursor, 'string');
    const second = (
      await t.request({ method: 'GET', url: `${LIST}?limit=1&cursor=${first.next_cursor}`, token: OPERATOR_TOKEN })
    ).json();
    assert.equal(second.items.length, 1);
    assert.equal(second.next_cursor, null);
    assert.deepEqual([first.items[0].tenant_id, second.items[0].tenant_id].sort(), [...ids].sort());

    for (const q of ['limit=0', 'limit=501', 'limit=x']) {
      assertFieldErrors(await t.request({ method: 'GET', url: `${LIST}?${q}`, token: OPERATOR_TOKEN }), ['/limit']);
    }
    for (const cursor of [
      '%%%',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('["not-a-uuid"]').toString('base64url'),
    ]) {
      assertFieldErrors(await t.request({ method: 'GET', url: `${LIST}?cursor=${cursor}`, token: OPERATOR_TOKEN }), [
        '/cursor',
      ]);
    }
  });

  test('change plan, status and trial end: 200 with the plan view; /me and the gate follow', async () => {
    const t = get();
    const id = a.account.tenant_id;
    const put = (payload: object) => t.request({ method: 'PUT', url: sub(id), token: OPERATOR_TOKEN, payload });
    const r1 = await put({ plan_tier: 'enterprise' });
    assert.equal(r1.statusCode, 200, r1.body);
    assert.deepEqual(Object.keys(r1.json()).sort(), PLAN_VIEW_KEYS);
    assert.equal(r1.json().tenant_id, id);
    assert.equal(r1.json().plan_tier, 'enterprise');
    assert.equal(r1.json().subscription_status, 'trialing');
    const r2 = await put({ subscription_status: 'past_due' });
    assert.equal(r2.json().plan_tier, 'enterprise');
    assert.equal(r2.json().account_status, 'sub_lapsed');
    assert.equal(r2.json().trial_days_remaining, null);
    assertProblem(
      await t.request({ method: 'POST', url: '/api/v1/accounts/tokens', token: a.token, payload: { name: 'x' } }),
      402,
      'payment_required',
    );
    const ends = '2026-07-01T00:00:00.000Z';
    const r3 = await put({ subscription_status: 'trialing', trial_ends_at: '2026-07-01T02:00:00+02:00' });
    assert.equal(r3.json().trial_ends_at, ends);
    assert.equal(r3.json().account_status, 'active');
    assert.equal(r3.json().trial_days_remaining, 30);
    const r4 = await put({ trial_ends_at: null });
    assert.equal(r4.json().trial_ends_at, null);
    assert.equal(r4.json().trial_days_remaining, null);
    const r5 = await put({ plan_tier: 'team', subscription_status: 'active', trial_ends_at: ends });
    assert.equal(r5.statusCode, 200);
    const me = (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: a.token })).json();
    assert.equal(me.plan_tier, 'team');
    assert.equal(me.account.plan_tier, 'team');
    assert.equal(me.subscription_status, 'active');
    assert.equal(me.trial_ends_at, ends);
    assert.equal(me.account_status, 'active');
    // The other workspace did not change.
    const other = (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: b.token })).json();
    assert.equal(other.plan_tier, 'team');
    assert.equal(other.subscription_status, 'trialing');
  });

  test('each change is an audit-trail entry of that workspace, with before and after', async () => {
    const t = get();
    const changes = (await auditLeaves(t, a.token)).filter((l) => l.kind === 'subscription_change');
    assert.equal(changes.length, 5);
    assert.deepEqual(changes[0]!.from, {
      plan_tier: 'team',
      subscription_status: 'trialing',
      trial_ends_at: '2026-06-15T12:00:00.000Z',
    });
    assert.deepEqual(changes[0]!.to, {
      plan_tier: 'enterprise',
      subscription_status: 'trialing',
      trial_ends_at: '2026-06-15T12:00:00.000Z',
    });
    assert.equal(changes[0]!.by, 'operator');
    assert.deepEqual(changes[4]!.to, {
      plan_tier: 'team',
      subscription_status: 'active',
      trial_ends_at: '2026-07-01T00:00:00.000Z',
    });
    assert.equal((await auditLeaves(t, b.token)).filter((l) => l.kind === 'subscription_change').length, 0);
  });

  test('404 for an unknown or malformed workspace id', async () => {
    const t = get();
    assertProblem(
      await t.request({ method: 'PUT', url: sub(NO_SUCH), token: OPERATOR_TOKEN, payload: { plan_tier: 'free' } }),
      404,
      'not_found',
    );
    assertProblem(
      await t.request({ method: 'PUT', url: sub('acme'), token: OPERATOR_TOKEN, payload: { plan_tier: 'free' } }),
      404,
      'not_found',
    );
  });

  test('422 for bad values, naming the field; 400 for a body that is not an object', async () => {
    const t = get();
    const put = (payload: unknown) =>
      t.request({ method: 'PUT', url: sub(b.account.tenant_id), token: OPERATOR_TOKEN, payload: payload as object });
    assertFieldErrors(await put({ plan_tier: 'gold' }), ['/plan_tier']);
    assertFieldErrors(await put({ plan_tier: null }), ['/plan_tier']);
    assertFieldErrors(await put({ plan_tier: 1 }), ['/plan_tier']);
    assertFieldErrors(await put({ subscription_status: 'paused' }), ['/subscription_status']);
    assertFieldErrors(await put({ subscription_status: 'ACTIVE' }), ['/subscription_status']);
    assertFieldErrors(await put({ trial_ends_at: 'tomorrow' }), ['/trial_ends_at']);
    assertFieldErrors(await put({ trial_ends_at: '2026-02-30T00:00:00Z' }), ['/trial_ends_at']);
    assertFieldErrors(await put({ trial_ends_at: 1767225600000 }), ['/trial_ends_at']);
    assertFieldErrors(await put({ plan_tier: 'gold', subscription_status: 'paused' }), [
      '/plan_tier',
      '/subscription_status',
    ]);
    assertFieldErrors(await put({}), ['/']);
    assertFieldErrors(await put({ unknown: 'field' }), ['/']);
    for (const payload of ['[]', '"free"', 'null', '{"plan_tier":']) {
      const res = await t.request({
        method: 'PUT',
        url: sub(b.account.tenant_id),
        token: OPERATOR_TOKEN,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      assertProblem(res, 400, 'bad_request');
    }
    const me = (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: b.token })).json();
    assert.equal(me.plan_tier, 'team');
    assert.equal(me.subscription_status, 'trialing');
  });

  test('the operator token is not an account token: it cannot use account endpoints', async () => {
    const t = get();
    assertProblem(
      await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: OPERATOR_TOKEN }),
      403,
      'forbidden',
    );
    assertProblem(
      await t.request({ method: 'GET', url: '/api/v1/workspace/members', token: OPERATOR_TOKEN }),
      403,
      'forbidden',
    );
  });
});

describe('operator API without OPERATOR_TOKEN', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService('pglite', { env: { OPERATOR_TOKEN: '' } });
  });
  after(() => t.close());

  test('is not there: 404, whatever the token', async () => {
    const alice = await t.signIn('alice@no-operator.example');
    for (const token of [undefined, 'op_test_token_0123456789abcdef', alice.token]) {
      assertProblem(await t.request({ method: 'GET', url: LIST, ...(token ? { token } : {}) }), 404, 'not_found');
      assertProblem(
        await t.request({
          method: 'PUT',
          url: sub(alice.account.tenant_id),
          payload: { plan_tier: 'free' },
          ...(token ? { token } : {}),
        }),
        404,
        'not_found',
      );
    }
  });
});

describe('agent-ledger admin (CLI) against a running server', () => {
  let smtp: SmtpPeer;
  let db: TestDb | undefined;
  let server: ServerProcess;
  let alice: { token: string; account: { tenant_id: string } };
  const OP = 'cli_operator_token_0123456789';

  before(async () => {
    smtp = await startSmtpPeer();
    // On the shared PostgreSQL when there is one, else on the embedded store.
    db = process.env.TEST_DATABASE_URL ? await createTestDb('postgres') : undefined;
    server = await startServerProcess({ databaseUrl: db?.url, env: { OPERATOR_TOKEN: OP, SMTP_URL: smtp.url } });
    const post = (path: string, body: object) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    assert.equal((await post('/api/v1/accounts/signup', { email: 'alice@cli-co.example' })).status, 200);
    const mail = await smtp.waitFor((m) => m.to.includes('alice@cli-co.example'), 15_000);
    const code = /\b(\d{6,})\b/.exec(mail.subject)![1]!;
    const v = await post('/api/v1/accounts/verify', { email: 'alice@cli-co.example', code });
    assert.equal(v.status, 200);
    alice = (await v.json()) as typeof alice;
  });
  after(async () => {
    await server?.stop();
    await db?.dispose();
    await smtp?.close();
  });

  const cli = (args: string[], env: Record<string, string> = { OPERATOR_TOKEN: OP }) =>
    runCli(['admin', ...args, '--url', server.url], env);
  const me = async () =>
    (await (
      await fetch(`${server.url}/api/v1/accounts/me`, { headers: { authorization: `Bearer ${alice.token}` } })
    ).json()) as Record<string, unknown>;

  test('admin plan <tenant_id> --tier --status --trial-ends changes the workspace; admin workspaces lists it', async () => {
    const r = await cli([
      'plan',
      alice.account.tenant_id,
      '--tier',
      'enterprise',
      '--status',
      'past_due',
      '--trial-ends',
      '2027-01-01T00:00:00Z',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const view = JSON.parse(r.stdout);
    assert.equal(view.tenant_id, alice.account.tenant_id);
    assert.equal(view.plan_tier, 'enterprise');
    assert.equal(view.subscription_status, 'past_due');
    assert.equal(view.account_status, 'sub_lapsed');
    assert.equal(view.trial_ends_at, '2027-01-01T00:00:00.000Z');
    const m = await me();
    assert.equal(m.plan_tier, 'enterprise');
    assert.equal(m.account_status, 'sub_lapsed');

    const r2 = await cli(['plan', alice.account.tenant_id, '--status', 'active', '--trial-ends', 'none']);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(JSON.parse(r2.stdout).trial_ends_at, null);
    assert.equal((await me()).account_status, 'active');

    const list = await cli(['workspaces']);
    assert.equal(list.code, 0, list.stderr);
    const items = JSON.parse(list.stdout).items as Array<{ tenant_id: string; plan_tier: string }>;
    assert.deepEqual(
      items.map((w) => [w.tenant_id, w.plan_tier]),
      [[alice.account.tenant_id, 'enterprise']],
    );
  });

  test('errors: exit code ≠ 0 and a message saying what is wrong, nothing changed', async () => {
    // Independent processes: run them side by side.
    const [bad, unknown, wrongToken, noToken, nothing, usage] = await Promise.all([
      cli(['plan', alice.account.tenant_id, '--tier', 'gold']),
      cli(['plan', '00000000-0000-4000-8000-000000000000', '--tier', 'free']),
      cli(['plan', alice.account.tenant_id, '--tier', 'free'], { OPERATOR_TOKEN: 'wrong_operator_token_000000' }),
      cli(['plan', alice.account.tenant_id, '--tier', 'free'], {}),
      cli(['plan', alice.account.tenant_id]),
      cli(['frobnicate']),
    ]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /422/);
    assert.match(bad.stderr, /\/plan_tier/);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /404/);
    assert.notEqual(wrongToken.code, 0);
    assert.match(wrongToken.stderr, /401/);
    assert.notEqual(noToken.code, 0);
    assert.match(noToken.stderr, /OPERATOR_TOKEN/);
    assert.notEqual(nothing.code, 0);
    assert.match(nothing.stderr, /--tier/);
    assert.notEqual(usage.code, 0);
    assert.match(usage.stderr, /usage/);
    for (const r of [bad, unknown, wrongToken, noToken, nothing]) {
      assert.equal(r.stdout, '');
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
    assert.equal((await me()).plan_tier, 'enterprise');
  });
});
