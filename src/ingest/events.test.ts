import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FALLBACK_TOKEN, eachStore } from '../testing/harness.ts';

eachStore('event ingest', (get) => {
  test('an invocation is recorded with a verdict and evidence; its leaf commits to the content', async () => {
    const t = get();
    const a = await t.signIn('ops@ingest-co.io');
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/invocation',
      token: a.token,
      payload: {
        agent_key: 'billing-bot',
        prompt: 'hello',
        tool_name: 'search',
        tenant_id: '00000000-0000-0000-0000-000000000000',
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.equal(body.tenant_id, a.account.tenant_id);
    assert.equal(body.verdict, 'allow');
    assert.ok(Number.isInteger(body.invocation_id) && body.invocation_id > 0);
    assert.ok(Number.isInteger(body.evidence_id) && body.evidence_id > 0);
    assert.equal('pii_count' in body, false);
    const ev = (
      await t.request({ method: 'GET', url: `/api/v1/audit/evidence/${body.evidence_id}`, token: a.token })
    ).json();
    const leaf = JSON.parse(ev.leaf);
    assert.equal(leaf.kind, 'invocation');
    assert.equal(leaf.invocation_id, body.invocation_id);
    assert.match(leaf.content.prompt, /^sha256:/);
    assert.equal(ev.leaf.includes('hello'), false);
  });

  test('rogue events, and the fallback token needs an existing tenant_id', async () => {
    const t = get();
    const a = await t.signIn('sec@rogue-co.io');
    const url = '/api/v1/admin/agents/events/rogue';
    const noTool = await t.request({
      method: 'POST',
      url,
      token: a.token,
      payload: { event_type: 'oos_tool', agent_key: 'x' },
    });
    assert.equal(noTool.statusCode, 400);
    const ok = await t.request({
      method: 'POST',
      url,
      token: a.token,
      payload: { event_type: 'oos_tool', agent_key: 'x', tool: 'rm' },
    });
    assert.equal(ok.statusCode, 201);
    assert.deepEqual(ok.json(), { accepted: true, event_type: 'oos_tool', tenant_id: a.account.tenant_id });
    const fbNo = await t.request({
      method: 'POST',
      url,
      token: FALLBACK_TOKEN,
      payload: { event_type: 'x', agent_key: 'y' },
    });
    assert.equal(fbNo.statusCode, 403);
    const fbUnknown = await t.request({
      method: 'POST',
      url,
      token: FALLBACK_TOKEN,
      payload: { event_type: 'x', agent_key: 'y', tenant_id: '7d0c5a8e-1111-4111-8111-111111111111' },
    });
    assert.equal(fbUnknown.statusCode, 403);
    const fbOk = await t.request({
      method: 'POST',
      url,
      token: FALLBACK_TOKEN,
      payload: { event_type: 'x', agent_key: 'y', tenant_id: a.account.tenant_id },
    });
    assert.equal(fbOk.statusCode, 201);
  });
});
