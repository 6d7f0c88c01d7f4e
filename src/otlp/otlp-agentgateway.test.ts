import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn } from '../testing/harness.ts';
import { childSpan, type OtelClient, otelClient } from '../testing/otel.ts';

// An MCP gateway's tools/call spans as agentgateway exports them with its
// governance attributes (`agentgateway.governance.*`, its design EP-2141),
// sent by OpenTelemetry's own JS SDK and exporter at the listening service;
// read back through the API.

type Inv = { invocation_id: number; agent_key: string; tool_name: string | null; outcome: string; verdict: string };
type Detail = Inv & { content: Array<{ field: string; text: string | null }>; otel: Record<string, unknown> | null };

eachStore('OTLP: agentgateway governance span attributes', (get) => {
  let alice: SignedIn;
  let c: OtelClient;

  const list = async (traceId: string): Promise<Inv[]> => {
    const res = await get().request({
      method: 'GET',
      url: `/api/v1/invocations?correlation_id=${traceId}&limit=100`,
      token: alice.token,
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { items: Inv[] }).items;
  };
  const detail = async (id: number): Promise<Detail> => {
    const res = await get().request({ method: 'GET', url: `/api/v1/invocations/${id}`, token: alice.token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Detail;
  };
  const field = (d: Detail, f: string) => d.content.find((x) => x.field === f)?.text ?? null;

  test('setup: a listening service, the SDK exporting as agentgateway does (service.name agentgateway)', async () => {
    const t = get();
    alice = await t.signIn('alice@agentgateway.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    c = otelClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: alice.token,
      protocol: 'http/protobuf',
      resource: { 'service.name': 'agentgateway' },
    });
  });

  test('tools/call spans: tool from the target, agent from identity.subject, arguments, the decision in outcome and context', async () => {
    const root = childSpan(c.tracer, 'POST /mcp', { 'http.request.method': 'POST' });
    const allowed = childSpan(
      c.tracer,
      'tools/call',
      {
        'mcp.method.name': 'tools/call',
        'agentgateway.governance.decision.result': 'allow',
        'agentgateway.governance.decision.policy_id': 'mcp-rbac/tools-read',
        'agentgateway.governance.action.risk_class': 'read',
        'agentgateway.governance.action.target': 'mcp://everything/tools/get_sum',
        'agentgateway.governance.action.arguments_digest': 'sha256:8f14e45fceea167a5a36dedd4bea2543ad36b3c6',
        'agentgateway.governance.capability.selected': 'everything',
        'agentgateway.governance.output.bounded': false,
        'agentgateway.governance.audit.id': '01JXYZ9ABCDEFGHJKMNPQRSTVW',
        'agentgateway.governance.identity.subject': 'agent:desk-bot',
        'gen_ai.tool.call.arguments': '{"a":2,"b":3}',
      },
      root,
    );
    allowed.end();
    // No mcp.method: the governance target alone names the tool; a deny is the outcome.
    const denied = childSpan(
      c.tracer,
      'mcp call',
      {
        'agentgateway.governance.decision.result': 'deny',
        'agentgateway.governance.decision.policy_id': 'mcp-guardrails/write-envelope',
        'agentgateway.governance.action.risk_class': 'write',
        'agentgateway.governance.action.target': 'mcp://inventory/tools/update_asset',
        'agentgateway.governance.workflow.checkpoint_ref': 'approval:01JXYZ8ZYXWVUTSRQPNMLKJIHG',
        'agentgateway.governance.identity.subject': 'agent:desk-bot',
      },
      root,
    );
    denied.end();
    // tools/list is not a tool call: dropped like the HTTP span.
    const listing = childSpan(
      c.tracer,
      'tools/list',
      {
        'mcp.method.name': 'tools/list',
        'agentgateway.governance.decision.result': 'allow',
        'agentgateway.governance.action.target': 'mcp://everything/tools/list',
      },
      root,
    );
    listing.end();
    root.end();
    await c.flush();
    assert.deepEqual(
      c.results.map((r) => r.code),
      [0],
    );

    const items = await list(root.spanContext().traceId);
    assert.deepEqual(items.map((i) => i.tool_name).sort(), ['get_sum', 'update_asset']);
    assert.ok(
      items.every((i) => i.agent_key === 'agent:desk-bot'),
      'the agent is the authenticated caller',
    );

    const sum = await detail(items.find((i) => i.tool_name === 'get_sum')!.invocation_id);
    assert.equal(sum.outcome, 'success');
    assert.equal(field(sum, 'tool_input'), '{"a":2,"b":3}');
    const ctx = JSON.parse(field(sum, 'context')!) as { governance: Record<string, unknown> };
    assert.deepEqual(ctx.governance, {
      decision: 'allow',
      policy_id: 'mcp-rbac/tools-read',
      risk_class: 'read',
      target: 'mcp://everything/tools/get_sum',
      arguments_digest: 'sha256:8f14e45fceea167a5a36dedd4bea2543ad36b3c6',
      capability: 'everything',
      audit_id: '01JXYZ9ABCDEFGHJKMNPQRSTVW',
      subject: 'agent:desk-bot',
      output_bounded: false,
    });

    const upd = await detail(items.find((i) => i.tool_name === 'update_asset')!.invocation_id);
    assert.equal(upd.outcome, 'denied', 'the gateway blocked it');
    assert.equal(field(upd, 'tool_input'), null, 'agentgateway sends a digest, not the arguments');
    const updCtx = JSON.parse(field(upd, 'context')!) as { governance: Record<string, unknown> };
    assert.equal(updCtx.governance.decision, 'deny');
    assert.equal(updCtx.governance.checkpoint_ref, 'approval:01JXYZ8ZYXWVUTSRQPNMLKJIHG');
  });

  test("the agent's scope applies to a gateway's spans: a tool outside it is a deny and an oos_tool rogue event", async () => {
    const t = get();
    const scope = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/agent:scoped-bot/scope',
      token: alice.token,
      payload: { allowed_tools: ['get_sum'] },
    });
    assert.equal(scope.statusCode, 200, scope.body);
    const span = childSpan(c.tracer, 'tools/call', {
      'mcp.method.name': 'tools/call',
      'mcp.tool.name': 'delete_repo',
      'agentgateway.governance.decision.result': 'allow',
      'agentgateway.governance.identity.subject': 'agent:scoped-bot',
    });
    span.end();
    await c.flush();
    const [inv] = await list(span.spanContext().traceId);
    assert.equal(inv!.tool_name, 'delete_repo');
    assert.equal(inv!.verdict, 'deny');
    const rogue = await t.request({
      method: 'GET',
      url: '/api/v1/rogue-events?agent_key=agent:scoped-bot',
      token: alice.token,
    });
    assert.deepEqual(
      (rogue.json() as { items: Array<{ event_type: string; tool: string }> }).items.map((e) => [e.event_type, e.tool]),
      [['oos_tool', 'delete_repo']],
    );
  });

  test('teardown', async () => {
    await c.shutdown();
  });
});
