// Who may record events, for which workspace, and when: 401 for every kind of
// bad token, 403 for roles and the fallback token's tenant_id, 402 when the
// workspace is not active, tenant_id ignored for API and scoped tokens, and
// nothing of one workspace visible or changeable with another's tokens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newToken } from '../core/token-format.ts';
import { eachStore, FALLBACK_TOKEN, OPERATOR_TOKEN, type SignedIn, type TestService } from '../testing/harness.ts';
import {
  addMember,
  atTime,
  DAY_MS,
  expectFieldErrors,
  expectProblem,
  expectUnauthorized,
  INVOCATION,
  issueIngress,
  newWorkspace,
  post,
  postRaw,
  pseudonymOf,
  query,
  ROGUE,
  stored,
} from '../testing/ingest-kit.ts';

interface Endpoint {
  name: string;
  url: string;
  body(extra?: Record<string, unknown>): Record<string, unknown>;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'invocation', url: INVOCATION, body: (extra = {}) => ({ agent_key: 'auth-bot', prompt: 'hi', ...extra }) },
  { name: 'rogue', url: ROGUE, body: (extra = {}) => ({ event_type: 'loop', agent_key: 'auth-bot', ...extra }) },
];

/** Rows of invocations and rogue events a workspace holds (what an accepted event adds one of). */
async function events(t: TestService, tenantId: string): Promise<number> {
  const s = await stored(t, tenantId);
  return s.invocations + s.rogue;
}

async function setSubscription(t: TestService, tenantId: string, body: Record<string, unknown>): Promise<void> {
  const res = await t.request({
    method: 'PUT',
    url: `/api/v1/operator/workspaces/${tenantId}/subscription`,
    token: OPERATOR_TOKEN,
    payload: body,
  });
  assert.equal(res.statusCode, 200, res.body);
}

async function trialEnd(t: TestService, a: SignedIn): Promise<number> {
  const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: a.token });
  assert.equal(me.statusCode, 200, me.body);
  const body = me.json() as { trial_ends_at: string; account_status: string };
  assert.equal(body.account_status, 'active');
  return Date.parse(body.trial_ends_at);
}

