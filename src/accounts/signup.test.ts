import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';

eachStore('sign-up and sign-in', (get) => {
  test('a corporate address gets a code by mail, and the code creates a workspace with an admin', async () => {
    const t = get();
    const res = await t.request({ method: 'POST', url: '/api/v1/accounts/signup', payload: { email: 'Alice@Acme-Corp.com' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'verification_sent' });
    const mail = await t.smtp.waitFor((m) => m.to.includes('alice@acme-corp.com'));
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    const v = await t.request({ method: 'POST', url: '/api/v1/accounts/verify', payload: { email: 'alice@acme-corp.com', code } });
    assert.equal(v.statusCode, 200);
    const body = v.json();
    assert.match(body.token, /^svc_live_[0-9A-Za-z]{36}$/);
    assert.equal(body.account.email, 'alice@acme-corp.com');
    assert.equal(body.account.role, 'admin');
    assert.equal(body.account.plan_tier, 'team');
    assert.equal(body.prefix, body.token.slice(0, 13));
    const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: body.token });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().account.tenant_id, body.account.tenant_id);
  });
});
