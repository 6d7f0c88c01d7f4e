import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitment } from '../ledger/leaf.ts';
import { eachStore } from '../testing/harness.ts';
import { addMember, auditLeaves } from '../testing/workspace.ts';
import { DEFAULT_POLICY } from './default-policy.ts';

const INVOKE = '/api/v1/admin/agents/events/invocation';

eachStore('policy documents and agent scopes', (get) => {
  test('a new workspace has the default policy as version 0; a PUT stores version 1 and appends a policy_change leaf', async () => {
    const t = get();
    const a = await t.signIn('admin@policy-co.io');
    const first = await t.request({ method: 'GET', url: '/api/v1/policy', token: a.token });
    assert.equal(first.statusCode, 200);
    assert.equal(first.json().version, 0);
    assert.deepEqual(first.json().rules, DEFAULT_POLICY.rules);

    const doc = {
      default_verdict: 'allow',
      rules: [{ id: 'deny-shell', when: { tools: ['shell*'] }, verdict: 'deny' }],
    };
    const put = await t.request({ method: 'PUT', url: '/api/v1/policy', token: a.token, payload: doc });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().version, 1);
    const leaves = await auditLeaves(t, a.token);
    const change = leaves.find((l) => l.kind === 'policy_change');
    assert.deepEqual(change?.policy, doc);
    assert.equal(change?.version, 1);

    // The new policy decides the next event, and its rule id is the stored reason.
    const ev = await t.request({
      method: 'POST',
      url: INVOKE,
      token: a.token,
      payload: { agent_key: 'ops', tool_name: 'shell.exec' },
    });
    assert.equal(ev.json().verdict, 'deny');
    const [row] = await t.testDb.db.query<{ reasons: string[]; policy_version: number }>(
      'SELECT reasons, policy_version FROM invocations WHERE tenant_id = $2 AND invocation_id = $1',
      [ev.json().invocation_id, a.account.tenant_id],
    );
    assert.deepEqual(row!.reasons, ['deny-shell']);
    assert.equal(row!.policy_version, 1);
    const other = await t.request({
      method: 'POST',
      url: INVOKE,
      token: a.token,
      payload: { agent_key: 'ops', tool_name: 'search' },
    });
    assert.equal(other.json().verdict, 'allow');
  });

  test('invalid policy documents are refused with 422 and the field', async () => {
    const t = get();
    const a = await t.signIn('admin@policy-bad.io');
    const cases: Array<[unknown, string]> = [
      [{ default_verdict: 'maybe', rules: [] }, '/default_verdict'],
      [{ default_verdict: 'allow', rules: [{ id: 'X Y', when: {}, verdict: 'deny' }] }, '/rules/0/id'],
      [
        { default_verdict: 'allow', rules: [{ id: 'a', when: { tools: 'shell' }, verdict: 'deny' }] },
        '/rules/0/when/tools',
      ],
      [
        { default_verdict: 'allow', rules: [{ id: 'a', when: { min_score: 2 }, verdict: 'deny' }] },
        '/rules/0/when/min_score',
      ],
      [
        {
          default_verdict: 'allow',
          rules: [
            { id: 'a', when: {}, verdict: 'deny' },
            { id: 'a', when: {}, verdict: 'allow' },
          ],
        },
        '/rules/1/id',
      ],
      [{ default_verdict: 'allow', rules: [{ id: 'a', when: { colour: 'red' }, verdict: 'deny' }] }, '/rules/0/when'],
      // A type no detector emits would never fire: EMAIL for EMAIL_ADDRESS.
      [
        {
          default_verdict: 'allow',
          rules: [{ id: 'a', when: { finding_types: ['GITHUB_TOKEN', 'EMAIL'] }, verdict: 'deny' }],
        },
        '/rules/0/when/finding_types/1',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await t.request({ method: 'PUT', url: '/api/v1/policy', token: a.token, payload: payload as object });
      assert.equal(res.statusCode, 422, `${JSON.stringify(payload)} → ${res.body}`);
      assert.ok(
        res.json().errors.some((e: { field: string }) => e.field.startsWith(field)),
        `${JSON.stringify(payload)}: ${res.body}`,
      );
    }
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/policy', token: a.token })).json().version, 0);
    // Every kind the detectors emit is taken: PII, secret and injection types.
    const known = {
      default_verdict: 'allow',
      rules: [
        {
          id: 'a',
          when: { finding_types: ['EMAIL_ADDRESS', 'US_SSN', 'GITHUB_TOKEN', 'PROMPT_INJECTION'] },
          verdict: 'deny',
        },
      ],
    };
    const ok = await t.request({ method: 'PUT', url: '/api/v1/policy', token: a.token, payload: known });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('auditors and operators read the policy and agent scopes, only admins change them; viewers do neither', async () => {
    const t = get();
    const a = await t.signIn('admin@policy-roles.io');
    const viewer = await addMember(t, a, 'v@policy-roles.io', 'viewer');
    const auditor = await addMember(t, a, 'au@policy-roles.io', 'auditor');
    const operator = await addMember(t, a, 'op@policy-roles.io', 'operator');
    const scoped = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/roles-bot/scope',
      token: a.token,
      payload: { allowed_tools: ['crm.*'] },
    });
    assert.equal(scoped.statusCode, 200, scoped.body);
    const read = await t.request({ method: 'GET', url: '/api/v1/policy', token: auditor.token });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.json(), (await t.request({ method: 'GET', url: '/api/v1/policy', token: a.token })).json());
    const agent = await t.request({ method: 'GET', url: '/api/v1/agents/roles-bot', token: auditor.token });
    assert.equal(agent.statusCode, 200, agent.body);
    assert.deepEqual(agent.json().allowed_tools, ['crm.*']);
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/policy', token: viewer.token })).statusCode, 403);
    for (const who of [viewer, auditor, operator]) {
      const put = await t.request({
        method: 'PUT',
        url: '/api/v1/agents/x/scope',
        token: who.token,
        payload: { allowed_tools: [] },
      });
      assert.equal(put.statusCode, 403);
      const policy = await t.request({
        method: 'PUT',
        url: '/api/v1/policy',
        token: who.token,
        payload: { default_verdict: 'allow', rules: [] },
      });
      assert.equal(policy.statusCode, 403);
    }
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/policy', token: operator.token })).statusCode, 200);
  });

  test('a tool outside the agent scope is denied and recorded as a rogue oos_tool event; shadow mode too, but never reviewed', async () => {
    const t = get();
    const a = await t.signIn('admin@scope-co.io');
    const scope = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/crm-bot/scope',
      token: a.token,
      payload: { allowed_tools: ['crm.*', 'search'] },
    });
    assert.equal(scope.statusCode, 200, scope.body);
    const inScope = await t.request({
      method: 'POST',
      url: INVOKE,
      token: a.token,
      payload: { agent_key: 'crm-bot', tool_name: 'crm.lookup' },
    });
    assert.equal(inScope.json().verdict, 'allow');
    const out = await t.request({
      method: 'POST',
      url: INVOKE,
      token: a.token,
      payload: { agent_key: 'crm-bot', tool_name: 'payments.refund' },
    });
    assert.equal(out.statusCode, 201);
    assert.equal(out.json().verdict, 'deny');
    const rogue = await t.testDb.db.query<{ event_type: string; tool: string; invocation_id: number }>(
      'SELECT event_type, tool, invocation_id FROM rogue_events WHERE tenant_id = $1',
      [a.account.tenant_id],
    );
    assert.deepEqual(rogue, [
      { event_type: 'oos_tool', tool: 'payments.refund', invocation_id: out.json().invocation_id },
    ]);
    const leaves = await auditLeaves(t, a.token);
    // Leaf format v2 names the agent and the event type by their pseudonyms only.
    const pseudonym = async (kind: string, value: string) => {
      const [row] = await t.testDb.db.query<{ salt: Uint8Array }>(
        'SELECT salt FROM pseudonyms WHERE tenant_id = $1 AND kind = $2 AND value = $3',
        [a.account.tenant_id, kind, value],
      );
      return commitment(new Uint8Array(row!.salt), value);
    };
    const agent = await pseudonym('agent', 'crm-bot');
    assert.ok(leaves.some((l) => l.kind === 'scope_change' && l.agent === agent));
    const oos = await pseudonym('rogue_event_type', 'oos_tool');
    assert.ok(
      leaves.some(
        (l) =>
          l.kind === 'rogue' && l.type === oos && l.agent === agent && l.invocation_id === out.json().invocation_id,
      ),
    );
    assert.equal(JSON.stringify(leaves).includes('payments.refund'), false);
    // Unscoped agents may call anything.
    const free = await t.request({
      method: 'POST',
      url: INVOKE,
      token: a.token,
      payload: { agent_key: 'other-bot', tool_name: 'payments.refund' },
    });
    assert.equal(free.json().verdict, 'allow');
  });
});
