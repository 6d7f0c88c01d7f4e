import { setImmediate } from 'node:timers/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, bearerToken, type HttpProblem } from '../core/index.ts';
import { bearer, problems, validationProblem, validatorCompiler } from '../http/index.ts';
import type { ApprovalWatch } from './approval-watch.ts';
import { attachOutputRoutes } from './attach-output-routes.ts';
import { EVENT_WRITERS } from './event-authorizer.ts';
import { gatewayRoutes } from './gateway-routes.ts';
import { reservedKey } from './idempotency.ts';
import type { EventGate } from './event-gate.ts';
import type { IngestDeps } from './deps.ts';
import { type EventInput, type EventKind, type EventResult, recordEvents } from './pipeline.ts';

const validators = {
  invocation: validatorCompiler({ schema: InvocationBody, httpPart: 'body', method: 'POST', url: '' }),
  rogue: validatorCompiler({ schema: RogueBody, httpPart: 'body', method: 'POST', url: '' }),
} as unknown as Record<EventKind, ((v: unknown) => boolean) & { errors?: never[] | null }>;

/** A batch item (or an OTLP-built event) checked as its single endpoint checks its body. */
export function validateEvent(kind: EventKind, event: unknown): void {
  const validate = validators[kind];
  if (!validate(event)) throw validationProblem(validate.errors ?? [], 'body');
}
import {
  BATCH_BODY_LIMIT,
  BatchBody,
  BatchResults,
  IdempotencyKeyHeader,
  InvocationBody,
  InvocationCreated,
  RogueBody,
  RogueCreated,
} from './schemas.ts';

const WRITERS = EVENT_WRITERS;
const FALLBACK_NEEDS_TENANT = 'The fallback ingress token needs a tenant_id in the body.';
/** Idempotency-Key: 1-255 printable ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

export async function eventRoutes(fastify: FastifyInstance, deps: IngestDeps, watch: ApprovalWatch): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const gate = { authorizer: requestAuthorizer(deps), ...admission(deps), roles: WRITERS };
  singleRoutes(fastify, deps, gate);
  batchRoute(fastify, deps, gate);
  // MCP gateways' hooks: the invocation endpoint's authorization, admission and pipeline, the gateways' shapes.
  await gatewayRoutes(app, { ...deps, watch }, gate);
  // A call's result attached to its invocation after the call ran: the invocation endpoint's authorization and admission.
  await attachOutputRoutes(app, deps, gate);
}

const tags = ['events'];

/** A request's authorization (event-authorizer.ts); the fallback token names its workspace in the body. */
function requestAuthorizer(deps: IngestDeps) {
  return (req: FastifyRequest, bodyTenant: string | undefined) =>
    deps.authorizer.request(req, bearerToken(req.headers.authorization), {
      named: () => bodyTenant,
      missing: FALLBACK_NEEDS_TENANT,
    });
}

function idempotencyKey(req: FastifyRequest): string | undefined {
  const v = req.headers['idempotency-key'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !IDEMPOTENCY_KEY.test(v))
    throw badRequest('Idempotency-Key must be 1-255 printable ASCII characters.');
  const reserved = reservedKey(v, '/headers/idempotency-key');
  if (reserved) throw reserved;
  return v;
}

function answerOne(reply: FastifyReply, r: EventResult, replayHeader: boolean) {
  if ('problem' in r) throw r.problem;
  if (replayHeader && r.replayed) void reply.header('idempotent-replayed', 'true');
  return reply.code(201).send(r.body);
}

/**
 * Each workspace's share of this node (admission.ts), taken before the body
 * is read: the authentication hook has named the workspace by then. A
 * body without Content-Length (chunked) counts as the route's body limit.
 */
function admission(deps: IngestDeps) {
  const admitted = new WeakMap<FastifyRequest, () => void>();
  const admit = async (req: FastifyRequest, reply: FastifyReply) => {
    const limit = req.routeOptions.bodyLimit ?? BATCH_BODY_LIMIT;
    const p = req.principal;
    // The fallback token names its workspace in the body: its requests share one room.
    const room = p && (p.kind === 'account' || p.kind === 'ingress') ? p.tenantId : 'fallback';
    const length = Number(req.headers['content-length']);
    const release = await deps.admission.enter(
      room,
      Number.isSafeInteger(length) && length >= 0 ? Math.min(length, limit) : limit,
    );
    admitted.set(req, release);
    // Answered, or the client gone (while it waited too): the room is given back.
    if (reply.raw.destroyed || req.raw.destroyed) release();
    else reply.raw.once('close', release);
  };
  const released = async (req: FastifyRequest) => admitted.get(req)?.();
  return { admit, released };
}

