// Scoped ingress tokens: POST/GET /api/v1/workspace/ingress-tokens and
// DELETE /{token_id}. Admin only, the secret shown once and never stored,
// usable on the two event endpoints only and for its own workspace, revoked
// at once, issuing gated by the account status but revoking not.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { eachStore, OPERATOR_TOKEN, type SignedIn, type TestService } from '../testing/harness.ts';
import {
  addMember,
  atTime,
  DAY_MS,
  emoji,
  expectFieldErrors,
  expectProblem,
  expectUnauthorized,
  INGRESS_TOKENS,
  INVOCATION,
  ISO_Z,
  type IssuedIngressToken,
  issueIngress,
  leaves,
  newWorkspace,
  post,
  postRaw,
  query,
  ROGUE,
  stored,
  UUID_RE,
} from '../testing/ingest-kit.ts';

const LISTED_KEYS = ['created_at', 'created_by', 'last_used_at', 'name', 'prefix', 'revoked_at', 'token_id'];

async function list(t: TestService, token: string) {
  const res = await t.request({ method: 'GET', url: INGRESS_TOKENS, token });
  assert.equal(res.statusCode, 200, res.body);
  return { res, body: res.json() as { items: Array<Record<string, unknown>>; next_cursor: null } };
}

const revoke = (t: TestService, token: string, id: string) =>
  t.request({ method: 'DELETE', url: `${INGRESS_TOKENS}/${id}`, token });

async function tokenRows(t: TestService, tenantId: string) {
  return query<{ token_id: string; revoked_at: Date | null }>(
    t,
    'SELECT token_id, revoked_at FROM ingress_tokens WHERE tenant_id = $1',
    [tenantId],
  );
}

/** The token records on both event endpoints for its workspace. */
async function assertWorks(t: TestService, ingress: IssuedIngressToken, a: SignedIn): Promise<void> {
  const inv = await post(t, INVOCATION, ingress.token, { agent_key: 'ingress-bot' });
  assert.equal(inv.statusCode, 201, inv.body);
  assert.equal(inv.json().tenant_id, a.account.tenant_id);
  const rogue = await post(t, ROGUE, ingress.token, { event_type: 'loop', agent_key: 'ingress-bot' });
  assert.equal(rogue.statusCode, 201, rogue.body);
  assert.deepEqual(rogue.json(), { accepted: true, event_type: 'loop', tenant_id: a.account.tenant_id });
}

