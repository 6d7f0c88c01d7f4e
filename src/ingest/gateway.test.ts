import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';

// POST /api/v1/gateway/decision as the MCP gateways call it: Docker MCP
// Gateway's interceptors (before: the MCP request, an empty answer lets the
// call go on, a CallToolResult replaces it; after: the result) and
// ContextForge's tool_pre_invoke / tool_post_invoke hooks (a PluginResult).

const URL_OF = (agent: string, wait?: number) =>
  `/api/v1/gateway/decision?agent_key=${agent}${wait === undefined ? '' : `&wait=${wait}`}`;

type Inv = Record<string, unknown> & { invocation_id: number };
async function invocations(t: TestService, token: string, agent: string): Promise<Inv[]> {
  const res = await t.request({ method: 'GET', url: `/api/v1/invocations?agent_key=${agent}&limit=100`, token });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { items: Inv[] }).items;
}
async function contentOf(t: TestService, token: string, id: number): Promise<Record<string, string | null>> {
  const res = await t.request({ method: 'GET', url: `/api/v1/invocations/${id}`, token });
  assert.equal(res.statusCode, 200, res.body);
  const out: Record<string, string | null> = {};
  for (const c of (res.json() as { content: Array<{ field: string; text: string | null }> }).content)
    out[c.field] = c.text;
  return out;
}

const dockerBefore = (name: string, args: unknown) => ({ method: 'tools/call', params: { name, arguments: args } });
const cfHook = (hook_type: string, payload: unknown, requestId: string) => ({
  hook_type,
  payload,
  context: {
    global_context: { request_id: requestId, user: 'jane.roe', tenant_id: 'team-a', server_id: 'srv-files' },
    state: {},
    metadata: {},
  },
});

