import type { FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../db/index.ts';
import type { PersonaFacts } from '../policy/index.ts';
import type { PersonasDeps } from './deps.ts';
import { personaFactsInTx } from './facts.ts';
import { personaRoutes } from './routes.ts';
import { countPersonas } from './store.ts';

// Personas (issue 17): what a kind of agent is for and may do. This module
// owns the personas and agent_personas tables and builds on policy (its
// overrides are policy rules); the verdict gets an agent's persona through
// personaInTx (facts.ts), which the composition root hands to policy.

export interface PersonasModule {
  /** The agent's persona as the verdict sees it, read in the caller's tenant-scoped transaction (facts.ts). */
  personaInTx(tx: Queryable, tenantId: string, agentKey: string): Promise<PersonaFacts | undefined>;
  routes(app: FastifyInstance): Promise<void>;
}

/** The number of personas a workspace has (GET /me's personas_used); needs only the database, see ingest/usage.ts. */
export function personasUsed(db: Db): (tenantId: string) => Promise<number> {
  return (tenantId) => db.withTenant(tenantId, (tx) => countPersonas(tx, tenantId));
}

export function createPersonas(deps: PersonasDeps): PersonasModule {
  return {
    personaInTx: personaFactsInTx,
    routes: (app) => personaRoutes(app, deps),
  };
}
