import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/db.ts';
import type { AppContext } from '../core/context.ts';
import type { LogEntry } from '../ledger/append.ts';
import { personaOfAgent } from '../personas/store.ts';
import { type Decision, decide, type Facts, globMatch, type PersonaFacts, type PolicyDocument } from './engine.ts';
import { policyRoutes } from './routes.ts';
import { agentScope, currentPolicy, type VersionedPolicy } from './store.ts';

export interface PolicyModuleDeps {
  ctx: AppContext;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
}

export interface PolicyModule {
  policyFor(tenantId: string): Promise<{ version: number; decide(facts: Facts): Decision }>;
  /** undefined when the agent has no scope and no persona limiting tools: every tool is allowed. */
  toolInScope(tenantId: string, agentKey: string, toolName: string): Promise<boolean | undefined>;
  /** The agent's persona as the verdict sees it (cached like scopes), or undefined. */
  personaOf(tenantId: string, agentKey: string): Promise<PersonaFacts | undefined>;
  /** Drops this node's cached policy and scopes of a workspace (other nodes read again within POLICY_CACHE_MS). */
  invalidate(tenantId: string): void;
  /** The current policy, read now (no cache: callers keep their own, see ingest/gate.ts). */
  loadPolicy(tenantId: string): Promise<{ version: number; document: PolicyDocument }>;
  /** The agent's allowed tool globs (null: no scope) and persona, read now in one transaction. */
  loadScope(tenantId: string, agentKey: string): Promise<{ tools: string[] | null; persona: PersonaFacts | undefined }>;
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
  // An agent's scope and persona are read together: the persona's allowed_tools are part of the scope.
  const scopes = new Map<string, { at: number; tools: string[] | null; persona: PersonaFacts | undefined }>();
  const fresh = (at: number) => Date.now() - at < POLICY_CACHE_MS;
  const trim = (m: Map<string, unknown>) => {
    if (m.size > 50_000) m.clear();
  };

  const scopeOf = async (tenantId: string, agentKey: string) => {
    const key = `${tenantId}\u0000${agentKey}`;
    let hit = scopes.get(key);
    if (!hit || !fresh(hit.at)) {
      const { tools, persona } = await ctx.db.withTenant(tenantId, async (tx) => ({
        tools: await agentScope(tx, tenantId, agentKey),
        persona: await personaFactsInTx(tx, tenantId, agentKey),
      }));
      trim(scopes);
      hit = { at: Date.now(), tools, persona };
      scopes.set(key, hit);
    }
    return hit;
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
      const { tools, persona } = await scopeOf(tenantId, agentKey);
      const lists = [tools, persona?.allowed_tools ?? null].filter((l): l is string[] => l !== null);
      if (lists.length === 0) return undefined;
      return lists.every((l) => l.some((g) => globMatch(g, toolName)));
    },
    personaOf: async (tenantId, agentKey) => (await scopeOf(tenantId, agentKey)).persona,
    invalidate,
    loadPolicy: (tenantId) => ctx.db.withTenant(tenantId, (tx) => currentPolicy(tx, tenantId)),
    loadScope: (tenantId, agentKey) =>
      ctx.db.withTenant(tenantId, async (tx) => ({
        tools: await agentScope(tx, tenantId, agentKey),
        persona: await personaFactsInTx(tx, tenantId, agentKey),
      })),
    routes: (app) => policyRoutes(app, deps, invalidate),
  };
}

/** The agent's persona as the verdict sees it, read in the caller's tenant-scoped transaction. */
export async function personaFactsInTx(tx: Queryable, tenantId: string, agentKey: string): Promise<PersonaFacts | undefined> {
  const p = await personaOfAgent(tx, tenantId, agentKey);
  if (!p) return undefined;
  return { id: p.persona_id, version: p.version, allowed_tools: p.allowed_tools, allowed_pii_types: p.allowed_pii_types, overrides: p.overrides };
}
