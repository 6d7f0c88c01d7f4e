import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type TestService } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';

const SIGNUP = '/api/v1/accounts/signup';
const VERIFY = '/api/v1/accounts/verify';
const MINUTE = 60_000;

const signup = (t: TestService, email: unknown) => t.request({ method: 'POST', url: SIGNUP, payload: { email } });
const verify = (t: TestService, email: string, code: unknown) =>
  t.request({ method: 'POST', url: VERIFY, payload: { email, code } });

/** A wrong code of the same shape as the right one. */
const wrong = (code: string) => String((Number(code) + 1) % 10 ** code.length).padStart(code.length, '0');

async function count(t: TestService, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await t.service.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return row!.n;
}

/** Runs fn with the clock moved, then puts it back: the file's other workspaces must not age. */
async function withClockMoved<T>(t: TestService, ms: number, fn: () => Promise<T>): Promise<T> {
  const start = t.clock.now();
  t.clock.advance(ms);
  try {
    return await fn();
  } finally {
    t.clock.set(start);
  }
}

eachStore(
  'sign-up and sign-in',
  (get) => {
    test('a corporate address gets a code by mail, and the code creates a workspace with an admin', async () => {
      const t = get();
      const res = await signup(t, 'Alice@Acme-Corp.com');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
      assert.deepEqual(res.json(), { status: 'verification_sent' });
      const mail = await t.smtp.waitFor((m) => m.to.includes('alice@acme-corp.com'));
      assert.deepEqual(mail.to, ['alice@acme-corp.com']);
      const code = /\b(\d{6,})\b/.exec(mail.text)![1]!;
      assert.match(mail.subject, new RegExp(`\\b${code}\\b`));
      const v = await verify(t, 'alice@acme-corp.com', code);
      assert.equal(v.statusCode, 200);
      const body = v.json();
      assert.deepEqual(Object.keys(body).sort(), ['account', 'name', 'prefix', 'token', 'token_id']);
      assert.match(body.token, /^svc_live_[0-9A-Za-z]{36}$/);
      assert.match(body.token_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.deepEqual(Object.keys(body.account).sort(), ['email', 'id', 'plan_tier', 'role', 'tenant_id']);
      assert.equal(body.account.email, 'alice@acme-corp.com');
      assert.equal(body.account.role, 'admin');
      assert.equal(body.account.plan_tier, 'team');
      assert.equal(body.prefix, body.token.slice(0, 13));
      const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: body.token });
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().account.tenant_id, body.account.tenant_id);
      assert.equal(me.json().account.id, body.account.id);
      const [ws] = await t.service.ctx.db.query<{ domain: string; subscription_status: string }>(
        'SELECT domain, subscription_status FROM workspaces WHERE tenant_id = $1',
        [body.account.tenant_id],
      );
      assert.deepEqual(ws, { domain: 'acme-corp.com', subscription_status: 'trialing' });
    });

    test('codes are random, at least 6 digits, and differ between requests', async () => {
      const t = get();
      const codes = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const code = await t.requestCode('codes@digits-inc.com');
        assert.match(code, /^\d{6,}$/);
        codes.add(code);
      }
      assert.ok(codes.size >= 7, `codes repeat: ${[...codes].join(' ')}`);
    });

    test('signing in again reaches the same account and workspace, with a new token; the first stays valid', async () => {
      const t = get();
      const first = await t.signIn('bob@builders.example');
      const workspaces = await count(t, 'workspaces');
      const second = await t.signIn('BOB@Builders.Example');
      assert.equal(second.account.id, first.account.id);
      assert.equal(second.account.tenant_id, first.account.tenant_id);
      assert.equal(second.account.role, 'admin');
      assert.notEqual(second.token, first.token);
      assert.notEqual(second.token_id, first.token_id);
      assert.equal(await count(t, 'workspaces'), workspaces);
      for (const token of [first.token, second.token]) {
        assert.equal((await t.request({ method: 'GET', url: '/api/v1/accounts/me', token })).statusCode, 200);
      }
    });

    test('two addresses of one corporate domain get two workspaces once its admins allow it (a workspace is joined only by invitation)', async () => {
      const t = get();
      const a = await t.signIn('one@samedomain.example');
      const off = await t.request({
        method: 'PATCH',
        url: '/api/v1/workspace/settings',
        token: a.token,
        payload: { one_workspace_per_domain: false },
      });
      assert.equal(off.statusCode, 200, off.body);
      const b = await t.signIn('two@samedomain.example');
      assert.notEqual(a.account.tenant_id, b.account.tenant_id);
      assert.equal(b.account.role, 'admin');
    });

    test('the answer is the same whether the account exists, is new, or is invited', async () => {
      const t = get();
      const admin = await t.signIn('carol@answers.example');
      await t.signIn('existing@answers-elsewhere.example');
      const inv = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/invites',
        token: admin.token,
        payload: { email: 'invited@answers.example', role: 'viewer' },
      });
      assert.equal(inv.statusCode, 201);
      const shape = (r: Awaited<ReturnType<typeof signup>>) => {
        const { date: _d, 'x-request-id': _id, ...headers } = r.headers;
        return { status: r.statusCode, body: r.body, headers };
      };
      const answers = [];
      for (const email of [
        'existing@answers-elsewhere.example',
        'brand-new@answers.example',
        'invited@answers.example',
      ]) {
        answers.push(shape(await signup(t, email)));
      }
      assert.deepEqual(answers[0], answers[1]);
      assert.deepEqual(answers[1], answers[2]);
      assert.equal(answers[0]!.status, 200);
      // Each of them did receive a code.
      for (const email of [
        'existing@answers-elsewhere.example',
        'brand-new@answers.example',
        'invited@answers.example',
      ]) {
        await t.smtp.waitFor((m) => m.to.includes(email) && /\b\d{6,}\b/.test(m.subject));
      }
    });

    test('a code is valid for 10 minutes', async () => {
      const t = get();
      const email = 'clock@timely.example';
      const early = await t.requestCode(email);
      const ok = await withClockMoved(t, 10 * MINUTE - 1000, () => verify(t, email, early));
      assert.equal(ok.statusCode, 200);

      const late = await t.requestCode(email);
      const expired = await withClockMoved(t, 10 * MINUTE, () => verify(t, email, late));
      assertProblem(expired, 401, 'invalid_code');
      const later = await t.requestCode(email);
      assertProblem(await withClockMoved(t, 60 * MINUTE, () => verify(t, email, later)), 401, 'invalid_code');
    });

    test('a code works once', async () => {
      const t = get();
      const email = 'once@single.example';
      const code = await t.requestCode(email);
      assert.equal((await verify(t, email, code)).statusCode, 200);
      assertProblem(await verify(t, email, code), 401, 'invalid_code');
    });

    test('two simultaneous verifications of one code: exactly one succeeds', async () => {
      const t = get();
      const email = 'race@race-single.example';
      const code = await t.requestCode(email);
      const results = await Promise.all([1, 2, 3, 4].map(() => verify(t, email, code)));
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 401, 401, 401]);
      assert.equal(await count(t, 'accounts WHERE email = $1', [email]), 1);
      assert.equal(
        await count(t, 'api_tokens t JOIN accounts a USING (tenant_id, account_id) WHERE a.email = $1', [email]),
        1,
      );
    });

    test('after 5 wrong tries the code is void: even the right code fails; a new code works', async () => {
      const t = get();
      const email = 'guesser@tries.example';
      const code = await t.requestCode(email);
      for (let i = 0; i < 5; i++) assertProblem(await verify(t, email, wrong(code)), 401, 'invalid_code');
      const p = assertProblem(await verify(t, email, code), 401, 'invalid_code');
      assert.doesNotMatch(p.detail, new RegExp(code));
      const fresh = await t.requestCode(email);
      assert.equal((await verify(t, email, fresh)).statusCode, 200);
    });

    test('4 wrong tries leave the right code usable', async () => {
      const t = get();
      const email = 'careful@careful-tries.example';
      const code = await t.requestCode(email);
      for (let i = 0; i < 4; i++) assertProblem(await verify(t, email, wrong(code)), 401, 'invalid_code');
      assert.equal((await verify(t, email, code)).statusCode, 200);
    });

    test('parallel wrong guesses cannot exceed 5 tries', async () => {
      const t = get();
      const email = 'burst@tries.example';
      const code = await t.requestCode(email);
      const guesses = await Promise.all(Array.from({ length: 12 }, () => verify(t, email, wrong(code))));
      for (const g of guesses) assertProblem(g, 401, 'invalid_code');
      assertProblem(await verify(t, email, code), 401, 'invalid_code');
    });

    test('a new code replaces the previous one', async () => {
      const t = get();
      const email = 'twice@replace.example';
      const old = await t.requestCode(email);
      let fresh = await t.requestCode(email);
      while (fresh === old) fresh = await t.requestCode(email);
      assertProblem(await verify(t, email, old), 401, 'invalid_code');
      assert.equal((await verify(t, email, fresh)).statusCode, 200);
    });

    test("a code is bound to its address: it does not sign in someone else's", async () => {
      const t = get();
      const code = await t.requestCode('owner@bound.example');
      await t.requestCode('other@bound.example');
      assertProblem(await verify(t, 'other@bound.example', code), 401, 'invalid_code');
      assertProblem(await verify(t, 'nobody@bound.example', code), 401, 'invalid_code');
      assert.equal((await verify(t, 'owner@bound.example', code)).statusCode, 200);
    });

    test('a code that is not digits, or an address without a code, is 401 invalid_code', async () => {
      const t = get();
      for (const code of ['abcdef', '12 34 56', '１２３４５６', '-123456']) {
        assertProblem(await verify(t, 'shape@codes.example', code), 401, 'invalid_code');
      }
      assertProblem(await verify(t, 'never-asked@codes.example', '123456'), 401, 'invalid_code');
    });

    test('a new address at a personal or disposable domain is 422 personal_email_domain, and no mail is sent', async () => {
      const t = get();
      for (const email of ['someone@gmail.com', 'Someone.Else@Outlook.com', 'x@mailinator.com', 'y@yahoo.co.uk']) {
        const before = t.smtp.messages.length;
        const res = await signup(t, email);
        const p = assertFieldErrors(res, ['/email'], 'personal_email_domain');
        assert.match(p.detail, /invitation/);
        assert.equal(t.smtp.messages.length, before);
      }
      assert.equal(await count(t, 'signin_codes WHERE email = $1', ['someone@gmail.com']), 0);
    });

    test('an invited personal address signs up and joins the inviting workspace with the invited role', async () => {
      const t = get();
      const admin = await t.signIn('dana@inviting.example');
      const inv = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/invites',
        token: admin.token,
        payload: { email: 'Dana.Friend@Gmail.com', role: 'auditor' },
      });
      assert.equal(inv.statusCode, 201);
      const workspaces = await count(t, 'workspaces');
      const joined = await t.signIn('dana.friend@gmail.com');
      assert.equal(joined.account.tenant_id, admin.account.tenant_id);
      assert.equal(joined.account.role, 'auditor');
      assert.equal(joined.account.email, 'dana.friend@gmail.com');
      assert.equal(await count(t, 'workspaces'), workspaces);
      const me = (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: joined.token })).json();
      assert.equal(me.account.role, 'auditor');
      assert.equal(me.account.tenant_id, admin.account.tenant_id);
      // The invitation is used up; the account signs in again as itself.
      const open = await t.request({ method: 'GET', url: '/api/v1/workspace/invites', token: admin.token });
      assert.deepEqual(open.json().items, []);
      const again = await t.signIn('dana.friend@gmail.com');
      assert.equal(again.account.id, joined.account.id);
      assert.equal(again.account.role, 'auditor');
    });

    test('an invited corporate address joins the inviting workspace instead of creating its own', async () => {
      const t = get();
      const admin = await t.signIn('erin@host-co.example');
      await t.request({
        method: 'POST',
        url: '/api/v1/workspace/invites',
        token: admin.token,
        payload: { email: 'frank@guest-co.example', role: 'operator' },
      });
      const frank = await t.signIn('frank@guest-co.example');
      assert.equal(frank.account.tenant_id, admin.account.tenant_id);
      assert.equal(frank.account.role, 'operator');
    });

    test('an invitation expires after 14 days: the personal address is then refused', async () => {
      const t = get();
      const admin = await t.signIn('gina@expiring.example');
      await t.request({
        method: 'POST',
        url: '/api/v1/workspace/invites',
        token: admin.token,
        payload: { email: 'late.guest@gmail.com', role: 'viewer' },
      });
      const res = await withClockMoved(t, 14 * 24 * 60 * MINUTE + 1000, () => signup(t, 'late.guest@gmail.com'));
      assertProblem(res, 422, 'personal_email_domain');
    });

    test('sign-up validates its body: 422 with the field, 400 for what is not a JSON object', async () => {
      const t = get();
      assertFieldErrors(await t.request({ method: 'POST', url: SIGNUP, payload: {} }), ['/email']);
      assertFieldErrors(await signup(t, 42), ['/email']);
      assertFieldErrors(await signup(t, null), ['/email']);
      assertFieldErrors(await signup(t, ['a@b.example']), ['/email']);
      assertFieldErrors(await signup(t, 'not-an-address'), ['/email']);
      assertFieldErrors(await signup(t, 'two@@at.example'), ['/email']);
      assertFieldErrors(
        await signup(t, `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`),
        ['/email'],
      );
      const json = { 'content-type': 'application/json' };
      for (const payload of ['[]', '"a@b.example"', '42', 'null', 'true', '{"email":', '']) {
        assertProblem(await t.request({ method: 'POST', url: SIGNUP, headers: json, payload }), 400, 'bad_request');
      }
    });

    test('verify validates its body: strict types, required fields', async () => {
      const t = get();
      assertFieldErrors(await t.request({ method: 'POST', url: VERIFY, payload: {} }), ['/code', '/email']);
      assertFieldErrors(await verify(t, 'a@valid.example', 123456), ['/code']);
      assertFieldErrors(await verify(t, 'a@valid.example', ''), ['/code']);
      assertFieldErrors(await verify(t, 'a@valid.example', '1'.repeat(33)), ['/code']);
      assertFieldErrors(await t.request({ method: 'POST', url: VERIFY, payload: { email: 5, code: '123456' } }), [
        '/email',
      ]);
      assertProblem(await t.request({ method: 'POST', url: VERIFY, payload: [] }), 400, 'bad_request');
    });

    test('when the mail server refuses the address: 503 with Retry-After, and nothing about the server', async () => {
      const t = get();
      const res = await signup(t, 'bounce@refused.example');
      assertProblem(res, 503, 'service_unavailable');
      assert.match(String(res.headers['retry-after']), /^\d+$/);
      assert.doesNotMatch(res.body, /550|mailbox|127\.0\.0\.1|smtp/i);
    });

    test('sign-up and verify need no token, and ignore a bad one', async () => {
      const t = get();
      const res = await t.request({
        method: 'POST',
        url: SIGNUP,
        payload: { email: 'notoken@free.example' },
        token: 'svc_live_garbage',
      });
      assert.equal(res.statusCode, 200);
    });
  },
  { smtp: { rejectRecipients: ['bounce@refused.example'] } },
);
