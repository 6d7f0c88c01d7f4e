// POST /api/v1/admin/agents/events/batch: 207 with one result per event, in
// order, each what the single endpoint would have answered; 1-500 events and
// 4 MiB; event_id as an idempotency key per event; caps counted per item.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import {
  addMember,
  evidenceLeaf,
  expectProblem,
  leaves,
  newWorkspace,
  post,
  postRaw,
  query,
  stored,
} from '../testing/ingest-kit.ts';

const BATCH = '/api/v1/admin/agents/events/batch';
const PLAN_CAPS = JSON.stringify({ team: { agents: 3, invocations_per_day: 8 } });

type Result = Record<string, unknown> & { index: number; event_id: string | null; status: number };

async function batch(t: TestService, a: SignedIn, events: unknown[]): Promise<Result[]> {
  const res = await post(t, BATCH, a.token, { events });
  assert.equal(res.statusCode, 207, res.body);
  const results = res.json().results as Result[];
  assert.deepEqual(
    results.map((r) => r.index),
    events.map((_, i) => i),
  );
  return results;
}

const inv = (event: Record<string, unknown>, event_id?: string) => ({
  kind: 'invocation',
  event,
  ...(event_id ? { event_id } : {}),
});

eachStore(
  'the batch endpoint',
  (get) => {
    test('events of both kinds are answered in order as their single endpoint would, each with its own leaf', async () => {
      const t = get();
      const a = await newWorkspace(t, 'batch-mixed');
      const tenant = a.account.tenant_id;
      const results = await batch(t, a, [
        inv({ agent_key: 'b1', tool_name: 'crm', tool_input: 'mail jane@example.com' }, 'e-1'),
        { kind: 'rogue', event: { event_type: 'oos_tool', agent_key: 'b1', tool: 'rm' } },
        inv({ agent_key: 'b1', prompt: 'hi' }),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        [201, 201, 201],
      );
      assert.equal(results[0]!.event_id, 'e-1');
      assert.equal(results[2]!.event_id, null);
      assert.equal(results[0]!.pii_count, 1);
      assert.equal(results[0]!.tenant_id, tenant);
      assert.deepEqual(results[1], {
        index: 1,
        event_id: null,
        status: 201,
        accepted: true,
        event_type: 'oos_tool',
        tenant_id: tenant,
      });
      for (const r of [results[0]!, results[2]!]) {
        const leaf = await evidenceLeaf(t, a.token, r.evidence_id as number);
        assert.equal(leaf.kind, 'invocation');
        assert.equal(leaf.invocation_id, r.invocation_id);
      }
      const events = ['agent_registered', 'invocation', 'rogue'];
      const kinds = (await leaves(t, tenant)).map((l) => l.kind).filter((k) => events.includes(k));
      assert.deepEqual(kinds, ['agent_registered', 'invocation', 'rogue', 'invocation']);
      const s = await stored(t, tenant);
      assert.equal(s.invocations, 2);
      assert.equal(s.rogue, 1);
      assert.equal(s.usage, 2);
    });

    test('0 or 501 events is 422, a body of 4 MiB + 1 byte is 413; auth and role answer for the whole request', async () => {
      const t = get();
      const a = await newWorkspace(t, 'batch-limits');
      expectProblem(await post(t, BATCH, a.token, { events: [] }), 422, 'unprocessable');
      const many = Array.from({ length: 501 }, () => inv({ agent_key: 'x' }));
      expectProblem(await post(t, BATCH, a.token, { events: many }), 422, 'unprocessable');
      const head = '{"events":[{"kind":"invocation","event":{"agent_key":"x","prompt":"';
      const tail = '"}}]}';
      const big = head + 'a'.repeat(4 * 1024 * 1024 + 1 - head.length - tail.length) + tail;
      assert.equal(Buffer.byteLength(big), 4 * 1024 * 1024 + 1);
      expectProblem(await postRaw(t, BATCH, a.token, big), 413, 'payload_too_large');
      const viewer = await addMember(t, a, 'viewer');
      const before = await stored(t, a.account.tenant_id);
      expectProblem(await post(t, BATCH, undefined, { events: [inv({ agent_key: 'x' })] }), 401, 'unauthorized');
      expectProblem(await post(t, BATCH, viewer.token, { events: [inv({ agent_key: 'x' })] }), 403, 'forbidden');
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
      // 500 events fit, each stored.
      const full = await batch(
        t,
        a,
        Array.from({ length: 500 }, (_, i) => ({
          kind: 'rogue',
          event: { event_type: 'probe', agent_key: `r${i % 7}` },
        })),
      );
      assert.equal(full.filter((r) => r.status === 201).length, 500);
      assert.equal((await stored(t, a.account.tenant_id)).rogue, 500);
    });

    test('one bad event among good ones gets its own 4xx; the others are stored', async () => {
      const t = get();
      const a = await newWorkspace(t, 'batch-bad');
      const results = await batch(t, a, [
        inv({ agent_key: 'g' }),
        inv({ agent_key: '' }),
        { kind: 'rogue', event: { event_type: 'oos_tool', agent_key: 'g' } },
        inv({ agent_key: 'g', prompt: 'bad \u0000 text' }),
        { kind: 'invocation', event: 'not an object' },
        inv({ agent_key: 'g', mode: 'sometimes' }),
        inv({ agent_key: 'g', prompt: 'fine' }),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        [201, 422, 400, 422, 400, 422, 201],
      );
      assert.equal(results[1]!.code, 'unprocessable');
      assert.deepEqual(
        (results[1]!.errors as Array<{ field: string }>).map((e) => e.field),
        ['/agent_key'],
      );
      assert.equal(results[2]!.code, 'bad_request');
      assert.equal(typeof results[2]!.detail, 'string');
      assert.equal((await stored(t, a.account.tenant_id)).invocations, 2);
    });

    test('event_id is an idempotency key per event, also within one batch', async () => {
      const t = get();
      const a = await newWorkspace(t, 'batch-idem');
      const tenant = a.account.tenant_id;
      const events = [
        inv({ agent_key: 'd', prompt: 'one' }, 'dup'),
        inv({ agent_key: 'd', prompt: 'one' }, 'dup'),
        inv({ agent_key: 'd', prompt: 'other' }, 'dup'),
        inv({ agent_key: 'd', prompt: 'two' }, 'second'),
      ];
      const first = await batch(t, a, events);
      assert.deepEqual(
        first.map((r) => r.status),
        [201, 201, 422, 201],
      );
      assert.equal(first[2]!.code, 'idempotency_key_reused');
      assert.deepEqual({ ...first[1], index: 0 }, first[0], 'the duplicate gets the first answer');
      const before = await stored(t, tenant);
      assert.equal(before.invocations, 2);
      // The whole batch retried: the same answers, nothing recorded.
      const retried = await batch(t, a, events);
      assert.deepEqual(retried, first);
      assert.deepEqual(await stored(t, tenant), before);
      // An event_id and a single endpoint's Idempotency-Key are one namespace.
      const single = await t.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token: a.token,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'second' },
        payload: { agent_key: 'd', prompt: 'two' },
      });
      assert.equal(single.statusCode, 201);
      assert.equal(single.json().invocation_id, first[3]!.invocation_id);
    });

    test('the agent cap and the daily cap are counted per event, reached mid-batch', async () => {
      const t = get();
      const a = await newWorkspace(t, 'batch-caps');
      const tenant = a.account.tenant_id;
      // Agents: 3 allowed. The 4th new one is refused; known ones keep recording.
      const r1 = await batch(
        t,
        a,
        ['a1', 'a2', 'a3', 'a4', 'a1'].map((k) => inv({ agent_key: k })),
      );
      assert.deepEqual(
        r1.map((r) => r.status),
        [201, 201, 201, 402, 201],
      );
      assert.equal(r1[3]!.code, 'plan_limit');
      // Day: 8 allowed, 4 used: of 6 more, 4 are stored and 2 refused.
      const r2 = await batch(
        t,
        a,
        Array.from({ length: 6 }, () => inv({ agent_key: 'a2' })),
      );
      assert.deepEqual(
        r2.map((r) => r.status),
        [201, 201, 201, 201, 429, 429],
      );
      assert.equal(r2[4]!.code, 'quota_exceeded');
      const s = await stored(t, tenant);
      assert.equal(s.invocations, 8);
      assert.equal(s.usage, 8);
      assert.equal(s.agents, 3);
      const rows = await query<{ n: number }>(
        t,
        'SELECT count(*)::int AS n FROM log_entries WHERE tenant_id = $1 AND leaf LIKE \'%"kind":"agent_registered"%\'',
        [tenant],
      );
      assert.equal(rows[0]!.n, 3);
    });

    test("an agent's scope is read for each of its events: out-of-scope ones are denied with an oos_tool rogue event each, wherever they stand in the batch", async () => {
      const t = get();
      const a = await newWorkspace(t, 'batch-scope');
      const tenant = a.account.tenant_id;
      const scope = await t.request({
        method: 'PUT',
        url: '/api/v1/agents/sc/scope',
        token: a.token,
        payload: { allowed_tools: ['search'] },
      });
      assert.equal(scope.statusCode, 200, scope.body);
      const results = await batch(t, a, [
        inv({ agent_key: 'sc', tool_name: 'search' }),
        inv({ agent_key: 'sc', tool_name: 'files.delete' }),
        inv({ agent_key: 'free', tool_name: 'files.delete' }),
        inv({ agent_key: 'sc', tool_name: 'files.delete' }),
      ]);
      assert.deepEqual(
        results.map((r) => [r.status, r.verdict]),
        [
          [201, 'allow'],
          [201, 'deny'],
          [201, 'allow'],
          [201, 'deny'],
        ],
      );
      const rogue = await query<{ invocation_id: string; tool: string; source: string; agent_key: string }>(
        t,
        `SELECT invocation_id, tool, source, agent_key FROM rogue_events
          WHERE tenant_id = $1 AND event_type = 'oos_tool' ORDER BY rogue_event_id`,
        [tenant],
      );
      assert.deepEqual(
        rogue.map((r) => [Number(r.invocation_id), r.tool, r.source, r.agent_key]),
        [results[1]!, results[3]!].map((r) => [r.invocation_id, 'files.delete', 'agent-ledger', 'sc']),
      );
    });
  },
  { env: { PLAN_CAPS } },
);
