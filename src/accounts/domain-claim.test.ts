import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';
import { mailboxOf } from './domain-claim.ts';

// One workspace per company domain by default, and sub-addresses are one
// mailbox: alice+x@acme-corp.com cannot start a second workspace (and a second
// 14-day trial) beside alice@acme-corp.com's.

const PUBLIC_URL = 'https://ledger.acme-host.example';

/** Signs up and verifies; returns the verify answer whatever it is. */
async function trySignIn(t: TestService, email: string) {
  const code = await t.requestCode(email);
  return t.request({ method: 'POST', url: '/api/v1/accounts/verify', payload: { email, code } });
}

async function workspacesAt(t: TestService, domain: string): Promise<number> {
  const rows = await t.testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workspaces WHERE domain = $1', [
    domain,
  ]);
  return rows[0]!.n;
}

eachStore(
  'one workspace per company domain',
  (get) => {
    let alice: SignedIn;

    test('setup: alice starts the workspace of acme-corp.example', async () => {
      alice = await get().signIn('alice@acme-corp.example');
      assert.equal(alice.account.role, 'admin');
    });

    test('a second person at the domain proves the address, is told to ask the admins (409 domain_has_workspace), and the admins get a mail saying who asked', async () => {
      const t = get();
      const seen = new Set(t.smtp.messages);
      const res = await trySignIn(t, 'bob@acme-corp.example');
      const p = assertProblem(res, 409, 'domain_has_workspace');
      assert.match(p.detail, /invitation/);
      assert.match(p.detail, /acme-corp\.example/);
      assert.equal(await workspacesAt(t, 'acme-corp.example'), 1);
      const mail = await t.smtp.waitFor((m) => !seen.has(m) && m.to.includes('alice@acme-corp.example'));
      assert.match(mail.subject, /bob@acme-corp\.example asked to join/);
      assert.match(mail.text, /POST https:\/\/ledger\.acme-host\.example\/api\/v1\/workspace\/invites/);
      assert.ok(mail.text.includes(`${PUBLIC_URL}/console/`), mail.text);
      assert.match(
        mail.text,
        /PATCH https:\/\/ledger\.acme-host\.example\/api\/v1\/workspace\/settings \{"one_workspace_per_domain": false\}/,
      );
      // The sign-up itself answers as for anyone (a code is sent): only the owner of the address learns the rule.
      const signup = await t.request({
        method: 'POST',
        url: '/api/v1/accounts/signup',
        payload: { email: 'carol@acme-corp.example' },
      });
      assert.equal(signup.statusCode, 200);
    });

    test('once invited, the same person joins the workspace', async () => {
      const t = get();
      const inv = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/invites',
        token: alice.token,
        payload: { email: 'bob@acme-corp.example', role: 'viewer' },
      });
      assert.equal(inv.statusCode, 201, inv.body);
      const bob = await t.signIn('bob@acme-corp.example');
      assert.equal(bob.account.tenant_id, alice.account.tenant_id);
      assert.equal(bob.account.role, 'viewer');
    });

    test('sub-addresses are one mailbox: alice+x@ cannot start a workspace (409 mailbox_has_account), with the domain rule on or off', async () => {
      const t = get();
      assertProblem(await trySignIn(t, 'alice+trial2@acme-corp.example'), 409, 'mailbox_has_account');
      assert.equal(await workspacesAt(t, 'acme-corp.example'), 1);
      // Off: other people at the domain may start their own workspace, but the mailbox rule stays.
      const off = await t.request({
        method: 'PATCH',
        url: '/api/v1/workspace/settings',
        token: alice.token,
        payload: { one_workspace_per_domain: false },
      });
      assert.equal(off.statusCode, 200, off.body);
      assert.deepEqual(off.json(), { domain: 'acme-corp.example', one_workspace_per_domain: false });
      const sub = await trySignIn(t, 'Alice+Another@acme-corp.example');
      assertProblem(sub, 409, 'mailbox_has_account');
      const dave = await trySignIn(t, 'dave@acme-corp.example');
      assert.equal(dave.statusCode, 200, dave.body);
      assert.notEqual(dave.json().account.tenant_id, alice.account.tenant_id);
      assert.equal(dave.json().account.role, 'admin');
      assert.equal(await workspacesAt(t, 'acme-corp.example'), 2);
      // dave's new workspace claims the domain by default again: a third person is refused, and dave hears of it too.
      const seen = new Set(t.smtp.messages);
      assertProblem(await trySignIn(t, 'erin@acme-corp.example'), 409, 'domain_has_workspace');
      await t.smtp.waitFor(
        (m) => !seen.has(m) && m.to.includes('dave@acme-corp.example') && m.subject.includes('erin@acme-corp.example'),
      );
      assert.ok(
        !t.smtp.messages.some((m) => !seen.has(m) && m.to.includes('alice@acme-corp.example')),
        'alice turned the rule off: she is not asked',
      );
      // An address whose mailbox owns a workspace elsewhere signs in as itself, not as a new workspace.
      assertProblem(await trySignIn(t, 'dave+x@acme-corp.example'), 409, 'mailbox_has_account');
    });

    test('settings: admins read and change them (an audit-trail entry); other roles 403; bad bodies 422', async () => {
      const t = get();
      const got = await t.request({ method: 'GET', url: '/api/v1/workspace/settings', token: alice.token });
      assert.deepEqual(got.json(), { domain: 'acme-corp.example', one_workspace_per_domain: false });
      const on = await t.request({
        method: 'PATCH',
        url: '/api/v1/workspace/settings',
        token: alice.token,
        payload: { one_workspace_per_domain: true },
      });
      assert.equal(on.json().one_workspace_per_domain, true);
      const bob = await t.signIn('bob@acme-corp.example');
      assertProblem(
        await t.request({ method: 'GET', url: '/api/v1/workspace/settings', token: bob.token }),
        403,
        'forbidden',
      );
      assertProblem(
        await t.request({
          method: 'PATCH',
          url: '/api/v1/workspace/settings',
          token: bob.token,
          payload: { one_workspace_per_domain: false },
        }),
        403,
        'forbidden',
      );
      assertFieldErrors(
        await t.request({
          method: 'PATCH',
          url: '/api/v1/workspace/settings',
          token: alice.token,
          payload: { one_workspace_per_domain: 'no' },
        }),
        ['/one_workspace_per_domain'],
      );
      assertFieldErrors(
        await t.request({ method: 'PATCH', url: '/api/v1/workspace/settings', token: alice.token, payload: {} }),
        ['/one_workspace_per_domain'],
      );
      const cp = await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: alice.token });
      const size = Number(cp.body.split('\n')[1]);
      const entries = await t.request({
        method: 'GET',
        url: `/api/v1/audit/entries?start=0&end=${size}`,
        token: alice.token,
      });
      const leaves = (entries.json().entries as Array<{ leaf: string }>).map(
        (e) => JSON.parse(e.leaf) as Record<string, unknown>,
      );
      const changes = leaves.filter((l) => l.kind === 'workspace_settings').map((l) => l.one_workspace_per_domain);
      assert.deepEqual(changes, [false, true]);
    });

    test('the invitation mail says where to sign in: the console and the API at PUBLIC_URL', async () => {
      const t = get();
      const seen = new Set(t.smtp.messages);
      const inv = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/invites',
        token: alice.token,
        payload: { email: 'frank@acme-corp.example', role: 'auditor' },
      });
      assert.equal(inv.statusCode, 201, inv.body);
      const mail = await t.smtp.waitFor((m) => !seen.has(m) && m.to.includes('frank@acme-corp.example'));
      assert.ok(mail.text.includes(`Sign in with this address at ${PUBLIC_URL}/console/`), mail.text);
      assert.ok(mail.text.includes(`POST ${PUBLIC_URL}/api/v1/accounts/signup`), mail.text);
      assert.match(mail.text, /alice@acme-corp\.example invited you .* as auditor/);
    });
  },
  { env: { PUBLIC_URL } },
);

test('mailboxOf drops a +tag only from the local part', () => {
  assert.equal(mailboxOf('alice+x@acme.example'), 'alice@acme.example');
  assert.equal(mailboxOf('alice+x+y@acme.example'), 'alice@acme.example');
  assert.equal(mailboxOf('alice@a+b.example'), 'alice@a+b.example');
  assert.equal(mailboxOf('+x@acme.example'), '+x@acme.example');
});
