import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, NullableTimestamp, PageQuery, problems, Timestamp, Uuid } from '../http/index.ts';
import { decodeCursor, notFound, page, unprocessable } from '../core/index.ts';
import type { IngestDeps } from './deps.ts';
import { issueIngressToken, listIngressTokens, revokeIngressToken } from './ingress-tokens.ts';

const ADMIN = ['admin'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IngressToken = Type.Object({
  token_id: Uuid,
  prefix: Type.String(),
  name: Type.String(),
  created_by: Uuid,
  created_at: Timestamp,
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
});

const tags = ['workspace'];

export async function ingressTokenRoutes(fastify: FastifyInstance, deps: IngestDeps): Promise<void> {
  issueRoute(fastify, deps);
  listRoute(fastify, deps);
  revokeRoute(fastify, deps);
}

/** An ingress token issued, its issue on the audit trail. */
function issueRoute(fastify: FastifyInstance, deps: IngestDeps): void {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/v1/workspace/ingress-tokens',
    {
      config: { auth: 'account', roles: ADMIN, write: true },
      schema: {
        tags,
        summary: 'Issue a scoped ingress token (the two event endpoints, this workspace only)',
        security: bearer,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          201: Type.Object({
            token: Type.String({ description: 'The secret; shown this once.' }),
            ...IngressToken.properties,
          }),
          ...problems(400, 401, 402, 403, 422),
        },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const issued = await ctx.db.transaction(async (tx) => {
        const t = await issueIngressToken(tx, me.tenantId, req.body.name, me.accountId, ctx.now());
        await deps.appendInTx(tx, me.tenantId, {
          kind: 'token_issued',
          token_kind: 'ingress',
          token_id: t.token_id,
          token_prefix: t.prefix,
          by_account_id: me.accountId,
        });
        return t;
      });
      return reply.code(201).send(issued);
    },
  );
}

/** The workspace's ingress tokens, a page at a time. */
function listRoute(fastify: FastifyInstance, deps: IngestDeps): void {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/v1/workspace/ingress-tokens',
    {
      config: { auth: 'account', roles: ADMIN },
      schema: {
        tags,
        summary: 'Ingress tokens of the workspace (never their secrets), oldest first',
        security: bearer,
        querystring: Type.Object(PageQuery),
        response: {
          200: Type.Object({ items: Type.Array(IngressToken), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
          ...problems(401, 403, 422),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const after = listCursor(req.query.cursor);
      const rows = await listIngressTokens(ctx.db, me.tenantId, after, req.query.limit + 1);
      return page(rows, req.query.limit, (r) => [r.created_at.toISOString(), r.token_id]);
    },
  );
}

/** An ingress token revoked, its revocation on the audit trail. */
function revokeRoute(fastify: FastifyInstance, deps: IngestDeps): void {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.delete(
    '/api/v1/workspace/ingress-tokens/:token_id',
    {
      config: { auth: 'account', roles: ADMIN },
      schema: {
        tags,
        summary: 'Revoke an ingress token; immediate on every node, allowed in every account status',
        security: bearer,
        params: Type.Object({ token_id: Uuid }),
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const r = await ctx.db.transaction(async (tx) => {
        const revoked = await revokeIngressToken(tx, me.tenantId, req.params.token_id, ctx.now());
        if (revoked) {
          await deps.appendInTx(tx, me.tenantId, {
            kind: 'token_revoked',
            token_kind: 'ingress',
            token_id: req.params.token_id,
            by_account_id: me.accountId,
          });
        }
        return revoked;
      });
      if (r === null) throw notFound('No such ingress token.');
      return reply.code(204).send(null);
    },
  );
}

/** Where a page of tokens starts: after the (created_at, token_id) a cursor names; 422 for a cursor this service did not issue. */
function listCursor(cursor: string | undefined): { createdAt: string; tokenId: string } | null {
  const key = decodeCursor(cursor);
  const [createdAt, tokenId] = key ?? [];
  if (
    key &&
    !(
      typeof createdAt === 'string' &&
      !Number.isNaN(Date.parse(createdAt)) &&
      typeof tokenId === 'string' &&
      UUID.test(tokenId)
    )
  ) {
    throw unprocessable('The cursor is not one this service issued.', [{ field: '/cursor', message: 'is invalid' }]);
  }
  return key ? { createdAt: createdAt as string, tokenId: tokenId as string } : null;
}
