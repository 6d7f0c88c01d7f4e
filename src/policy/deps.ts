import type { AppContext } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import type { LogEntry } from '../ledger/index.ts';
import type { PersonaFacts } from './engine.ts';

/** What the policy module is given by the service. */
export interface PolicyModuleDeps {
  ctx: AppContext;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
  /** The agent's persona as the verdict sees it (personas module; injected: personas build on policy, not the reverse). */
  personaInTx(tx: Queryable, tenantId: string, agentKey: string): Promise<PersonaFacts | undefined>;
}
