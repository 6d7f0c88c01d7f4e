import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../core/index.ts';
import { accountOf, bearer, limiter, problems, Uuid } from '../http/index.ts';
import { issueApiToken, listOwnTokens, revokeApiToken } from './api-tokens.ts';
import type { AccountRouteDeps } from './deps.ts';
import { accountView, displayNameOf, getWorkspace } from './directory.ts';
import { normalizeEmail, requireEmail } from './email-domains.ts';
import { planView } from './plan-view.ts';
import { AccountSchema, Email, IssuedTokenSchema, PlanViewSchema, TokenListItem } from './schemas.ts';
import { invalidCode, requestCode, verifyCode } from './signin.ts';

export async function accountRoutes(fastify: FastifyInstance, deps: AccountRouteDeps): Promise<void> {
  const { ctx } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['accounts'];

  const normalized = (req: { body: unknown }) => {
    const email = (req.body as { email?: unknown })?.email;
    return typeof email === 'string' ? (normalizeEmail(email)?.email ?? email.toLowerCase()) : '';
  };

  app.post(
    '/api/v1/accounts/signup',
    {
      schema: {
        tags,
        summary: 'Send a one-time sign-in code to an address',
        description:
          'Creates a workspace (corporate domains), signs in an existing account or joins an invitation once the code is verified. The answer is the same whether or not the account exists.',
        body: Type.Object({ email: Email }),
        response: {
          200: Type.Object({ status: Type.Literal('verification_sent') }),
          ...problems(400, 422, 429),
        },
      },
      preHandler: [
        limiter(app, 'signup-ip', ctx.config.signupLimitPerIp, ctx.config.signupLimitWindow, (req) => req.ip),
        limiter(app, 'signup-email', ctx.config.signupLimitPerEmail, ctx.config.signupLimitWindow, normalized),
      ],
    },
    async (req) => {
      const norm = requireEmail(req.body.email);
      await requestCode(deps, norm.email, norm.domain);
      return { status: 'verification_sent' as const };
    },
  );

  app.post(
    '/api/v1/accounts/verify',
    {
      schema: {
        tags,
        summary: 'Exchange a sign-in code for an API token',
        body: Type.Object({ email: Email, code: Type.String({ minLength: 1, maxLength: 32 }) }),
        response: {
          200: Type.Object({ ...IssuedTokenSchema.properties, account: AccountSchema }),
          ...problems(400, 401, 422, 429),
        },
      },
      preHandler: [
        limiter(app, 'verify-ip', ctx.config.signupLimitPerIp * 5, ctx.config.signupLimitWindow, (req) => req.ip),
      ],
    },
    async (req) => {
      const norm = normalizeEmail(req.body.email);
      if (!norm) throw invalidCode();
      return verifyCode(deps, norm.email, norm.domain, req.body.code.trim());
    },
  );

  app.get(
    '/api/v1/accounts/me',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Session info: account, plan, status and live quotas',
        security: bearer,
        response: {
          200: Type.Object({
            account: AccountSchema,
            plan_tier: PlanViewSchema.properties.plan_tier,
            quotas: PlanViewSchema.properties.quotas,
            display_name: Type.String(),
            subscription_status: PlanViewSchema.properties.subscription_status,
            trial_ends_at: PlanViewSchema.properties.trial_ends_at,
            account_status: PlanViewSchema.properties.account_status,
            trial_days_remaining: PlanViewSchema.properties.trial_days_remaining,
          }),
          ...problems(401),
        },
      },
    },
    async (req) => {
      const me = accountOf(req);
      const ws = await getWorkspace(ctx.db, me.tenantId);
      if (!ws) throw notFound();
      const view = await planView(ctx.config, deps.usage, ws, ctx.now());
      return {
        account: accountView({ account_id: me.accountId, tenant_id: me.tenantId, email: me.email, role: me.role }, ws),
        plan_tier: view.plan_tier,
        quotas: view.quotas,
        display_name: displayNameOf(me.email),
        subscription_status: view.subscription_status,
        trial_ends_at: view.trial_ends_at,
        account_status: view.account_status,
        trial_days_remaining: view.trial_days_remaining,
      };
    },
  );

  app.post(
    '/api/v1/accounts/tokens',
    {
      config: { auth: 'account', write: true },
      schema: {
        tags,
        summary: 'Issue a new API token for the caller',
        security: bearer,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: IssuedTokenSchema, ...problems(400, 401, 402, 422) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      return ctx.db.transaction(async (tx) => {
        const issued = await issueApiToken(tx, me.tenantId, me.accountId, req.body.name, ctx.now());
        await deps.appendAudit(tx, me.tenantId, {
          kind: 'token_issued',
          token_id: issued.token_id,
          token_prefix: issued.prefix,
          account_id: me.accountId,
          by_account_id: me.accountId,
        });
        return issued;
      });
    },
  );

  app.get(
    '/api/v1/accounts/tokens',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: "The caller's own API tokens (never their secrets)",
        security: bearer,
        response: { 200: Type.Object({ tokens: Type.Array(TokenListItem) }), ...problems(401) },
      },
    },
    async (req) => {
      const me = accountOf(req);
      return { tokens: await listOwnTokens(ctx.db, me.tenantId, me.accountId) };
    },
  );

  app.delete(
    '/api/v1/accounts/tokens/:token_id',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Revoke an API token (own, or any of the workspace for admins); immediate on every node',
        security: bearer,
        params: Type.Object({ token_id: Uuid }),
        response: { 204: Type.Null({ description: 'Revoked' }), ...problems(401, 404) },
      },
    },
    async (req, reply) => {
      const me = accountOf(req);
      const done = await ctx.db.transaction(async (tx) => {
        const r = await revokeApiToken(
          tx,
          { tenantId: me.tenantId, accountId: me.accountId, role: me.role },
          req.params.token_id,
          ctx.now(),
        );
        if (r?.newly) {
          await deps.appendAudit(tx, me.tenantId, {
            kind: 'token_revoked',
            token_id: req.params.token_id,
            account_id: r.account_id,
            by_account_id: me.accountId,
          });
        }
        return r;
      });
      if (!done) throw notFound('No such token.');
      return reply.code(204).send(null);
    },
  );
}
