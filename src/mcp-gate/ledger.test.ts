// LedgerGate's recording of a gated call's result, against a scripted
// service: the results queued meanwhile attached to their gated invocations as
// their tool_output in one request (no second invocation); a retried
// attachment already stored (409) is done; a service without the request of
// many results gets one request a result, and one from before both endpoints
// (404) gets each result as an observed child invocation; neither is asked
// again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LedgerGate } from './ledger.ts';

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/**
 * `outputStatus`: what each result's attachment answers; `many`: whether the service has POST
 * /api/v1/invocations/outputs; `refuseFirst`: that request's first slot is a 404 (no such invocation).
 */
function service(outputStatus: number, many = true, refuseFirst = false) {
  const sent: Sent[] = [];
  let next = 7;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const raw =
      init?.body === undefined || init.body === null ? null : new TextDecoder().decode(init.body as ArrayBuffer);
    const body: unknown = raw === null ? null : JSON.parse(raw);
    sent.push({ method: init?.method ?? 'GET', path: url.pathname, body });
    if (url.pathname === '/api/v1/admin/agents/events/invocation')
      return json(201, { invocation_id: next++, tenant_id: 't', verdict: 'allow', evidence_id: 1 });
    if (/^\/api\/v1\/invocations\/\d+\/output$/.test(url.pathname))
      return outputStatus === 201
        ? json(201, { invocation_id: Number(url.pathname.split('/')[4]), evidence_id: 2 })
        : json(outputStatus, { status: outputStatus, code: outputStatus === 404 ? 'not_found' : 'conflict' });
    if (url.pathname === '/api/v1/invocations/outputs' && many && outputStatus !== 404) {
      const outputs = (body as { outputs: Array<{ invocation_id: number }> }).outputs;
      return json(207, {
        results: outputs.map((o, index) =>
          refuseFirst && index === 0
            ? { index, invocation_id: o.invocation_id, status: 404, code: 'not_found', detail: 'No such invocation.' }
            : outputStatus === 201
              ? { index, invocation_id: o.invocation_id, status: 201, evidence_id: 2 + index }
              : { index, invocation_id: o.invocation_id, status: outputStatus, code: 'conflict', detail: 'has one' },
        ),
      });
    }
    if (url.pathname === '/api/v1/admin/agents/events/batch') {
      const events = (body as { events: unknown[] }).events;
      return json(207, { results: events.map((_, index) => ({ index, status: 201 })) });
    }
    return json(404, { status: 404, code: 'not_found' });
  }) as typeof globalThis.fetch;
  return { sent, fetch };
}

async function gatedCall(outputStatus: number, calls = 1, many = true, tool = 'echo', refuseFirst = false) {
  const s = service(outputStatus, many, refuseFirst);
  const warnings: string[] = [];
  const gate = new LedgerGate({
    url: 'http://ledger.test',
    token: 't',
    agentKey: 'desk-agent',
    mode: 'enforced',
    onUnreachable: 'deny',
    server: 'fixture',
    fetch: s.fetch,
    warn: (l) => warnings.push(l),
    maxRetries: 0,
  });
  for (let i = 0; i < calls; i++) {
    const call = { name: tool, arguments: { text: 'hi' }, signal: new AbortController().signal };
    const d = await gate.before(call);
    assert.equal(d.action, 'forward');
    gate.after(call, d as Extract<typeof d, { action: 'forward' }>, { content: [{ type: 'text', text: `out ${i}` }] });
  }
  await gate.close();
  return { sent: s.sent, warnings };
}

const paths = (sent: Sent[]) => sent.map((x) => x.path);

test('the results are attached to their gated invocations in one request: no second invocation is recorded', async () => {
  const { sent, warnings } = await gatedCall(201, 2);
  assert.deepEqual(paths(sent), [
    '/api/v1/admin/agents/events/invocation',
    '/api/v1/admin/agents/events/invocation',
    '/api/v1/invocations/outputs',
  ]);
  assert.deepEqual(sent[2]!.body, {
    outputs: [
      { invocation_id: 7, tool_output: 'out 0' },
      { invocation_id: 8, tool_output: 'out 1' },
    ],
  });
  assert.deepEqual(warnings, []);
});

test('409 (stored by an attempt whose answer was lost) is done: nothing else sent, no warning', async () => {
  const { sent, warnings } = await gatedCall(409);
  assert.deepEqual(paths(sent), ['/api/v1/admin/agents/events/invocation', '/api/v1/invocations/outputs']);
  assert.deepEqual(warnings, []);
});

test('a result the service refuses (a 404 in its slot) is said on stderr, naming the call', async () => {
  const { warnings } = await gatedCall(201, 1, true, 'lookup', true);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /the result of lookup \(invocation 7\) was not recorded \(404 not_found/);
});

test('a service without the request of many: one request a result, that endpoint not asked again', async () => {
  const { sent, warnings } = await gatedCall(201, 2, false);
  assert.deepEqual(paths(sent), [
    '/api/v1/admin/agents/events/invocation',
    '/api/v1/admin/agents/events/invocation',
    '/api/v1/invocations/outputs',
    '/api/v1/invocations/7/output',
    '/api/v1/invocations/8/output',
  ]);
  assert.deepEqual(sent[3]!.body, { tool_output: 'out 0' });
  assert.deepEqual(warnings, []);
});

test('a service without either endpoint (404): the result as an observed child invocation, the endpoints not asked again', async () => {
  const { sent, warnings } = await gatedCall(404, 2);
  // Both results wait in the queue (sent together within a second, or on close): the first finds no endpoint.
  assert.deepEqual(paths(sent), [
    '/api/v1/admin/agents/events/invocation',
    '/api/v1/admin/agents/events/invocation',
    '/api/v1/invocations/outputs',
    '/api/v1/invocations/7/output',
    '/api/v1/admin/agents/events/batch',
  ]);
  const events = (sent[4]!.body as { events: Array<{ event: Record<string, unknown> }> }).events.map((e) => e.event);
  assert.deepEqual(events.map((e) => [e.mode, e.parent_invocation_id, e.tool_output]).sort(), [
    ['observed', 7, 'out 0'],
    ['observed', 8, 'out 1'],
  ]);
  assert.deepEqual(warnings, []);
});
