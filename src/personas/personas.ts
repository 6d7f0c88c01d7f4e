import type { FastifyInstance } from 'fastify';
import type { PlanCaps } from '../config/config.ts';
import type { AppContext } from '../core/context.ts';
import type { Queryable } from '../db/db.ts';
import type { LogEntry } from '../ledger/append.ts';
import { personaRoutes } from './routes.ts';
import { countPersonas } from './store.ts';

// Personas (issue 17): what a kind of agent is for and may do. This module
// owns the personas and agent_personas tables; policy reads an agent's
// persona through personaOfAgent (store.ts) when it decides.

export interface PersonasDeps {
  ctx: AppContext;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
  workspacePlan(tenantId: string): Promise<{ caps: PlanCaps } | null>;
  /** Drops what this node caches of the workspace's policy and scopes (a persona is part of them). */
  invalidate(tenantId: string): void;
}

export interface PersonasModule {
  /** personas_used in GET /me: the number of personas that exist. */
  personasUsed(tenantId: string): Promise<number>;
  routes(app: FastifyInstance): Promise<void>;
}

export function createPersonas(deps: PersonasDeps): PersonasModule {
  return {
    personasUsed: (tenantId) => deps.ctx.readDb.withTenant(tenantId, (tx) => countPersonas(tx, tenantId)),
    routes: (app) => personaRoutes(app, deps),
  };
}
