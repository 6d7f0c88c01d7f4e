import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { clipText, toolResultText, unprocessable } from '../core/index.ts';
import { bearer, problems } from '../http/index.ts';
import { type ApprovalRow } from './approvals.ts';
import { attachOutput } from './attach-output-routes.ts';
import { awaitApproval, closed } from './approval-routes.ts';
import type { ApprovalWatch } from './approval-watch.ts';
import type { EventGate } from './event-gate.ts';
import type { IngestDeps } from './deps.ts';
import { recordEvents } from './pipeline.ts';
import { IDEMPOTENCY_TTL_MS } from './idempotency.ts';

// The decision endpoint MCP gateways call around a tools/call, in the shapes
// their hooks send: Docker MCP Gateway's interceptors (`before` gets
// {method: "tools/call", params}, and an empty answer lets the call go on
// while a CallToolResult replaces it; `after` gets the CallToolResult) and
// IBM ContextForge's tool hooks ({hook_type: tool_pre_invoke |
// tool_post_invoke, payload, context} answered with a PluginResult). A
// before-hook records the call as an `enforced` invocation — through the same
// pipeline, policy, scope, rogue events and audit-trail leaf as
// POST /api/v1/admin/agents/events/invocation — and answers its verdict in the
// gateway's terms; a held call waits for its decision (up to `wait` seconds).
// A ContextForge post-hook's result is attached to its pre-hook's invocation as
// its tool_output; a Docker after-hook's (it names no call) is recorded as an
// `observed` invocation.

const GatewayQuery = Type.Object({
  agent_key: Type.String({ minLength: 1, maxLength: 512, description: 'The agent the calls are recorded for' }),
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 300,
      description:
        'Seconds a held call waits for its decision before it is refused as undecided (default 55; keep it below the gateway hook timeout)',
    }),
  ),
});

const GatewayBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'A Docker MCP Gateway interceptor body ({method: "tools/call", params: {name, arguments}} before; a CallToolResult after) or a ContextForge tool hook ({hook_type: "tool_pre_invoke" | "tool_post_invoke", payload: {name, args | result}, context})',
  },
);

const CallToolResult = Type.Object(
  {
    content: Type.Array(Type.Object({ type: Type.Literal('text'), text: Type.String() })),
    isError: Type.Literal(true),
  },
  { description: 'Docker before-hook refused: the call is answered with this result instead of running' },
);
const PluginResult = Type.Object(
  {
    continue_processing: Type.Boolean(),
    violation: Type.Optional(
      Type.Object({
        reason: Type.String(),
        description: Type.String(),
        code: Type.String(),
        details: Type.Record(Type.String(), Type.Unknown()),
      }),
    ),
  },
  { description: 'ContextForge: the PluginResult of the hook' },
);

type Call =
  | { gateway: 'docker'; phase: 'before'; name: string; args: unknown }
  | { gateway: 'docker'; phase: 'after'; result: unknown }
  | {
      gateway: 'contextforge';
      phase: 'before' | 'after';
      name: string;
      args: unknown;
      result: unknown;
      requestId: string | undefined;
      user: string | undefined;
      serverId: string | undefined;
    };

const str = (v: unknown, max: number) => (typeof v === 'string' && v.length > 0 ? v.slice(0, max) : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Which hook sent the body; 422 for a body of none of them. */
function callOf(body: Record<string, unknown>): Call {
  const params = obj(body.params);
  if (body.method === 'tools/call' && typeof params.name === 'string')
    return { gateway: 'docker', phase: 'before', name: params.name, args: params.arguments ?? {} };
  if (body.hook_type === 'tool_pre_invoke' || body.hook_type === 'tool_post_invoke') {
    const payload = obj(body.payload);
    const global = obj(obj(body.context).global_context);
    if (typeof payload.name === 'string')
      return {
        gateway: 'contextforge',
        phase: body.hook_type === 'tool_pre_invoke' ? 'before' : 'after',
        name: payload.name,
        args: payload.args ?? {},
        result: payload.result,
        requestId: str(global.request_id, 64),
        user: str(typeof global.user === 'object' ? obj(global.user).email : global.user, 512),
        serverId: str(global.server_id, 256),
      };
  }
  if (body.method === undefined && body.hook_type === undefined && Array.isArray(body.content))
    return { gateway: 'docker', phase: 'after', result: body };
  throw unprocessable(
    'The body is neither a Docker MCP Gateway interceptor body nor a ContextForge tool_pre_invoke / tool_post_invoke hook.',
    [
      {
        field: '/body',
        message: 'has no method "tools/call" with params.name, no hook_type with payload.name, and no content',
      },
    ],
  );
}

type GatewayDeps = IngestDeps & { watch: ApprovalWatch };

export async function gatewayRoutes(fastify: FastifyInstance, deps: GatewayDeps, hooks: EventGate): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/api/v1/gateway/decision',
    {
      config: { auth: 'ingest', roles: hooks.roles },
      preParsing: hooks.admit,
      onResponse: hooks.released,
      schema: {
        tags: ['events'],
        summary:
          "An MCP gateway's before/after tool-call hook: the call recorded and decided, answered in the hook's shape",
        description:
          'Docker MCP Gateway interceptors: before → 204 (no body: the call goes on) or 200 with a CallToolResult (isError) that replaces the call; after → 204. ContextForge tool_pre_invoke / tool_post_invoke → 200 PluginResult (continue_processing false with a violation when refused). A before-hook is an enforced invocation (policy, scope, rogue events, audit-trail leaf as the invocation endpoint); a held one waits for its decision up to `wait` seconds, then is refused as undecided. A ContextForge tool_post_invoke result is attached to the invocation its tool_pre_invoke recorded (same request_id) as its tool_output; a Docker after-hook (which names no call) records the result as an observed invocation.',
        security: bearer,
        querystring: GatewayQuery,
        body: GatewayBody,
        response: {
          200: Type.Union([CallToolResult, PluginResult]),
          204: Type.Null({ description: 'Docker: let the call go on (before), or the result recorded (after)' }),
          ...problems(400, 401, 402, 403, 413, 422, 429, 500),
        },
      },
    },
    async (req, reply) => {
      const call = callOf(req.body as Record<string, unknown>);
      const hook: Hook = { req, reply, deps, hooks, agent: req.query.agent_key, wait: req.query.wait ?? 55 };
      return call.phase === 'after' ? afterHook(hook, call) : beforeHook(hook, call);
    },
  );
}

