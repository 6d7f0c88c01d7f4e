// Every endpoint of the service × every caller: the four roles, no token, a
// revoked token, and another workspace's admin. The endpoint list comes from
// GET /openapi.json, and the test fails for an endpoint without a row here,
// so a new endpoint cannot ship without its access rules being written down.
// Roles follow the table of API.md; another workspace's token must get a 404
// or its own (empty) data, never this workspace's.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { assertNoLeak, assertProblem } from '../testing/problems.ts';
import { invoke, newTeam, REVIEW_PAYMENTS, rogue, setPolicy, type Team } from '../testing/review-kit.ts';

type Caller = 'admin' | 'operator' | 'viewer' | 'auditor' | 'none' | 'revoked' | 'other';
const CALLERS: readonly Caller[] = ['admin', 'operator', 'viewer', 'auditor', 'none', 'revoked', 'other'];

interface World {
  t: TestService;
  a: Team;
  other: SignedIn;
  revoked: string;
  /** Strings only workspace A's data holds: never in a response to another workspace. */
  marks: string[];
  agentKey: string;
  invocationId: number;
  contentMark: string;
}

interface Call {
  url: string;
  payload?: unknown;
}

interface Row {
  /** The request, built per caller (a call that consumes a resource gets a fresh one). */
  request(w: World, caller: Caller): Call | Promise<Call>;
  expect: Record<Caller, number>;
  /** More assertions on a response. */
  check?(res: LightMyRequestResponse, caller: Caller, w: World): void;
  /** Reads an error answer that is not a problem document (the OTLP endpoint's google.rpc.Status); returns its problem code. */
  errorBody?(res: LightMyRequestResponse): { code: string };
}

/** Statuses by role, another workspace's admin, and without a valid token (401 unless the route is public). */
function statuses(
  roles: [admin: number, operator: number, viewer: number, auditor: number],
  other: number,
  unauthenticated = 401,
): Record<Caller, number> {
  const [admin, operator, viewer, auditor] = roles;
  return { admin, operator, viewer, auditor, other, none: unauthenticated, revoked: unauthenticated };
}
const everyRole = (s: number, other = s) => statuses([s, s, s, s], other);
const adminOnly = (s: number, other = s) => statuses([s, 403, 403, 403], other);
const editors = (s: number, other = s) => statuses([s, s, 403, 403], other);

let n = 0;
// Letters only after the label: a suffix of eight digits (one UUID in about 40)
// was stored redacted as a phone number, so the content mark was not found.
const fresh = (label: string) =>
  `${label}-${++n}-${Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('')}`;

const json = (res: LightMyRequestResponse) => JSON.parse(res.body);

async function newPersona(w: World): Promise<string> {
  const res = await w.t.request({
    method: 'POST',
    url: '/api/v1/personas',
    token: w.a.admin.token,
    payload: { name: fresh('matrix-persona') },
  });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).persona_id as string;
}
const shared = new WeakMap<World, Promise<string>>();
/** One persona of workspace A (per store's world) that the read and write rows use, created on first use. */
function sharedPersona(w: World): Promise<string> {
  let p = shared.get(w);
  if (!p) shared.set(w, (p = newPersona(w)));
  return p;
}

