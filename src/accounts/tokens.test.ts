import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, OPERATOR_TOKEN, type TestService } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';
import { addMember, auditLeaves } from '../testing/workspace.ts';
import { checksum } from '../core/token-format.ts';

const TOKENS = '/api/v1/accounts/tokens';
const ME = '/api/v1/accounts/me';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const issue = (t: TestService, token: string, payload: unknown) =>
  t.request({ method: 'POST', url: TOKENS, token, payload: payload as object });
const list = (t: TestService, token: string) => t.request({ method: 'GET', url: TOKENS, token });
const revoke = (t: TestService, token: string, id: string) =>
  t.request({ method: 'DELETE', url: `${TOKENS}/${id}`, token });
const me = (t: TestService, token: string) => t.request({ method: 'GET', url: ME, token });

function assertUnauthorized(res: Awaited<ReturnType<typeof me>>) {
  assertProblem(res, 401, 'unauthorized');
  assert.equal(res.headers['www-authenticate'], 'Bearer');
}

interface Listed {
  token_id: string;
  prefix: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

async function listed(t: TestService, token: string): Promise<Listed[]> {
  const res = await list(t, token);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().tokens;
}

eachStore('API tokens', (get) => {
  test('issue: 200 {token, token_id, prefix, name}; the new token works at once', async () => {
    const t = get();
    const alice = await t.signIn('alice@tokens-a.example');
    const res = await issue(t, alice.token, { name: 'CI pipeline' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['name', 'prefix', 'token', 'token_id']);
    assert.match(body.token, /^svc_live_[0-9A-Za-z]{36}$/);
    assert.match(body.token_id, UUID_RE);
    assert.equal(body.prefix, body.token.slice(0, 13));
    assert.equal(body.name, 'CI pipeline');
    const who = await me(t, body.token);
    assert.equal(who.statusCode, 200);
    assert.equal(who.json().account.id, alice.account.id);
    const leaves = await auditLeaves(t, alice.token);
    const leaf = leaves.find((l) => l.kind === 'token_issued' && l.token_id === body.token_id);
    assert.ok(leaf, 'token issue is an audit-trail entry');
    assert.equal(leaf.token_prefix, body.prefix);
    assert.doesNotMatch(JSON.stringify(leaves), new RegExp(body.token));
  });

  test('issue: name is 1-64 characters (code points), strictly a string', async () => {
    const t = get();
    const { token } = await t.signIn('names@tokens-a2.example');
    assert.equal((await issue(t, token, { name: 'x' })).statusCode, 200);
    assert.equal((await issue(t, token, { name: 'n'.repeat(64) })).statusCode, 200);
    const emoji = await issue(t, token, { name: '🔑'.repeat(64) });
    assert.equal(emoji.statusCode, 200);
    assert.equal(emoji.json().name, '🔑'.repeat(64));
    assertFieldErrors(await issue(t, token, { name: '🔑'.repeat(65) }), ['/name']);
    assertFieldErrors(await issue(t, token, { name: 'n'.repeat(65) }), ['/name']);
    assertFieldErrors(await issue(t, token, { name: '' }), ['/name']);
    assertFieldErrors(await issue(t, token, {}), ['/name']);
    assertFieldErrors(await issue(t, token, { name: 5 }), ['/name']);
    assertFieldErrors(await issue(t, token, { name: null }), ['/name']);
    assertFieldErrors(await issue(t, token, { name: ['a'] }), ['/name']);
    // Unknown fields are ignored.
    assert.equal((await issue(t, token, { name: 'extra', scope: 'all' })).statusCode, 200);
    const json = { 'content-type': 'application/json' };
    assertProblem(
      await t.request({ method: 'POST', url: TOKENS, token, headers: json, payload: '["name"]' }),
      400,
      'bad_request',
    );
    assertProblem(
      await t.request({ method: 'POST', url: TOKENS, token, headers: json, payload: '{"name": "x",}' }),
      400,
      'bad_request',
    );
  });

  test('list: the caller’s own tokens, never a secret', async () => {
    const t = get();
    const admin = await t.signIn('lister@tokens-b.example');
    const issued = (await issue(t, admin.token, { name: 'second' })).json();
    const member = await addMember(t, admin, 'member@tokens-b.example', 'operator');
    const mine = await listed(t, admin.token);
    assert.deepEqual(mine.map((x) => x.token_id).sort(), [admin.token_id, issued.token_id].sort());
    for (const item of mine) {
      assert.deepEqual(Object.keys(item).sort(), [
        'created_at',
        'last_used_at',
        'name',
        'prefix',
        'revoked_at',
        'token_id',
      ]);
      assert.match(item.created_at, ISO_Z);
      assert.equal(item.revoked_at, null);
      assert.match(item.prefix, /^svc_live_[0-9A-Za-z]{4}$/);
    }
    assert.equal(mine.find((x) => x.token_id === issued.token_id)?.name, 'second');
    assert.equal(mine.find((x) => x.token_id === issued.token_id)?.prefix, issued.prefix);
    const raw = (await list(t, admin.token)).body;
    for (const secret of [admin.token, issued.token, member.token]) {
      assert.ok(!raw.includes(secret.slice(13)), 'a listing shows a secret');
    }
    // The member sees only their own.
    assert.deepEqual(
      (await listed(t, member.token)).map((x) => x.token_id),
      [member.token_id],
    );
  });

  test('revoke own: 204, then that token gets 401 with WWW-Authenticate: Bearer; the list shows revoked_at', async () => {
    const t = get();
    const alice = await t.signIn('revoker@tokens-c.example');
    const spare = (await issue(t, alice.token, { name: 'spare' })).json();
    assert.equal((await me(t, spare.token)).statusCode, 200);
    const res = await revoke(t, alice.token, spare.token_id);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assertUnauthorized(await me(t, spare.token));
    assertUnauthorized(await list(t, spare.token));
    assertUnauthorized(await issue(t, spare.token, { name: 'again' }));
    const item = (await listed(t, alice.token)).find((x) => x.token_id === spare.token_id);
    assert.match(item?.revoked_at ?? '', ISO_Z);
    // Revoking again changes nothing.
    assert.equal((await revoke(t, alice.token, spare.token_id)).statusCode, 204);
    const leaves = (await auditLeaves(t, alice.token)).filter(
      (l) => l.kind === 'token_revoked' && l.token_id === spare.token_id,
    );
    assert.equal(leaves.length, 1);
    assert.equal(leaves[0]!.by_account_id, alice.account.id);
  });

  test('a token can revoke itself; it is refused on the very next request', async () => {
    const t = get();
    const alice = await t.signIn('self@tokens-c2.example');
    assert.equal((await revoke(t, alice.token, alice.token_id)).statusCode, 204);
    assertUnauthorized(await me(t, alice.token));
    assertUnauthorized(await revoke(t, alice.token, alice.token_id));
  });

  test('revoke: an unknown id, a malformed id, or another workspace’s token → 404, and that token keeps working', async () => {
    const t = get();
    const a = await t.signIn('a@tokens-d.example');
    const b = await t.signIn('b@tokens-e.example');
    assertProblem(await revoke(t, a.token, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    assertProblem(await revoke(t, a.token, 'not-a-uuid'), 404, 'not_found');
    assertProblem(await revoke(t, a.token, b.token_id), 404, 'not_found');
    assert.equal((await me(t, b.token)).statusCode, 200);
    assert.equal((await listed(t, b.token))[0]?.revoked_at, null);
  });

  test('an admin may revoke a member’s token; a non-admin may not revoke anyone else’s (404)', async () => {
    const t = get();
    const admin = await t.signIn('admin@tokens-f.example');
    const op = await addMember(t, admin, 'op@tokens-f.example', 'operator');
    const viewer = await addMember(t, admin, 'viewer@tokens-f.example', 'viewer');
    const auditor = await addMember(t, admin, 'auditor@tokens-f.example', 'auditor');
    for (const caller of [op, viewer, auditor]) {
      assertProblem(await revoke(t, caller.token, admin.token_id), 404, 'not_found');
    }
    assertProblem(await revoke(t, op.token, viewer.token_id), 404, 'not_found');
    assert.equal((await me(t, admin.token)).statusCode, 200);
    assert.equal((await me(t, viewer.token)).statusCode, 200);
    // Each role may revoke its own.
    const spare = (await issue(t, viewer.token, { name: 'viewer spare' })).json();
    assert.equal((await revoke(t, viewer.token, spare.token_id)).statusCode, 204);

    assert.equal((await revoke(t, admin.token, op.token_id)).statusCode, 204);
    assertUnauthorized(await me(t, op.token));
    const leaf = (await auditLeaves(t, admin.token)).find(
      (l) => l.kind === 'token_revoked' && l.token_id === op.token_id,
    );
    assert.equal(leaf?.account_id, op.account.id);
    assert.equal(leaf?.by_account_id, admin.account.id);
  });

  test('last_used_at is set once the token is used', async () => {
    const t = get();
    const alice = await t.signIn('used@tokens-g.example');
    const fresh = (await issue(t, alice.token, { name: 'unused' })).json();
    const before = (await listed(t, alice.token)).find((x) => x.token_id === fresh.token_id);
    assert.equal(before?.last_used_at, null);
    assert.equal((await me(t, fresh.token)).statusCode, 200);
    let after: Listed | undefined;
    for (let i = 0; i < 100; i++) {
      after = (await listed(t, alice.token)).find((x) => x.token_id === fresh.token_id);
      if (after?.last_used_at) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(after?.last_used_at ?? '', ISO_Z);
  });

  test('missing, malformed, unknown and wrong-kind bearer tokens', async () => {
    const t = get();
    const alice = await t.signIn('auth@tokens-h.example');
    assertUnauthorized(await t.request({ method: 'GET', url: ME }));
    for (const authorization of [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      `Bearer\t${alice.token}`,
      `Token ${alice.token}`,
      `Bearer ${alice.token} extra`,
      `Bearer ${alice.token.slice(0, -1)}`,
      `Bearer ${'x'.repeat(600)}`,
    ]) {
      assertUnauthorized(await t.request({ method: 'GET', url: ME, headers: { authorization } }));
    }
    // Well formed (checksum and all) but never issued.
    const random = 'A'.repeat(30);
    assertUnauthorized(await me(t, `svc_live_${random}${checksum(random)}`));
    assertUnauthorized(await me(t, `svc_ingress_${random}${checksum(random)}`));
    // The operator token is valid, but not an account's token.
    assertProblem(await me(t, OPERATOR_TOKEN), 403, 'forbidden');
    // The scheme is case-insensitive (RFC 9110 §11.1), and one space or more may follow it (RFC 6750 §2.1: 1*SP).
    assert.equal(
      (await t.request({ method: 'GET', url: ME, headers: { authorization: `bearer ${alice.token}` } })).statusCode,
      200,
    );
    assert.equal(
      (await t.request({ method: 'GET', url: ME, headers: { authorization: `Bearer  ${alice.token}` } })).statusCode,
      200,
    );
  });

  test('a 401 for a bad token says nothing about the token', async () => {
    const t = get();
    const alice = await t.signIn('quiet@tokens-i.example');
    await revoke(t, alice.token, alice.token_id);
    const res = await me(t, alice.token);
    assertUnauthorized(res);
    assert.ok(!res.body.includes(alice.token.slice(9)));
  });
});
