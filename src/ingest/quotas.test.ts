// Plan caps on the event path, with small caps for the team plan: a new agent
// over the agent cap is 402 plan_limit, an invocation over the daily cap is
// 429 quota_exceeded with Retry-After until the next UTC midnight, the count
// resets at that midnight, and both caps hold exactly under concurrency.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, FALLBACK_TOKEN, OPERATOR_TOKEN, type SignedIn, type TestService } from '../testing/harness.ts';
import {
  atTime,
  expectProblem,
  INVOCATION,
  issueIngress,
  leaves,
  newWorkspace,
  post,
  pseudonymNames,
  query,
  ROGUE,
  stored,
} from '../testing/ingest-kit.ts';

const AGENTS = 2;
const PER_DAY = 5;
const PLAN_CAPS = JSON.stringify({ team: { agents: AGENTS, invocations_per_day: PER_DAY } });

async function quotas(t: TestService, a: SignedIn) {
  const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: a.token });
  assert.equal(me.statusCode, 200, me.body);
  return me.json().quotas as {
    invocations_used_today: number;
    invocations_cap_per_day: number;
    agents_registered: number;
    agents_cap: number;
  };
}

async function agentKeys(t: TestService, tenantId: string): Promise<string[]> {
  const rows = await query<{ agent_key: string }>(
    t,
    'SELECT agent_key FROM agents WHERE tenant_id = $1 ORDER BY agent_key',
    [tenantId],
  );
  return rows.map((r) => r.agent_key);
}

/** The quota_reached entries of a workspace's log, in log order, as {quota, limit, period?}. */
async function quotaLeaves(t: TestService, tenantId: string): Promise<Array<Record<string, unknown>>> {
  return (await leaves(t, tenantId))
    .filter((l) => l.kind === 'quota_reached')
    .map(({ quota, limit, period }) => ({ quota, limit, ...(period === undefined ? {} : { period }) }));
}

async function registrations(t: TestService, tenantId: string): Promise<string[]> {
  const names = await pseudonymNames(t, tenantId);
  return (await leaves(t, tenantId))
    .filter((l) => l.kind === 'agent_registered')
    .map((l) => names.get(l.agent as string) as string)
    .sort();
}

/** 429 quota_exceeded with Retry-After exactly `seconds`. */
function expectQuota(res: Awaited<ReturnType<typeof post>>, seconds: number): void {
  expectProblem(res, 429, 'quota_exceeded');
  assert.equal(res.headers['retry-after'], String(seconds));
}

function statusCounts(codes: number[]): Record<number, number> {
  const m: Record<number, number> = {};
  for (const c of codes) m[c] = (m[c] ?? 0) + 1;
  return m;
}

