import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, ContentText, NullableTimestamp, problems, Timestamp, Uuid } from '../http/index.ts';
import { unprocessable } from '../core/index.ts';
import {
  contentDays,
  DEFAULT_CONTENT_DAYS,
  erase,
  listErasures,
  MIN_CONTENT_DAYS,
  type RetentionDeps,
  setContentDays,
} from './retention.ts';

const tags = ['retention and erasure'];
const MAX_CONTENT_DAYS = 36_500;

const Retention = Type.Object({
  content_days: Type.Integer({
    description: 'Stored content older than this many days is deleted; metadata and leaves stay',
  }),
  minimum_days: Type.Integer(),
  default_days: Type.Integer(),
});

const Erasure = Type.Object({
  erasure_id: Uuid,
  requested_by: Uuid,
  requested_at: Timestamp,
  selects: Type.Array(Type.String(), {
    description: 'Which selectors were given (principal_id, agent_key, period); their values are not kept',
  }),
  period: Type.Union([Type.Object({ from: NullableTimestamp, to: NullableTimestamp }), Type.Null()]),
  counts: Type.Object({ invocations: Type.Integer(), fields: Type.Integer(), review_notes: Type.Integer() }),
  evidence_id: Type.Integer({ description: 'The erasure entry in the audit trail' }),
});

export async function retentionRoutes(fastify: FastifyInstance, deps: RetentionDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx } = deps;

  app.get(
    '/api/v1/workspace/retention',
    {
      config: { auth: 'account', roles: ['admin', 'auditor'] },
      schema: {
        tags,
        summary: 'How long stored content is kept',
        security: bearer,
        response: { 200: Retention, ...problems(401, 403) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const days = await ctx.readDb.withTenant(me.tenantId, (tx) => contentDays(tx, me.tenantId));
      return { content_days: days, minimum_days: MIN_CONTENT_DAYS, default_days: DEFAULT_CONTENT_DAYS };
    },
  );

  app.put(
    '/api/v1/workspace/retention',
    {
      config: { auth: 'account', roles: ['admin'], write: true },
      schema: {
        tags,
        summary: `Set how long stored content is kept (at least ${MIN_CONTENT_DAYS} days)`,
        description:
          'Appends a `retention_change` entry to the audit trail. A background sweep deletes content past it.',
        security: bearer,
        body: Type.Object(
          { content_days: Type.Integer({ minimum: MIN_CONTENT_DAYS, maximum: MAX_CONTENT_DAYS }) },
          { additionalProperties: false },
        ),
        response: { 200: Retention, ...problems(401, 402, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      await setContentDays(deps, me.tenantId, req.body.content_days, me.accountId);
      return {
        content_days: req.body.content_days,
        minimum_days: MIN_CONTENT_DAYS,
        default_days: DEFAULT_CONTENT_DAYS,
      };
    },
  );

  app.post(
    '/api/v1/workspace/erasures',
    {
      // Not `write`: an erasure owed to a data subject is not held back by an unpaid subscription.
      config: { auth: 'account', roles: ['admin'] },
      schema: {
        tags,
        summary: 'Erase the stored content of a data subject (principal_id), an agent, and/or a period',
        description:
          'Deletes the stored texts, their salts and finding positions of the matching invocations, and the notes of their reviews; ' +
          'invocation rows and every leaf stay, so the log, proofs and reports still verify. Appends an `erasure` entry ' +
          '(who asked, a commitment to the selector, the counts). `from`/`to` bound the invocation time, [from, to).',
        security: bearer,
        body: Type.Object(
          {
            principal_id: Type.Optional(ContentText({ minLength: 1, maxLength: 512 })),
            agent_key: Type.Optional(ContentText({ minLength: 1, maxLength: 512 })),
            from: Type.Optional(Type.String({ format: 'date-time' })),
            to: Type.Optional(Type.String({ format: 'date-time' })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Erasure, ...problems(401, 403, 422) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const b = req.body;
      if (b.principal_id === undefined && b.agent_key === undefined && b.from === undefined && b.to === undefined) {
        throw unprocessable('Name a principal_id, an agent_key and/or a period.', [
          { field: '', message: 'needs at least one selector' },
        ]);
      }
      const from = b.from === undefined ? undefined : new Date(b.from);
      const to = b.to === undefined ? undefined : new Date(b.to);
      if (from && to && from >= to)
        throw unprocessable('from must be before to.', [{ field: '/from', message: 'must be before to' }]);
      const record = await erase(
        deps,
        me.tenantId,
        {
          ...(b.principal_id !== undefined ? { principalId: b.principal_id } : {}),
          ...(b.agent_key !== undefined ? { agentKey: b.agent_key } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
        },
        me.accountId,
      );
      return reply.code(201).send(record);
    },
  );

  app.get(
    '/api/v1/workspace/erasures',
    {
      config: { auth: 'account', roles: ['admin'] },
      schema: {
        tags,
        summary: 'The erasures of this workspace, newest first (at most 1,000)',
        security: bearer,
        response: { 200: Type.Object({ items: Type.Array(Erasure) }), ...problems(401, 403) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      return { items: await ctx.readDb.withTenant(me.tenantId, (tx) => listErasures(tx, me.tenantId)) };
    },
  );
}
