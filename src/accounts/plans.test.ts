import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PLANS } from '../config/config.ts';
import { eachStore, OPERATOR_TOKEN, type SignedIn, type TestService } from '../testing/harness.ts';
import { assertProblem } from '../testing/problems.ts';
import { addMember, setSubscription } from '../testing/workspace.ts';

const DAY = 86_400_000;
const ME = '/api/v1/accounts/me';
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function me(t: TestService, who: SignedIn) {
  const res = await t.request({ method: 'GET', url: ME, token: who.token });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const setPlan = (t: TestService, who: SignedIn, body: Parameters<typeof setSubscription>[3]) =>
  setSubscription(t, OPERATOR_TOKEN, who.account.tenant_id, body);

async function withClockAt<T>(t: TestService, at: Date, fn: () => Promise<T>): Promise<T> {
  const start = t.clock.now();
  t.clock.set(at);
  try {
    return await fn();
  } finally {
    t.clock.set(start);
  }
}

eachStore('plans, subscription state and the account status gate', (get) => {
  let counter = 0;
  /** A fresh workspace (its admin) for each test: plans are per workspace. */
  const fresh = (t: TestService) => t.signIn(`admin${++counter}@plan-${counter}.example`);

  test('/me: session info with account, plan, trial and integer quotas', async () => {
    const t = get();
    const alice = await fresh(t);
    const body = await me(t, alice);
    assert.deepEqual(Object.keys(body).sort(), [
      'account',
      'account_status',
      'display_name',
      'plan_tier',
      'quotas',
      'subscription_status',
      'trial_days_remaining',
      'trial_ends_at',
    ]);
    assert.deepEqual(body.account, {
      id: alice.account.id,
      email: alice.account.email,
      plan_tier: 'team',
      tenant_id: alice.account.tenant_id,
      role: 'admin',
    });
    assert.equal(body.plan_tier, 'team');
    assert.equal(body.subscription_status, 'trialing');
    assert.equal(body.account_status, 'active');
    assert.match(body.trial_ends_at, ISO_Z);
    assert.equal(Date.parse(body.trial_ends_at), t.clock.now().getTime() + 14 * DAY);
    assert.equal(body.trial_days_remaining, 14);
    assert.equal(body.display_name, alice.account.email.split('@')[0]);
    assert.deepEqual(Object.keys(body.quotas).sort(), [
      'agents_cap',
      'agents_registered',
      'invocations_cap_per_day',
      'invocations_used_today',
      'multi_judge_calls_cap',
      'multi_judge_calls_used_this_month',
      'personas_cap',
      'personas_used',
    ]);
    for (const [k, v] of Object.entries(body.quotas))
      assert.ok(Number.isInteger(v) && (v as number) >= 0, `${k} = ${v}`);
    const caps = DEFAULT_PLANS.team;
    assert.equal(body.quotas.invocations_cap_per_day, caps.invocations_per_day);
    assert.equal(body.quotas.multi_judge_calls_cap, caps.multi_judge_calls_per_month);
    assert.equal(body.quotas.personas_cap, caps.personas);
    assert.equal(body.quotas.agents_cap, caps.agents);
    assert.equal(body.quotas.invocations_used_today, 0);
    assert.equal(body.quotas.agents_registered, 0);
    // Members see the same plan with their own account.
    const member = await addMember(t, alice, `viewer${counter}@plan-${counter}.example`, 'viewer');
    const mv = await me(t, member);
    assert.equal(mv.account.role, 'viewer');
    assert.equal(mv.account.id, member.account.id);
    assert.equal(mv.trial_ends_at, body.trial_ends_at);
  });

  test('/me quotas count the live data: events today, agents registered; the day count resets at UTC midnight', async () => {
    const t = get();
    const alice = await fresh(t);
    const record = (agent_key: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token: alice.token,
        payload: { agent_key },
      });
    for (const agent of ['agent-a', 'agent-b', 'agent-a']) assert.equal((await record(agent)).statusCode, 201);
    const q = (await me(t, alice)).quotas;
    assert.equal(q.invocations_used_today, 3);
    assert.equal(q.agents_registered, 2);
    for (const v of Object.values(q)) assert.ok(Number.isInteger(v));
    // Another workspace's usage is its own.
    assert.equal((await me(t, await fresh(t))).quotas.invocations_used_today, 0);
    const tomorrow = new Date(
      Date.UTC(t.clock.now().getUTCFullYear(), t.clock.now().getUTCMonth(), t.clock.now().getUTCDate() + 1, 0, 0, 1),
    );
    const next = await withClockAt(t, tomorrow, () => me(t, alice));
    assert.equal(next.quotas.invocations_used_today, 0);
    assert.equal(next.quotas.agents_registered, 2);
  });

  test('the caps follow the plan tier', async () => {
    const t = get();
    const alice = await fresh(t);
    for (const tier of ['free', 'enterprise', 'team'] as const) {
      await setPlan(t, alice, { plan_tier: tier });
      const body = await me(t, alice);
      assert.equal(body.plan_tier, tier);
      assert.equal(body.account.plan_tier, tier);
      assert.equal(body.quotas.invocations_cap_per_day, DEFAULT_PLANS[tier].invocations_per_day);
      assert.equal(body.quotas.agents_cap, DEFAULT_PLANS[tier].agents);
      assert.equal(body.quotas.personas_cap, DEFAULT_PLANS[tier].personas);
      assert.equal(body.quotas.multi_judge_calls_cap, DEFAULT_PLANS[tier].multi_judge_calls_per_month);
    }
  });

  test('the trial counts down with the clock and ends after 14 days: trial_expired', async () => {
    const t = get();
    const alice = await fresh(t);
    const start = t.clock.now().getTime();
    const at = (ms: number) => withClockAt(t, new Date(start + ms), () => me(t, alice));
    assert.equal((await at(DAY)).trial_days_remaining, 13);
    assert.equal((await at(DAY + 1)).trial_days_remaining, 13);
    assert.equal((await at(13.5 * DAY)).trial_days_remaining, 1);
    const last = await at(14 * DAY - 1);
    assert.equal(last.account_status, 'active');
    assert.equal(last.trial_days_remaining, 1);
    const over = await at(14 * DAY);
    assert.equal(over.account_status, 'trial_expired');
    assert.equal(over.subscription_status, 'trialing');
    assert.equal(over.trial_days_remaining, 0);
    assert.equal((await at(400 * DAY)).account_status, 'trial_expired');
  });

  test('account_status is derived from the subscription as API.md tabulates', async () => {
    const t = get();
    const alice = await fresh(t);
    const past = new Date(t.clock.now().getTime() - DAY).toISOString();
    const future = new Date(t.clock.now().getTime() + 3 * DAY).toISOString();
    const cases: Array<[Parameters<typeof setSubscription>[3], string, number | null]> = [
      [{ plan_tier: 'team', subscription_status: 'trialing', trial_ends_at: future }, 'active', 3],
      [{ subscription_status: 'trialing', trial_ends_at: past }, 'trial_expired', 0],
      [{ subscription_status: 'active' }, 'active', null],
      [{ subscription_status: 'past_due' }, 'sub_lapsed', null],
      [{ subscription_status: 'unpaid' }, 'sub_lapsed', null],
      [{ subscription_status: 'canceled' }, 'sub_canceled', null],
      [{ subscription_status: 'trialing', trial_ends_at: null }, 'active', null],
      // The free plan never expires.
      [{ plan_tier: 'free', subscription_status: 'trialing', trial_ends_at: past }, 'active', 0],
      [{ plan_tier: 'free', subscription_status: 'active' }, 'active', null],
      [{ plan_tier: 'enterprise', subscription_status: 'trialing', trial_ends_at: past }, 'trial_expired', 0],
    ];
    for (const [body, status, days] of cases) {
      const view = await setPlan(t, alice, body);
      assert.equal(view.account_status, status, JSON.stringify(body));
      const m = await me(t, alice);
      assert.equal(m.account_status, status, JSON.stringify(body));
      assert.equal(m.trial_days_remaining, days, JSON.stringify(body));
      if (body.subscription_status) assert.equal(m.subscription_status, body.subscription_status);
    }
  });

  for (const [why, body] of [
    ['trial over', { subscription_status: 'trialing', trial_ends_at: '2020-01-01T00:00:00Z' }],
    ['past_due', { subscription_status: 'past_due' }],
    ['unpaid', { subscription_status: 'unpaid' }],
    ['canceled', { subscription_status: 'canceled' }],
  ] as const) {
    test(`${why}: every write is 402 payment_required except token revocation; reads and sign-in keep working`, async () => {
      const t = get();
      const admin = await fresh(t);
      const op = await addMember(t, admin, `op${counter}@plan-${counter}.example`, 'operator');
      const viewer = await addMember(t, admin, `v${counter}@plan-${counter}.example`, 'viewer');
      const spare = (
        await t.request({ method: 'POST', url: '/api/v1/accounts/tokens', token: op.token, payload: { name: 'spare' } })
      ).json();
      const inv = (
        await t.request({
          method: 'POST',
          url: '/api/v1/workspace/invites',
          token: admin.token,
          payload: { email: `pending${counter}@gmail.com`, role: 'viewer' },
        })
      ).json();
      await setPlan(t, admin, body);

      const writes = [
        { method: 'POST', url: '/api/v1/accounts/tokens', token: admin.token, payload: { name: 'x' } },
        { method: 'POST', url: '/api/v1/accounts/tokens', token: op.token, payload: { name: 'x' } },
        {
          method: 'POST',
          url: '/api/v1/workspace/invites',
          token: admin.token,
          payload: { email: `new${counter}@gmail.com`, role: 'viewer' },
        },
        {
          method: 'PATCH',
          url: `/api/v1/workspace/members/${viewer.account.id}`,
          token: admin.token,
          payload: { role: 'auditor' },
        },
        { method: 'DELETE', url: `/api/v1/workspace/members/${viewer.account.id}`, token: admin.token },
        { method: 'DELETE', url: `/api/v1/workspace/invites/${inv.invitation_id}`, token: admin.token },
      ] as const;
      for (const w of writes) {
        const p = assertProblem(await t.request(w), 402, 'payment_required');
        assert.ok(p.detail.length > 10);
      }
      // Nothing was written.
      const members = (await t.request({ method: 'GET', url: '/api/v1/workspace/members', token: admin.token })).json();
      assert.equal(
        members.items.find((m: { account_id: string }) => m.account_id === viewer.account.id)?.role,
        'viewer',
      );
      const invites = (await t.request({ method: 'GET', url: '/api/v1/workspace/invites', token: admin.token })).json();
      assert.deepEqual(
        invites.items.map((i: { invitation_id: string }) => i.invitation_id),
        [inv.invitation_id],
      );

      // Reads work.
      for (const [url, token] of [
        [ME, admin.token],
        [ME, viewer.token],
        ['/api/v1/accounts/tokens', op.token],
        ['/api/v1/workspace/members', admin.token],
        ['/api/v1/workspace/invites', admin.token],
        ['/api/v1/audit/checkpoint', viewer.token],
        ['/api/v1/audit/entries?start=0&end=10', viewer.token],
      ] as const) {
        const res = await t.request({ method: 'GET', url, token });
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      }
      assert.notEqual((await me(t, admin)).account_status, 'active');

      // Revocation is not gated: own token, and an admin revoking a member's.
      assert.equal(
        (await t.request({ method: 'DELETE', url: `/api/v1/accounts/tokens/${spare.token_id}`, token: op.token }))
          .statusCode,
        204,
      );
      assertProblem(await t.request({ method: 'GET', url: ME, token: spare.token }), 401, 'unauthorized');
      assert.equal(
        (await t.request({ method: 'DELETE', url: `/api/v1/accounts/tokens/${viewer.token_id}`, token: admin.token }))
          .statusCode,
        204,
      );

      // Sign-in works (it issues a token), for the admin and for members, and /me tells why writes fail.
      const again = await t.signIn(viewer.account.email);
      assert.equal(again.account.id, viewer.account.id);
      assert.equal((await me(t, again)).account_status, (await me(t, admin)).account_status);
      // An invitation made before the lapse can still be accepted (joining is sign-in).
      const joined = await t.signIn(`pending${counter}@gmail.com`);
      assert.equal(joined.account.tenant_id, admin.account.tenant_id);

      // Renewing the subscription opens writes again at once.
      await setPlan(t, admin, { subscription_status: 'active' });
      assert.equal((await t.request(writes[0])).statusCode, 200);
      assert.equal((await t.request(writes[3])).statusCode, 200);
    });
  }

  test('the gate is per workspace: another workspace keeps writing', async () => {
    const t = get();
    const lapsed = await fresh(t);
    const fine = await fresh(t);
    await setPlan(t, lapsed, { subscription_status: 'past_due' });
    assertProblem(
      await t.request({ method: 'POST', url: '/api/v1/accounts/tokens', token: lapsed.token, payload: { name: 'x' } }),
      402,
      'payment_required',
    );
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/v1/accounts/tokens', token: fine.token, payload: { name: 'x' } }))
        .statusCode,
      200,
    );
  });

  test('the trial ending by the clock alone closes writes, with no change to any row', async () => {
    const t = get();
    const alice = await fresh(t);
    const later = new Date(t.clock.now().getTime() + 15 * DAY);
    const res = await withClockAt(t, later, () =>
      t.request({ method: 'POST', url: '/api/v1/accounts/tokens', token: alice.token, payload: { name: 'late' } }),
    );
    const p = assertProblem(res, 402, 'payment_required');
    assert.match(p.detail, /trial/i);
    assert.equal(
      (
        await t.request({
          method: 'POST',
          url: '/api/v1/accounts/tokens',
          token: alice.token,
          payload: { name: 'in time' },
        })
      ).statusCode,
      200,
    );
  });
});