eachStore(
  'plan caps on the event path',
  (get) => {
    test('a new agent over the agent cap is 402 plan_limit, for every token; known agents keep recording', async () => {
      const t = get();
      const a = await newWorkspace(t, 'agent-cap');
      const ingress = await issueIngress(t, a);
      const tenant = a.account.tenant_id;
      assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'one' })).statusCode, 201);
      assert.equal((await post(t, INVOCATION, ingress.token, { agent_key: 'two' })).statusCode, 201);
      const before = await stored(t, tenant);
      for (const [token, extra] of [
        [a.token, {}],
        [ingress.token, {}],
        [FALLBACK_TOKEN, { tenant_id: tenant }],
      ] as const) {
        const p = expectProblem(await post(t, INVOCATION, token, { agent_key: 'three', ...extra }), 402, 'plan_limit');
        assert.match(p.detail, /2 agents/);
      }
      // Refused before anything is written: no agent, no leaf, not counted against the day.
      assert.deepEqual(await stored(t, tenant), before);
      assert.deepEqual(await agentKeys(t, tenant), ['one', 'two']);
      assert.deepEqual(await registrations(t, tenant), ['one', 'two']);
      // The second agent used up the agent cap: one quota_reached entry, none for the refusals.
      assert.deepEqual(await quotaLeaves(t, tenant), [{ quota: 'agents', limit: AGENTS }]);
      const q = await quotas(t, a);
      assert.equal(q.agents_registered, AGENTS);
      assert.equal(q.agents_cap, AGENTS);
      assert.equal(q.invocations_used_today, 2);
      assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'one' })).statusCode, 201);
      assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'two' })).statusCode, 201);
      // The cap is the plan's: on enterprise the third agent registers.
      const up = await t.request({
        method: 'PUT',
        url: `/api/v1/operator/workspaces/${tenant}/subscription`,
        token: OPERATOR_TOKEN,
        payload: { plan_tier: 'enterprise', subscription_status: 'active' },
      });
      assert.equal(up.statusCode, 200, up.body);
      assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'three' })).statusCode, 201);
      assert.deepEqual(await agentKeys(t, tenant), ['one', 'three', 'two']);
    });

    test('the daily cap: the 6th invocation is 429 quota_exceeded with Retry-After to the next UTC midnight; nothing stored', async () => {
      const t = get();
      const a = await newWorkspace(t, 'day-cap');
      const ingress = await issueIngress(t, a);
      const tenant = a.account.tenant_id;
      for (let i = 0; i < PER_DAY; i++)
        assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'cap-bot', prompt: `n${i}` })).statusCode, 201);
      const before = await stored(t, tenant);
      // The clock stands at 12:00:00Z: 12 hours to midnight.
      assert.equal(t.clock.now().toISOString(), '2026-06-01T12:00:00.000Z');
      for (const [token, extra] of [
        [a.token, {}],
        [ingress.token, {}],
        [FALLBACK_TOKEN, { tenant_id: tenant }],
      ] as const) {
        expectQuota(await post(t, INVOCATION, token, { agent_key: 'cap-bot', ...extra }), 43_200);
      }
      // A new agent on a full day is not registered either.
      expectQuota(await post(t, INVOCATION, a.token, { agent_key: 'late-bot' }), 43_200);
      assert.deepEqual(await stored(t, tenant), before);
      assert.deepEqual(await agentKeys(t, tenant), ['cap-bot']);
      // The 5th invocation used up the day: one quota_reached entry for the day, none for the four refusals.
      assert.deepEqual(await quotaLeaves(t, tenant), [
        { quota: 'invocations_per_day', limit: PER_DAY, period: '2026-06-01' },
      ]);
      const q = await quotas(t, a);
      assert.equal(q.invocations_used_today, PER_DAY);
      assert.equal(q.invocations_cap_per_day, PER_DAY);
      // Rogue events are not invocations: they are not capped by it.
      assert.equal((await post(t, ROGUE, a.token, { event_type: 'loop', agent_key: 'cap-bot' })).statusCode, 201);
    });

    test('Retry-After counts the seconds to the next UTC midnight (rounded up), and the count resets then', async () => {
      const t = get();
      const a = await newWorkspace(t, 'day-reset');
      const tenant = a.account.tenant_id;
      const cases: Array<[string, number]> = [
        ['2026-06-01T23:59:30.000Z', 30],
        ['2026-06-01T23:59:59.001Z', 1],
        ['2026-06-01T18:30:00.500Z', 19_800],
      ];
      await atTime(t, '2026-06-01T18:00:00.000Z', async () => {
        for (let i = 0; i < PER_DAY; i++)
          assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'reset-bot' })).statusCode, 201);
      });
      for (const [at, seconds] of cases) {
        await atTime(t, at, async () =>
          expectQuota(await post(t, INVOCATION, a.token, { agent_key: 'reset-bot' }), seconds),
        );
      }
      // At 00:00:00.000Z the next UTC day begins with a fresh count of 5.
      await atTime(t, '2026-06-02T00:00:00.000Z', async () => {
        assert.equal((await quotas(t, a)).invocations_used_today, 0);
        for (let i = 0; i < PER_DAY; i++)
          assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'reset-bot' })).statusCode, 201);
        expectQuota(await post(t, INVOCATION, a.token, { agent_key: 'reset-bot' }), 86_400);
      });
      const days = await query<{ day: string; invocations: number }>(
        t,
        "SELECT to_char(day, 'YYYY-MM-DD') AS day, invocations::int AS invocations FROM usage_daily WHERE tenant_id = $1 ORDER BY day",
        [tenant],
      );
      assert.deepEqual(days, [
        { day: '2026-06-01', invocations: PER_DAY },
        { day: '2026-06-02', invocations: PER_DAY },
      ]);
      assert.equal((await stored(t, tenant)).invocations, 2 * PER_DAY);
      // Once per period: one entry for each day, whatever was refused after it.
      assert.deepEqual(await quotaLeaves(t, tenant), [
        { quota: 'invocations_per_day', limit: PER_DAY, period: '2026-06-01' },
        { quota: 'invocations_per_day', limit: PER_DAY, period: '2026-06-02' },
      ]);
    });

    test('caps are per workspace: a full workspace does not limit another', async () => {
      const t = get();
      const a = await newWorkspace(t, 'full-a');
      const b = await newWorkspace(t, 'free-b');
      for (let i = 0; i < PER_DAY; i++)
        assert.equal((await post(t, INVOCATION, a.token, { agent_key: `a${i % AGENTS}` })).statusCode, 201);
      expectQuota(await post(t, INVOCATION, a.token, { agent_key: 'a0' }), 43_200);
      expectProblem(await post(t, INVOCATION, a.token, { agent_key: 'a9' }), 402, 'plan_limit');
      for (let i = 0; i < PER_DAY; i++)
        assert.equal((await post(t, INVOCATION, b.token, { agent_key: `b${i % AGENTS}` })).statusCode, 201);
    });

    test(`the daily cap under concurrency: ${PER_DAY + 20} concurrent invocations, exactly ${PER_DAY} recorded`, async () => {
      const t = get();
      const a = await newWorkspace(t, 'day-race');
      const results = await Promise.all(
        Array.from({ length: PER_DAY + 20 }, (_, i) =>
          post(t, INVOCATION, a.token, { agent_key: 'race-bot', correlation_id: `r${i}` }),
        ),
      );
      assert.deepEqual(statusCounts(results.map((r) => r.statusCode)), { 201: PER_DAY, 429: 20 });
      for (const r of results.filter((x) => x.statusCode === 429)) expectQuota(r, 43_200);
      const s = await stored(t, a.account.tenant_id);
      assert.equal(s.invocations, PER_DAY);
      assert.equal(s.usage, PER_DAY);
      const ids = results
        .filter((r) => r.statusCode === 201)
        .map((r) => r.json().invocation_id as number)
        .sort((x, y) => x - y);
      const rows = await query<{ invocation_id: number }>(
        t,
        'SELECT invocation_id FROM invocations WHERE tenant_id = $1 ORDER BY invocation_id',
        [a.account.tenant_id],
      );
      assert.deepEqual(
        rows.map((r) => r.invocation_id),
        ids,
      );
      assert.deepEqual(await registrations(t, a.account.tenant_id), ['race-bot']);
      assert.deepEqual(await quotaLeaves(t, a.account.tenant_id), [
        { quota: 'invocations_per_day', limit: PER_DAY, period: '2026-06-01' },
      ]);
    });

    test(`the agent cap under concurrency: 10 new agents at once, exactly ${AGENTS} registered`, async () => {
      const t = get();
      const a = await newWorkspace(t, 'agent-race');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(t, INVOCATION, a.token, { agent_key: `agent-${i}` })),
      );
      assert.deepEqual(statusCounts(results.map((r) => r.statusCode)), { 201: AGENTS, 402: 10 - AGENTS });
      for (const r of results.filter((x) => x.statusCode === 402)) expectProblem(r, 402, 'plan_limit');
      const admitted = results.flatMap((r, i) => (r.statusCode === 201 ? [`agent-${i}`] : [])).sort();
      assert.deepEqual(await agentKeys(t, a.account.tenant_id), admitted);
      assert.deepEqual(await registrations(t, a.account.tenant_id), admitted);
      const s = await stored(t, a.account.tenant_id);
      assert.equal(s.invocations, AGENTS);
      assert.equal(s.usage, AGENTS);
      assert.deepEqual(await quotaLeaves(t, a.account.tenant_id), [{ quota: 'agents', limit: AGENTS }]);
    });
  },
  { env: { PLAN_CAPS } },
);
