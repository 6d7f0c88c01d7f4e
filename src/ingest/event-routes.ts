import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountStatus } from '../core/identity.ts';
import { paymentRequired } from '../core/problems.ts';
import { badRequest, forbidden, HttpProblem, rateLimited, unauthorized, unprocessable } from '../core/problems.ts';
import { bearer, problems } from '../http/schemas.ts';
import { secondsToUtcMidnight } from '../accounts/plans.ts';
import type { PlanCaps } from '../config/config.ts';
import type { IngestDeps } from './ingest.ts';
import { newSalt } from '../ledger/leaf.ts';
import { redactMeta } from './metadata.ts';
import { scanContent, unstorableFields, type InvocationInput, type PreparedInvocation, type RogueInput } from './prepare.ts';
import { insertRogue, recordInvocation, type Refusal, type RogueRecord } from './record.ts';
import { InvocationBody, InvocationCreated, RogueBody, RogueCreated } from './schemas.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WRITERS = ['admin', 'operator'] as const;
/** The body fields that are stored or signed: the documented ones but tenant_id (unknown fields are ignored). */
const storedFields = (schema: { properties: object }) => Object.keys(schema.properties).filter((k) => k !== 'tenant_id');
const INVOCATION_FIELDS = storedFields(InvocationBody);
const ROGUE_FIELDS = storedFields(RogueBody);

