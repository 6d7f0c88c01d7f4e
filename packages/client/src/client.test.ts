import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { test } from 'node:test';
import { eachStore, OPERATOR_TOKEN, type SignedIn } from '../../../src/testing/harness.ts';
import { AgentLedger, type DropReport } from './index.ts';

// The client against the running service (a listening server), with a small
// HTTP proxy in between that can drop a connection or shed load on cue.

/** In this suite a workspace on the free plan may record one invocation a day (everyone else is on team). */
const PLAN_CAPS = JSON.stringify({ free: { invocations_per_day: 1 } });

/**
 * forward: pass the request on and its answer back; reset: drop the connection
 * before the service sees the request; commit-reset: pass it on, let the
 * service answer (it has committed), then drop the connection instead of
 * answering, as a proxy or load balancer that times out or restarts would;
 * shed: answer 503 with Retry-After itself.
 */
type Behaviour = 'forward' | 'reset' | 'commit-reset' | 'shed';

async function startProxy(
  target: string,
  plan: Behaviour[],
  /** Sees each answer of the service before the proxy passes it on. */
  onAnswer?: (answer: Response) => Promise<void>,
): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const what = plan.shift() ?? 'forward';
      seen.push(`${what} ${req.method} ${req.url} ${req.headers['idempotency-key'] ?? ''}`);
      if (what === 'reset') {
        req.socket.destroy(); // the connection drops before any answer
        return;
      }
      if (what === 'shed') {
        res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/problem+json' }).end('{"status":503}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
      void fetch(`${target}${req.url}`, {
        method: req.method!,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      }).then(async (r) => {
        seen.push(`  answered ${r.status}${r.headers.get('idempotent-replayed') === 'true' ? ' replayed' : ''}`);
        await onAnswer?.(r.clone());
        if (what === 'commit-reset') {
          await r.arrayBuffer();
          req.socket.destroy(); // committed at the service; the client never hears of it
          return;
        }
        res.writeHead(r.status, Object.fromEntries(r.headers.entries()));
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, seen, server };
}

eachStore(
  '@agent-ledger/client against the service',
  (get) => {
    let alice: SignedIn;
    let base: string;
    const servers: Server[] = [];
    const count = async (agent: string) => {
      const res = await get().request({
        method: 'GET',
        url: `/api/v1/invocations?agent_key=${agent}&limit=500`,
        token: alice.token,
      });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { items: unknown[] }).items.length;
    };

    test('setup', async () => {
      const t = get();
      alice = await t.signIn('alice@client.example');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    });

    test('invocation() waits for the verdict; a tool outside the scope is a deny', async () => {
      const t = get();
      assert.equal(
        (
          await t.request({
            method: 'PUT',
            url: '/api/v1/agents/enf-bot/scope',
            token: alice.token,
            payload: { allowed_tools: ['read_*'] },
          })
        ).statusCode,
        200,
      );
      const c = new AgentLedger({ baseUrl: base, token: alice.token });
      const ok = await c.invocation({
        agent_key: 'enf-bot',
        mode: 'enforced',
        tool_name: 'read_file',
        tool_input: '{"path":"a.txt"}',
      });
      assert.equal(ok.verdict, 'allow');
      const no = await c.invocation({
        agent_key: 'enf-bot',
        mode: 'enforced',
        tool_name: 'rm',
        tool_input: '{"path":"/"}',
      });
      assert.equal(no.verdict, 'deny');
      const r = await c.rogue({ agent_key: 'enf-bot', event_type: 'probe' });
      assert.equal(r.accepted, true);
      await assert.rejects(c.invocation({ agent_key: '' }), (err: Error & { status?: number }) => err.status === 422);
    });

    test('a dropped connection is retried with the same Idempotency-Key and records once', async () => {
      const proxy = await startProxy(base, ['reset', 'forward']);
      servers.push(proxy.server);
      const c = new AgentLedger({ baseUrl: proxy.url, token: alice.token, retryBaseMs: 10 });
      const res = await c.invocation({ agent_key: 'retry-bot', prompt: 'hello' });
      assert.equal(res.verdict, 'allow');
      const requests = proxy.seen.filter((x) => !x.startsWith(' '));
      assert.equal(requests.length, 2);
      const keys = requests.map((x) => x.split(' ')[3]);
      assert.ok(keys[0] && keys[0] === keys[1], `same key on both attempts: ${proxy.seen.join(' | ')}`);
      assert.equal(await count('retry-bot'), 1);
      assert.equal(c.stats.retries, 1);
    });

    test('a connection dropped after the service committed: the retry is answered from the first record, nothing recorded twice', async () => {
      const proxy = await startProxy(base, ['commit-reset', 'forward', 'commit-reset', 'forward']);
      servers.push(proxy.server);
      const c = new AgentLedger({ baseUrl: proxy.url, token: alice.token, retryBaseMs: 10 });
      const res = await c.invocation({
        agent_key: 'commit-bot',
        mode: 'enforced',
        tool_name: 'read_file',
        prompt: 'mail jane.doe@example.com',
      });
      assert.equal(res.verdict, 'allow');
      assert.equal(c.stats.retries, 1);
      // The service answered both: the first committed, the second replayed that answer.
      assert.deepEqual(
        proxy.seen.slice(0, 4).map((x) => x.trim().split(' ').slice(0, 3).join(' ')),
        [
          'commit-reset POST /api/v1/admin/agents/events/invocation',
          'answered 201',
          'forward POST /api/v1/admin/agents/events/invocation',
          'answered 201 replayed',
        ],
      );
      const list = await get().request({
        method: 'GET',
        url: '/api/v1/invocations?agent_key=commit-bot',
        token: alice.token,
      });
      const items = (list.json() as { items: Array<{ invocation_id: number }> }).items;
      assert.equal(items.length, 1);
      assert.equal(items[0]!.invocation_id, res.invocation_id, 'the retry got the first invocation, not a second');
      // The same for a rogue event.
      assert.equal((await c.rogue({ agent_key: 'commit-bot', event_type: 'probe' })).accepted, true);
      const rogue = await get().request({
        method: 'GET',
        url: '/api/v1/rogue-events?agent_key=commit-bot',
        token: alice.token,
      });
      assert.equal((rogue.json() as { items: unknown[] }).items.length, 1);
      assert.equal(c.stats.retries, 2);
    });

    test('record(): a batch whose answer was lost after the commit is sent again and recorded once; shutdown() sends everything', async () => {
      // The second batch of three is committed and its answer lost; the retry repeats every event_id.
      const proxy = await startProxy(base, ['forward', 'commit-reset']);
      servers.push(proxy.server);
      const drops: DropReport[] = [];
      const c = new AgentLedger({
        baseUrl: proxy.url,
        token: alice.token,
        batchSize: 50,
        flushIntervalMs: 60_000,
        retryBaseMs: 10,
        onDrop: (r) => drops.push(r),
      });
      for (let i = 0; i < 120; i++)
        c.record({ kind: 'invocation', event: { agent_key: 'lost-answer-bot', prompt: `step ${i}` } });
      await c.shutdown();
      assert.deepEqual(drops, []);
      assert.equal(c.stats.sent, 120);
      assert.equal(c.stats.retries, 1);
      const batches = proxy.seen.filter((x) => x.includes('/events/batch'));
      assert.equal(batches.length, 4, proxy.seen.join(' | '));
      assert.equal(await count('lost-answer-bot'), 120);
    });

    test('503 with Retry-After is waited out and retried', async () => {
      const proxy = await startProxy(base, ['shed', 'forward']);
      servers.push(proxy.server);
      const c = new AgentLedger({ baseUrl: proxy.url, token: alice.token, retryBaseMs: 10 });
      const started = Date.now();
      await c.invocation({ agent_key: 'shed-bot' });
      assert.ok(Date.now() - started >= 950, 'waited for Retry-After: 1');
      assert.equal(await count('shed-bot'), 1);
    });

    test("the service's 429 (the day's cap reached) is waited out for its Retry-After; the retry records once", async () => {
      const t = get();
      const bob = await t.signIn('bob@client-quota.example');
      const tenant = bob.account.tenant_id;
      const plan = await t.request({
        method: 'PUT',
        url: `/api/v1/operator/workspaces/${tenant}/subscription`,
        token: OPERATOR_TOKEN,
        payload: { plan_tier: 'free', subscription_status: 'active' },
      });
      assert.equal(plan.statusCode, 200, plan.body);
      const start = t.clock.now();
      // Two seconds before the next UTC day, with the day's one invocation used.
      t.clock.set('2026-06-01T23:59:58.000Z');
      try {
        assert.equal(
          (await new AgentLedger({ baseUrl: base, token: bob.token }).invocation({ agent_key: 'early-bot' })).verdict,
          'allow',
        );
        // The proxy passes everything on; once the service has answered 429 its day ends.
        const answers: Array<{ status: number; retryAfter: string | null; code: unknown }> = [];
        const proxy = await startProxy(base, [], async (r) => {
          answers.push({
            status: r.status,
            retryAfter: r.headers.get('retry-after'),
            code: ((await r.json()) as { code?: unknown }).code,
          });
          if (r.status === 429) t.clock.set('2026-06-02T00:00:00.000Z');
        });
        servers.push(proxy.server);
        const c = new AgentLedger({ baseUrl: proxy.url, token: bob.token, retryBaseMs: 10 });
        const started = performance.now();
        const res = await c.invocation({ agent_key: 'quota-bot', prompt: 'after midnight' });
        const waited = performance.now() - started;
        assert.equal(res.verdict, 'allow');
        assert.deepEqual(answers, [
          { status: 429, retryAfter: '2', code: 'quota_exceeded' },
          { status: 201, retryAfter: null, code: undefined },
        ]);
        // Timers may fire a millisecond early by this clock; the backoff alone would have been ~10 ms.
        assert.ok(waited >= 1_990, `waited ${waited} ms for Retry-After: 2`);
        assert.equal(c.stats.retries, 1);
        const requests = proxy.seen.filter((x) => !x.startsWith(' '));
        assert.equal(requests.length, 2, proxy.seen.join(' | '));
        const keys = requests.map((x) => x.split(' ')[3]);
        assert.ok(keys[0] && keys[0] === keys[1], `same key on both attempts: ${proxy.seen.join(' | ')}`);
        // Recorded once, by the retry on the new day.
        const list = await t.request({
          method: 'GET',
          url: '/api/v1/invocations?agent_key=quota-bot',
          token: bob.token,
        });
        assert.equal(list.statusCode, 200, list.body);
        const items = (list.json() as { items: Array<{ invocation_id: number; created_at: string }> }).items;
        assert.deepEqual(
          items.map((i) => [i.invocation_id, i.created_at]),
          [[res.invocation_id, '2026-06-02T00:00:00.000Z']],
        );
      } finally {
        t.clock.set(start);
      }
    });

    test('record() sends in the background; shutdown() sends everything', async () => {
      const drops: DropReport[] = [];
      const c = new AgentLedger({
        baseUrl: base,
        token: alice.token,
        batchSize: 40,
        flushIntervalMs: 60_000,
        onDrop: (r) => drops.push(r),
      });
      for (let i = 0; i < 130; i++)
        c.record({ kind: 'invocation', event: { agent_key: 'buffered-bot', prompt: `step ${i}` } });
      c.record({ kind: 'rogue', event: { agent_key: 'buffered-bot', event_type: 'probe' } });
      await c.shutdown();
      assert.equal(drops.length, 0);
      assert.equal(await count('buffered-bot'), 130);
      assert.equal(c.stats.sent, 131);
      c.record({ kind: 'invocation', event: { agent_key: 'buffered-bot' } });
      assert.equal(drops.length, 1);
      assert.equal(drops[0]!.reason, 'shut_down');
    });

    test('a full buffer reports what it drops; refused events are reported, not lost silently', async () => {
      const drops: DropReport[] = [];
      const c = new AgentLedger({
        baseUrl: base,
        token: alice.token,
        maxBuffer: 5,
        batchSize: 100,
        flushIntervalMs: 60_000,
        onDrop: (r) => drops.push(r),
      });
      for (let i = 0; i < 8; i++)
        c.record({ kind: 'invocation', event: { agent_key: 'small-buffer', prompt: String(i) } });
      assert.deepEqual(
        drops.map((d) => [d.reason, d.events.length]),
        [
          ['buffer_full', 1],
          ['buffer_full', 1],
          ['buffer_full', 1],
        ],
      );
      assert.equal(c.stats.dropped, 3);
      await c.flush();
      assert.equal(await count('small-buffer'), 5);
      c.record({ kind: 'invocation', event: { agent_key: '' } }); // 422 at the service
      await c.flush();
      assert.equal(drops.length, 4);
      assert.equal(drops[3]!.reason, 'rejected');
      await c.shutdown();
    });

    test('teardown', async () => {
      for (const s of servers) s.close();
    });
  },
  { env: { PLAN_CAPS } },
);
