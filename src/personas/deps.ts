import type { PlanCaps } from '../config/index.ts';
import type { AppContext } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import type { LogEntry } from '../ledger/index.ts';

/** What the personas module is given by the service. */
export interface PersonasDeps {
  ctx: AppContext;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
  workspacePlan(tenantId: string): Promise<{ caps: PlanCaps } | null>;
}