eachStore('ingress tokens', (get) => {
  test('an admin issues a svc_ingress_ token: 201 with the secret this once, only its hash stored, an audit entry', async () => {
    const t = get();
    const a = await newWorkspace(t, 'issue');
    const res = await t.request({
      method: 'POST',
      url: INGRESS_TOKENS,
      token: a.token,
      payload: { name: 'otel collector' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as IssuedIngressToken;
    assert.deepEqual(Object.keys(body).sort(), ['token', ...LISTED_KEYS].sort());
    assert.match(body.token, /^svc_ingress_[0-9A-Za-z]{36}$/);
    assert.equal(body.prefix, body.token.slice(0, 'svc_ingress_'.length + 4));
    assert.match(body.token_id, UUID_RE);
    assert.equal(body.name, 'otel collector');
    assert.equal(body.created_by, a.account.id);
    assert.match(body.created_at, ISO_Z);
    assert.equal(body.created_at, t.clock.now().toISOString());
    assert.equal(body.last_used_at, null);
    assert.equal(body.revoked_at, null);
    // The database holds its SHA-256, never the secret.
    const [row] = await query<Record<string, unknown>>(t, 'SELECT * FROM ingress_tokens WHERE token_id = $1', [
      body.token_id,
    ]);
    assert.ok(row);
    assert.deepEqual(Buffer.from(row.token_hash as Uint8Array), createHash('sha256').update(body.token).digest());
    const secretPart = body.token.slice(body.prefix.length);
    for (const [k, v] of Object.entries(row))
      assert.doesNotMatch(String(v), new RegExp(secretPart), `secret in column ${k}`);
    // Issuing is an audit-trail entry, without the secret.
    const issued = (await leaves(t, a.account.tenant_id)).filter(
      (l) => l.kind === 'token_issued' && l.token_id === body.token_id,
    );
    assert.equal(issued.length, 1);
    assert.doesNotMatch(JSON.stringify(issued[0]), new RegExp(secretPart));
    // Two tokens are two secrets.
    const second = await issueIngress(t, a, 'otel collector');
    assert.notEqual(second.token, body.token);
    assert.notEqual(second.token_id, body.token_id);
  });

  test('the name is 1-64 characters; a body that breaks it is 422, one that is not an object 400', async () => {
    const t = get();
    const a = await newWorkspace(t, 'names');
    assert.equal((await issueIngress(t, a, 'x')).name, 'x');
    assert.equal((await issueIngress(t, a, emoji(64))).name, emoji(64));
    const before = (await tokenRows(t, a.account.tenant_id)).length;
    for (const payload of [
      {},
      { name: '' },
      { name: emoji(65) },
      { name: 'n'.repeat(65) },
      { name: 5 },
      { name: null },
      { name: ['n'] },
    ]) {
      expectFieldErrors(await t.request({ method: 'POST', url: INGRESS_TOKENS, token: a.token, payload }), ['/name']);
    }
    for (const raw of ['{"name":', '[]', '"name"', 'null']) {
      expectProblem(await postRaw(t, INGRESS_TOKENS, a.token, raw), 400, 'bad_request');
    }
    assert.equal((await tokenRows(t, a.account.tenant_id)).length, before);
  });

  test("the list shows the workspace's tokens, never a secret and never another workspace's", async () => {
    const t = get();
    const a = await newWorkspace(t, 'list-a');
    const b = await newWorkspace(t, 'list-b');
    const mine = [await issueIngress(t, a, 'first'), await issueIngress(t, a, 'second')];
    const theirs = await issueIngress(t, b, 'theirs');
    const { res, body } = await list(t, a.token);
    assert.equal(body.next_cursor, null);
    assert.deepEqual(body.items.map((i) => i.token_id).sort(), mine.map((m) => m.token_id).sort());
    for (const item of body.items) {
      assert.deepEqual(Object.keys(item).sort(), LISTED_KEYS);
      const issued = mine.find((m) => m.token_id === item.token_id)!;
      const { token: _secret, ...shown } = issued;
      assert.deepEqual(item, shown);
    }
    for (const secret of [...mine, theirs].map((m) => m.token)) {
      assert.equal(res.body.includes(secret), false, 'a secret in the list');
      assert.equal(res.body.includes(secret.slice(16)), false, 'part of a secret in the list');
    }
    assert.equal(res.body.includes(theirs.token_id), false);
    expectUnauthorized(await t.request({ method: 'GET', url: INGRESS_TOKENS }));
  });

  test('the list pages with limit (1-500, default 50) and an opaque cursor, oldest first', async () => {
    const t = get();
    const a = await newWorkspace(t, 'paging');
    const issued: IssuedIngressToken[] = [];
    await atTime(t, 0, async () => {
      for (let i = 0; i < 5; i++) {
        issued.push(await issueIngress(t, a, `t${i}`));
        // Two tokens issued in the same millisecond are ordered by id.
        if (i !== 2) t.clock.advance(1);
      }
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `${INGRESS_TOKENS}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await t.request({ method: 'GET', url, token: a.token });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { items: Array<{ token_id: string }>; next_cursor: string | null };
      assert.ok(body.items.length <= 2);
      seen.push(...body.items.map((i) => i.token_id));
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    assert.equal(pages, 3);
    const [t2, t3] = [issued[2]!.token_id, issued[3]!.token_id].sort();
    assert.deepEqual(seen, [issued[0]!.token_id, issued[1]!.token_id, t2, t3, issued[4]!.token_id]);
    assert.equal((await list(t, a.token)).body.items.length, 5);
    for (const q of [
      'limit=0',
      'limit=501',
      'limit=two',
      'cursor=not-ours',
      `cursor=${Buffer.from('["x","y"]').toString('base64url')}`,
    ]) {
      expectProblem(
        await t.request({ method: 'GET', url: `${INGRESS_TOKENS}?${q}`, token: a.token }),
        422,
        'unprocessable',
      );
    }
  });

  test('the token records on both event endpoints for its workspace, whatever tenant_id the body names; its use is noted', async () => {
    const t = get();
    const a = await newWorkspace(t, 'use-a');
    const b = await newWorkspace(t, 'use-b');
    const ingress = await issueIngress(t, a);
    const bBefore = await stored(t, b.account.tenant_id);
    await assertWorks(t, ingress, a);
    for (const [url, body] of [
      [INVOCATION, { agent_key: 'sneaky', tenant_id: b.account.tenant_id }],
      [ROGUE, { event_type: 'loop', agent_key: 'sneaky', tenant_id: b.account.tenant_id }],
    ] as const) {
      const res = await post(t, url, ingress.token, body);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().tenant_id, a.account.tenant_id);
    }
    assert.deepEqual(await stored(t, b.account.tenant_id), bBefore, "A's ingress token wrote nothing into B");
    const s = await stored(t, a.account.tenant_id);
    assert.equal(s.invocations, 2);
    assert.equal(s.rogue, 2);
    // last_used_at is noted shortly after use (in the background).
    const deadline = Date.now() + 5_000;
    for (;;) {
      const item = (await list(t, a.token)).body.items.find((i) => i.token_id === ingress.token_id)!;
      if (item.last_used_at !== null) {
        assert.match(String(item.last_used_at), ISO_Z);
        break;
      }
      assert.ok(Date.now() < deadline, 'last_used_at never set');
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  test('the token works on the two event endpoints only: every other endpoint refuses it (401/403) and nothing changes', async () => {
    const t = get();
    const a = await newWorkspace(t, 'elsewhere');
    const ingress = await issueIngress(t, a);
    const calls: Array<{ method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: object }> = [
      { method: 'GET', url: '/api/v1/accounts/me' },
      { method: 'GET', url: '/api/v1/accounts/tokens' },
      { method: 'POST', url: '/api/v1/accounts/tokens', payload: { name: 'escalate' } },
      { method: 'GET', url: INGRESS_TOKENS },
      { method: 'POST', url: INGRESS_TOKENS, payload: { name: 'another' } },
      { method: 'DELETE', url: `${INGRESS_TOKENS}/${ingress.token_id}` },
      { method: 'GET', url: '/api/v1/workspace/members' },
      {
        method: 'POST',
        url: '/api/v1/workspace/invites',
        payload: { email: `x@${a.account.email.split('@')[1]}`, role: 'admin' },
      },
      { method: 'GET', url: '/api/v1/invocations' },
      { method: 'GET', url: '/api/v1/rogue-events' },
      { method: 'GET', url: '/api/v1/agents' },
      { method: 'GET', url: '/api/v1/policy' },
      { method: 'GET', url: '/api/v1/audit/checkpoint' },
      { method: 'GET', url: '/api/v1/audit/evidence/1' },
      { method: 'GET', url: '/api/v1/operator/workspaces' },
      {
        method: 'PUT',
        url: `/api/v1/operator/workspaces/${a.account.tenant_id}/subscription`,
        payload: { plan_tier: 'enterprise' },
      },
    ];
    for (const c of calls) {
      const res = await t.request({ ...c, token: ingress.token });
      assert.ok(
        res.statusCode === 401 || res.statusCode === 403,
        `${c.method} ${c.url}: ${res.statusCode} ${res.body}`,
      );
      expectProblem(res, res.statusCode, res.statusCode === 401 ? 'unauthorized' : 'forbidden');
    }
    // Nothing it asked for happened: one token, not revoked; no API token, no invitation; the plan unchanged.
    assert.deepEqual(
      (await tokenRows(t, a.account.tenant_id)).map((r) => r.revoked_at),
      [null],
    );
    const [counts] = await query<{ api: number; inv: number; plan: string }>(
      t,
      `SELECT (SELECT count(*)::int FROM api_tokens WHERE tenant_id = $1) AS api,
              (SELECT count(*)::int FROM invitations WHERE tenant_id = $1) AS inv,
              (SELECT plan_tier FROM workspaces WHERE tenant_id = $1) AS plan`,
      [a.account.tenant_id],
    );
    assert.deepEqual(counts, { api: 1, inv: 0, plan: 'team' });
    await assertWorks(t, ingress, a);
  });

  test('operators, viewers and auditors cannot issue, list or revoke ingress tokens (403)', async () => {
    const t = get();
    const admin = await newWorkspace(t, 'roles');
    const ingress = await issueIngress(t, admin);
    for (const role of ['operator', 'viewer', 'auditor'] as const) {
      const m = await addMember(t, admin, role);
      expectProblem(
        await t.request({ method: 'POST', url: INGRESS_TOKENS, token: m.token, payload: { name: role } }),
        403,
        'forbidden',
      );
      expectProblem(await t.request({ method: 'GET', url: INGRESS_TOKENS, token: m.token }), 403, 'forbidden');
      expectProblem(await revoke(t, m.token, ingress.token_id), 403, 'forbidden');
    }
    assert.deepEqual(
      (await tokenRows(t, admin.account.tenant_id)).map((r) => [r.token_id, r.revoked_at]),
      [[ingress.token_id, null]],
    );
    await assertWorks(t, ingress, admin);
  });

  test('a revoked token is 401 at once on both endpoints; the list shows when; other tokens keep working', async () => {
    const t = get();
    const a = await newWorkspace(t, 'revoke');
    const doomed = await issueIngress(t, a, 'doomed');
    const kept = await issueIngress(t, a, 'kept');
    await assertWorks(t, doomed, a);
    const del = await revoke(t, a.token, doomed.token_id);
    assert.equal(del.statusCode, 204, del.body);
    assert.equal(del.body, '');
    const before = await stored(t, a.account.tenant_id);
    expectUnauthorized(await post(t, INVOCATION, doomed.token, { agent_key: 'ingress-bot' }));
    expectUnauthorized(await post(t, ROGUE, doomed.token, { event_type: 'loop', agent_key: 'ingress-bot' }));
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
    const item = (await list(t, a.token)).body.items.find((i) => i.token_id === doomed.token_id)!;
    assert.equal(item.revoked_at, t.clock.now().toISOString());
    const revoked = (await leaves(t, a.account.tenant_id)).filter(
      (l) => l.kind === 'token_revoked' && l.token_id === doomed.token_id,
    );
    assert.equal(revoked.length, 1);
    await assertWorks(t, kept, a);
  });

  test("another workspace's token id is 404 and stays valid; unknown and malformed ids are 404", async () => {
    const t = get();
    const a = await newWorkspace(t, 'other-a');
    const b = await newWorkspace(t, 'other-b');
    const bToken = await issueIngress(t, b);
    expectProblem(await revoke(t, a.token, bToken.token_id), 404, 'not_found');
    expectProblem(await revoke(t, a.token, '7d0c5a8e-1111-4111-8111-111111111111'), 404, 'not_found');
    expectProblem(await revoke(t, a.token, 'not-a-uuid'), 404, 'not_found');
    assert.deepEqual(
      (await tokenRows(t, b.account.tenant_id)).map((r) => r.revoked_at),
      [null],
    );
    await assertWorks(t, bToken, b);
  });

  test('issuing is gated by the account status (402) but listing and revoking are not; a lapsed token is 402, a revoked one 401', async () => {
    const t = get();
    const a = await newWorkspace(t, 'gate');
    const ingress = await issueIngress(t, a);
    const other = await issueIngress(t, a, 'other');
    await atTime(t, 15 * DAY_MS, async () => {
      const before = (await tokenRows(t, a.account.tenant_id)).length;
      expectProblem(
        await t.request({ method: 'POST', url: INGRESS_TOKENS, token: a.token, payload: { name: 'late' } }),
        402,
        'payment_required',
      );
      assert.equal((await tokenRows(t, a.account.tenant_id)).length, before);
      assert.equal((await list(t, a.token)).body.items.length, 2);
      // The token is still valid, its workspace is not active.
      expectProblem(await post(t, INVOCATION, other.token, { agent_key: 'ingress-bot' }), 402, 'payment_required');
      expectProblem(
        await post(t, ROGUE, other.token, { event_type: 'loop', agent_key: 'ingress-bot' }),
        402,
        'payment_required',
      );
      assert.equal((await revoke(t, a.token, ingress.token_id)).statusCode, 204);
      expectUnauthorized(await post(t, INVOCATION, ingress.token, { agent_key: 'ingress-bot' }));
    });
    // Through the operator API as well.
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/operator/workspaces/${a.account.tenant_id}/subscription`,
      token: OPERATOR_TOKEN,
      payload: { subscription_status: 'canceled' },
    });
    assert.equal(put.statusCode, 200, put.body);
    expectProblem(
      await t.request({ method: 'POST', url: INGRESS_TOKENS, token: a.token, payload: { name: 'late' } }),
      402,
      'payment_required',
    );
    assert.equal((await revoke(t, a.token, other.token_id)).statusCode, 204);
    expectUnauthorized(await post(t, INVOCATION, other.token, { agent_key: 'ingress-bot' }));
    assert.deepEqual(
      (await tokenRows(t, a.account.tenant_id)).map((r) => r.revoked_at !== null),
      [true, true],
    );
  });
});