const MATRIX: Record<string, Row> = {
  'POST /api/v1/accounts/signup': {
    request: () => ({
      url: '/api/v1/accounts/signup',
      payload: { email: `new@${fresh('matrix-signup')}.review-tests.dev` },
    }),
    expect: statuses([200, 200, 200, 200], 200, 200),
    check: (res) => assert.deepEqual(json(res), { status: 'verification_sent' }),
  },
  'POST /api/v1/accounts/verify': {
    request: () => ({
      url: '/api/v1/accounts/verify',
      payload: { email: `nobody@${fresh('matrix-verify')}.review-tests.dev`, code: '00000000' },
    }),
    expect: statuses([401, 401, 401, 401], 401, 401),
    check: (res) => assert.equal(json(res).code, 'invalid_code'),
  },
  'GET /api/v1/accounts/me': {
    request: () => ({ url: '/api/v1/accounts/me' }),
    expect: everyRole(200),
    check: (res, caller, w) => {
      if (caller === 'other') assert.equal(json(res).account.tenant_id, w.other.account.tenant_id);
      else assert.equal(json(res).account.role, caller);
    },
  },
  'POST /api/v1/accounts/tokens': {
    request: () => ({ url: '/api/v1/accounts/tokens', payload: { name: 'matrix' } }),
    expect: everyRole(200),
  },
  'GET /api/v1/accounts/tokens': { request: () => ({ url: '/api/v1/accounts/tokens' }), expect: everyRole(200) },
  'DELETE /api/v1/accounts/tokens/{token_id}': {
    request: () => ({ url: `/api/v1/accounts/tokens/${randomUUID()}` }),
    expect: everyRole(404),
  },
  'GET /api/v1/workspace/members': { request: () => ({ url: '/api/v1/workspace/members' }), expect: adminOnly(200) },
  'GET /api/v1/workspace/invites': { request: () => ({ url: '/api/v1/workspace/invites' }), expect: adminOnly(200) },
  'POST /api/v1/workspace/invites': {
    request: () => ({
      url: '/api/v1/workspace/invites',
      payload: { email: `${fresh('m')}@matrix-invitee.review-tests.dev`, role: 'viewer' },
    }),
    expect: adminOnly(201),
  },
  'DELETE /api/v1/workspace/invites/{invitation_id}': {
    request: () => ({ url: `/api/v1/workspace/invites/${randomUUID()}` }),
    expect: adminOnly(404),
  },
  'PATCH /api/v1/workspace/members/{account_id}': {
    request: () => ({ url: `/api/v1/workspace/members/${randomUUID()}`, payload: { role: 'viewer' } }),
    expect: adminOnly(404),
  },
  'DELETE /api/v1/workspace/members/{account_id}': {
    request: () => ({ url: `/api/v1/workspace/members/${randomUUID()}` }),
    expect: adminOnly(404),
  },
  // The operator API takes the operator token only, and does not reveal itself to others.
  'GET /api/v1/operator/workspaces': {
    request: () => ({ url: '/api/v1/operator/workspaces' }),
    expect: everyRole(401),
  },
  'PUT /api/v1/operator/workspaces/{tenant_id}/subscription': {
    request: (w) => ({
      url: `/api/v1/operator/workspaces/${w.a.tenantId}/subscription`,
      payload: { plan_tier: 'enterprise' },
    }),
    expect: everyRole(401),
  },
  'POST /api/v1/admin/agents/events/invocation': {
    request: () => ({ url: '/api/v1/admin/agents/events/invocation', payload: { agent_key: 'matrix-writer' } }),
    expect: editors(201),
    check: (res, caller, w) =>
      assert.equal(json(res).tenant_id, caller === 'other' ? w.other.account.tenant_id : w.a.tenantId),
  },
  'POST /api/v1/gateway/decision': {
    // A Docker MCP Gateway before-interceptor body; allowed → 204 (each caller records in its own workspace).
    request: () => ({
      url: '/api/v1/gateway/decision?agent_key=matrix-writer',
      payload: { method: 'tools/call', params: { name: 'probe', arguments: {} } },
    }),
    expect: editors(204),
  },
  'POST /api/v1/invocations/{invocation_id}/output': {
    // A fresh invocation of workspace A each time: an attached output cannot be attached again (409).
    request: async (w) => {
      const r = await invoke(w.t, w.a.admin.token, { agent_key: 'matrix-writer', tool_name: 'probe' });
      return { url: `/api/v1/invocations/${r.invocation_id}/output`, payload: { tool_output: 'probe result' } };
    },
    // Another workspace's invocation is none of its own: 404.
    expect: editors(201, 404),
  },
  'POST /api/v1/invocations/outputs': {
    // A fresh invocation of workspace A each time, as for the single endpoint.
    request: async (w) => {
      const r = await invoke(w.t, w.a.admin.token, { agent_key: 'matrix-writer', tool_name: 'probe' });
      return {
        url: '/api/v1/invocations/outputs',
        payload: { outputs: [{ invocation_id: r.invocation_id, tool_output: 'probe result' }] },
      };
    },
    // The request is the caller's own workspace's; another workspace's invocation is none of its own: 404 in its slot.
    expect: editors(207),
    check: (res, caller) => assert.equal(json(res).results[0].status, caller === 'other' ? 404 : 201),
  },
  'POST /api/v1/admin/agents/events/rogue': {
    request: () => ({
      url: '/api/v1/admin/agents/events/rogue',
      payload: { agent_key: 'matrix-writer', event_type: 'probe' },
    }),
    expect: editors(201),
  },
  'POST /api/v1/admin/agents/events/batch': {
    request: () => ({
      url: '/api/v1/admin/agents/events/batch',
      payload: {
        events: [
          { kind: 'invocation', event: { agent_key: 'matrix-writer' } },
          { kind: 'rogue', event: { agent_key: 'matrix-writer', event_type: 'probe' } },
        ],
      },
    }),
    expect: editors(207),
    // Every item is recorded in the caller's own workspace (the other workspace's admin writes to its own).
    check: (res, caller, w) => {
      const results = json(res).results as { status: number; tenant_id?: string }[];
      assert.deepEqual(
        results.map((r) => r.status),
        [201, 201],
        res.body,
      );
      assert.equal(results[0]?.tenant_id, caller === 'other' ? w.other.account.tenant_id : w.a.tenantId);
    },
  },
  'POST /api/v1/otel/v1/traces': {
    request: () => ({
      url: '/api/v1/otel/v1/traces',
      payload: {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: randomUUID().replaceAll('-', ''),
                    spanId: '0123456789abcdef',
                    name: 'chat',
                    attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }],
                  },
                ],
              },
            ],
          },
        ],
      },
    }),
    expect: editors(200),
    // OTLP clients read a google.rpc.Status in the request's encoding (JSON here); its ErrorInfo names the problem code.
    errorBody: (res) => {
      assert.match(String(res.headers['content-type']), /^application\/json(;|$)/);
      const status = json(res) as { code: number; message: string; details: Array<{ reason: string; domain: string }> };
      assert.equal(status.code, res.statusCode === 401 ? 16 : 7);
      assert.ok(status.message.length > 0);
      assert.equal(status.details[0]?.domain, 'agent-ledger');
      return { code: String(status.details[0]?.reason) };
    },
  },
  'POST /api/v1/workspace/ingress-tokens': {
    request: () => ({ url: '/api/v1/workspace/ingress-tokens', payload: { name: 'matrix' } }),
    expect: adminOnly(201),
  },
  'GET /api/v1/workspace/ingress-tokens': {
    request: () => ({ url: '/api/v1/workspace/ingress-tokens' }),
    expect: adminOnly(200),
  },
  'DELETE /api/v1/workspace/ingress-tokens/{token_id}': {
    request: () => ({ url: `/api/v1/workspace/ingress-tokens/${randomUUID()}` }),
    expect: adminOnly(404),
  },
  // Auditors read the policy they audit; only admins change it (and agent scopes).
  'GET /api/v1/policy': { request: () => ({ url: '/api/v1/policy' }), expect: statuses([200, 200, 403, 200], 200) },
  'GET /api/v1/workspace/settings': { request: () => ({ url: '/api/v1/workspace/settings' }), expect: adminOnly(200) },
  'PATCH /api/v1/workspace/settings': {
    request: () => ({ url: '/api/v1/workspace/settings', payload: { one_workspace_per_domain: true } }),
    expect: adminOnly(200),
  },
  'PUT /api/v1/policy': {
    request: () => ({ url: '/api/v1/policy', payload: { default_verdict: 'allow', rules: [REVIEW_PAYMENTS] } }),
    expect: adminOnly(200),
  },
  'PUT /api/v1/agents/{agent_key}/scope': {
    request: () => ({
      url: '/api/v1/agents/matrix-scoped/scope',
      payload: { allowed_tools: ['search', 'payments.*'] },
    }),
    expect: adminOnly(200),
  },
  // Personas: admins write, every role reads; another workspace's admin gets a 404 for A's persona.
  'POST /api/v1/personas': {
    request: () => ({ url: '/api/v1/personas', payload: { name: fresh('matrix-persona') } }),
    expect: adminOnly(201),
  },
  'GET /api/v1/personas': {
    request: async (w) => (await sharedPersona(w), { url: '/api/v1/personas' }),
    expect: everyRole(200),
    check: (res, caller) => assert.equal(json(res).personas.length > 0, caller !== 'other'),
  },
  'GET /api/v1/personas/{persona_id}': {
    request: async (w) => ({ url: `/api/v1/personas/${await sharedPersona(w)}` }),
    expect: everyRole(200, 404),
  },
  'PUT /api/v1/personas/{persona_id}': {
    request: async (w) => ({
      url: `/api/v1/personas/${await sharedPersona(w)}`,
      payload: { name: 'matrix persona', allowed_tools: ['search'] },
    }),
    expect: adminOnly(200, 404),
  },
  'DELETE /api/v1/personas/{persona_id}': {
    // Only the admin's call deletes: it gets a persona of its own.
    request: async (w, caller) => ({
      url: `/api/v1/personas/${caller === 'admin' ? await newPersona(w) : await sharedPersona(w)}`,
    }),
    expect: adminOnly(204, 404),
  },
  'PUT /api/v1/agents/{agent_key}/persona': {
    request: async (w) => ({
      url: '/api/v1/agents/matrix-persona-agent/persona',
      payload: { persona_id: await sharedPersona(w) },
    }),
    expect: adminOnly(200, 404),
  },
  'GET /api/v1/workspace/judges': {
    request: () => ({ url: '/api/v1/workspace/judges' }),
    expect: statuses([200, 403, 403, 200], 200),
  },
  'PUT /api/v1/workspace/judges': {
    request: () => ({
      url: '/api/v1/workspace/judges',
      payload: {
        judges: [{ name: 'j', base_url: 'http://127.0.0.1:9/v1', model: 'm', api_key: 'k' }],
        quorum: 'majority',
        auto_resolve: false,
      },
    }),
    expect: adminOnly(200),
    check: (res) => assert.ok(!res.body.includes('"api_key"')),
  },
  'POST /api/v1/invocations/{invocation_id}/judge': {
    // A fresh invocation of workspace A for every call (one judgement may be pending at a time), with a panel to ask.
    request: async (w) => {
      const panel = {
        judges: [{ name: 'j', base_url: 'http://127.0.0.1:9/v1', model: 'm' }],
        quorum: 'majority',
        auto_resolve: false,
      };
      assert.equal(
        (await w.t.request({ method: 'PUT', url: '/api/v1/workspace/judges', token: w.a.admin.token, payload: panel }))
          .statusCode,
        200,
      );
      const r = await invoke(w.t, w.a.admin.token, { agent_key: w.agentKey, tool_name: 'kb.search' });
      return { url: `/api/v1/invocations/${r.invocation_id}/judge` };
    },
    expect: editors(202, 404),
    check: (res, caller) => {
      if (res.statusCode === 202) assert.equal(json(res).judgement.status, 'pending', caller);
    },
  },
  'GET /api/v1/audit/checkpoint': {
    request: () => ({ url: '/api/v1/audit/checkpoint' }),
    expect: everyRole(200),
    check: (res, caller, w) =>
      assert.ok(res.body.split('\n')[0]!.endsWith(caller === 'other' ? w.other.account.tenant_id : w.a.tenantId)),
  },
  'GET /api/v1/workspace/retention': {
    request: () => ({ url: '/api/v1/workspace/retention' }),
    expect: statuses([200, 403, 403, 200], 200),
  },
  'PUT /api/v1/workspace/retention': {
    request: () => ({ url: '/api/v1/workspace/retention', payload: { content_days: 400 } }),
    expect: adminOnly(200),
  },
  // An erasure that matches nothing of the matrix's data: only who may ask is tested here.
  'POST /api/v1/workspace/erasures': {
    request: () => ({ url: '/api/v1/workspace/erasures', payload: { agent_key: 'matrix-nobody' } }),
    expect: adminOnly(201),
  },
  'GET /api/v1/workspace/erasures': { request: () => ({ url: '/api/v1/workspace/erasures' }), expect: adminOnly(200) },
  // tlog-tiles: like the audit endpoints (the log is private by default); another workspace gets a 404.
  'GET /api/v1/audit/tlog/{tenant_id}/checkpoint': {
    request: (w) => ({ url: `/api/v1/audit/tlog/${w.a.tenantId}/checkpoint` }),
    expect: everyRole(200, 404),
  },
  'GET /api/v1/audit/tlog/{tenant_id}/tile/{*}': {
    request: (w) => ({ url: `/api/v1/audit/tlog/${w.a.tenantId}/tile/0/000.p/1` }),
    expect: everyRole(200, 404),
  },
  'GET /api/v1/workspace/transparency-log': {
    request: () => ({ url: '/api/v1/workspace/transparency-log' }),
    expect: everyRole(200),
  },
  'PUT /api/v1/workspace/transparency-log': {
    request: () => ({ url: '/api/v1/workspace/transparency-log', payload: { public: false } }),
    expect: adminOnly(200),
  },
  'GET /api/v1/audit/key': { request: () => ({ url: '/api/v1/audit/key' }), expect: everyRole(200) },
  'GET /api/v1/audit/entries/{index}': {
    request: () => ({ url: '/api/v1/audit/entries/0' }),
    expect: everyRole(200),
    check: (res, caller, w) =>
      assert.equal(JSON.parse(json(res).leaf).tenant_id, caller === 'other' ? w.other.account.tenant_id : w.a.tenantId),
  },
  'GET /api/v1/audit/entries': {
    request: () => ({ url: '/api/v1/audit/entries?start=0&end=2' }),
    expect: everyRole(200),
  },
  'GET /api/v1/audit/proof/inclusion': {
    request: () => ({ url: '/api/v1/audit/proof/inclusion?index=0&tree_size=2' }),
    expect: everyRole(200),
  },
  'GET /api/v1/audit/proof/consistency': {
    request: () => ({ url: '/api/v1/audit/proof/consistency?first=1&second=2' }),
    expect: everyRole(200),
  },
  'GET /api/v1/audit/evidence/{evidence_id}': {
    request: () => ({ url: '/api/v1/audit/evidence/1' }),
    expect: everyRole(200),
  },
  'GET /api/v1/reports/compliance': {
    request: (w) => ({
      url: `/api/v1/reports/compliance?from=2026-01-01T00:00:00Z&to=${new Date(w.t.clock.now().getTime() + 3_600_000).toISOString()}`,
    }),
    expect: statuses([200, 403, 403, 200], 200),
  },
  'GET /api/v1/invocations': {
    request: () => ({ url: '/api/v1/invocations?limit=500' }),
    expect: everyRole(200),
    check: (res, caller, w) => {
      const ids = json(res).items.map((i: { invocation_id: number }) => i.invocation_id);
      if (caller !== 'other') assert.ok(ids.includes(w.invocationId));
      assert.doesNotMatch(res.body, /"text"|"content"/);
    },
  },
  'GET /api/v1/invocations/{invocation_id}': {
    request: (w) => ({ url: `/api/v1/invocations/${w.invocationId}` }),
    expect: everyRole(200, 404),
    check: (res, caller, w) => {
      if (caller === 'other') return;
      const body = json(res);
      assert.equal(body.invocation_id, w.invocationId);
      assert.ok(body.finding_counts.length > 0);
      if (caller === 'viewer') {
        // Per the roles table, viewers never see stored content.
        assert.equal(body.content, undefined);
        assert.ok(!res.body.includes(w.contentMark));
      } else {
        assert.ok(body.content.some((c: { text: string | null }) => c.text?.includes(w.contentMark)));
      }
    },
  },
  'GET /api/v1/rogue-events': {
    request: () => ({ url: '/api/v1/rogue-events?limit=500' }),
    expect: everyRole(200),
    check: (res, caller, w) => {
      if (caller !== 'other') assert.ok(json(res).items.some((e: { agent_key: string }) => e.agent_key === w.agentKey));
    },
  },
  'GET /api/v1/agents': {
    request: () => ({ url: '/api/v1/agents?limit=500' }),
    expect: everyRole(200),
    check: (res, caller, w) => {
      if (caller !== 'other') assert.ok(json(res).items.some((a: { agent_key: string }) => a.agent_key === w.agentKey));
    },
  },
  'GET /api/v1/agents/{agent_key}': {
    request: (w) => ({ url: `/api/v1/agents/${w.agentKey}` }),
    expect: everyRole(200, 404),
  },
  'GET /api/v1/invocations/stats': {
    // One clock reading for both ends: read twice, a millisecond between them made a 25th bucket.
    request: () => {
      const until = Date.now();
      return {
        url: `/api/v1/invocations/stats?since=${encodeURIComponent(new Date(until - 86_400_000).toISOString())}&until=${encodeURIComponent(new Date(until).toISOString())}&bucket=hour`,
      };
    },
    expect: everyRole(200),
    check: (res) => assert.equal(json(res).buckets.length, 24),
  },
  'POST /api/v1/console/session': {
    request: () => ({
      url: '/api/v1/console/session',
      payload: { email: `nobody@${fresh('matrix-console')}.review-tests.dev`, code: '00000000' },
    }),
    expect: statuses([401, 401, 401, 401], 401, 401),
    check: (res) => assert.equal(json(res).code, 'invalid_code'),
  },
  // The console's own session endpoints answer cookie sessions only: a bearer token gets 404.
  'GET /api/v1/console/session': { request: () => ({ url: '/api/v1/console/session' }), expect: everyRole(404) },
  'DELETE /api/v1/console/session': { request: () => ({ url: '/api/v1/console/session' }), expect: everyRole(404) },
  'GET /api/v1/console/sessions': {
    request: () => ({ url: '/api/v1/console/sessions' }),
    expect: everyRole(200),
    check: (res) => assert.ok(Array.isArray(json(res).sessions)),
  },
  'DELETE /api/v1/console/sessions/{session_id}': {
    request: () => ({ url: `/api/v1/console/sessions/${randomUUID()}` }),
    expect: everyRole(404),
  },
  'POST /api/v1/reviews/lease': {
    request: () => ({ url: '/api/v1/reviews/lease', payload: {} }),
    expect: editors(200),
    check: (res) => assert.equal(typeof json(res).pending, 'number'),
  },
  'GET /api/v1/reviews': {
    request: () => ({ url: '/api/v1/reviews?status=pending&limit=500' }),
    expect: everyRole(200),
    check: (res, caller, w) => {
      if (caller !== 'other') assert.ok(json(res).items.some((i: { agent_key: string }) => i.agent_key === w.agentKey));
    },
  },
  'POST /api/v1/reviews/{invocation_id}': {
    // A fresh pending invocation of workspace A for every call.
    request: async (w) => {
      const r = await invoke(w.t, w.a.admin.token, { agent_key: w.agentKey, tool_name: 'payments.refund' });
      assert.equal(r.verdict, 'flag_for_review');
      return { url: `/api/v1/reviews/${r.invocation_id}`, payload: { decision: 'approve', note: 'matrix' } };
    },
    expect: statuses([201, 201, 403, 403], 404),
  },
  'GET /api/v1/approvals': {
    request: async (w) => {
      await held(w);
      return { url: '/api/v1/approvals?status=pending&limit=500' };
    },
    expect: everyRole(200),
    check: (res, caller, w) => {
      const items = json(res).items as Array<{ agent_key: string }>;
      if (caller === 'other') assert.deepEqual(items, []);
      else assert.ok(items.some((i) => i.agent_key === w.agentKey));
    },
  },
  'GET /api/v1/approvals/{approval_id}': {
    request: async (w) => ({ url: `/api/v1/approvals/${await held(w)}` }),
    expect: everyRole(200, 404),
  },
  'POST /api/v1/approvals/{approval_id}/decision': {
    // A fresh pending approval of workspace A for every call.
    request: async (w) => ({
      url: `/api/v1/approvals/${await held(w)}/decision`,
      payload: { decision: 'approve', note: 'matrix' },
    }),
    expect: statuses([200, 200, 403, 403], 404),
  },
  // Destinations are admins' only; another workspace's admin lists its own (none of A's) and gets 404 for A's.
  'POST /api/v1/destinations': {
    request: () => ({ url: '/api/v1/destinations', payload: destination('matrix-dest') }),
    expect: adminOnly(201),
    check: (res, caller) => {
      if (res.statusCode === 201) assert.match(json(res).secret as string, /^whsec_/, caller);
    },
  },
  'GET /api/v1/destinations': {
    request: async (w) => {
      await sharedDestination(w);
      return { url: '/api/v1/destinations' };
    },
    expect: adminOnly(200),
    check: (res, caller) => {
      const items = json(res).destinations as Array<{ name: string }>;
      if (caller === 'other') assert.ok(!items.some((i) => i.name.startsWith('matrix-shared')));
      else assert.ok(items.some((i) => i.name.startsWith('matrix-shared')));
    },
  },
  'GET /api/v1/destinations/{destination_id}': {
    request: async (w) => ({ url: `/api/v1/destinations/${await sharedDestination(w)}` }),
    expect: adminOnly(200, 404),
  },
  'PATCH /api/v1/destinations/{destination_id}': {
    request: async (w) => ({ url: `/api/v1/destinations/${await sharedDestination(w)}`, payload: { paused: true } }),
    expect: adminOnly(200, 404),
  },
  'DELETE /api/v1/destinations/{destination_id}': {
    // A fresh destination of workspace A for every call.
    request: async (w) => ({ url: `/api/v1/destinations/${await newDestination(w)}` }),
    expect: adminOnly(204, 404),
  },
  'GET /api/v1/destinations/{destination_id}/deliveries': {
    request: async (w) => ({ url: `/api/v1/destinations/${await sharedDestination(w)}/deliveries` }),
    expect: adminOnly(200, 404),
  },
  'POST /api/v1/destinations/{destination_id}/test': {
    request: async (w) => ({ url: `/api/v1/destinations/${await sharedDestination(w)}/test` }),
    expect: adminOnly(200, 404),
  },
};