export async function eventRoutes(fastify: FastifyInstance, deps: IngestDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['events'];

  /**
   * The workspace an event is for. API and scoped tokens decide it themselves
   * (a tenant_id in the body is ignored, even another workspace's); the
   * fallback token must name an existing one. Then the workspace must be active.
   */
  async function workspaceFor(req: FastifyRequest, bodyTenant: string | undefined): Promise<{ tenantId: string; caps: PlanCaps }> {
    const p = req.principal;
    let tenantId: string;
    if (p?.kind === 'account' || p?.kind === 'ingress') tenantId = p.tenantId;
    else if (p?.kind === 'fallback') {
      if (bodyTenant === undefined) throw forbidden('The fallback ingress token needs a tenant_id in the body.');
      if (!UUID.test(bodyTenant)) throw forbidden('Unknown workspace.');
      tenantId = bodyTenant.toLowerCase();
    } else throw unauthorized();
    const plan = await deps.workspacePlan(tenantId);
    if (!plan) throw forbidden('Unknown workspace.');
    if (plan.status !== 'active') throw paymentRequired(plan.status as Exclude<AccountStatus, 'active'>);
    return { tenantId, caps: plan.caps };
  }

  function rejectUnstorable(body: Record<string, unknown>, fields: readonly string[]) {
    const bad = unstorableFields(body, fields);
    if (bad.length > 0) {
      throw unprocessable('Text fields must be valid Unicode without NUL characters.', bad.map((f) => ({ field: `/${f}`, message: 'must be valid Unicode text without U+0000' })));
    }
  }

  function refusal(r: Refusal, caps: PlanCaps): HttpProblem {
    if (r.refused === 'plan_limit') {
      return new HttpProblem('plan_limit', `The plan allows ${caps.agents} agents; upgrade to register more.`);
    }
    return rateLimited(secondsToUtcMidnight(ctx.now()), 'quota_exceeded', `The plan allows ${caps.invocations_per_day} invocations a day; the count resets at 00:00 UTC.`);
  }

  app.post(
    '/api/v1/admin/agents/events/invocation',
    {
      config: { auth: 'ingest', roles: WRITERS },
      schema: {
        tags,
        summary: 'Record an agent invocation; the verdict is decided before the write',
        security: bearer,
        body: InvocationBody,
        response: { 201: InvocationCreated, ...problems(400, 401, 402, 403, 413, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      const body = req.body as InvocationInput;
      rejectUnstorable(body, INVOCATION_FIELDS);
      const { tenantId, caps } = await workspaceFor(req, body.tenant_id);
      const prepared = await prepareInvocation(deps, tenantId, body);
      const now = ctx.now();
      const result = await deps.writer.submit(tenantId, (tx, log) => recordInvocation(tx, log, prepared, caps, deps.knownAgents, now));
      if ('refused' in result) throw refusal(result, caps);
      deps.knownAgents.add(tenantId, body.agent_key);
      ctx.metrics.events.inc({ kind: 'invocation', verdict: prepared.decision.verdict });
      deps.afterInvocation?.(tenantId, result.invocation_id, prepared);
      return reply.code(201).send({
        invocation_id: result.invocation_id,
        tenant_id: tenantId,
        verdict: prepared.decision.verdict,
        evidence_id: result.evidence_id,
        ...(prepared.piiCount !== undefined ? { pii_count: prepared.piiCount } : {}),
      });
    },
  );

  app.post(
    '/api/v1/admin/agents/events/rogue',
    {
      config: { auth: 'ingest', roles: WRITERS },
      schema: {
        tags,
        summary: 'Record an out-of-scope ("rogue") action of an agent',
        security: bearer,
        body: RogueBody,
        response: { 201: RogueCreated, ...problems(400, 401, 402, 403, 413, 422, 500) },
      },
    },
    async (req, reply) => {
      const body = req.body;
      rejectUnstorable(body, ROGUE_FIELDS);
      if (body.event_type === 'oos_tool' && (body.tool === undefined || body.tool === '')) {
        throw badRequest('An oos_tool event must name the tool.');
      }
      const { tenantId } = await workspaceFor(req, body.tenant_id);
      // Only the documented fields: an unknown one (say invocation_id, which only
      // the service itself sets) must not reach the row or the leaf.
      const event = await prepareRogue(deps, tenantId, body);
      const now = ctx.now();
      await deps.writer.submit(tenantId, (tx, log) => insertRogue(tx, log, tenantId, event, now));
      ctx.metrics.events.inc({ kind: 'rogue', verdict: 'n/a' });
      return reply.code(201).send({ accepted: true as const, event_type: body.event_type, tenant_id: tenantId });
    },
  );
}

/**
 * A rogue event as it will be stored: identifiers as sent, free-form fields
 * redacted, pseudonyms of its agent and (stored) type taken.
 */
async function prepareRogue(deps: IngestDeps, tenantId: string, body: RogueInput): Promise<RogueRecord> {
  // Only the documented fields: an unknown one (say invocation_id, which only
  // the service itself sets) must not reach the row or the leaf.
  const { agent_key, actor_agent_key, user_id } = body;
  const event_type = redactMeta(deps.scan, body.event_type);
  const [agent, type] = await Promise.all([
    deps.pseudonym(tenantId, 'agent', agent_key),
    deps.pseudonym(tenantId, 'rogue_event_type', event_type),
  ]);
  return {
    event_type,
    agent_key,
    actor_agent_key,
    tool: redactMeta(deps.scan, body.tool),
    user_id,
    severity: redactMeta(deps.scan, body.severity),
    source: redactMeta(deps.scan, body.source),
    pseudonyms: { agent, type },
  };
}

async function prepareInvocation(deps: IngestDeps, tenantId: string, body: InvocationInput): Promise<PreparedInvocation> {
  const { content, findings, piiCount } = scanContent(body, deps.scan, { kek: deps.outputKek, tenantId });
  const mode = body.mode ?? 'observed';
  const outcome = body.outcome ?? 'success';
  const principalId = body.principal_id ?? body.agent_key;
  const policy = await deps.policyFor(tenantId);
  const toolInScope = body.tool_name === undefined ? undefined : await deps.toolInScope(tenantId, body.agent_key, body.tool_name);
  const persona = await deps.personaOf(tenantId, body.agent_key);
  const agentPseudonym = await deps.pseudonym(tenantId, 'agent', body.agent_key);
  // Policy decides on what was sent; the row and the leaf get the redacted form.
  const toolName = redactMeta(deps.scan, body.tool_name);
  const outOfScope: RogueRecord | undefined =
    toolInScope === false && toolName !== undefined
      ? {
          event_type: 'oos_tool',
          agent_key: body.agent_key,
          tool: toolName,
          source: 'agent-ledger',
          severity: mode === 'shadow' ? 'info' : 'high',
          pseudonyms: { agent: agentPseudonym, type: await deps.pseudonym(tenantId, 'rogue_event_type', 'oos_tool') },
        }
      : undefined;
  const decision = policy.decide({
    agent_key: body.agent_key,
    tool_name: body.tool_name,
    mode,
    outcome,
    principal_kind: body.principal_kind,
    principal_id: principalId,
    findings,
    tool_in_scope: toolInScope,
    persona,
  });
  return {
    tenantId,
    agentKey: body.agent_key,
    agentPseudonym,
    mode,
    outcome: redactMeta(deps.scan, outcome),
    durationMs: body.duration_ms,
    principalKind: body.principal_kind,
    principalId,
    parentInvocationId: body.parent_invocation_id,
    correlationId: redactMeta(deps.scan, body.correlation_id),
    toolName,
    content,
    findings,
    piiCount,
    decision,
    policyVersion: policy.version,
    toolInScope,
    metaSalt: newSalt(),
    outOfScope,
  };
}
