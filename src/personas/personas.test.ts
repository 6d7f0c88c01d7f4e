import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitment, encodeLeaf } from '../ledger/leaf.ts';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { addMember, auditLeaves, setSubscription } from '../testing/workspace.ts';

const SUPPORT = {
  name: 'Support bot <alice@example.com>',
  description: 'Answers customer tickets about orders.',
  allowed_tools: ['kb.search', 'tickets.*'],
  allowed_pii_types: ['EMAIL_ADDRESS'],
  overrides: [{ id: 'no-shell', when: { tools: ['shell*'] }, verdict: 'deny' }],
  rubric: 'Never reveals card numbers.',
};

eachStore('personas', (get) => {
  test('admins create, read, replace and delete personas; every change is a persona_change leaf holding no free-form value', async () => {
    const t = get();
    const a = await t.signIn('admin@persona-crud.io');
    const created = await t.request({ method: 'POST', url: '/api/v1/personas', token: a.token, payload: SUPPORT });
    assert.equal(created.statusCode, 201, created.body);
    const p = created.json();
    assert.equal(p.version, 1);
    assert.deepEqual(
      {
        name: p.name,
        description: p.description,
        allowed_tools: p.allowed_tools,
        allowed_pii_types: p.allowed_pii_types,
        overrides: p.overrides,
        rubric: p.rubric,
      },
      SUPPORT,
    );

    const list = await t.request({ method: 'GET', url: '/api/v1/personas', token: a.token });
    assert.deepEqual(list.json(), { personas: [p] });
    assert.deepEqual(
      (await t.request({ method: 'GET', url: `/api/v1/personas/${p.persona_id}`, token: a.token })).json(),
      p,
    );

    const minimal = { name: 'Minimal' };
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/personas/${p.persona_id}`,
      token: a.token,
      payload: minimal,
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().version, 2);
    assert.equal(put.json().allowed_tools, null);
    assert.equal(put.json().rubric, '');

    const leaves = (await auditLeaves(t, a.token)).filter((l) => l.kind === 'persona_change');
    assert.deepEqual(
      leaves.map((l) => [l.action, l.persona_id, l.version, l.v]),
      [
        ['created', p.persona_id, 1, 2],
        ['updated', p.persona_id, 2, 2],
      ],
    );
    // The leaf opens with the row's salt, and names nothing an admin typed.
    const [row] = await t.testDb.db.query<{ meta_salt: Uint8Array }>(
      'SELECT meta_salt FROM personas WHERE tenant_id = $1 AND persona_id = $2',
      [a.account.tenant_id, p.persona_id],
    );
    const stored = {
      name: 'Minimal',
      description: '',
      allowed_tools: null,
      allowed_pii_types: null,
      overrides: [],
      rubric: '',
      version: 2,
    };
    assert.equal(leaves[1]!.meta, commitment(new Uint8Array(row!.meta_salt), encodeLeaf(stored)));
    const logText = JSON.stringify(await auditLeaves(t, a.token));
    for (const secret of ['alice@example.com', 'Support bot', 'kb.search', 'card numbers', 'no-shell'])
      assert.ok(!logText.includes(secret), secret);

    const del = await t.request({ method: 'DELETE', url: `/api/v1/personas/${p.persona_id}`, token: a.token });
    assert.equal(del.statusCode, 204);
    assert.equal(
      (await t.request({ method: 'GET', url: `/api/v1/personas/${p.persona_id}`, token: a.token })).statusCode,
      404,
    );
    assert.equal(
      (await t.request({ method: 'DELETE', url: `/api/v1/personas/${p.persona_id}`, token: a.token })).statusCode,
      404,
    );
    const last = (await auditLeaves(t, a.token)).filter((l) => l.kind === 'persona_change').at(-1)!;
    assert.deepEqual([last.action, last.version], ['deleted', 2]);
  });

  test('admins write, every role reads; another workspace sees none of them', async () => {
    const t = get();
    const a = await t.signIn('admin@persona-roles.io');
    const p = (await t.request({ method: 'POST', url: '/api/v1/personas', token: a.token, payload: SUPPORT })).json();
    for (const role of ['operator', 'viewer', 'auditor'] as const) {
      const m = await addMember(t, a, `${role}@persona-roles.io`, role);
      assert.equal(
        (await t.request({ method: 'GET', url: '/api/v1/personas', token: m.token })).json().personas.length,
        1,
        role,
      );
      assert.equal(
        (await t.request({ method: 'GET', url: `/api/v1/personas/${p.persona_id}`, token: m.token })).statusCode,
        200,
        role,
      );
      assert.equal(
        (await t.request({ method: 'POST', url: '/api/v1/personas', token: m.token, payload: SUPPORT })).statusCode,
        403,
        role,
      );
      assert.equal(
        (await t.request({ method: 'PUT', url: `/api/v1/personas/${p.persona_id}`, token: m.token, payload: SUPPORT }))
          .statusCode,
        403,
        role,
      );
      assert.equal(
        (await t.request({ method: 'DELETE', url: `/api/v1/personas/${p.persona_id}`, token: m.token })).statusCode,
        403,
        role,
      );
      const assign = await t.request({
        method: 'PUT',
        url: '/api/v1/agents/bot/persona',
        token: m.token,
        payload: { persona_id: p.persona_id },
      });
      assert.equal(assign.statusCode, 403, role);
    }
    const other = await t.signIn('admin@persona-elsewhere.io');
    assert.deepEqual((await t.request({ method: 'GET', url: '/api/v1/personas', token: other.token })).json(), {
      personas: [],
    });
    assert.equal(
      (await t.request({ method: 'GET', url: `/api/v1/personas/${p.persona_id}`, token: other.token })).statusCode,
      404,
    );
    assert.equal(
      (
        await t.request({
          method: 'PUT',
          url: `/api/v1/personas/${p.persona_id}`,
          token: other.token,
          payload: SUPPORT,
        })
      ).statusCode,
      404,
    );
    assert.equal(
      (await t.request({ method: 'DELETE', url: `/api/v1/personas/${p.persona_id}`, token: other.token })).statusCode,
      404,
    );
    const steal = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/bot/persona',
      token: other.token,
      payload: { persona_id: p.persona_id },
    });
    assert.equal(steal.statusCode, 404);
    assert.equal(
      (await t.request({ method: 'GET', url: `/api/v1/personas/${p.persona_id}`, token: a.token })).json().version,
      1,
    );
  });

  test("402 plan_limit at the plan's personas_cap; personas_used in /me is the number that exist", async () => {
    const t = get();
    const a = await t.signIn('admin@persona-cap.io');
    await setSubscription(t, OPERATOR_TOKEN, a.account.tenant_id, { plan_tier: 'free', subscription_status: 'active' });
    const me = async () =>
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: a.token })).json().quotas;
    assert.deepEqual([(await me()).personas_used, (await me()).personas_cap], [0, 1]);
    const first = await t.request({
      method: 'POST',
      url: '/api/v1/personas',
      token: a.token,
      payload: { name: 'one' },
    });
    assert.equal(first.statusCode, 201);
    assert.equal((await me()).personas_used, 1);
    const second = await t.request({
      method: 'POST',
      url: '/api/v1/personas',
      token: a.token,
      payload: { name: 'two' },
    });
    assert.equal(second.statusCode, 402, second.body);
    assert.equal(second.json().code, 'plan_limit');
    assert.equal((await me()).personas_used, 1);
    assert.equal((await auditLeaves(t, a.token)).filter((l) => l.kind === 'persona_change').length, 1);

    // Two at once at the last slot of the team plan: exactly one wins.
    await setSubscription(t, OPERATOR_TOKEN, a.account.tenant_id, { plan_tier: 'team' });
    for (let i = 2; i <= 9; i++) {
      assert.equal(
        (await t.request({ method: 'POST', url: '/api/v1/personas', token: a.token, payload: { name: `p${i}` } }))
          .statusCode,
        201,
      );
    }
    const race = await Promise.all(
      [1, 2].map((i) =>
        t.request({ method: 'POST', url: '/api/v1/personas', token: a.token, payload: { name: `race${i}` } }),
      ),
    );
    assert.deepEqual(race.map((r) => r.statusCode).sort(), [201, 402]);
    assert.equal((await me()).personas_used, 10);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/v1/personas/${first.json().persona_id}`,
      token: a.token,
    });
    assert.equal(del.statusCode, 204);
    assert.equal((await me()).personas_used, 9);
  });

  test('an agent gets a persona, loses it with null or when the persona is deleted; each assignment is a leaf naming the agent by pseudonym', async () => {
    const t = get();
    const a = await t.signIn('admin@persona-assign.io');
    const p = (await t.request({ method: 'POST', url: '/api/v1/personas', token: a.token, payload: SUPPORT })).json();
    const unknown = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/helpdesk/persona',
      token: a.token,
      payload: { persona_id: '00000000-0000-4000-8000-000000000000' },
    });
    assert.equal(unknown.statusCode, 404);
    const set = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/helpdesk/persona',
      token: a.token,
      payload: { persona_id: p.persona_id },
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().persona_id, p.persona_id);
    const rows = () =>
      t.testDb.db.query<{ agent_key: string; persona_id: string }>(
        'SELECT agent_key, persona_id FROM agent_personas WHERE tenant_id = $1',
        [a.account.tenant_id],
      );
    assert.deepEqual(await rows(), [{ agent_key: 'helpdesk', persona_id: p.persona_id }]);
    const cleared = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/helpdesk/persona',
      token: a.token,
      payload: { persona_id: null },
    });
    assert.equal(cleared.json().persona_id, null);
    assert.deepEqual(await rows(), []);
    await t.request({
      method: 'PUT',
      url: '/api/v1/agents/helpdesk/persona',
      token: a.token,
      payload: { persona_id: p.persona_id },
    });
    await t.request({ method: 'DELETE', url: `/api/v1/personas/${p.persona_id}`, token: a.token });
    assert.deepEqual(await rows(), []);

    const leaves = (await auditLeaves(t, a.token)).filter((l) => l.kind === 'persona_assignment');
    assert.deepEqual(
      leaves.map((l) => [l.persona_id, l.previous_persona_id]),
      [
        [p.persona_id, null],
        [null, p.persona_id],
        [p.persona_id, null],
      ],
    );
    assert.ok(leaves.every((l) => typeof l.agent === 'string' && (l.agent as string).startsWith('sha256:')));
    assert.ok(!JSON.stringify(leaves).includes('helpdesk'));
  });

  test('bounds: name 1-64, description 4,000, rubric 8,000, override rules in the policy vocabulary with unique ids', async () => {
    const t = get();
    const a = await t.signIn('admin@persona-bounds.io');
    const cases: Array<[object, string]> = [
      [{ name: '' }, '/name'],
      [{ name: 'x'.repeat(65) }, '/name'],
      [{ name: 'n', description: 'd'.repeat(4001) }, '/description'],
      [{ name: 'n', rubric: 'r'.repeat(8001) }, '/rubric'],
      [{ name: 'n', allowed_pii_types: ['email'] }, '/allowed_pii_types'],
      [{ name: 'n', overrides: [{ id: 'a', when: { colour: 'red' }, verdict: 'deny' }] }, '/overrides/0/when'],
      [
        {
          name: 'n',
          overrides: [
            { id: 'a', when: {}, verdict: 'deny' },
            { id: 'a', when: {}, verdict: 'allow' },
          ],
        },
        '/overrides/1/id',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await t.request({ method: 'POST', url: '/api/v1/personas', token: a.token, payload });
      assert.ok([400, 422].includes(res.statusCode), `${JSON.stringify(payload).slice(0, 80)} → ${res.statusCode}`);
      assert.ok(JSON.stringify(res.json()).includes(field), `${field}: ${res.body.slice(0, 300)}`);
    }
    const max = await t.request({
      method: 'POST',
      url: '/api/v1/personas',
      token: a.token,
      payload: { name: 'x'.repeat(64), description: 'd'.repeat(4000), rubric: 'r'.repeat(8000) },
    });
    assert.equal(max.statusCode, 201, max.body.slice(0, 300));
  });

  test("allowed_pii_types takes the detectors' PII types: any other is a 422 naming it, on create and on replace", async () => {
    const t = get();
    const a = await t.signIn('admin@persona-pii-types.io');
    // EMAIL is what the detectors call EMAIL_ADDRESS; a secret type is no PII type.
    for (const [types, unknown, at] of [
      [['EMAIL'], 'EMAIL', 0],
      [['CREDIT_CARD', 'GITHUB_TOKEN'], 'GITHUB_TOKEN', 1],
    ] as const) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/personas',
        token: a.token,
        payload: { name: 'n', allowed_pii_types: types },
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'unprocessable');
      assert.match(res.json().detail, new RegExp(`Unknown PII type ${unknown}\\b`));
      assert.deepEqual(res.json().errors, [
        { field: `/allowed_pii_types/${at}`, message: `${unknown} is not a PII type the detectors emit` },
      ]);
    }
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/personas', token: a.token })).json().personas.length,
      0,
      'nothing stored',
    );

    const ok = await t.request({
      method: 'POST',
      url: '/api/v1/personas',
      token: a.token,
      payload: { name: 'n', allowed_pii_types: ['EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'US_SSN'] },
    });
    assert.equal(ok.statusCode, 201, ok.body);
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/personas/${ok.json().persona_id}`,
      token: a.token,
      payload: { name: 'n', allowed_pii_types: ['EMAIL_ADDRESS', 'PHONE'] },
    });
    assert.equal(put.statusCode, 422, put.body);
    assert.deepEqual(put.json().errors, [
      { field: '/allowed_pii_types/1', message: 'PHONE is not a PII type the detectors emit' },
    ]);
    assert.equal(
      (await t.request({ method: 'GET', url: `/api/v1/personas/${ok.json().persona_id}`, token: a.token })).json()
        .version,
      1,
    );

    // Override rules take the policy's finding types: one no detector emits is refused the same way.
    const override = { id: 'deny-mail', when: { finding_types: ['EMAIL'] }, verdict: 'deny' };
    const bad = await t.request({
      method: 'POST',
      url: '/api/v1/personas',
      token: a.token,
      payload: { name: 'o', overrides: [override] },
    });
    assert.equal(bad.statusCode, 422, bad.body);
    assert.deepEqual(bad.json().errors, [
      { field: '/overrides/0/when/finding_types/0', message: 'EMAIL is not a finding type the detectors emit' },
    ]);
    const good = await t.request({
      method: 'POST',
      url: '/api/v1/personas',
      token: a.token,
      payload: { name: 'o', overrides: [{ ...override, when: { finding_types: ['EMAIL_ADDRESS'] } }] },
    });
    assert.equal(good.statusCode, 201, good.body);
  });
});
