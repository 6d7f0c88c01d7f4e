import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { freePort } from '../testing/server-process.ts';
import {
  decideApproval,
  holdSends,
  type Inv,
  invocations,
  pendingApproval,
  textOf,
  until,
} from './testing/gate-kit.ts';

// The gate as an MCP client runs it: the SDK's Client starts
// `agent-ledger mcp-proxy … -- node fixture-server.ts` over stdio; the proxy
// asks the listening service about each tools/call, and the fixture server (a
// real SDK server) writes down every call it gets.

const BIN = fileURLToPath(new URL('../../bin/agent-ledger.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./testing/fixture-server.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

interface Proxy {
  client: Client;
  /** The calls the wrapped server received. */
  calls(): Array<{ name: string; arguments: unknown }>;
  stderr(): string;
  close(): Promise<void>;
}

async function startProxy(url: string, token: string, agentKey: string, flags: string[] = []): Promise<Proxy> {
  const callsFile = join(dir, `calls-${++runs}.jsonl`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      BIN,
      'mcp-proxy',
      '--url',
      url,
      '--token',
      token,
      '--agent-key',
      agentKey,
      ...flags,
      '--',
      process.execPath,
      FIXTURE,
    ],
    env: { PATH: process.env.PATH ?? '', MCP_FIXTURE_CALLS: callsFile },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'gate-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    calls: () =>
      existsSync(callsFile)
        ? readFileSync(callsFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { name: string; arguments: unknown })
        : [],
    stderr: () => stderr,
    close: () => client.close(),
  };
}

type Detail = Inv & { mode: string; outcome: string; content: Array<{ field: string; text: string | null }> };
async function invocation(t: TestService, token: string, id: number): Promise<Detail> {
  const res = await t.request({ method: 'GET', url: `/api/v1/invocations/${id}`, token });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as Detail;
}
const fieldText = (d: Detail, field: string) => d.content.find((c) => c.field === field)?.text ?? null;

eachStore('MCP gate (agent-ledger mcp-proxy) over stdio', (get) => {
  let alice: SignedIn;
  let url: string;
  let proxy: Proxy | undefined;

  test('setup: a listening service, a scope for the agent, the proxy started by an MCP client', async () => {
    const t = get();
    alice = await t.signIn('alice@mcp-gate.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const scope = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/desk-agent/scope',
      token: alice.token,
      payload: { allowed_tools: ['echo', 'send_*'] },
    });
    assert.equal(scope.statusCode, 200, scope.body);
    proxy = await startProxy(url, alice.token, 'desk-agent');
  });

  test('tools/list offers only the tools in the agent scope', async () => {
    const { tools } = await proxy!.client.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), ['echo', 'send_email']);
  });

  test('an allowed call runs, is recorded in enforced mode before it ran, and its result is attached to that invocation as its tool_output', async () => {
    const t = get();
    const r = await proxy!.client.callTool({ name: 'echo', arguments: { text: 'quarterly numbers' } });
    assert.equal(r.isError, undefined);
    assert.equal(textOf(r), 'echo: quarterly numbers');
    assert.deepEqual(proxy!.calls(), [{ name: 'echo', arguments: { text: 'quarterly numbers' } }]);

    const gated = (await invocations(t, alice.token, 'desk-agent')).find((i) => i.mode === 'enforced')!;
    assert.equal(gated.tool_name, 'echo');
    assert.equal(gated.verdict, 'allow');
    const detail = await invocation(t, alice.token, gated.invocation_id);
    assert.equal(fieldText(detail, 'tool_input'), JSON.stringify({ text: 'quarterly numbers' }));

    // The result is attached in the background as the gated invocation's own tool_output, then the output scan unseals it.
    const output = await until(`the attached tool result`, async () => {
      const d = await invocation(t, alice.token, gated.invocation_id);
      return fieldText(d, 'tool_output') ? d : undefined;
    });
    assert.equal(fieldText(output, 'tool_output'), 'echo: quarterly numbers');
    assert.equal((output as unknown as { output_scan: { status: string } }).output_scan.status, 'done');
    // One invocation for the call: no child record, and the day's usage counts one.
    const all = await invocations(t, alice.token, 'desk-agent');
    assert.deepEqual(
      all.map((i) => [i.invocation_id, i.mode]),
      [[gated.invocation_id, 'enforced']],
    );
    const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: alice.token });
    assert.equal(me.json().quotas.invocations_used_today, 1);
  });

  test('a call outside the scope is denied with its reasons, recorded as a rogue event, and the server never sees it', async () => {
    const t = get();
    const r = await proxy!.client.callTool({ name: 'delete_file', arguments: { path: '/etc/passwd' } });
    assert.equal(r.isError, true);
    assert.match(
      textOf(r),
      /agent-ledger denied delete_file for agent desk-agent: tool_out_of_scope \(invocation \d+, evidence \d+\)/,
    );
    assert.deepEqual(
      proxy!.calls().map((c) => c.name),
      ['echo'],
    );
    const denied = (await invocations(t, alice.token, 'desk-agent')).find((i) => i.tool_name === 'delete_file')!;
    assert.equal(denied.verdict, 'deny');
    assert.equal(denied.mode, 'enforced');
    const rogue = await t.request({
      method: 'GET',
      url: '/api/v1/rogue-events?agent_key=desk-agent',
      token: alice.token,
    });
    const events = (rogue.json() as { items: Array<{ event_type: string; tool: string }> }).items;
    assert.deepEqual(
      events.map((e) => [e.event_type, e.tool]),
      [['oos_tool', 'delete_file']],
    );
    // No result is recorded for a call that never ran.
    assert.equal(
      (await invocations(t, alice.token, 'desk-agent')).filter((i) => i.parent_invocation_id === denied.invocation_id)
        .length,
      0,
    );
  });

  test('a held call waits for a person: approved it runs, denied it is refused and the server never sees it', async () => {
    const t = get();
    await holdSends(t, alice.token, 600);
    const decide = async (decision: 'approve' | 'deny') => {
      const pending = await pendingApproval(t, alice.token);
      await decideApproval(t, alice.token, pending.approval_id, decision, `${decision} by the test`);
    };
    const before = proxy!.calls().length;
    const approved = proxy!.client.callTool({ name: 'send_email', arguments: { text: 'to the board' } });
    await decide('approve');
    assert.equal(textOf(await approved), 'sent');
    assert.equal(proxy!.calls().length, before + 1);

    const denied = proxy!.client.callTool({ name: 'send_email', arguments: { text: 'to everyone' } });
    await decide('deny');
    const r = await denied;
    assert.equal(r.isError, true);
    assert.match(textOf(r), /held send_email .* was denied/);
    assert.equal(proxy!.calls().length, before + 1);
    await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: alice.token,
      payload: { default_verdict: 'allow', rules: [] },
    });
  });

  test('a held call nobody decides expires: the client gets isError naming the expiry, the server never sees it', async () => {
    const t = get();
    await holdSends(t, alice.token, 1);
    const before = proxy!.calls().length;
    const call = proxy!.client.callTool({ name: 'send_email', arguments: { text: 'too late' } });
    const pending = await pendingApproval(t, alice.token);
    // The service's clock passes expires_at: the proxy's next poll finds it expired.
    t.clock.advance(2_000);
    const r = await call;
    assert.equal(r.isError, true);
    assert.match(
      textOf(r),
      new RegExp(
        `held send_email for agent desk-agent for approval ${pending.approval_id}, which was not approved before \\S+ \\(expired\\) \\(invocation ${pending.invocation_id}\\)`,
      ),
    );
    assert.equal(proxy!.calls().length, before, 'the server never saw it');
    const approval = await t.request({
      method: 'GET',
      url: `/api/v1/approvals/${pending.approval_id}`,
      token: alice.token,
    });
    assert.equal(approval.json().status, 'expired');
    assert.equal(
      (await invocations(t, alice.token, 'desk-agent')).filter((i) => i.parent_invocation_id === pending.invocation_id)
        .length,
      0,
      'no result recorded for a call that never ran',
    );
    await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: alice.token,
      payload: { default_verdict: 'allow', rules: [] },
    });
  });

  test('another workspace: its own scope (none), its own records; neither sees the other', async () => {
    const t = get();
    const bob = await t.signIn('bob@other-gate.example');
    const theirs = await startProxy(url, bob.token, 'desk-agent');
    try {
      const { tools } = await theirs.client.listTools();
      assert.equal(tools.length, 3, 'no scope in this workspace: every tool is offered');
      const r = await theirs.client.callTool({ name: 'delete_file', arguments: { path: '/tmp/x' } });
      assert.equal(r.isError, undefined);
      assert.equal(theirs.calls().length, 1);
    } finally {
      await theirs.close();
    }
    const bobs = await invocations(t, bob.token, 'desk-agent');
    assert.ok(bobs.every((i) => i.tool_name === 'delete_file'));
    const alices = await invocations(t, alice.token, 'desk-agent');
    assert.ok(
      !alices.some((i) =>
        bobs.some((b) => b.invocation_id === i.invocation_id && i.verdict === 'allow' && i.tool_name === 'delete_file'),
      ),
    );
    assert.equal(alices.filter((i) => i.tool_name === 'delete_file').length, 1, 'only alice’s denied call');
  });

  test('the service unreachable: calls are refused (fail closed) and tools/list offers nothing; --on-unreachable allow lets them run', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const closed = await startProxy(dead, alice.token, 'desk-agent');
    try {
      assert.deepEqual((await closed.client.listTools()).tools, []);
      const r = await closed.client.callTool({ name: 'echo', arguments: { text: 'x' } });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /could not be reached.*refused \(fail closed\)/);
      assert.deepEqual(closed.calls(), []);
    } finally {
      await closed.close();
    }
    const open = await startProxy(dead, alice.token, 'desk-agent', ['--on-unreachable', 'allow']);
    try {
      const r = await open.client.callTool({ name: 'echo', arguments: { text: 'y' } });
      assert.equal(textOf(r), 'echo: y');
      assert.equal(open.calls().length, 1);
      assert.match(open.stderr(), /runs unrecorded/);
    } finally {
      await open.close();
    }
  });

  test('observed mode: the call runs at once and is recorded afterwards with its input and result', async () => {
    const t = get();
    const watched = await startProxy(url, alice.token, 'watcher', ['--mode', 'observed']);
    try {
      const r = await watched.client.callTool({ name: 'send_email', arguments: { text: 'hello' } });
      assert.equal(textOf(r), 'sent');
    } finally {
      await watched.close(); // closing sends what is queued
    }
    const [inv] = await until('the observed record', async () => {
      const items = await invocations(t, alice.token, 'watcher');
      return items.length > 0 ? items : undefined;
    });
    assert.equal(inv!.mode, 'observed');
    assert.equal(inv!.tool_name, 'send_email');
    assert.equal(inv!.parent_invocation_id, null);
  });

  // A failed test must not leave the proxy (and its server) holding the runner open.
  after(() => proxy?.close());
});
