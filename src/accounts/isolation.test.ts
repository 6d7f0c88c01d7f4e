import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { assertProblem } from '../testing/problems.ts';
import { addMember, auditLeaves } from '../testing/workspace.ts';

// Nothing of workspace A is visible or changeable with B's tokens, whatever B's role.

interface Workspace {
  admin: SignedIn;
  members: SignedIn[];
  extraTokenIds: string[];
  invitationId: string;
}

async function build(t: TestService, domain: string): Promise<Workspace> {
  const admin = await t.signIn(`admin@${domain}`);
  const members = [
    await addMember(t, admin, `op@${domain}`, 'operator'),
    await addMember(t, admin, `viewer@${domain}`, 'viewer'),
    await addMember(t, admin, `auditor@${domain}`, 'auditor'),
  ];
  const extraTokenIds: string[] = [];
  for (const who of [admin, ...members]) {
    const r = await t.request({
      method: 'POST',
      url: '/api/v1/accounts/tokens',
      token: who.token,
      payload: { name: `extra ${domain}` },
    });
    extraTokenIds.push(r.json().token_id);
  }
  const inv = await t.request({
    method: 'POST',
    url: '/api/v1/workspace/invites',
    token: admin.token,
    payload: { email: `pending@${domain}`, role: 'viewer' },
  });
  return { admin, members, extraTokenIds, invitationId: inv.json().invitation_id };
}

/** Every identifier of a workspace that must never appear in another workspace's responses. */
function secretsOf(w: Workspace, domain: string): string[] {
  const all = [w.admin, ...w.members];
  return [
    w.admin.account.tenant_id,
    ...all.map((m) => m.account.id),
    ...all.map((m) => m.token_id),
    ...all.map((m) => m.token.slice(9)),
    ...w.extraTokenIds,
    w.invitationId,
    domain,
  ];
}

eachStore('cross-workspace isolation', (get) => {
  let a: Workspace;
  let b: Workspace;

  test('setup: workspaces A and B, each with every role, extra tokens and an open invitation', async () => {
    const t = get();
    a = await build(t, 'alpha-iso.example');
    b = await build(t, 'beta-iso.example');
    assert.notEqual(a.admin.account.tenant_id, b.admin.account.tenant_id);
  });

  test("no read of B's shows anything of A", async () => {
    const t = get();
    const aSecrets = secretsOf(a, 'alpha-iso.example');
    for (const who of [b.admin, ...b.members]) {
      for (const url of [
        '/api/v1/accounts/me',
        '/api/v1/accounts/tokens',
        '/api/v1/workspace/members?limit=500',
        '/api/v1/workspace/invites',
        '/api/v1/audit/checkpoint',
        '/api/v1/audit/key',
        '/api/v1/audit/entries?start=0&end=1000',
        '/api/v1/audit/entries/0',
        '/api/v1/audit/evidence/1',
      ]) {
        const res = await t.request({ method: 'GET', url, token: who.token });
        assert.ok([200, 403, 404].includes(res.statusCode), `${url}: ${res.statusCode}`);
        for (const s of aSecrets) assert.ok(!res.body.includes(s), `${url} as B's ${who.account.role} shows ${s}`);
      }
    }
    // B's admin sees exactly B's members.
    const members = (await t.request({ method: 'GET', url: '/api/v1/workspace/members', token: b.admin.token })).json();
    assert.deepEqual(
      members.items.map((m: { account_id: string }) => m.account_id).sort(),
      [b.admin, ...b.members].map((m) => m.account.id).sort(),
    );
  });

  test("no write with B's tokens reaches A: 404, and A is unchanged", async () => {
    const t = get();
    for (const who of [b.admin, ...b.members]) {
      for (const id of [a.admin.token_id, ...a.members.map((m) => m.token_id), ...a.extraTokenIds]) {
        assertProblem(
          await t.request({ method: 'DELETE', url: `/api/v1/accounts/tokens/${id}`, token: who.token }),
          404,
          'not_found',
        );
      }
    }
    for (const m of [a.admin, ...a.members]) {
      assertProblem(
        await t.request({
          method: 'PATCH',
          url: `/api/v1/workspace/members/${m.account.id}`,
          token: b.admin.token,
          payload: { role: 'viewer' },
        }),
        404,
        'not_found',
      );
      assertProblem(
        await t.request({ method: 'DELETE', url: `/api/v1/workspace/members/${m.account.id}`, token: b.admin.token }),
        404,
        'not_found',
      );
    }
    assertProblem(
      await t.request({ method: 'DELETE', url: `/api/v1/workspace/invites/${a.invitationId}`, token: b.admin.token }),
      404,
      'not_found',
    );
    // A's members cannot be pulled into B.
    assertProblem(
      await t.request({
        method: 'POST',
        url: '/api/v1/workspace/invites',
        token: b.admin.token,
        payload: { email: 'op@alpha-iso.example', role: 'admin' },
      }),
      409,
      'conflict',
    );

    // A is as it was: every token works, roles unchanged, the invitation open, no entry in A's log from B.
    for (const m of [a.admin, ...a.members]) {
      const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: m.token });
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().account.role, m.account.role);
      assert.equal(me.json().account.tenant_id, a.admin.account.tenant_id);
    }
    const tokens = (await t.request({ method: 'GET', url: '/api/v1/accounts/tokens', token: a.admin.token })).json()
      .tokens;
    assert.ok(tokens.every((x: { revoked_at: string | null }) => x.revoked_at === null));
    const inv = (await t.request({ method: 'GET', url: '/api/v1/workspace/invites', token: a.admin.token })).json();
    assert.deepEqual(
      inv.items.map((i: { invitation_id: string }) => i.invitation_id),
      [a.invitationId],
    );
    const bIds = secretsOf(b, 'beta-iso.example');
    const aLog = JSON.stringify(await auditLeaves(t, a.admin.token));
    for (const s of bIds) assert.ok(!aLog.includes(s), `A's log mentions ${s}`);
  });

  test("B's own writes stay in B", async () => {
    const t = get();
    const before = (await auditLeaves(t, a.admin.token)).length;
    const issued = await t.request({
      method: 'POST',
      url: '/api/v1/accounts/tokens',
      token: b.admin.token,
      payload: { name: 'b only' },
    });
    assert.equal(issued.statusCode, 200);
    await t.request({
      method: 'PATCH',
      url: `/api/v1/workspace/members/${b.members[1]!.account.id}`,
      token: b.admin.token,
      payload: { role: 'auditor' },
    });
    assert.equal((await auditLeaves(t, a.admin.token)).length, before);
    const aKey = (await t.request({ method: 'GET', url: '/api/v1/audit/key', token: a.admin.token })).json();
    const bKey = (await t.request({ method: 'GET', url: '/api/v1/audit/key', token: b.admin.token })).json();
    assert.notEqual(aKey.origin, bKey.origin);
    assert.ok(aKey.origin.endsWith(a.admin.account.tenant_id));
  });
});
