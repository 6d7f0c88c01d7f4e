import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { accountOf, bearer, problems } from '../http/index.ts';
import { notFound } from '../core/index.ts';
import type { AccountRouteDeps } from './deps.ts';

const ADMIN = ['admin'] as const;

const SettingsSchema = Type.Object({
  domain: Type.String({ description: 'The company domain the workspace was started from' }),
  one_workspace_per_domain: Type.Boolean({
    description:
      "true (the default): a new address at `domain` cannot start a workspace of its own; it is told to ask this workspace's admins for an invitation, and the admins get a mail. false: anyone at the domain may start their own workspace.",
  }),
});

export async function settingsRoutes(fastify: FastifyInstance, deps: AccountRouteDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['workspace'];

  app.get(
    '/api/v1/workspace/settings',
    {
      config: { auth: 'account', roles: ADMIN },
      schema: {
        tags,
        summary: 'Workspace settings',
        security: bearer,
        response: { 200: SettingsSchema, ...problems(401, 403) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const [row] = await ctx.db.query<{ domain: string; one_workspace_per_domain: boolean }>(
        'SELECT domain, one_workspace_per_domain FROM workspaces WHERE tenant_id = $1',
        [me.tenantId],
      );
      if (!row) throw notFound();
      return row;
    },
  );

  app.patch(
    '/api/v1/workspace/settings',
    {
      config: { auth: 'account', roles: ADMIN, write: true },
      schema: {
        tags,
        summary: 'Change workspace settings (admins)',
        description: 'Each change is an audit-trail entry (`workspace_settings`).',
        security: bearer,
        body: Type.Object({ one_workspace_per_domain: Type.Boolean() }),
        response: { 200: SettingsSchema, ...problems(400, 401, 402, 403, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      return ctx.db.transaction(async (tx) => {
        const [row] = await tx.query<{ domain: string; one_workspace_per_domain: boolean }>(
          'UPDATE workspaces SET one_workspace_per_domain = $2 WHERE tenant_id = $1 RETURNING domain, one_workspace_per_domain',
          [me.tenantId, req.body.one_workspace_per_domain],
        );
        if (!row) throw notFound();
        await deps.appendAudit(tx, me.tenantId, {
          kind: 'workspace_settings',
          one_workspace_per_domain: row.one_workspace_per_domain,
          by_account_id: me.accountId,
        });
        return row;
      });
    },
  );
}
