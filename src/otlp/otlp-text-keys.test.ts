import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn } from '../testing/harness.ts';
import { ExportTraceServiceRequest } from './proto.ts';

// What a span's text may hold, and whose a span's key is: U+0000 in any span
// text is stored as U+FFFD (PostgreSQL text cannot hold NUL; OTLP exporters
// send what applications give them) with the span's details and parent links
// kept; the `otlp:` idempotency key space is the service's own.

type Detail = {
  invocation_id: number;
  otel: Record<string, unknown> | null;
  trace: { parent: { invocation_id: number } | null };
};

const kv = (key: string, value: string) => ({ key, value: { stringValue: value } });

function exportOf(trace: string, nul: string) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', 'nul-svc')] },
        scopeSpans: [
          {
            scope: { name: `scope${nul}x` },
            spans: [
              {
                traceId: trace,
                spanId: '1'.repeat(16),
                parentSpanId: '2'.repeat(16),
                name: `chat${nul}x`,
                attributes: [
                  kv('gen_ai.operation.name', `chat${nul}op`),
                  kv('gen_ai.request.model', `model${nul}m`),
                  kv('gen_ai.conversation.id', `conv${nul}c`),
                ],
              },
              {
                traceId: trace,
                spanId: '2'.repeat(16),
                name: `invoke_agent${nul}a`,
                attributes: [kv('gen_ai.operation.name', 'invoke_agent'), kv('gen_ai.agent.name', 'nul-bot')],
              },
            ],
          },
        ],
      },
    ],
  };
}

function protobufOf(tree: ReturnType<typeof exportOf>): Buffer {
  const copy = structuredClone(tree) as unknown as {
    resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>;
  };
  for (const s of copy.resourceSpans[0]!.scopeSpans[0]!.spans) {
    for (const k of ['traceId', 'spanId', 'parentSpanId'])
      if (typeof s[k] === 'string') s[k] = Buffer.from(s[k], 'hex');
  }
  return Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(copy)).finish());
}

eachStore('OTLP span text and span keys', (get) => {
  let alice: SignedIn;
  let base: string;
  const post = (body: Buffer | string, type: string) =>
    fetch(`${base}/api/v1/otel/v1/traces`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': type },
    });
  const trace = async (traceId: string) => {
    const res = await get().request({
      method: 'GET',
      url: `/api/v1/invocations?correlation_id=${traceId}`,
      token: alice.token,
    });
    const items = (res.json() as { items: Array<{ invocation_id: number }> }).items;
    const out: Detail[] = [];
    for (const i of items) {
      const d = await get().request({
        method: 'GET',
        url: `/api/v1/invocations/${i.invocation_id}`,
        token: alice.token,
      });
      out.push(d.json() as Detail);
    }
    return out;
  };

  test('setup', async () => {
    const t = get();
    alice = await t.signIn('alice@otlp-text.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });

  for (const encoding of ['json', 'protobuf'] as const) {
    test(`U+0000 in span name, operation, scope, model, conversation id (${encoding}): 200, stored as U+FFFD, details and parent link kept`, async () => {
      const traceId = (encoding === 'json' ? 'a' : 'b').repeat(32);
      const tree = exportOf(traceId, '\u0000');
      const send = () =>
        encoding === 'json'
          ? post(JSON.stringify(tree), 'application/json')
          : post(protobufOf(tree), 'application/x-protobuf');
      const res = await send();
      assert.equal(res.status, 200, await res.clone().text());
      const again = await send(); // a retry records nothing more and still succeeds
      assert.equal(again.status, 200);
      const spans = await trace(traceId);
      assert.equal(spans.length, 2);
      const chat = spans.find((d) => String(d.otel?.span_name).startsWith('chat'))!;
      const agent = spans.find((d) => String(d.otel?.span_name).startsWith('invoke_agent'))!;
      assert.equal(chat.otel?.span_name, 'chat\uFFFDx');
      assert.equal(chat.otel?.operation, 'chat\uFFFDop');
      assert.equal(chat.otel?.scope, 'scope\uFFFDx');
      assert.equal(agent.otel?.span_name, 'invoke_agent\uFFFDa');
      assert.equal(chat.trace.parent?.invocation_id, agent.invocation_id);
      assert.equal(chat.otel?.parent_span_id, '2'.repeat(16));
    });
  }

  test('an Idempotency-Key or batch event_id in the otlp: space → 422; the span it names is then recorded', async () => {
    const traceId = 'c'.repeat(32);
    const key = `otlp:${traceId}:${'1'.repeat(16)}`;
    const event = { agent_key: 'squatter', outcome: 'success', prompt: 'hello' };
    const single = await get().request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/invocation',
      token: alice.token,
      headers: { 'idempotency-key': key },
      payload: event,
    });
    assert.equal(single.statusCode, 422, single.body);
    const problem = single.json() as { code: string; errors: Array<{ field: string }> };
    assert.equal(problem.code, 'unprocessable');
    assert.equal(problem.errors[0]!.field, '/headers/idempotency-key');
    const batch = await get().request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/batch',
      token: alice.token,
      payload: {
        events: [
          { kind: 'invocation', event_id: key, event },
          { kind: 'invocation', event_id: 'mine-1', event },
        ],
      },
    });
    assert.equal(batch.statusCode, 207, batch.body);
    const results = (batch.json() as { results: Array<{ status: number; code?: string; event_id: string }> }).results;
    assert.deepEqual(
      results.map((r) => [r.event_id, r.status]),
      [
        [key, 422],
        ['mine-1', 201],
      ],
    );
    // The span arrives and is recorded, not silently taken as a duplicate.
    const res = await post(JSON.stringify(exportOf(traceId, '')), 'application/json');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
    assert.equal((await trace(traceId)).length, 2);
  });

  test('a span whose key already holds another request (a claim from before the key space was reserved) is rejected in partial_success', async () => {
    const traceId = 'd'.repeat(32);
    const t = get();
    await t.testDb.db.withTenant(alice.account.tenant_id, (tx) =>
      tx.query(
        `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, response, created_at)
         VALUES ($1, $2, '\\x00'::bytea, '{"status": 201, "body": {"invocation_id": 1}}'::jsonb, $3)`,
        [alice.account.tenant_id, `otlp:${traceId}:${'1'.repeat(16)}`, t.clock.now()],
      ),
    );
    const res = await post(JSON.stringify(exportOf(traceId, '')), 'application/json');
    assert.equal(res.status, 200);
    const body = (await res.json()) as { partialSuccess?: { rejectedSpans: string; errorMessage: string } };
    assert.equal(body.partialSuccess?.rejectedSpans, '1');
    assert.match(body.partialSuccess?.errorMessage ?? '', /1 spans refused: their idempotency key/);
    assert.equal((await trace(traceId)).length, 1); // the agent span; the claimed one is not stored
  });
});
