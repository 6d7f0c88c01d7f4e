import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/db.ts';
import type { AppContext } from '../core/context.ts';
import type { LogEntry } from '../ledger/append.ts';
import { type Decision, decide, type Facts, globMatch } from './engine.ts';
import { policyRoutes } from './routes.ts';
import { agentScope, currentPolicy, type VersionedPolicy } from './store.ts';

export interface PolicyModuleDeps {
  ctx: AppContext;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
}

export interface PolicyModule {
  policyFor(tenantId: string): Promise<{ version: number; decide(facts: Facts): Decision }>;
  /** undefined when the agent has no scope: every tool is allowed. */
  toolInScope(tenantId: string, agentKey: string, toolName: string): Promise<boolean | undefined>;
  /** Drops this node's cached policy and scopes of a workspace (other nodes read again within POLICY_CACHE_MS). */
  invalidate(tenantId: string): void;
  routes(app: FastifyInstance): Promise<void>;
}

/**
 * How long a node may decide with a policy or scope it read before. A change
 * is in force on the node that made it at once, and on every node within this.
 */
export const POLICY_CACHE_MS = 1000;

export function createPolicy(deps: PolicyModuleDeps): PolicyModule {
  const { ctx } = deps;
  const policies = new Map<string, { at: number; policy: VersionedPolicy }>();
  const scopes = new Map<string, { at: number; tools: string[] | null }>();
  const fresh = (at: number) => Date.now() - at < POLICY_CACHE_MS;
  const trim = (m: Map<string, unknown>) => {
    if (m.size > 50_000) m.clear();
  };

  const invalidate = (tenantId: string) => {
    policies.delete(tenantId);
    for (const k of scopes.keys()) if (k.startsWith(`${tenantId}\u0000`)) scopes.delete(k);
  };

  return {
    async policyFor(tenantId) {
      let hit = policies.get(tenantId);
      if (!hit || !fresh(hit.at)) {
        const policy = await ctx.db.withTenant(tenantId, (tx) => currentPolicy(tx, tenantId));
        trim(policies);
        hit = { at: Date.now(), policy };
        policies.set(tenantId, hit);
      }
      const { version, document } = hit.policy;
      return { version, decide: (facts) => decide(document, facts) };
    },
    async toolInScope(tenantId, agentKey, toolName) {
      const key = `${tenantId}\u0000${agentKey}`;
      let hit = scopes.get(key);
      if (!hit || !fresh(hit.at)) {
        const tools = await ctx.db.withTenant(tenantId, (tx) => agentScope(tx, tenantId, agentKey));
        trim(scopes);
        hit = { at: Date.now(), tools };
        scopes.set(key, hit);
      }
      if (hit.tools === null) return undefined;
      return hit.tools.some((g) => globMatch(g, toolName));
    },
    invalidate,
    routes: (app) => policyRoutes(app, deps, invalidate),
  };
}