eachStore('event endpoints: authentication and workspace', (get) => {
  let shared: Promise<SignedIn> | undefined;
  /** A workspace the 401 cases try to write into (nothing may land in it). */
  const target = () => {
    shared ??= newWorkspace(get(), 'auth-401');
    return shared;
  };

  const badHeaders: Array<[string, (valid: string) => Record<string, string>]> = [
    ['no Authorization header', () => ({})],
    ['an empty Authorization header', () => ({ authorization: '' })],
    ['"Bearer" without a token', () => ({ authorization: 'Bearer' })],
    ['"Bearer " and nothing', () => ({ authorization: 'Bearer ' })],
    ['the token without a scheme', (valid) => ({ authorization: valid })],
    ['the Basic scheme', () => ({ authorization: `Basic ${Buffer.from('admin:secret').toString('base64')}` })],
    ['another scheme with a valid token', (valid) => ({ authorization: `Token ${valid}` })],
    ['two tokens', (valid) => ({ authorization: `Bearer ${valid} ${valid}` })],
    ['a token of junk', () => ({ authorization: 'Bearer not-a-token' })],
    ['a 600-character token', () => ({ authorization: `Bearer ${'a'.repeat(600)}` })],
    ['an unknown well-formed API token', () => ({ authorization: `Bearer ${newToken('svc_live_').token}` })],
    ['an unknown well-formed ingress token', () => ({ authorization: `Bearer ${newToken('svc_ingress_').token}` })],
    [
      'a valid API token with one character changed',
      (valid) => ({ authorization: `Bearer ${valid.slice(0, -1)}${valid.endsWith('0') ? '1' : '0'}` }),
    ],
    ['a valid API token cut short', (valid) => ({ authorization: `Bearer ${valid.slice(0, -1)}` })],
    [
      'the fallback token with one character changed',
      () => ({ authorization: `Bearer ${FALLBACK_TOKEN.slice(0, -1)}x` }),
    ],
  ];
  for (const ep of ENDPOINTS) {
    for (const [what, headers] of badHeaders) {
      test(`${ep.name}: ${what} is 401 with WWW-Authenticate: Bearer; nothing stored`, async () => {
        const t = get();
        const a = await target();
        const before = await stored(t, a.account.tenant_id);
        const res = await t.request({
          method: 'POST',
          url: ep.url,
          headers: { 'content-type': 'application/json', ...headers(a.token) },
          payload: JSON.stringify(ep.body({ tenant_id: a.account.tenant_id })),
        });
        expectUnauthorized(res);
        assert.deepEqual(await stored(t, a.account.tenant_id), before);
      });
    }

    test(`${ep.name}: a revoked API token is 401 at once; the account's other token still works`, async () => {
      const t = get();
      const a = await newWorkspace(t, `revoked-${ep.name}`);
      const other = await t.signIn(a.account.email);
      assert.equal((await post(t, ep.url, a.token, ep.body())).statusCode, 201);
      const del = await t.request({
        method: 'DELETE',
        url: `/api/v1/accounts/tokens/${a.token_id}`,
        token: other.token,
      });
      assert.equal(del.statusCode, 204, del.body);
      const before = await stored(t, a.account.tenant_id);
      expectUnauthorized(await post(t, ep.url, a.token, ep.body()));
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
      assert.equal((await post(t, ep.url, other.token, ep.body())).statusCode, 201);
    });

    test(`${ep.name}: authentication comes before the body: no token and a malformed or invalid body is 401`, async () => {
      const t = get();
      expectUnauthorized(await postRaw(t, ep.url, undefined, '{"agent_key":'));
      expectUnauthorized(await post(t, ep.url, undefined, { agent_key: '' }));
      expectUnauthorized(await post(t, ep.url, 'not-a-token', []));
    });

    test(`${ep.name}: admin and operator API tokens record; viewer and auditor get 403; nothing stored for them`, async () => {
      const t = get();
      const admin = await newWorkspace(t, `roles-${ep.name}`);
      const operator = await addMember(t, admin, 'operator');
      const viewer = await addMember(t, admin, 'viewer');
      const auditor = await addMember(t, admin, 'auditor');
      const tenant = admin.account.tenant_id;
      for (const m of [viewer, auditor]) {
        const before = await stored(t, tenant);
        expectProblem(await post(t, ep.url, m.token, ep.body()), 403, 'forbidden');
        // Even naming their own workspace, and even with a body that breaks a rule.
        expectProblem(await post(t, ep.url, m.token, ep.body({ tenant_id: tenant })), 403, 'forbidden');
        expectProblem(await post(t, ep.url, m.token, { agent_key: '' }), 403, 'forbidden');
        assert.deepEqual(await stored(t, tenant), before);
      }
      for (const m of [admin, operator]) {
        const before = await events(t, tenant);
        const res = await post(t, ep.url, m.token, ep.body());
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().tenant_id, tenant);
        assert.equal(await events(t, tenant), before + 1);
      }
    });

    test(`${ep.name}: "Bearer" and the token may be parted by more than one space (RFC 6750), as on every endpoint`, async () => {
      const t = get();
      const a = await newWorkspace(t, `spaces-${ep.name}`);
      const tenant = a.account.tenant_id;
      const before = await events(t, tenant);
      const res = await t.request({
        method: 'POST',
        url: ep.url,
        headers: { authorization: `Bearer  ${a.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(ep.body()),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().tenant_id, tenant);
      assert.equal(await events(t, tenant), before + 1);
      const me = await t.request({
        method: 'GET',
        url: '/api/v1/accounts/me',
        headers: { authorization: `Bearer  ${a.token}` },
      });
      assert.equal(me.statusCode, 200, me.body);
    });

    test(`${ep.name}: the operator token cannot record events (403)`, async () => {
      const t = get();
      const a = await newWorkspace(t, `op-token-${ep.name}`);
      const before = await stored(t, a.account.tenant_id);
      expectProblem(
        await post(t, ep.url, OPERATOR_TOKEN, ep.body({ tenant_id: a.account.tenant_id })),
        403,
        'forbidden',
      );
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
    });

    test(`${ep.name}: the fallback token needs tenant_id naming an existing workspace (403 otherwise)`, async () => {
      const t = get();
      const a = await newWorkspace(t, `fallback-${ep.name}`);
      const before = await stored(t, a.account.tenant_id);
      const refused: Array<Record<string, unknown>> = [
        ep.body(),
        ep.body({ tenant_id: '' }),
        ep.body({ tenant_id: 'acme' }),
        ep.body({ tenant_id: '7d0c5a8e-1111-4111-8111-111111111111' }),
        ep.body({ tenant_id: '00000000-0000-0000-0000-000000000000' }),
        ep.body({ tenant_id: `{${a.account.tenant_id}}` }),
        ep.body({ tenant_id: ` ${a.account.tenant_id}` }),
        ep.body({ tenant_id: a.account.tenant_id.replace(/-/g, '') }),
        ep.body({ tenant_id: `${a.account.tenant_id}0` }),
        ep.body({ tenant_id: `${a.account.tenant_id}${'x'.repeat(100)}` }),
      ];
      for (const body of refused) {
        expectProblem(await post(t, ep.url, FALLBACK_TOKEN, body), 403, 'forbidden');
      }
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
      // tenant_id must still be a string.
      expectFieldErrors(await post(t, ep.url, FALLBACK_TOKEN, ep.body({ tenant_id: 5 })), ['/tenant_id']);
      // An existing workspace, in any letter case: recorded there, named in the response.
      for (const tenant of [a.account.tenant_id, a.account.tenant_id.toUpperCase()]) {
        const res = await post(t, ep.url, FALLBACK_TOKEN, ep.body({ tenant_id: tenant }));
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().tenant_id, a.account.tenant_id);
      }
      assert.equal(await events(t, a.account.tenant_id), before.invocations + before.rogue + 2);
    });

    test(`${ep.name}: with API and scoped tokens a tenant_id naming another workspace is ignored`, async () => {
      const t = get();
      const a = await newWorkspace(t, `ignore-a-${ep.name}`);
      const b = await newWorkspace(t, `ignore-b-${ep.name}`);
      const ingress = await issueIngress(t, a);
      const bBefore = await stored(t, b.account.tenant_id);
      let aEvents = await events(t, a.account.tenant_id);
      const tenantIds = [
        b.account.tenant_id,
        b.account.tenant_id.toUpperCase(),
        'not-a-workspace',
        '',
        `${'long-'.repeat(30)}`,
      ];
      for (const token of [a.token, ingress.token]) {
        for (const tenant_id of tenantIds) {
          const res = await post(t, ep.url, token, ep.body({ tenant_id }));
          assert.equal(res.statusCode, 201, `${JSON.stringify(tenant_id)}: ${res.body}`);
          assert.equal(res.json().tenant_id, a.account.tenant_id);
          aEvents += 1;
          assert.equal(await events(t, a.account.tenant_id), aEvents);
        }
      }
      assert.deepEqual(await stored(t, b.account.tenant_id), bBefore, 'nothing landed in the named workspace');
    });
  }

  test('the account status gate: once the trial is over both endpoints are 402 for every token; reads keep working', async () => {
    const t = get();
    const a = await newWorkspace(t, 'trial-gate');
    const ingress = await issueIngress(t, a);
    const first = await post(t, INVOCATION, a.token, { agent_key: 'trial-bot' });
    assert.equal(first.statusCode, 201);
    const end = await trialEnd(t, a);
    const writes = (tenant: string) =>
      [
        [INVOCATION, a.token, { agent_key: 'trial-bot' }],
        [ROGUE, a.token, { event_type: 'loop', agent_key: 'trial-bot' }],
        [INVOCATION, ingress.token, { agent_key: 'trial-bot' }],
        [ROGUE, ingress.token, { event_type: 'loop', agent_key: 'trial-bot' }],
        [INVOCATION, FALLBACK_TOKEN, { agent_key: 'trial-bot', tenant_id: tenant }],
        [ROGUE, FALLBACK_TOKEN, { event_type: 'loop', agent_key: 'trial-bot', tenant_id: tenant }],
      ] as const;
    // The last millisecond of the trial still writes.
    await atTime(t, new Date(end - 1).toISOString(), async () => {
      for (const [url, token, body] of writes(a.account.tenant_id))
        assert.equal((await post(t, url, token, body)).statusCode, 201);
    });
    const before = await stored(t, a.account.tenant_id);
    for (const at of [end, end + 1, end + 30 * DAY_MS]) {
      await atTime(t, new Date(at).toISOString(), async () => {
        for (const [url, token, body] of writes(a.account.tenant_id)) {
          expectProblem(await post(t, url, token, body), 402, 'payment_required');
        }
        // A new agent too: 402 for the account, not a registration.
        expectProblem(await post(t, INVOCATION, a.token, { agent_key: 'brand-new-bot' }), 402, 'payment_required');
        const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: a.token });
        assert.equal(me.json().account_status, 'trial_expired');
        const ev = await t.request({
          method: 'GET',
          url: `/api/v1/audit/evidence/${first.json().evidence_id}`,
          token: a.token,
        });
        assert.equal(ev.statusCode, 200, 'a lapsed workspace still proves its trail');
      });
    }
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });

  test('the account status gate through the operator API: past_due, unpaid, canceled and an ended trial are 402; active and free write', async () => {
    const t = get();
    const a = await newWorkspace(t, 'sub-gate');
    const ingress = await issueIngress(t, a);
    const tenant = a.account.tenant_id;
    const past = new Date(t.clock.now().getTime() - DAY_MS).toISOString();
    const tryAll = async (expect: 201 | 402) => {
      for (const [url, token, body] of [
        [INVOCATION, a.token, { agent_key: 'sub-bot' }],
        [ROGUE, ingress.token, { event_type: 'loop', agent_key: 'sub-bot' }],
        [INVOCATION, FALLBACK_TOKEN, { agent_key: 'sub-bot', tenant_id: tenant }],
      ] as const) {
        const res = await post(t, url, token, body);
        if (expect === 201) assert.equal(res.statusCode, 201, res.body);
        else expectProblem(res, 402, 'payment_required');
      }
    };
    const states: Array<[Record<string, unknown>, 201 | 402]> = [
      [{ subscription_status: 'past_due' }, 402],
      [{ subscription_status: 'active' }, 201],
      [{ subscription_status: 'unpaid' }, 402],
      [{ subscription_status: 'canceled' }, 402],
      [{ subscription_status: 'trialing', trial_ends_at: past }, 402],
      [{ plan_tier: 'free' }, 201],
      [{ plan_tier: 'team', subscription_status: 'active' }, 201],
    ];
    for (const [change, expect] of states) {
      await setSubscription(t, tenant, change);
      const before = await events(t, tenant);
      await tryAll(expect);
      assert.equal(await events(t, tenant), before + (expect === 201 ? 3 : 0), JSON.stringify(change));
    }
  });
});

// One rule for every event endpoint, JSON and OTLP alike: a bearer token
// only. A console session (cookie, CSRF token, this origin) is refused with a
// 401 that says so, and writes nothing.
eachStore('event endpoints: a console session does not authenticate them', (get) => {
  const host = 'console.test';
  const otlp = JSON.stringify({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: 'a'.repeat(32),
                spanId: 'b'.repeat(16),
                name: 'chat',
                attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }],
              },
            ],
          },
        ],
      },
    ],
  });
  const writes: Array<[string, string, string]> = [
    ['invocation', INVOCATION, JSON.stringify({ agent_key: 'cookie-bot', prompt: 'hi' })],
    ['rogue', ROGUE, JSON.stringify({ event_type: 'loop', agent_key: 'cookie-bot' })],
    [
      'batch',
      '/api/v1/admin/agents/events/batch',
      JSON.stringify({ events: [{ kind: 'invocation', event: { agent_key: 'cookie-bot' } }] }),
    ],
    ['otlp', '/api/v1/otel/v1/traces', otlp],
  ];

  test('every event endpoint refuses a console session with its CSRF token (401); a bearer token beside it decides', async () => {
    const t = get();
    const a = await newWorkspace(t, 'cookie-ingest');
    const code = await t.requestCode(a.account.email);
    const signed = await t.request({
      method: 'POST',
      url: '/api/v1/console/session',
      headers: { host },
      payload: { email: a.account.email, code },
    });
    assert.equal(signed.statusCode, 200, signed.body);
    const cookie = String(signed.headers['set-cookie']).split(';')[0]!;
    const headers = {
      host,
      cookie,
      origin: `http://${host}`,
      'x-csrf-token': signed.json().csrf_token as string,
      'content-type': 'application/json',
    };
    // The session itself is good: it writes elsewhere.
    const issued = await t.request({
      method: 'POST',
      url: '/api/v1/accounts/tokens',
      headers,
      payload: { name: 'ok' },
    });
    assert.equal(issued.statusCode, 200, issued.body);
    const before = await stored(t, a.account.tenant_id);
    for (const [name, url, payload] of writes) {
      const res = await t.request({ method: 'POST', url, headers, payload });
      assert.equal(res.statusCode, 401, `${name}: ${res.body}`);
      assert.equal(res.headers['www-authenticate'], 'Bearer', name);
      assert.match(res.body, /a console session does not authenticate them/, name);
    }
    assert.deepEqual(await stored(t, a.account.tenant_id), before, 'nothing written');
    for (const [name, url, payload] of writes) {
      const res = await t.request({ method: 'POST', url, headers, payload, token: a.token });
      assert.ok([200, 201, 207].includes(res.statusCode), `${name} with a bearer token: ${res.statusCode} ${res.body}`);
    }
  });
});

eachStore('event endpoints: a refusal is confirmed, never answered from a stale cache', (get) => {
  test('a workspace made active while the cache still says unpaid (its notification not arrived) writes at once', async () => {
    const t = get();
    const a = await newWorkspace(t, 'stale-402');
    const tenant = a.account.tenant_id;
    await setSubscription(t, tenant, { subscription_status: 'unpaid' });
    expectProblem(await post(t, INVOCATION, a.token, { agent_key: 'stale-bot' }), 402, 'payment_required');
    // The cache now holds "unpaid". Pay without the change's trigger (no epoch
    // move, no NOTIFY): what a node sees in the moment before another node's
    // notification reaches it.
    await t.testDb.db.transaction(async (tx) => {
      await tx.query("SET LOCAL session_replication_role = 'replica'");
      await tx.query("UPDATE workspaces SET subscription_status = 'active' WHERE tenant_id = $1", [tenant]);
    });
    const before = await events(t, tenant);
    const res = await post(t, INVOCATION, a.token, { agent_key: 'stale-bot' });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await events(t, tenant), before + 1);
  });
});

eachStore('event endpoints: workspaces are isolated', (get) => {
  test("B cannot fetch A's evidence or invocations, and its events never touch A", async () => {
    const t = get();
    const a = await newWorkspace(t, 'iso-a');
    const b = await newWorkspace(t, 'iso-b');
    const aEvents = [];
    for (let i = 0; i < 8; i++) {
      const res = await post(t, INVOCATION, a.token, {
        agent_key: 'a-bot',
        prompt: `secret plan ${i}`,
        tenant_id: b.account.tenant_id,
      });
      assert.equal(res.statusCode, 201);
      aEvents.push(res.json() as { invocation_id: number; evidence_id: number });
    }
    const bEvent = (
      await post(t, INVOCATION, b.token, { agent_key: 'b-bot', tenant_id: a.account.tenant_id })
    ).json() as {
      evidence_id: number;
      tenant_id: string;
    };
    assert.equal(bEvent.tenant_id, b.account.tenant_id);
    const bSize = (await stored(t, b.account.tenant_id)).head;
    for (const e of aEvents) {
      const ev = await t.request({ method: 'GET', url: `/api/v1/audit/evidence/${e.evidence_id}`, token: b.token });
      if (e.evidence_id > bSize) expectProblem(ev, 404, 'not_found');
      else {
        // The same position exists in B's own log: B sees its own entry, never A's.
        assert.equal(ev.statusCode, 200);
        const leaf = JSON.parse(ev.json().leaf);
        assert.equal(leaf.tenant_id, b.account.tenant_id);
      }
      assert.doesNotMatch(ev.body, new RegExp(a.account.tenant_id));
      // Invocation ids are per workspace: B's own id 1 is B's first invocation, never A's.
      const inv = await t.request({ method: 'GET', url: `/api/v1/invocations/${e.invocation_id}`, token: b.token });
      if (e.invocation_id > 1) expectProblem(inv, 404, 'not_found');
      else {
        assert.equal(inv.statusCode, 200, inv.body);
        assert.equal(inv.json().agent_key, 'b-bot');
      }
      assert.doesNotMatch(inv.body, /a-bot|secret plan/);
    }
    assert.ok(
      aEvents.some((e) => e.evidence_id > bSize),
      'some of A’s evidence ids lie beyond B’s log',
    );
    const list = await t.request({ method: 'GET', url: '/api/v1/invocations', token: b.token });
    assert.equal(list.statusCode, 200, list.body);
    assert.doesNotMatch(list.body, /a-bot/);
    // A's rows and leaves are A's only.
    const rows = await query<{ tenant_id: string }>(
      t,
      "SELECT DISTINCT tenant_id FROM invocations WHERE agent_key = 'a-bot'",
    );
    assert.deepEqual(
      rows.map((r) => r.tenant_id),
      [a.account.tenant_id],
    );
    const aAgent = await pseudonymOf(t, a.account.tenant_id, 'agent', 'a-bot');
    const leaked = await query<{ n: number }>(
      t,
      'SELECT count(*)::int AS n FROM log_entries WHERE tenant_id = $1 AND strpos(leaf, $2) > 0',
      [b.account.tenant_id, aAgent],
    );
    assert.equal(leaked[0]!.n, 0);
  });
});