eachStore('MCP gateway hooks (POST /api/v1/gateway/decision)', (get) => {
  let alice: SignedIn;

  test('setup: a scope for the agent', async () => {
    const t = get();
    alice = await t.signIn('alice@gateway-hooks.example');
    const scope = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/gw-agent/scope',
      token: alice.token,
      payload: { allowed_tools: ['read_file', 'send_*'] },
    });
    assert.equal(scope.statusCode, 200, scope.body);
  });

  test('Docker before-interceptor, allowed: 204 with no body (the call goes on), recorded in enforced mode', async () => {
    const t = get();
    const res = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: dockerBefore('read_file', { path: '/srv/report.txt' }),
    });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(res.body, '');
    assert.equal(res.headers['x-agent-ledger-verdict'], 'allow');
    const [inv] = await invocations(t, alice.token, 'gw-agent');
    assert.equal(inv!.invocation_id, Number(res.headers['x-agent-ledger-invocation-id']));
    assert.equal(inv!.mode, 'enforced');
    assert.equal(inv!.tool_name, 'read_file');
    assert.equal(inv!.verdict, 'allow');
    const content = await contentOf(t, alice.token, inv!.invocation_id);
    assert.equal(content.tool_input, JSON.stringify({ path: '/srv/report.txt' }));
    assert.deepEqual(JSON.parse(content.context!), { source: 'gateway', gateway: 'docker', hook: 'before' });
  });

  test('Docker before-interceptor, out of scope: a CallToolResult with isError naming the reasons; a rogue event', async () => {
    const t = get();
    const res = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: dockerBefore('delete_file', { path: '/srv' }),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['x-agent-ledger-verdict'], 'deny');
    const body = res.json() as { content: Array<{ type: string; text: string }>; isError: boolean };
    assert.equal(body.isError, true);
    assert.equal(body.content.length, 1);
    assert.match(
      body.content[0]!.text,
      /^agent-ledger denied delete_file for agent gw-agent: tool_out_of_scope \(invocation \d+, evidence \d+\)\.$/,
    );
    const rogue = await t.request({
      method: 'GET',
      url: '/api/v1/rogue-events?agent_key=gw-agent',
      token: alice.token,
    });
    assert.deepEqual(
      (rogue.json() as { items: Array<{ event_type: string; tool: string }> }).items.map((e) => [e.event_type, e.tool]),
      [['oos_tool', 'delete_file']],
    );
  });

  test('Docker after-interceptor: the result recorded as an observed invocation (outcome from isError); 204', async () => {
    const t = get();
    const res = await t.request({
      method: 'POST',
      url: URL_OF('gw-after'),
      token: alice.token,
      payload: { content: [{ type: 'text', text: 'no such file' }], isError: true },
    });
    assert.equal(res.statusCode, 204, res.body);
    const [inv] = await invocations(t, alice.token, 'gw-after');
    assert.equal(inv!.mode, 'observed');
    assert.equal(inv!.outcome, 'error');
    assert.equal(inv!.tool_name, null, 'the after-interceptor is not told which tool answered');
  });

  test('ContextForge tool_pre_invoke: allowed → continue_processing; the user is the principal, the request id the correlation', async () => {
    const t = get();
    const res = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: cfHook('tool_pre_invoke', { name: 'send_email', args: { to: 'board' } }, 'req-cf-0001'),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { continue_processing: true });
    const inv = (await invocations(t, alice.token, 'gw-agent')).find((i) => i.tool_name === 'send_email')!;
    assert.equal(inv.mode, 'enforced');
    assert.equal(inv.principal_id, 'jane.roe');
    assert.equal(inv.correlation_id, 'req-cf-0001');
    const content = await contentOf(t, alice.token, inv.invocation_id);
    assert.deepEqual(JSON.parse(content.context!), {
      source: 'gateway',
      gateway: 'contextforge',
      hook: 'before',
      server_id: 'srv-files',
    });
    // The gateway retrying the same hook records it once.
    const again = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: cfHook('tool_pre_invoke', { name: 'send_email', args: { to: 'board' } }, 'req-cf-0001'),
    });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal((await invocations(t, alice.token, 'gw-agent')).filter((i) => i.tool_name === 'send_email').length, 1);
  });

  test('ContextForge tool_pre_invoke: denied → continue_processing false with a violation; post records the result', async () => {
    const t = get();
    const res = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: cfHook('tool_pre_invoke', { name: 'drop_table', args: { table: 'users' } }, 'req-cf-0002'),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as {
      continue_processing: boolean;
      violation: { reason: string; description: string; code: string; details: Record<string, unknown> };
    };
    assert.equal(body.continue_processing, false);
    assert.equal(body.violation.code, 'AGENT_LEDGER_DENIED');
    assert.match(body.violation.description, /agent-ledger denied drop_table for agent gw-agent: tool_out_of_scope/);
    assert.deepEqual(body.violation.details.reasons, ['tool_out_of_scope']);
    const denied = (await invocations(t, alice.token, 'gw-agent')).find((i) => i.tool_name === 'drop_table')!;
    assert.equal(body.violation.details.invocation_id, denied.invocation_id);
    assert.equal(denied.verdict, 'deny');

    const post = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: cfHook(
        'tool_post_invoke',
        { name: 'send_email', result: { content: [{ type: 'text', text: 'queued' }], is_error: false } },
        'req-cf-0001',
      ),
    });
    assert.equal(post.statusCode, 200, post.body);
    assert.deepEqual(post.json(), { continue_processing: true });
    // The result is the pre-hook's invocation's own tool_output (found by its request_id): no second invocation.
    const calls = (await invocations(t, alice.token, 'gw-agent')).filter((i) => i.tool_name === 'send_email');
    assert.deepEqual(
      calls.map((i) => [i.mode, i.correlation_id]),
      [['enforced', 'req-cf-0001']],
    );
    let output: string | null = null;
    for (let i = 0; i < 100 && output === null; i++) {
      await t.service.jobs.drain();
      output = (await contentOf(t, alice.token, calls[0]!.invocation_id)).tool_output ?? null;
    }
    assert.equal(output, 'queued');
    // The gateway retrying the post-hook: answered alike, nothing recorded twice.
    const retried = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: cfHook(
        'tool_post_invoke',
        { name: 'send_email', result: { content: [{ type: 'text', text: 'queued' }], is_error: false } },
        'req-cf-0001',
      ),
    });
    assert.deepEqual(retried.json(), { continue_processing: true });
    assert.equal((await invocations(t, alice.token, 'gw-agent')).filter((i) => i.tool_name === 'send_email').length, 1);

    // A post-hook whose pre-hook was never recorded: the result as an observed invocation of its own.
    const orphan = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: cfHook(
        'tool_post_invoke',
        { name: 'list_files', result: { content: [{ type: 'text', text: 'a.txt' }], is_error: false } },
        'req-cf-unknown',
      ),
    });
    assert.equal(orphan.statusCode, 200, orphan.body);
    const results = (await invocations(t, alice.token, 'gw-agent')).filter(
      (i) => i.tool_name === 'list_files' && i.mode === 'observed',
    );
    assert.equal(results.length, 1);
    assert.equal(results[0]!.correlation_id, 'req-cf-unknown', 'reads as one trace with its request');
    assert.equal(results[0]!.outcome, 'success');
  });

  test('a held call waits for its decision: approved → the call goes on; undecided within wait → refused naming the approval', async () => {
    const t = get();
    const policy = await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: alice.token,
      payload: {
        default_verdict: 'allow',
        rules: [{ id: 'hold-mail', when: { tools: ['send_*'] }, verdict: 'allow', hold: true, hold_seconds: 600 }],
      },
    });
    assert.equal(policy.statusCode, 200, policy.body);
    const pending = async () => {
      for (let i = 0; i < 100; i++) {
        const res = await t.request({ method: 'GET', url: '/api/v1/approvals?status=pending', token: alice.token });
        const [first] = (res.json() as { items: Array<{ approval_id: string }> }).items;
        if (first) return first;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no pending approval');
    };
    const held = t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: dockerBefore('send_sms', { to: '+1' }),
    });
    const approval = await pending();
    const decided = await t.request({
      method: 'POST',
      url: `/api/v1/approvals/${approval.approval_id}/decision`,
      token: alice.token,
      payload: { decision: 'approve', note: 'ok' },
    });
    assert.equal(decided.statusCode, 200, decided.body);
    const res = await held;
    assert.equal(res.statusCode, 204, res.body);

    const started = Date.now();
    const late = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent', 1),
      token: alice.token,
      payload: cfHook('tool_pre_invoke', { name: 'send_email', args: { to: 'all' } }, 'req-cf-0003'),
    });
    assert.ok(Date.now() - started >= 900, 'it waited its second');
    const body = late.json() as {
      continue_processing: boolean;
      violation: { code: string; description: string; details: Record<string, unknown> };
    };
    assert.equal(body.continue_processing, false);
    assert.equal(body.violation.code, 'AGENT_LEDGER_NOT_APPROVED');
    const second = await pending();
    assert.equal(body.violation.details.approval_id, second.approval_id);
    assert.match(
      body.violation.description,
      new RegExp(`approval ${second.approval_id}, which was not decided within 1 s`),
    );
    await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: alice.token,
      payload: { default_verdict: 'allow', rules: [] },
    });
  });

  test('other bodies are 422, no token 401; nothing is recorded', async () => {
    const t = get();
    const before = (await invocations(t, alice.token, 'gw-agent')).length;
    const odd = await t.request({
      method: 'POST',
      url: URL_OF('gw-agent'),
      token: alice.token,
      payload: { method: 'resources/read', params: { uri: 'file:///x' } },
    });
    assert.equal(odd.statusCode, 422, odd.body);
    const noAgent = await t.request({
      method: 'POST',
      url: '/api/v1/gateway/decision',
      token: alice.token,
      payload: dockerBefore('read_file', {}),
    });
    assert.equal(noAgent.statusCode, 422, noAgent.body);
    const anon = await t.request({ method: 'POST', url: URL_OF('gw-agent'), payload: dockerBefore('read_file', {}) });
    assert.equal(anon.statusCode, 401);
    assert.equal((await invocations(t, alice.token, 'gw-agent')).length, before);
  });
});