/** A webhook destination body; nothing listens on port 9 of loopback, which the matrix does not need. */
function destination(label: string) {
  return { name: fresh(label), kind: 'webhook', url: 'http://127.0.0.1:9/hook', events: ['*'] };
}

async function newDestination(w: World, label = 'matrix-dest'): Promise<string> {
  const res = await w.t.request({
    method: 'POST',
    url: '/api/v1/destinations',
    token: w.a.admin.token,
    payload: destination(label),
  });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).destination_id as string;
}
const sharedDestinations = new WeakMap<World, Promise<string>>();
/** One destination of workspace A (per store's world) that the read and write rows use, created on first use. */
function sharedDestination(w: World): Promise<string> {
  let p = sharedDestinations.get(w);
  if (!p) sharedDestinations.set(w, (p = newDestination(w, 'matrix-shared')));
  return p;
}

/** A fresh held (enforced, hold rule) invocation of workspace A; its approval's id. */
async function held(w: World): Promise<string> {
  // Another row replaces A's policy: the hold rule is put back before each use.
  await setPolicy(w.t, w.a.admin.token, [
    REVIEW_PAYMENTS,
    { id: 'hold-matrix', when: { tools: ['matrix.hold'] }, verdict: 'allow', hold: true },
  ]);
  const res = await w.t.request({
    method: 'POST',
    url: '/api/v1/admin/agents/events/invocation',
    token: w.a.admin.token,
    payload: { agent_key: w.agentKey, tool_name: 'matrix.hold', mode: 'enforced' },
  });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).approval.approval_id as string;
}

