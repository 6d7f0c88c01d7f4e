import type { Queryable } from '../db/index.ts';
import type { PersonaFacts } from '../policy/index.ts';
import { personaOfAgent } from './store.ts';

// What of an agent's persona takes part in its verdict, in the policy
// engine's vocabulary (PersonaFacts). Personas build on policy, never the
// other way round: the composition root hands this reader to the policy
// module (event endpoints) and to the tool_output scan.

/** The agent's persona as the verdict sees it, read in the caller's tenant-scoped transaction. */
export async function personaFactsInTx(
  tx: Queryable,
  tenantId: string,
  agentKey: string,
): Promise<PersonaFacts | undefined> {
  const p = await personaOfAgent(tx, tenantId, agentKey);
  if (!p) return undefined;
  return {
    id: p.persona_id,
    version: p.version,
    allowed_tools: p.allowed_tools,
    allowed_pii_types: p.allowed_pii_types,
    overrides: p.overrides,
  };
}