/** The invocation and rogue endpoints: one event a request. */
function singleRoutes(fastify: FastifyInstance, deps: IngestDeps, gate: EventGate): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const single = (kind: EventInput['kind']) => async (req: FastifyRequest, reply: FastifyReply) => {
    const key = idempotencyKey(req);
    const body = req.body as { tenant_id?: string };
    // Deciding an event (its detectors run here, on this thread) waits for the I/O callbacks of
    // this turn: the database's answers that move the log on (a lock granted, a commit to
    // answer) then come before it instead of after every request that arrived with them.
    // Content singles 1.12-1.16x (ingest-ab, 10 of 10 pairs twice), metadata singles and
    // batches unchanged (docs/performance.md).
    await setImmediate();
    const [r] = await recordEvents(deps, gate.authorizer(req, body.tenant_id), [{ kind, event: body, key }]);
    return answerOne(reply, r!, true);
  };
  const idempotencyHeader = { headers: IdempotencyKeyHeader };

  app.post(
    '/api/v1/admin/agents/events/invocation',
    {
      config: { auth: 'ingest', roles: gate.roles },
      preParsing: gate.admit,
      onResponse: gate.released,
      schema: {
        tags,
        summary: 'Record an agent invocation; the verdict is decided before the write',
        security: bearer,
        ...idempotencyHeader,
        body: InvocationBody,
        response: { 201: InvocationCreated, ...problems(400, 401, 402, 403, 413, 422, 429, 500) },
      },
    },
    single('invocation'),
  );

  app.post(
    '/api/v1/admin/agents/events/rogue',
    {
      config: { auth: 'ingest', roles: gate.roles },
      preParsing: gate.admit,
      onResponse: gate.released,
      schema: {
        tags,
        summary: 'Record an out-of-scope ("rogue") action of an agent',
        security: bearer,
        ...idempotencyHeader,
        body: RogueBody,
        response: { 201: RogueCreated, ...problems(400, 401, 402, 403, 413, 422, 429, 500) },
      },
    },
    single('rogue'),
  );
}

/** Up to 500 events a request, each answered as its single endpoint would. */
function batchRoute(fastify: FastifyInstance, deps: IngestDeps, gate: EventGate): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/v1/admin/agents/events/batch',
    {
      config: { auth: 'ingest', roles: gate.roles },
      bodyLimit: BATCH_BODY_LIMIT,
      preParsing: gate.admit,
      onResponse: gate.released,
      schema: {
        tags,
        summary: 'Record up to 500 events in one request; each gets the answer its single endpoint would give',
        security: bearer,
        body: BatchBody,
        response: { 207: BatchResults, ...problems(400, 401, 402, 403, 413, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      const { events, tenant_id } = req.body;
      // An event_id in the reserved key space is that item's 422; the others are recorded.
      const refused = events.map((e, i) =>
        e.event_id === undefined ? undefined : reservedKey(e.event_id, `/events/${i}/event_id`),
      );
      const inputs: EventInput[] = events.flatMap((e, i) =>
        refused[i] ? [] : [{ kind: e.kind, event: e.event, key: e.event_id }],
      );
      const recorded = await recordEvents(deps, gate.authorizer(req, tenant_id), inputs, { validate: validateEvent });
      let next = 0;
      const results: EventResult[] = refused.map((p) => (p ? { status: p.status, problem: p } : recorded[next++]!));
      return reply
        .code(207)
        .send({ results: results.map((r, index) => batchItem(req, events[index]!.event_id, r, index)) });
    },
  );
}

/** One batch item's answer: its status and body, or its problem (a 5xx logged, as a single one would be). */
function batchItem(req: FastifyRequest, eventId: string | undefined, r: EventResult, index: number) {
  const event_id = eventId ?? null;
  if ('problem' in r) {
    if (r.status >= 500)
      req.log.error({ err: (r.problem as { cause?: unknown }).cause, index }, 'batch item not stored');
    const p: HttpProblem = r.problem;
    return {
      index,
      event_id,
      status: r.status,
      code: p.code,
      detail: p.message,
      ...(p.errors ? { errors: p.errors } : {}),
    };
  }
  return { index, event_id, status: 201, ...r.body };
}