/** One hook's request, what answers it and what records it. */
interface Hook {
  req: FastifyRequest;
  reply: FastifyReply;
  deps: GatewayDeps;
  hooks: EventGate;
  agent: string;
  /** Seconds a held call waits for its decision. */
  wait: number;
}

/** What an invocation recorded for a hook carries whatever its phase: agent, correlation, context, idempotency key. */
function eventBase(call: Call, agent: string) {
  const cf = call.gateway === 'contextforge' ? call : null;
  const context = (extra: Record<string, unknown>) =>
    clipText(
      JSON.stringify({
        source: 'gateway',
        gateway: call.gateway,
        hook: call.phase,
        ...(cf?.serverId ? { server_id: cf.serverId } : {}),
        ...extra,
      }),
    ).text;
  const common = {
    agent_key: agent,
    ...(cf?.requestId ? { correlation_id: cf.requestId } : {}),
    ...(cf?.user ? { principal_kind: 'user', principal_id: cf.user } : {}),
  };
  // ContextForge names each request: a retried hook records once.
  const key = cf?.requestId ? `gateway:contextforge:${cf.requestId}:${call.phase}` : undefined;
  return { cf, context, common, key };
}

/** An after-hook: the result attached to its pre-hook's invocation, or recorded as an observed one. */
async function afterHook(
  { req, reply, deps, hooks, agent }: Hook,
  call: Exclude<Call, { phase: 'before'; gateway: 'docker' }>,
) {
  const { cf, context, common, key } = eventBase(call, agent);
  const { text, isError } = toolResultText(call.result);
  const output = clipText(text);
  if (cf?.requestId && (await attachToPreHook(deps, hooks, req, cf.requestId, output.text))) {
    return reply.code(200).send({ continue_processing: true });
  }
  const event = {
    ...common,
    mode: 'observed',
    ...(call.gateway === 'contextforge' ? { tool_name: call.name.slice(0, 256) } : {}),
    tool_output: output.text,
    outcome: isError ? 'error' : 'success',
    context: context(output.cutFrom === null ? {} : { truncated: { tool_output: output.cutFrom } }),
  };
  const [r] = await recordEvents(deps, hooks.authorizer(req, undefined), [{ kind: 'invocation', event, key }]);
  if ('problem' in r!) throw r.problem;
  if (call.gateway === 'docker') return reply.code(204).send(null);
  return reply.code(200).send({ continue_processing: true });
}

/** What recording a before-hook's enforced invocation answered. */
type Recorded = {
  invocation_id: number;
  tenant_id: string;
  verdict: string;
  evidence_id?: number;
  reasons?: string[];
  approval?: { approval_id: string };
};

