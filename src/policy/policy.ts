import type { FastifyInstance } from 'fastify';
import { readEpoch } from '../changes/index.ts';
import type { Queryable } from '../db/index.ts';
import type { PolicyModuleDeps } from './deps.ts';
import { type Decision, decide, type Facts, type PersonaFacts, type PolicyDocument } from './engine.ts';
import { policyRoutes } from './routes.ts';
import { agentScope, currentPolicy, type VersionedPolicy } from './store.ts';

/** A policy version, ready to decide. */
export interface PolicyInForce {
  version: number;
  decide(facts: Facts): Decision;
}

export interface PolicyModule {
  /**
   * The policy in force, as of the caller's tenant-scoped transaction (the
   * tool_output scan decides in its own). Kept in memory while the
   * workspace's change epoch stays what it was when the policy was read, so
   * a change made on any node decides the next call.
   */
  policyInTx(tx: Queryable, tenantId: string): Promise<PolicyInForce>;
  /** The current policy, read now (no cache: callers keep their own, see ingest/gate.ts). */
  loadPolicy(tenantId: string): Promise<{ version: number; document: PolicyDocument }>;
  /** The agent's allowed tool globs (null: no scope) and persona, read now in one transaction. */
  loadScope(tenantId: string, agentKey: string): Promise<{ tools: string[] | null; persona: PersonaFacts | undefined }>;
  routes(app: FastifyInstance): Promise<void>;
}

const MAX_CACHED = 50_000;

export function createPolicy(deps: PolicyModuleDeps): PolicyModule {
  const { ctx } = deps;
  // Per workspace: the policy and the change epoch read before it. Every
  // policy change moves the epoch in its own transaction (migrations/0094),
  // so an entry whose epoch is still the stored one is still the policy.
  const policies = new Map<string, { epoch: number; policy: VersionedPolicy }>();

  return {
    async policyInTx(tx, tenantId) {
      // The epoch first: a policy read after it is at least as new as it.
      const epoch = await readEpoch(tx, tenantId);
      let hit = policies.get(tenantId);
      if (hit?.epoch !== epoch) {
        if (policies.size >= MAX_CACHED) policies.clear();
        hit = { epoch, policy: await currentPolicy(tx, tenantId) };
        policies.set(tenantId, hit);
      }
      const { version, document } = hit.policy;
      return { version, decide: (facts) => decide(document, facts) };
    },
    loadPolicy: (tenantId) => ctx.db.withTenant(tenantId, (tx) => currentPolicy(tx, tenantId)),
    loadScope: (tenantId, agentKey) =>
      ctx.db.withTenant(tenantId, async (tx) => ({
        tools: await agentScope(tx, tenantId, agentKey),
        persona: await deps.personaInTx(tx, tenantId, agentKey),
      })),
    routes: (app) => policyRoutes(app, deps),
  };
}
