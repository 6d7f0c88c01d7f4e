import type { FastifyInstance } from 'fastify';
import type { UsageSource } from '../accounts/deps.ts';
import type { PlanCaps } from '../config/config.ts';
import type { Queryable } from '../db/db.ts';
import type { AccountStatus, Principal } from '../core/identity.ts';
import type { AppContext } from '../core/context.ts';
import type { LogEntry } from '../ledger/append.ts';
import type { LogWriter } from '../ledger/log-writer.ts';
import type { PseudonymKind } from '../ledger/pseudonyms.ts';
import type { Decision, Facts, PersonaFacts } from '../policy/engine.ts';
import { safeEqual } from '../accounts/token-format.ts';
import { eventRoutes } from './event-routes.ts';
import { ingressTokenRoutes } from './ingress-token-routes.ts';
import { createIngressTokenResolver } from './ingress-tokens.ts';
import type { PreparedInvocation, Scanner } from './prepare.ts';
import { KnownAgents, utcDay } from './record.ts';

export interface IngestDeps {
  ctx: AppContext;
  writer: LogWriter;
  knownAgents: KnownAgents;
  scan: Scanner;
  workspacePlan(tenantId: string): Promise<{ status: AccountStatus; caps: PlanCaps } | null>;
  policyFor(tenantId: string): Promise<{ version: number; decide(facts: Facts): Decision }>;
  /** undefined when the agent has no scope (every tool allowed). */
  toolInScope(tenantId: string, agentKey: string, toolName: string): Promise<boolean | undefined>;
  /** The agent's persona as the verdict sees it (policy module), or undefined. */
  personaOf(tenantId: string, agentKey: string): Promise<PersonaFacts | undefined>;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
  /** Key-encryption key of tool_outputs awaiting their scan (sealed-output.ts); never stored in the database. */
  outputKek: Uint8Array;
  /** A value's pseudonym in the workspace log, its salt committed before it is returned. */
  pseudonym(tenantId: string, kind: PseudonymKind, value: string): Promise<string>;
  /** Called after an invocation is acknowledged (background scans). */
  afterInvocation?: (tenantId: string, invocationId: number, prepared: PreparedInvocation) => void;
}

export interface IngestModule {
  /** Resolves scoped ingress tokens and the operator's fallback token. */
  resolve(token: string): Promise<Principal | null>;
  usage: Pick<UsageSource, 'invocationsToday' | 'agentsRegistered'>;
  routes(app: FastifyInstance): Promise<void>;
}

export function createIngest(deps: Omit<IngestDeps, 'knownAgents'>): IngestModule {
  const full: IngestDeps = { ...deps, knownAgents: new KnownAgents() };
  const { ctx } = deps;
  const resolveIngress = createIngressTokenResolver(ctx.db, (err) => console.error('last_used_at update failed', err));
  const fallback = ctx.config.ingressFallbackToken;
  return {
    async resolve(token) {
      if (token.startsWith('svc_ingress_')) return resolveIngress(token);
      if (fallback !== undefined && safeEqual(token, fallback)) return { kind: 'fallback' };
      return null;
    },
    usage: {
      async invocationsToday(tenantId, now) {
        const [row] = await ctx.db.withTenant(tenantId, (tx) =>
          tx.query<{ n: number }>('SELECT invocations AS n FROM usage_daily WHERE tenant_id = $1 AND day = $2', [tenantId, utcDay(now)]),
        );
        return row?.n ?? 0;
      },
      async agentsRegistered(tenantId) {
        const [row] = await ctx.db.withTenant(tenantId, (tx) =>
          tx.query<{ n: number }>('SELECT count(*)::int AS n FROM agents WHERE tenant_id = $1', [tenantId]),
        );
        return row?.n ?? 0;
      },
    },
    async routes(app) {
      await eventRoutes(app, full);
      await ingressTokenRoutes(app, full);
    },
  };
}
