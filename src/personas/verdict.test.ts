import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';
import { auditLeaves } from '../testing/workspace.ts';

const INVOKE = '/api/v1/admin/agents/events/invocation';
const CARD = '4111 1111 1111 1111';

eachStore('a persona in the verdict', (get) => {
  test('a tool outside the persona is a deny and an oos_tool rogue event; PII of another type flags; reasons name persona and version', async () => {
    const t = get();
    const a = await t.signIn('admin@persona-verdict.io');
    const tenant = a.account.tenant_id;
    const p = (
      await t.request({
        method: 'POST',
        url: '/api/v1/personas',
        token: a.token,
        payload: { name: 'Support', allowed_tools: ['kb.*', 'tickets.reply'], allowed_pii_types: ['EMAIL_ADDRESS'] },
      })
    ).json();
    const send = async (payload: Record<string, unknown>) => {
      const res = await t.request({
        method: 'POST',
        url: INVOKE,
        token: a.token,
        payload: { agent_key: 'helpdesk', ...payload },
      });
      assert.equal(res.statusCode, 201, res.body);
      const [row] = await t.testDb.db.query<{ verdict: string; reasons: string[] }>(
        'SELECT verdict, reasons FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
        [tenant, res.json().invocation_id],
      );
      return row!;
    };
    const rogues = async () =>
      (
        await t.testDb.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM rogue_events WHERE tenant_id = $1 AND agent_key = 'helpdesk'",
          [tenant],
        )
      )[0]!.n;

    // Before the agent has the persona, nothing limits it.
    assert.deepEqual(await send({ tool_name: 'shell.exec', prompt: `card ${CARD}` }), {
      verdict: 'allow',
      reasons: ['default'],
    });
    assert.equal(await rogues(), 0);

    const assign = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/helpdesk/persona',
      token: a.token,
      payload: { persona_id: p.persona_id },
    });
    assert.equal(assign.statusCode, 200);
    const v1 = `persona.${p.persona_id}.v1`;
    assert.deepEqual(await send({ tool_name: 'kb.search', prompt: 'mail me at jo.doe@example.com' }), {
      verdict: 'allow',
      reasons: ['default'],
    });
    assert.deepEqual(await send({ tool_name: 'shell.exec' }), {
      verdict: 'deny',
      reasons: ['tool_out_of_scope', `${v1}.tool_out_of_scope`],
    });
    assert.equal(await rogues(), 1);
    const [ev] = await t.testDb.db.query<{ event_type: string }>(
      "SELECT event_type FROM rogue_events WHERE tenant_id = $1 AND agent_key = 'helpdesk'",
      [tenant],
    );
    assert.equal(ev!.event_type, 'oos_tool');
    assert.deepEqual(await send({ tool_name: 'kb.search', prompt: `card ${CARD}` }), {
      verdict: 'flag_for_review',
      reasons: [`${v1}.pii_not_allowed`],
    });
    // The review queue sees it like any flagged invocation.
    const queue = await t.request({ method: 'GET', url: '/api/v1/reviews?status=pending', token: a.token });
    assert.ok(JSON.stringify(queue.json()).includes(`${v1}.pii_not_allowed`), queue.body.slice(0, 500));

    // A change (version 2) decides the very next event on this node: the card type is allowed, an override denies a tool.
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/personas/${p.persona_id}`,
      token: a.token,
      payload: {
        name: 'Support',
        allowed_tools: ['kb.*', 'tickets.reply'],
        allowed_pii_types: ['EMAIL_ADDRESS', 'CREDIT_CARD'],
        overrides: [{ id: 'no-kb-delete', when: { tools: ['kb.delete'] }, verdict: 'deny' }],
      },
    });
    assert.equal(put.json().version, 2);
    const v2 = `persona.${p.persona_id}.v2`;
    assert.deepEqual(await send({ tool_name: 'kb.search', prompt: `card ${CARD}` }), {
      verdict: 'allow',
      reasons: ['default'],
    });
    assert.deepEqual(await send({ tool_name: 'kb.delete' }), { verdict: 'deny', reasons: [`${v2}.no-kb-delete`] });
    // An override with a policy rule's id replaces that rule for the persona's agents only.
    const policy = {
      default_verdict: 'allow',
      rules: [{ id: 'tickets', when: { tools: ['tickets.*'] }, verdict: 'flag_for_review' }],
    };
    assert.equal(
      (await t.request({ method: 'PUT', url: '/api/v1/policy', token: a.token, payload: policy })).statusCode,
      200,
    );
    assert.deepEqual(await send({ tool_name: 'tickets.reply' }), { verdict: 'flag_for_review', reasons: ['tickets'] });
    await t.request({
      method: 'PUT',
      url: `/api/v1/personas/${p.persona_id}`,
      token: a.token,
      payload: {
        name: 'Support',
        allowed_tools: ['kb.*', 'tickets.reply'],
        overrides: [{ id: 'tickets', when: { tools: ['tickets.*'] }, verdict: 'allow' }],
      },
    });
    assert.deepEqual(await send({ tool_name: 'tickets.reply' }), {
      verdict: 'allow',
      reasons: [`persona.${p.persona_id}.v3.tickets`],
    });
    const other = await t.request({
      method: 'POST',
      url: INVOKE,
      token: a.token,
      payload: { agent_key: 'ops', tool_name: 'tickets.close' },
    });
    assert.equal(other.json().verdict, 'flag_for_review');

    // Reasons in the leaves name the persona by id and version only.
    const leaves = (await auditLeaves(t, a.token)).filter((l) => l.kind === 'invocation');
    assert.ok(leaves.some((l) => (l.reasons as string[]).includes(`${v1}.tool_out_of_scope`)));

    // Without the persona, the agent is back to the policy alone.
    await t.request({
      method: 'PUT',
      url: '/api/v1/agents/helpdesk/persona',
      token: a.token,
      payload: { persona_id: null },
    });
    assert.deepEqual(await send({ tool_name: 'shell.exec' }), { verdict: 'allow', reasons: ['default'] });
  });

  test("the persona's tools and the agent's own scope both hold: a tool must be in each", async () => {
    const t = get();
    const a = await t.signIn('admin@persona-scope.io');
    const p = (
      await t.request({
        method: 'POST',
        url: '/api/v1/personas',
        token: a.token,
        payload: { name: 'Reader', allowed_tools: ['kb.*', 'mail.send'] },
      })
    ).json();
    await t.request({
      method: 'PUT',
      url: '/api/v1/agents/bot/persona',
      token: a.token,
      payload: { persona_id: p.persona_id },
    });
    await t.request({
      method: 'PUT',
      url: '/api/v1/agents/bot/scope',
      token: a.token,
      payload: { allowed_tools: ['kb.*', 'web.fetch'] },
    });
    const verdict = async (tool: string) =>
      (
        await t.request({ method: 'POST', url: INVOKE, token: a.token, payload: { agent_key: 'bot', tool_name: tool } })
      ).json().verdict;
    assert.equal(await verdict('kb.search'), 'allow');
    assert.equal(await verdict('mail.send'), 'deny');
    assert.equal(await verdict('web.fetch'), 'deny');
  });
});
