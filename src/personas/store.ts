import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import type { Rule } from '../policy/index.ts';

// The personas tables (migrations/0100). Every function needs a transaction
// scoped to the tenant (row-level security).

export interface PersonaFields {
  name: string;
  description: string;
  allowed_tools: string[] | null;
  allowed_pii_types: string[] | null;
  overrides: Rule[];
  rubric: string;
}

export interface PersonaRow extends PersonaFields {
  persona_id: string;
  version: number;
  meta_salt: Uint8Array;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'persona_id, version, name, description, allowed_tools, allowed_pii_types, overrides, rubric, meta_salt, created_at, updated_at';

/** Creation and the cap check are serialized per workspace, so two nodes cannot both take the last slot. */
async function lockWorkspace(tx: Queryable, tenantId: string) {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('agent-ledger personas ' || $1))", [tenantId]);
}

export async function countPersonas(tx: Queryable, tenantId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM personas WHERE tenant_id = $1', [
    tenantId,
  ]);
  return row!.n;
}

/** Inserts a persona unless the workspace already has `cap`; null when at the cap. */
export async function insertPersona(
  tx: Queryable,
  tenantId: string,
  f: PersonaFields,
  cap: number,
  salt: Uint8Array,
  by: string,
  now: Date,
): Promise<PersonaRow | null> {
  await lockWorkspace(tx, tenantId);
  if ((await countPersonas(tx, tenantId)) >= cap) return null;
  const [row] = await tx.query<PersonaRow & Record<string, unknown>>(
    `INSERT INTO personas (tenant_id, persona_id, version, name, description, allowed_tools, allowed_pii_types, overrides, rubric,
       meta_salt, created_by, created_at, updated_by, updated_at)
     VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10, $11) RETURNING ${COLUMNS}`,
    [tenantId, randomUUID(), ...values(f), Buffer.from(salt), by, now],
  );
  return row!;
}

export async function updatePersona(
  tx: Queryable,
  tenantId: string,
  personaId: string,
  f: PersonaFields,
  salt: Uint8Array,
  by: string,
  now: Date,
): Promise<PersonaRow | null> {
  const [row] = await tx.query<PersonaRow & Record<string, unknown>>(
    `UPDATE personas SET version = version + 1, name = $3, description = $4, allowed_tools = $5, allowed_pii_types = $6,
       overrides = $7, rubric = $8, meta_salt = $9, updated_by = $10, updated_at = $11
     WHERE tenant_id = $1 AND persona_id = $2 RETURNING ${COLUMNS}`,
    [tenantId, personaId, ...values(f), Buffer.from(salt), by, now],
  );
  return row ?? null;
}

/** Deletes a persona (its agents lose it, by the foreign key); the version it had, or null. */
export async function deletePersona(tx: Queryable, tenantId: string, personaId: string): Promise<number | null> {
  const [row] = await tx.query<{ version: number }>(
    'DELETE FROM personas WHERE tenant_id = $1 AND persona_id = $2 RETURNING version',
    [tenantId, personaId],
  );
  return row?.version ?? null;
}

export async function getPersona(tx: Queryable, tenantId: string, personaId: string): Promise<PersonaRow | null> {
  const [row] = await tx.query<PersonaRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM personas WHERE tenant_id = $1 AND persona_id = $2`,
    [tenantId, personaId],
  );
  return row ?? null;
}

export async function listPersonas(tx: Queryable, tenantId: string): Promise<PersonaRow[]> {
  return tx.query<PersonaRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM personas WHERE tenant_id = $1 ORDER BY created_at, persona_id`,
    [tenantId],
  );
}

/** The persona of an agent, or null. */
export async function personaOfAgent(tx: Queryable, tenantId: string, agentKey: string): Promise<PersonaRow | null> {
  const [row] = await tx.query<PersonaRow & Record<string, unknown>>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `p.${c}`)
      .join(', ')}
     FROM agent_personas a JOIN personas p ON p.tenant_id = a.tenant_id AND p.persona_id = a.persona_id
     WHERE a.tenant_id = $1 AND a.agent_key = $2`,
    [tenantId, agentKey],
  );
  return row ?? null;
}

/** Sets (or with null removes) an agent's persona; returns the persona it had. */
export async function assignPersona(
  tx: Queryable,
  tenantId: string,
  agentKey: string,
  personaId: string | null,
  by: string,
  now: Date,
): Promise<{ before: string | null }> {
  const [prev] = await tx.query<{ persona_id: string }>(
    'SELECT persona_id FROM agent_personas WHERE tenant_id = $1 AND agent_key = $2 FOR UPDATE',
    [tenantId, agentKey],
  );
  if (personaId === null) {
    await tx.query('DELETE FROM agent_personas WHERE tenant_id = $1 AND agent_key = $2', [tenantId, agentKey]);
  } else {
    await tx.query(
      `INSERT INTO agent_personas (tenant_id, agent_key, persona_id, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, agent_key) DO UPDATE SET persona_id = EXCLUDED.persona_id, updated_by = EXCLUDED.updated_by,
         updated_at = EXCLUDED.updated_at`,
      [tenantId, agentKey, personaId, by, now],
    );
  }
  return { before: prev?.persona_id ?? null };
}

function values(f: PersonaFields) {
  return [
    f.name,
    f.description,
    f.allowed_tools === null ? null : JSON.stringify(f.allowed_tools),
    f.allowed_pii_types === null ? null : JSON.stringify(f.allowed_pii_types),
    JSON.stringify(f.overrides),
    f.rubric,
  ];
}