/** The operations GET /openapi.json lists, as "METHOD /path". */
async function documentedOperations(t: TestService): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  const doc = json(res) as { paths: Record<string, Record<string, unknown>> };
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) {
      if (['get', 'put', 'post', 'patch', 'delete', 'head', 'options'].includes(method))
        ops.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return ops.sort();
}

eachStore('access: every endpoint × every caller', (getT) => {
  test('every documented endpoint has a row in the matrix, and every row an endpoint', async () => {
    const ops = await documentedOperations(getT());
    assert.ok(ops.length >= 30, `only ${ops.length} operations documented`);
    assert.deepEqual(
      ops.filter((o) => !(o in MATRIX)),
      [],
      'endpoints without access expectations: add a row to MATRIX in src/review/access-matrix.test.ts',
    );
    assert.deepEqual(
      Object.keys(MATRIX)
        .filter((k) => !ops.includes(k))
        .sort(),
      [],
      'rows for endpoints the service does not have',
    );
  });

  test('each endpoint answers each caller as the roles table says, and never with another workspace’s data', async () => {
    const t = getT();
    const a = await newTeam(t, 'matrix-a');
    const other = await t.signIn(`admin@${fresh('matrix-b')}.review-tests.dev`);
    // A revoked token of A's admin.
    const issued = await t.request({
      method: 'POST',
      url: '/api/v1/accounts/tokens',
      token: a.admin.token,
      payload: { name: 'to revoke' },
    });
    assert.equal(issued.statusCode, 200, issued.body);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/v1/accounts/tokens/${json(issued).token_id}`,
      token: a.admin.token,
    });
    assert.equal(del.statusCode, 204);
    // Workspace A's data: an invocation with content and findings, a rogue event, a pending review.
    const agentKey = fresh('matrix-secret-agent');
    const contentMark = fresh('MATRIXCONTENTMARK');
    await setPolicy(t, a.admin.token, [REVIEW_PAYMENTS]);
    // Invocation ids are per workspace: A's probed one is its third, an id the
    // other workspace (one invocation) does not have, so "other" must get 404.
    for (let i = 0; i < 2; i++) await invoke(t, a.admin.token, { agent_key: agentKey });
    const inv = await invoke(t, a.admin.token, {
      agent_key: agentKey,
      tool_name: 'payments.refund',
      prompt: `${contentMark} for ines.garcia@example.com`,
      correlation_id: 'matrix-run',
    });
    await rogue(t, a.admin.token, { agent_key: agentKey, event_type: 'matrix_probe' });
    // Both logs hold at least two entries under a signed checkpoint (for the proof endpoints).
    await invoke(t, other.token, { agent_key: 'b-agent' });
    for (const token of [a.admin.token, other.token]) {
      assert.equal((await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token })).statusCode, 200);
    }
    const w: World = {
      t,
      a,
      other,
      revoked: json(issued).token as string,
      marks: [a.tenantId, a.domain, agentKey, contentMark, 'ines.garcia'],
      agentKey,
      invocationId: inv.invocation_id,
      contentMark,
    };
    const tokenOf: Record<Caller, string | undefined> = {
      admin: a.admin.token,
      operator: a.operator.token,
      viewer: a.viewer.token,
      auditor: a.auditor.token,
      none: undefined,
      revoked: w.revoked,
      other: other.token,
    };

    const failures: string[] = [];
    let calls = 0;
    for (const op of await documentedOperations(t)) {
      const row = MATRIX[op];
      if (!row) continue; // reported by the test above
      const method = op.slice(0, op.indexOf(' ')) as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      for (const caller of CALLERS) {
        const call = await row.request(w, caller);
        const token = tokenOf[caller];
        const res = await t.request({
          method,
          url: call.url,
          ...(token ? { token } : {}),
          ...(call.payload === undefined ? {} : { payload: call.payload as object }),
        });
        calls += 1;
        const want: number = row.expect[caller];
        try {
          assert.equal(res.statusCode, want, `expected ${want}, got ${res.statusCode}: ${res.body.slice(0, 300)}`);
          assertNoLeak(res.body);
          if (res.statusCode >= 400) {
            const p: { code: string } = row.errorBody ? row.errorBody(res) : assertProblem(res, want);
            if (want === 401 && p.code === 'unauthorized') assert.equal(res.headers['www-authenticate'], 'Bearer');
            if (want === 403) assert.equal(p.code, 'forbidden');
            if (want === 404) assert.equal(p.code, 'not_found');
          } else {
            row.check?.(res, caller, w);
          }
          if (caller === 'other' || caller === 'none' || caller === 'revoked') {
            for (const mark of w.marks) assert.ok(!res.body.includes(mark), `the response shows workspace A's ${mark}`);
          }
        } catch (err) {
          failures.push(`${op} as ${caller}: ${(err as Error).message.split('\n')[0]}`);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(calls, Object.keys(MATRIX).length * CALLERS.length);
  });
});