/** A before-hook: the call recorded as an enforced invocation, a held one awaited, the verdict answered in the gateway's shape. */
async function beforeHook(hook: Hook, call: Exclude<Call, { phase: 'after'; gateway: 'docker' }>) {
  const { req, reply, deps, hooks, agent } = hook;
  const { context, common, key } = eventBase(call, agent);
  const input = clipText(JSON.stringify(call.args ?? {}));
  const event = {
    ...common,
    mode: 'enforced',
    tool_name: call.name.slice(0, 256),
    tool_input: input.text,
    context: context(input.cutFrom === null ? {} : { truncated: { tool_input: input.cutFrom } }),
  };
  const [r] = await recordEvents(deps, hooks.authorizer(req, undefined), [{ kind: 'invocation', event, key }]);
  if ('problem' in r!) throw r.problem;
  const body = r!.body as Recorded;
  void reply.header('x-agent-ledger-invocation-id', String(body.invocation_id));
  let refusal: string | null = null;
  if (body.approval) {
    // Recorded: the workspace's share of the node is given back while the call waits for a person.
    await hooks.released(req);
    const row = await awaitApproval(
      deps,
      { tenantId: body.tenant_id, token: null },
      body.approval.approval_id,
      hook.wait * 1000,
      closed(reply),
    );
    if (row?.status !== 'approved') refusal = heldText(call.name, agent, body.invocation_id, row, hook.wait);
  } else if (body.verdict === 'deny') {
    const reasons = body.reasons?.length ? `: ${body.reasons.join(', ')}` : '';
    refusal = `agent-ledger denied ${call.name} for agent ${agent}${reasons} (invocation ${body.invocation_id}, evidence ${body.evidence_id ?? 'n/a'}).`;
  }
  return answerBefore(reply, call.gateway, body, refusal);
}

/** A before-hook's verdict in its gateway's terms: go on, or a refusal the gateway shows instead of the call. */
function answerBefore(reply: FastifyReply, gateway: Call['gateway'], body: Recorded, refusal: string | null) {
  void reply.header('x-agent-ledger-verdict', refusal === null ? 'allow' : 'deny');
  if (gateway === 'docker') {
    if (refusal === null) return reply.code(204).send(null);
    return reply.code(200).send({ content: [{ type: 'text', text: refusal }], isError: true });
  }
  if (refusal === null) return reply.code(200).send({ continue_processing: true });
  return reply.code(200).send({
    continue_processing: false,
    violation: {
      reason: body.approval ? 'Held for approval and not approved' : 'Denied by agent-ledger policy',
      description: refusal,
      code: body.approval ? 'AGENT_LEDGER_NOT_APPROVED' : 'AGENT_LEDGER_DENIED',
      details: {
        invocation_id: body.invocation_id,
        evidence_id: body.evidence_id ?? null,
        reasons: body.reasons ?? [],
        ...(body.approval ? { approval_id: body.approval.approval_id } : {}),
      },
    },
  });
}

/**
 * ContextForge names each request: a post-hook's result is attached to the
 * invocation its pre-hook recorded (found by that hook's idempotency key,
 * kept 24 h) as its tool_output — one invocation per call. False when there
 * is none (expired key, the pre-hook not recorded): the caller records the
 * result as an invocation of its own.
 */
async function attachToPreHook(
  deps: GatewayDeps,
  hooks: EventGate,
  req: FastifyRequest,
  requestId: string,
  text: string,
): Promise<boolean> {
  const auth = await hooks.authorizer(req, undefined)(false);
  const p = req.principal;
  const result = await deps.writer.submit(auth.tenantId, async (tx, log) => {
    const [k] = await tx.query<{ response: { body?: { invocation_id?: unknown } } }>(
      `SELECT response FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND created_at > $3
        ORDER BY created_at DESC LIMIT 1`,
      [
        auth.tenantId,
        `gateway:contextforge:${requestId}:before`,
        new Date(deps.ctx.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString(),
      ],
    );
    const id = k?.response?.body?.invocation_id;
    if (typeof id !== 'number') return null;
    return attachOutput(tx, log, {
      tenantId: auth.tenantId,
      invocationId: id,
      text,
      token: p?.kind === 'ingress' ? p.tokenId : null,
      kek: deps.outputKek,
      now: deps.ctx.now(),
      ...(deps.contentDaysSql ? { contentDaysSql: deps.contentDaysSql } : {}),
    });
  });
  if (result === null || (!result.ok && result.reason === 'not_found')) return false;
  // Attached now, or by a retry of this hook before (409): either way the call's result is there.
  if (result.ok) deps.jobsEnqueued();
  return true;
}

function heldText(tool: string, agent: string, invocationId: number, row: ApprovalRow | null, wait: number): string {
  const held = `agent-ledger held ${tool} for agent ${agent} for approval ${row?.approval_id ?? 'n/a'}`;
  if (row === null || row.status === 'pending')
    return `${held}, which was not decided within ${wait} s (invocation ${invocationId}); it is refused.`;
  if (row.status === 'expired')
    return `${held}, which was not approved before ${row.expires_at.toISOString()} (expired) (invocation ${invocationId}).`;
  const note = row.note ? `: ${row.note}` : '';
  return `${held}, which was denied by ${row.decided_by ?? 'n/a'}${note} (invocation ${invocationId}).`;
}
