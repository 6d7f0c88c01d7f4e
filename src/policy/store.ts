import type { Queryable } from '../db/index.ts';
import { DEFAULT_POLICY } from './default-policy.ts';
import type { PolicyDocument } from './engine.ts';

export interface VersionedPolicy {
  version: number;
  document: PolicyDocument;
  updated_at: Date | null;
}

/** The workspace's latest policy, or the built-in default as version 0. Needs a tenant-scoped transaction. */
export async function currentPolicy(tx: Queryable, tenantId: string): Promise<VersionedPolicy> {
  const [row] = await tx.query<{ version: number; document: PolicyDocument; created_at: Date }>(
    'SELECT version, document, created_at FROM policies WHERE tenant_id = $1 ORDER BY version DESC LIMIT 1',
    [tenantId],
  );
  return row
    ? { version: row.version, document: row.document, updated_at: row.created_at }
    : { version: 0, document: DEFAULT_POLICY, updated_at: null };
}

/** Every version of the workspace's policy with the time it took effect, oldest first (reports: the policies in force). */
export async function policyVersions(
  tx: Queryable,
  tenantId: string,
): Promise<Array<{ version: number; created_at: Date }>> {
  return tx.query<{ version: number; created_at: Date }>(
    'SELECT version, created_at FROM policies WHERE tenant_id = $1 ORDER BY version',
    [tenantId],
  );
}

/** Stores a new version. Versions of one workspace are serialized by a transaction-scoped advisory lock. */
export async function savePolicy(
  tx: Queryable,
  tenantId: string,
  document: PolicyDocument,
  by: string,
  now: Date,
): Promise<VersionedPolicy> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('agent-ledger policy ' || $1))", [tenantId]);
  const { version } = await currentPolicy(tx, tenantId);
  await tx.query(
    'INSERT INTO policies (tenant_id, version, document, created_by, created_at) VALUES ($1, $2, $3, $4, $5)',
    [tenantId, version + 1, JSON.stringify(document), by, now],
  );
  return { version: version + 1, document, updated_at: now };
}

export async function agentScope(tx: Queryable, tenantId: string, agentKey: string): Promise<string[] | null> {
  const [row] = await tx.query<{ allowed_tools: string[] }>(
    'SELECT allowed_tools FROM agent_scopes WHERE tenant_id = $1 AND agent_key = $2',
    [tenantId, agentKey],
  );
  return row?.allowed_tools ?? null;
}

export async function saveAgentScope(
  tx: Queryable,
  tenantId: string,
  agentKey: string,
  tools: string[],
  by: string,
  now: Date,
) {
  const [row] = await tx.query<{ allowed_tools: string[] }>(
    'SELECT allowed_tools FROM agent_scopes WHERE tenant_id = $1 AND agent_key = $2 FOR UPDATE',
    [tenantId, agentKey],
  );
  await tx.query(
    `INSERT INTO agent_scopes (tenant_id, agent_key, allowed_tools, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, agent_key) DO UPDATE SET allowed_tools = EXCLUDED.allowed_tools,
       updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
    [tenantId, agentKey, JSON.stringify(tools), by, now],
  );
  return { before: row?.allowed_tools ?? null };
}
