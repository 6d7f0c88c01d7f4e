import type { FastifyInstance } from 'fastify';
import type { PlanCaps } from '../config/index.ts';
import type { AccountStatus, AppContext } from '../core/index.ts';
import { accountRoutes } from './account-routes.ts';
import { API_TOKENS } from './api-tokens.ts';
import { CONSOLE_SESSIONS } from './console-sessions.ts';
import type { AppendAudit, UsageSource } from './deps.ts';
import { adminsOf } from './domain-claim.ts';
import { getWorkspace, workspaceIds } from './directory.ts';
import { operatorRoutes } from './operator-routes.ts';
import { accountStatus, type WorkspacePlan } from './plans.ts';
import { sessionRoutes } from './session-routes.ts';
import { settingsRoutes } from './settings-routes.ts';
import { type ConfiguredToken, type StoredTokenKind, type TokenResolver, tokenResolver } from './token-resolver.ts';
import { workspaceRoutes } from './workspace-routes.ts';

export interface AccountsModule {
  /** Any bearer token as a principal: API tokens, the other modules' kinds (ingress tokens), OPERATOR_TOKEN, INGRESS_FALLBACK_TOKEN. */
  resolveBearer: TokenResolver;
  /** A console session token (the cookie's) as a principal. */
  resolveSession: TokenResolver;
  accountStatus(tenantId: string): Promise<AccountStatus | null>;
  /** Status and plan caps of a workspace, for the event endpoints' gate and caps. */
  workspacePlan(tenantId: string): Promise<{ status: AccountStatus; caps: PlanCaps; createdAt: Date } | null>;
  /** The e-mail addresses of a workspace's admins, for mail about the workspace (a failing destination). */
  adminEmails(tenantId: string): Promise<string[]>;
  /** Every workspace id, for sweeps across workspaces (retention). */
  workspaceIds(): Promise<string[]>;
  /** The stored plan and caps of a workspace (its status follows the clock: see accountStatus). */
  workspacePlanRecord(tenantId: string): Promise<{ plan: WorkspacePlan; caps: PlanCaps; createdAt: Date } | null>;
  routes(app: FastifyInstance): Promise<void>;
}

export function createAccounts(
  ctx: AppContext,
  opts: {
    pepper: Buffer;
    appendAudit: AppendAudit;
    usage: UsageSource;
    /** Stored token kinds of other modules (ingest's ingress tokens), resolved with API tokens. */
    tokenKinds: readonly StoredTokenKind[];
  },
): AccountsModule {
  const { tokenKinds, ...rest } = opts;
  const deps = { ctx, ...rest };
  // Every token becomes a principal the same way (token-resolver.ts); its kinds are their tables' owners' data.
  const configured: ConfiguredToken[] = [
    { secret: ctx.config.operatorToken, principal: { kind: 'operator' } },
    { secret: ctx.config.ingressFallbackToken, principal: { kind: 'fallback' } },
  ];
  return {
    resolveBearer: tokenResolver(ctx.db, ctx.now, [API_TOKENS, ...tokenKinds], configured),
    resolveSession: tokenResolver(ctx.db, ctx.now, [CONSOLE_SESSIONS]),
    async accountStatus(tenantId) {
      const ws = await getWorkspace(ctx.db, tenantId);
      return ws ? accountStatus(ws, ctx.now()) : null;
    },
    async workspacePlan(tenantId) {
      const ws = await getWorkspace(ctx.db, tenantId);
      return ws
        ? {
            status: accountStatus(ws, ctx.now()),
            caps: ctx.config.plans[ws.plan_tier],
            createdAt: new Date(ws.created_at),
          }
        : null;
    },
    adminEmails: (tenantId) => adminsOf(ctx.db, [tenantId]),
    workspaceIds: () => workspaceIds(ctx.db),
    async workspacePlanRecord(tenantId) {
      const ws = await getWorkspace(ctx.db, tenantId);
      return ws ? { plan: ws, caps: ctx.config.plans[ws.plan_tier], createdAt: new Date(ws.created_at) } : null;
    },
    async routes(app) {
      await accountRoutes(app, deps);
      await workspaceRoutes(app, deps);
      await sessionRoutes(app, deps);
      await settingsRoutes(app, deps);
      if (ctx.config.operatorToken !== undefined) await operatorRoutes(app, deps);
    },
  };
}
