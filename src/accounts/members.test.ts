import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitment } from '../ledger/leaf.ts';
import type { Role } from '../core/identity.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';
import { addMember, auditLeaves } from '../testing/workspace.ts';

const MEMBERS = '/api/v1/workspace/members';
const INVITES = '/api/v1/workspace/invites';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const NO_SUCH = '00000000-0000-4000-8000-000000000000';

const invite = (t: TestService, who: SignedIn, payload: unknown) =>
  t.request({ method: 'POST', url: INVITES, token: who.token, payload: payload as object });
const setRole = (t: TestService, who: SignedIn, accountId: string, payload: unknown) =>
  t.request({ method: 'PATCH', url: `${MEMBERS}/${accountId}`, token: who.token, payload: payload as object });
const remove = (t: TestService, who: SignedIn, accountId: string) =>
  t.request({ method: 'DELETE', url: `${MEMBERS}/${accountId}`, token: who.token });

interface Member {
  account_id: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: string;
}

async function members(
  t: TestService,
  who: SignedIn,
  query = '',
): Promise<{ items: Member[]; next_cursor: string | null }> {
  const res = await t.request({ method: 'GET', url: `${MEMBERS}${query}`, token: who.token });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

eachStore('workspace members and invitations', (get) => {
  let admin: SignedIn;
  let others: Record<Exclude<Role, 'admin'>, SignedIn>;

  test('setup: an admin and one member of each other role', async () => {
    const t = get();
    admin = await t.signIn('admin@crew.example');
    others = {
      operator: await addMember(t, admin, 'op@crew.example', 'operator'),
      viewer: await addMember(t, admin, 'viewer@crew.example', 'viewer'),
      auditor: await addMember(t, admin, 'auditor@crew.example', 'auditor'),
    };
  });

  test('members: the admin lists everyone, by e-mail, with roles', async () => {
    const t = get();
    const page = await members(t, admin);
    assert.equal(page.next_cursor, null);
    assert.deepEqual(
      page.items.map((m) => [m.email, m.role]),
      [
        ['admin@crew.example', 'admin'],
        ['auditor@crew.example', 'auditor'],
        ['op@crew.example', 'operator'],
        ['viewer@crew.example', 'viewer'],
      ],
    );
    for (const m of page.items) {
      assert.deepEqual(Object.keys(m).sort(), ['account_id', 'created_at', 'display_name', 'email', 'role']);
      assert.match(m.account_id, UUID_RE);
      assert.match(m.created_at, ISO_Z);
    }
    assert.equal(page.items[0]!.account_id, admin.account.id);
    assert.equal(page.items[0]!.display_name, 'admin');
  });

  test('members: pages with limit and cursor; bad paging parameters are 422', async () => {
    const t = get();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await members(t, admin, q);
      assert.ok(page.items.length <= 1);
      seen.push(...page.items.map((m) => m.email));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    assert.deepEqual(seen, ['admin@crew.example', 'auditor@crew.example', 'op@crew.example', 'viewer@crew.example']);
    const two = await members(t, admin, '?limit=2');
    assert.equal(two.items.length, 2);
    assert.equal(typeof two.next_cursor, 'string');
    for (const q of ['limit=0', 'limit=501', 'limit=abc', 'limit=1.5', 'limit=-1']) {
      assertFieldErrors(await t.request({ method: 'GET', url: `${MEMBERS}?${q}`, token: admin.token }), ['/limit']);
    }
    assertFieldErrors(await t.request({ method: 'GET', url: `${MEMBERS}?cursor=%%%`, token: admin.token }), [
      '/cursor',
    ]);
    assertFieldErrors(await t.request({ method: 'GET', url: `${MEMBERS}?cursor=bm90LWpzb24`, token: admin.token }), [
      '/cursor',
    ]);
  });

  test('only admins: operator, viewer and auditor get 403 on every members and invites endpoint', async () => {
    const t = get();
    const target = others.viewer.account.id;
    for (const [role, who] of Object.entries(others)) {
      const calls = [
        t.request({ method: 'GET', url: MEMBERS, token: who.token }),
        t.request({ method: 'GET', url: INVITES, token: who.token }),
        invite(t, who, { email: `x-${role}@crew.example`, role: 'viewer' }),
        t.request({ method: 'DELETE', url: `${INVITES}/${NO_SUCH}`, token: who.token }),
        setRole(t, who, target, { role: 'admin' }),
        setRole(t, who, who.account.id, { role: 'admin' }),
        remove(t, who, target),
      ];
      for (const res of await Promise.all(calls)) {
        const p = assertProblem(res, 403, 'forbidden');
        assert.match(p.detail, new RegExp(role));
      }
    }
    // Nothing changed.
    assert.deepEqual(
      (await members(t, admin)).items.map((m) => m.role),
      ['admin', 'auditor', 'operator', 'viewer'],
    );
    const open = await t.request({ method: 'GET', url: INVITES, token: admin.token });
    assert.deepEqual(open.json().items, []);
  });

  test('members endpoints need a token: 401 with WWW-Authenticate', async () => {
    const t = get();
    for (const [method, url] of [
      ['GET', MEMBERS],
      ['GET', INVITES],
      ['POST', INVITES],
      ['PATCH', `${MEMBERS}/${NO_SUCH}`],
      ['DELETE', `${MEMBERS}/${NO_SUCH}`],
      ['DELETE', `${INVITES}/${NO_SUCH}`],
    ] as const) {
      const res = await t.request({ method, url, ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}) });
      assertProblem(res, 401, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
  });

  test('invite: 201 with the invitation, a mail to the address, listed until used or withdrawn', async () => {
    const t = get();
    const res = await invite(t, admin, { email: 'New.Person@Crew.Example', role: 'operator' });
    assert.equal(res.statusCode, 201, res.body);
    const inv = res.json();
    assert.deepEqual(Object.keys(inv).sort(), ['created_at', 'email', 'expires_at', 'invitation_id', 'role']);
    assert.equal(inv.email, 'new.person@crew.example');
    assert.equal(inv.role, 'operator');
    assert.match(inv.invitation_id, UUID_RE);
    assert.equal(Date.parse(inv.expires_at) - Date.parse(inv.created_at), 14 * 86_400_000);
    assert.equal(inv.created_at, t.clock.now().toISOString());
    const mail = await t.smtp.waitFor((m) => m.to.includes('new.person@crew.example'));
    assert.match(mail.subject, /invited/);
    assert.match(mail.text, /admin@crew\.example/);
    assert.match(mail.text, /operator/);
    const open = (await t.request({ method: 'GET', url: INVITES, token: admin.token })).json();
    assert.deepEqual(open, { items: [inv], next_cursor: null });
    const leaf = (await auditLeaves(t, admin.token)).find(
      (l) => l.kind === 'member_change' && l.invitation_id === inv.invitation_id,
    );
    assert.equal(leaf?.change, 'invited');
    // The log names the address by its pseudonym only (leaf format v2); the salt is in the pseudonyms table.
    const [p] = await t.testDb.db.query<{ salt: Uint8Array }>(
      "SELECT salt FROM pseudonyms WHERE tenant_id = $1 AND kind = 'email' AND value = 'new.person@crew.example'",
      [admin.account.tenant_id],
    );
    assert.equal(leaf?.email, commitment(new Uint8Array(p!.salt), 'new.person@crew.example'));
    assert.equal(
      JSON.stringify(await auditLeaves(t, admin.token)).includes('@crew.example'),
      false,
      'no address in the log',
    );

    // Inviting again renews the same invitation with the new role.
    const again = await invite(t, admin, { email: 'new.person@crew.example', role: 'auditor' });
    assert.equal(again.statusCode, 201);
    assert.equal(again.json().invitation_id, inv.invitation_id);
    assert.equal(again.json().role, 'auditor');
    const joined = await t.signIn('new.person@crew.example');
    assert.equal(joined.account.role, 'auditor');
    assert.equal(joined.account.tenant_id, admin.account.tenant_id);
    assert.deepEqual((await t.request({ method: 'GET', url: INVITES, token: admin.token })).json().items, []);
  });

  test('invite: validation (422 with fields, 400 for non-objects) and 409 for an address that has an account', async () => {
    const t = get();
    assertFieldErrors(await invite(t, admin, {}), ['/email', '/role']);
    assertFieldErrors(await invite(t, admin, { email: 'ok@crew.example' }), ['/role']);
    assertFieldErrors(await invite(t, admin, { email: 'ok@crew.example', role: 'owner' }), ['/role']);
    assertFieldErrors(await invite(t, admin, { email: 'ok@crew.example', role: 'Admin' }), ['/role']);
    assertFieldErrors(await invite(t, admin, { email: 'ok@crew.example', role: 1 }), ['/role']);
    assertFieldErrors(await invite(t, admin, { email: 'not-an-email', role: 'viewer' }), ['/email']);
    assertFieldErrors(await invite(t, admin, { email: ['ok@crew.example'], role: 'viewer' }), ['/email']);
    for (const payload of ['[]', '"x"', 'null', '{']) {
      const res = await t.request({
        method: 'POST',
        url: INVITES,
        token: admin.token,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      assertProblem(res, 400, 'bad_request');
    }
    assertProblem(await invite(t, admin, { email: 'OP@crew.example', role: 'viewer' }), 409, 'conflict');
    const elsewhere = await t.signIn('someone@other-crew.example');
    assertProblem(await invite(t, admin, { email: 'someone@other-crew.example', role: 'viewer' }), 409, 'conflict');
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: elsewhere.token })).json().account.tenant_id,
      elsewhere.account.tenant_id,
    );
  });

  test('withdraw an invitation: 204, then the address cannot join; unknown or used → 404', async () => {
    const t = get();
    const inv = (await invite(t, admin, { email: 'withdrawn@gmail.com', role: 'viewer' })).json();
    const res = await t.request({ method: 'DELETE', url: `${INVITES}/${inv.invitation_id}`, token: admin.token });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assertProblem(
      await t.request({ method: 'POST', url: '/api/v1/accounts/signup', payload: { email: 'withdrawn@gmail.com' } }),
      422,
      'personal_email_domain',
    );
    assertProblem(
      await t.request({ method: 'DELETE', url: `${INVITES}/${inv.invitation_id}`, token: admin.token }),
      404,
      'not_found',
    );
    assertProblem(
      await t.request({ method: 'DELETE', url: `${INVITES}/${NO_SUCH}`, token: admin.token }),
      404,
      'not_found',
    );
    assertProblem(await t.request({ method: 'DELETE', url: `${INVITES}/nope`, token: admin.token }), 404, 'not_found');
  });

  test('change a role: 200 with the member; the member’s existing token gets the new rights at once', async () => {
    const t = get();
    const v = others.viewer;
    assertProblem(await t.request({ method: 'GET', url: MEMBERS, token: v.token }), 403, 'forbidden');
    const res = await setRole(t, admin, v.account.id, { role: 'admin' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), ['account_id', 'created_at', 'display_name', 'email', 'role']);
    assert.equal(res.json().role, 'admin');
    assert.equal(res.json().account_id, v.account.id);
    assert.equal((await t.request({ method: 'GET', url: MEMBERS, token: v.token })).statusCode, 200);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: v.token })).json().account.role,
      'admin',
    );
    const back = await setRole(t, admin, v.account.id, { role: 'viewer' });
    assert.equal(back.json().role, 'viewer');
    assertProblem(await t.request({ method: 'GET', url: MEMBERS, token: v.token }), 403, 'forbidden');
    const leaves = (await auditLeaves(t, admin.token)).filter(
      (l) => l.kind === 'member_change' && l.change === 'role' && l.account_id === v.account.id,
    );
    assert.deepEqual(
      leaves.map((l) => [l.from_role, l.role, l.by_account_id]),
      [
        ['viewer', 'admin', admin.account.id],
        ['admin', 'viewer', admin.account.id],
      ],
    );
  });

  test('change a role: validation 422, unknown or malformed member 404', async () => {
    const t = get();
    const id = others.auditor.account.id;
    assertFieldErrors(await setRole(t, admin, id, {}), ['/role']);
    assertFieldErrors(await setRole(t, admin, id, { role: 'root' }), ['/role']);
    assertFieldErrors(await setRole(t, admin, id, { role: null }), ['/role']);
    assertProblem(
      await t.request({
        method: 'PATCH',
        url: `${MEMBERS}/${id}`,
        token: admin.token,
        headers: { 'content-type': 'application/json' },
        payload: '"admin"',
      }),
      400,
      'bad_request',
    );
    assertProblem(await setRole(t, admin, NO_SUCH, { role: 'viewer' }), 404, 'not_found');
    assertProblem(await setRole(t, admin, 'abc', { role: 'viewer' }), 404, 'not_found');
    assert.equal((await members(t, admin)).items.find((m) => m.account_id === id)?.role, 'auditor');
  });

  test('the last admin can be neither demoted nor removed (409); with two admins, one may go', async () => {
    const t = get();
    for (const role of ['operator', 'viewer', 'auditor']) {
      assertProblem(await setRole(t, admin, admin.account.id, { role }), 409, 'conflict');
    }
    assertProblem(await remove(t, admin, admin.account.id), 409, 'conflict');
    // Keeping the role is not a demotion.
    assert.equal((await setRole(t, admin, admin.account.id, { role: 'admin' })).statusCode, 200);

    const second = await addMember(t, admin, 'second-admin@crew.example', 'admin');
    assert.equal((await setRole(t, second, admin.account.id, { role: 'operator' })).statusCode, 200);
    assertProblem(await setRole(t, second, second.account.id, { role: 'viewer' }), 409, 'conflict');
    assertProblem(await remove(t, second, second.account.id), 409, 'conflict');
    assert.equal((await setRole(t, second, admin.account.id, { role: 'admin' })).statusCode, 200);
    assert.equal((await remove(t, admin, second.account.id)).statusCode, 204);
    assert.deepEqual(
      (await members(t, admin)).items.filter((m) => m.role === 'admin').map((m) => m.email),
      ['admin@crew.example'],
    );
  });

  test('two admins demoting each other at the same time: one wins, the other gets 409, one admin remains', async () => {
    const t = get();
    const a = await t.signIn('a@duel.example');
    const b = await addMember(t, a, 'b@duel.example', 'admin');
    for (let round = 0; round < 20; round++) {
      const [ra, rb] = await Promise.all([
        setRole(t, a, b.account.id, { role: 'viewer' }),
        setRole(t, b, a.account.id, { role: 'viewer' }),
      ]);
      const statuses = [ra.statusCode, rb.statusCode].sort();
      assert.ok(
        JSON.stringify(statuses) === '[200,409]' || JSON.stringify(statuses) === '[200,403]',
        `round ${round}: ${ra.statusCode} ${ra.body} / ${rb.statusCode} ${rb.body}`,
      );
      for (const r of [ra, rb]) if (r.statusCode !== 200) assertProblem(r, r.statusCode);
      const roles = (await members(t, ra.statusCode === 200 ? a : b)).items.map((m) => m.role);
      assert.deepEqual(roles.filter((r) => r === 'admin').length, 1);
      // Make both admins again for the next round.
      const winner = ra.statusCode === 200 ? a : b;
      const loser = winner === a ? b : a;
      assert.equal((await setRole(t, winner, loser.account.id, { role: 'admin' })).statusCode, 200);
    }
  });

  test('remove a member: 204; their tokens stop working at once; unknown → 404', async () => {
    const t = get();
    const leaving = await addMember(t, admin, 'leaving@crew.example', 'operator');
    const spare = (
      await t.request({ method: 'POST', url: '/api/v1/accounts/tokens', token: leaving.token, payload: { name: 'x' } })
    ).json();
    const res = await remove(t, admin, leaving.account.id);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    for (const token of [leaving.token, spare.token]) {
      assertProblem(await t.request({ method: 'GET', url: '/api/v1/accounts/me', token }), 401, 'unauthorized');
    }
    assert.ok(!(await members(t, admin)).items.some((m) => m.account_id === leaving.account.id));
    assertProblem(await remove(t, admin, leaving.account.id), 404, 'not_found');
    assertProblem(await remove(t, admin, NO_SUCH), 404, 'not_found');
    assertProblem(await remove(t, admin, 'zzz'), 404, 'not_found');
    const leaf = (await auditLeaves(t, admin.token)).find(
      (l) => l.kind === 'member_change' && l.change === 'removed' && l.account_id === leaving.account.id,
    );
    assert.equal(leaf?.by_account_id, admin.account.id);
  });
});
