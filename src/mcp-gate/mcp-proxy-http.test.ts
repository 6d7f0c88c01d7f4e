import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { eachStore, type SignedIn } from '../testing/harness.ts';
import { freePort } from '../testing/server-process.ts';
import { fixtureServer } from './testing/fixture-tools.ts';
import { mcpProxyCommand } from './proxy-command.ts';
import { decideApproval, holdSends, invocations, pendingApproval, textOf, until } from './testing/gate-kit.ts';

// The gate in front of a Streamable HTTP MCP server, as it runs:
// `agent-ledger mcp-proxy … --listen 127.0.0.1:0 --upstream URL` in its own
// process; the SDK's Client talks Streamable HTTP to it, it to a real SDK
// Streamable HTTP server started here (which writes down every call it gets),
// and it asks the listening service about each tools/call.

const BIN = fileURLToPath(new URL('../../bin/agent-ledger.js', import.meta.url));

interface Upstream {
  url: string;
  calls: Array<{ name: string; arguments: unknown }>;
  /** MCP sessions the server holds now. */
  sessions: Map<string, StreamableHTTPServerTransport>;
  close(): Promise<void>;
}

/** A real Streamable HTTP MCP server (stateful, a session per client), the fixture's tools. */
async function startUpstream(): Promise<Upstream> {
  const calls: Upstream['calls'] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString()) as unknown) : undefined;
    const id = req.headers['mcp-session-id'] as string | undefined;
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id || !isInitializeRequest(body)) {
        res.writeHead(id ? 404 : 400).end();
        return;
      }
      const t = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, t),
        onsessionclosed: (sid) => void sessions.delete(sid),
      });
      await fixtureServer((call) => calls.push(call)).connect(t);
      transport = t;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`,
    calls,
    sessions,
    async close() {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

interface Proxy {
  url: string;
  stderr(): string;
  connect(): Promise<Client>;
  close(): Promise<void>;
}

const live = new Set<ChildProcess>();
after(() => {
  for (const p of live) p.kill('SIGKILL');
});

async function startProxy(service: string, token: string, agentKey: string, upstream: string, flags: string[] = []) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'mcp-proxy',
      '--url',
      service,
      '--token',
      token,
      '--agent-key',
      agentKey,
      '--listen',
      '127.0.0.1:0',
      '--upstream',
      upstream,
      ...flags,
    ],
    { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  live.add(child);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the proxy did not start: ${stderr}`)), 60_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (http:\/\/\S+),/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the proxy exited ${code}: ${stderr}`)));
  });
  const clients: Client[] = [];
  const proxy: Proxy = {
    url,
    stderr: () => stderr,
    async connect() {
      const client = new Client({ name: 'gate-http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      live.delete(child);
    },
  };
  return proxy;
}

eachStore('MCP gate (agent-ledger mcp-proxy) over Streamable HTTP', (get) => {
  let alice: SignedIn;
  let url: string;
  let upstream: Upstream;
  let proxy: Proxy;
  let client: Client;

  test('setup: a listening service, a scope for the agent, an upstream HTTP MCP server, the proxy in front of it', async () => {
    const t = get();
    alice = await t.signIn('alice@mcp-http.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const scope = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/web-agent/scope',
      token: alice.token,
      payload: { allowed_tools: ['echo', 'send_*'] },
    });
    assert.equal(scope.statusCode, 200, scope.body);
    upstream = await startUpstream();
    proxy = await startProxy(url, alice.token, 'web-agent', upstream.url);
    assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    client = await proxy.connect();
    assert.equal(upstream.sessions.size, 1, 'the proxy opened its own session with the upstream server');
  });

  test('tools/list offers only the tools in the agent scope', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), ['echo', 'send_email']);
  });

  test('an allowed call reaches the upstream server, recorded in enforced mode before it ran, its result after', async () => {
    const t = get();
    const r = await client.callTool({ name: 'echo', arguments: { text: 'over http' } });
    assert.equal(r.isError, undefined);
    assert.equal(textOf(r), 'echo: over http');
    assert.deepEqual(upstream.calls, [{ name: 'echo', arguments: { text: 'over http' } }]);
    const gated = (await invocations(t, alice.token, 'web-agent')).find((i) => i.mode === 'enforced')!;
    assert.equal(gated.tool_name, 'echo');
    assert.equal(gated.verdict, 'allow');
    // The result is attached to the gated invocation as its tool_output: one invocation for the call.
    const output = await until('the attached result', async () => {
      const res = await t.request({
        method: 'GET',
        url: `/api/v1/invocations/${gated.invocation_id}`,
        token: alice.token,
      });
      const text = (res.json() as { content: Array<{ field: string; text: string | null }> }).content.find(
        (c) => c.field === 'tool_output',
      )?.text;
      return text ?? undefined;
    });
    assert.equal(output, 'echo: over http');
    assert.deepEqual(
      (await invocations(t, alice.token, 'web-agent')).map((i) => i.invocation_id),
      [gated.invocation_id],
    );
    const detail = await t.request({
      method: 'GET',
      url: `/api/v1/invocations/${gated.invocation_id}`,
      token: alice.token,
    });
    const context = (detail.json() as { content: Array<{ field: string; text: string }> }).content.find(
      (c) => c.field === 'context',
    )!;
    // The upstream URL as stored: redacted like all content, whole, as any URL is (its path may carry what its
    // host does not); the raw address is nowhere in it.
    assert.equal(JSON.parse(context.text).server, '<URL>', 'the record names where the upstream was, redacted');
    assert.ok(!context.text.includes(new URL(upstream.url).host));
  });

  test('a call outside the scope is denied, recorded as a rogue event, and the upstream server never sees it', async () => {
    const t = get();
    const r = await client.callTool({ name: 'delete_file', arguments: { path: '/srv/data' } });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /agent-ledger denied delete_file for agent web-agent: tool_out_of_scope/);
    assert.deepEqual(
      upstream.calls.map((c) => c.name),
      ['echo'],
    );
    const denied = (await invocations(t, alice.token, 'web-agent')).find((i) => i.tool_name === 'delete_file')!;
    assert.equal(denied.verdict, 'deny');
    const rogue = await t.request({
      method: 'GET',
      url: '/api/v1/rogue-events?agent_key=web-agent',
      token: alice.token,
    });
    assert.deepEqual(
      (rogue.json() as { items: Array<{ event_type: string; tool: string }> }).items.map((e) => [e.event_type, e.tool]),
      [['oos_tool', 'delete_file']],
    );
  });

  test('a held call waits for a person and, approved, reaches the upstream server', async () => {
    const t = get();
    await holdSends(t, alice.token, 600);
    const progress: string[] = [];
    const call = client.callTool({ name: 'send_email', arguments: { text: 'to the board' } }, undefined, {
      onprogress: (p) => void progress.push(p.message ?? ''),
      resetTimeoutOnProgress: true,
    });
    const pending = await pendingApproval(t, alice.token);
    assert.equal(pending.tool_name, 'send_email');
    assert.equal(upstream.calls.length, 1, 'not forwarded while it waits');
    await decideApproval(t, alice.token, pending.approval_id, 'approve', 'ok');
    const r = await call;
    assert.equal(textOf(r), 'sent');
    assert.deepEqual(upstream.calls.at(-1), { name: 'send_email', arguments: { text: 'to the board' } });
    assert.ok(
      progress.some((m) => /waiting for approval/.test(m)),
      'the waiting call got progress on its own stream',
    );
    await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: alice.token,
      payload: { default_verdict: 'allow', rules: [] },
    });
  });

  test('each client gets its own session, upstream too; ending it ends the upstream session', async () => {
    const second = await proxy.connect();
    assert.equal(upstream.sessions.size, 2);
    const r = await second.callTool({ name: 'echo', arguments: { text: 'second' } });
    assert.equal(textOf(r), 'echo: second');
    await (second.transport as StreamableHTTPClientTransport).terminateSession();
    await until('the upstream session closed', async () => (upstream.sessions.size === 1 ? true : undefined));
  });

  test('the listening side: other paths 404, a foreign Host 403, a request without a session 400', async () => {
    const base = new URL(proxy.url);
    assert.equal((await fetch(new URL('/other', base))).status, 404);
    const port = base.port;
    // A rebound DNS name reaching the loopback proxy names another host.
    const rebound = await new Promise<number>((resolve, reject) => {
      request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
        .on('error', reject)
        .end('{}');
    });
    assert.equal(rebound, 403);
    // A page of another site, in the user's browser, is refused; a local tool's page (an MCP inspector) is not.
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const fromPage = (origin: string) =>
      fetch(proxy.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
        body: JSON.stringify(init),
      });
    assert.equal((await fromPage('https://evil.example')).status, 403);
    const local = await fromPage('http://localhost:6274');
    assert.equal(local.status, 200);
    await local.body?.cancel();
    const noSession = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(noSession.status, 400);
    const unknown = await fetch(proxy.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': randomUUID(),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(unknown.status, 404);
  });

  test('--listen-token: a client without it is 401, with it connects; the header read as the service reads its own', async () => {
    const secret = 'listen-secret-0123456789';
    const guarded = await startProxy(url, alice.token, 'web-agent', upstream.url, ['--listen-token', secret]);
    try {
      const initialize = (authorization?: string) =>
        fetch(guarded.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(authorization === undefined ? {} : { authorization }),
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
          }),
        });
      assert.equal((await initialize()).status, 401);
      for (const wrong of [`Bearer ${secret}x`, `Bearer ${secret.slice(0, -1)}`, `Basic ${secret}`, secret])
        assert.equal((await initialize(wrong)).status, 401, wrong);
      // RFC 6750: one space or more after the scheme, the scheme in any case — as on the service's endpoints.
      for (const right of [`Bearer  ${secret}`, `bearer ${secret}`])
        assert.equal((await initialize(right)).status, 200, right);
      const c = new Client({ name: 'gate-http-test', version: '1.0.0' });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(guarded.url), {
          requestInit: { headers: { authorization: `Bearer ${secret}` } },
        }),
      );
      assert.deepEqual((await c.listTools()).tools.map((x) => x.name).sort(), ['echo', 'send_email']);
      await c.close();
    } finally {
      await guarded.close();
    }
  });

  test('--listen-token must be a bearer token (visible ASCII, no spaces, at most 512): otherwise exit 2, nothing listens', async () => {
    const base = ['--url', url, '--token', alice.token, '--agent-key', 'web-agent', '--listen', '127.0.0.1:0'];
    for (const [secret, why] of [
      ['listen secret 0123456789', /--listen-token must be visible ASCII without spaces/],
      [`listen-secret-${'x'.repeat(500)}`, /at most 512 characters/],
      ['short', /--listen-token must be at least 16 characters/],
    ] as const) {
      let stderr = '';
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string | Uint8Array) => {
        stderr += String(chunk);
        return true;
      }) as typeof process.stderr.write;
      let code: number;
      try {
        code = await mcpProxyCommand([...base, '--upstream', upstream.url, '--listen-token', secret], {});
      } finally {
        process.stderr.write = write;
      }
      assert.equal(code, 2, stderr);
      assert.match(stderr, why);
    }
  });

  test('the service unreachable: calls are refused (fail closed), the upstream never sees them, tools/list offers nothing', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const closed = await startProxy(dead, alice.token, 'web-agent', upstream.url);
    const before = upstream.calls.length;
    try {
      const c = await closed.connect();
      assert.deepEqual((await c.listTools()).tools, []);
      const r = await c.callTool({ name: 'echo', arguments: { text: 'x' } });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /could not be reached.*refused \(fail closed\)/);
      assert.equal(upstream.calls.length, before);
    } finally {
      await closed.close();
    }
  });

  test('--session-idle: a session with no request open is ended (upstream too); a connected client keeps its own', async () => {
    const idle = await startProxy(url, alice.token, 'web-agent', upstream.url, ['--session-idle', '1']);
    try {
      const kept = await idle.connect(); // the SDK client holds its GET stream open
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(idle.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
        }),
      });
      assert.equal(init.status, 200);
      const sessionId = init.headers.get('mcp-session-id')!;
      await init.text(); // the answer read: no request of that session is open any more
      const upstreamSessions = upstream.sessions.size;
      await new Promise((r) => setTimeout(r, 2_500));
      const late = await fetch(idle.url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      assert.equal(late.status, 404, 'the idle session was ended');
      await late.body?.cancel();
      assert.equal(upstream.sessions.size, upstreamSessions - 1, 'and its upstream session');
      const r = await kept.callTool({ name: 'echo', arguments: { text: 'still here' } });
      assert.equal(textOf(r), 'echo: still here');
    } finally {
      await idle.close();
    }
  });

  test('the upstream server unreachable: the client is answered with a JSON-RPC error, not left waiting', async () => {
    const gone = `http://127.0.0.1:${await freePort()}/mcp`;
    const orphan = await startProxy(url, alice.token, 'web-agent', gone);
    try {
      await assert.rejects(orphan.connect(), /the server could not be reached/);
    } finally {
      await orphan.close();
    }
  });

  after(async () => {
    await proxy?.close();
    await upstream?.close();
  });
});
