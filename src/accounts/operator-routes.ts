import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { bearer, NullableTimestamp, PageQuery, problems, Uuid } from '../http/index.ts';
import { decodeCursor, notFound, page, unprocessable } from '../core/index.ts';
import type { AccountRouteDeps } from './deps.ts';
import { getWorkspace } from './directory.ts';
import { listWorkspaces, planView } from './plan-view.ts';
import { PlanTierSchema, PlanViewSchema, SubscriptionStatusSchema } from './schemas.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The operator API: registered only when OPERATOR_TOKEN is set. */
export async function operatorRoutes(fastify: FastifyInstance, deps: AccountRouteDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['operator'];

  app.get(
    '/api/v1/operator/workspaces',
    {
      config: { auth: 'operator' },
      schema: {
        tags,
        summary: 'Every workspace with plan, status and usage',
        security: bearer,
        querystring: Type.Object(PageQuery),
        response: {
          200: Type.Object({
            items: Type.Array(PlanViewSchema),
            next_cursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...problems(401, 422),
        },
      },
    },
    async (req) => {
      const after = decodeCursor(req.query.cursor)?.[0] ?? null;
      // The key goes into a uuid comparison: anything else is a forged cursor, not a 500.
      if (after !== null && (typeof after !== 'string' || !UUID_RE.test(after))) {
        throw unprocessable('The cursor is not one this service issued.', [
          { field: '/cursor', message: 'is invalid' },
        ]);
      }
      const rows = await listWorkspaces(ctx.db, after, req.query.limit + 1);
      const now = ctx.now();
      const out = page(rows, req.query.limit, (w) => [w.tenant_id]);
      return {
        items: await Promise.all(out.items.map((w) => planView(ctx.config, deps.usage, w, now))),
        next_cursor: out.next_cursor,
      };
    },
  );

  app.put(
    '/api/v1/operator/workspaces/:tenant_id/subscription',
    {
      config: { auth: 'operator' },
      schema: {
        tags,
        summary: "Change a workspace's plan, subscription state or trial end",
        security: bearer,
        params: Type.Object({ tenant_id: Uuid }),
        body: Type.Object({
          plan_tier: Type.Optional(PlanTierSchema),
          subscription_status: Type.Optional(SubscriptionStatusSchema),
          trial_ends_at: Type.Optional(NullableTimestamp),
        }),
        response: { 200: PlanViewSchema, ...problems(400, 401, 404, 422) },
      },
    },
    async (req) => {
      const { plan_tier, subscription_status, trial_ends_at } = req.body;
      if (plan_tier === undefined && subscription_status === undefined && trial_ends_at === undefined) {
        throw unprocessable('Name at least one of plan_tier, subscription_status, trial_ends_at.', [
          { field: '/', message: 'must set at least one field' },
        ]);
      }
      const ws = await ctx.db.transaction(async (tx) => {
        const before = await getWorkspace(tx, req.params.tenant_id);
        if (!before) return null;
        const [after] = await tx.query<{ tenant_id: string }>(
          `UPDATE workspaces SET
             plan_tier = COALESCE($2, plan_tier),
             subscription_status = COALESCE($3, subscription_status),
             trial_ends_at = CASE WHEN $4::boolean THEN $5::timestamptz ELSE trial_ends_at END
           WHERE tenant_id = $1 RETURNING tenant_id`,
          [
            req.params.tenant_id,
            plan_tier ?? null,
            subscription_status ?? null,
            trial_ends_at !== undefined,
            trial_ends_at ?? null,
          ],
        );
        const updated = await getWorkspace(tx, after!.tenant_id);
        await deps.appendAudit(tx, req.params.tenant_id, {
          kind: 'subscription_change',
          from: {
            plan_tier: before.plan_tier,
            subscription_status: before.subscription_status,
            trial_ends_at: before.trial_ends_at?.toISOString() ?? null,
          },
          to: {
            plan_tier: updated!.plan_tier,
            subscription_status: updated!.subscription_status,
            trial_ends_at: updated!.trial_ends_at?.toISOString() ?? null,
          },
          by: 'operator',
        });
        return updated;
      });
      if (!ws) throw notFound('No such workspace.');
      return planView(ctx.config, deps.usage, ws, ctx.now());
    },
  );
}
