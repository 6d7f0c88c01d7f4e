import type { Queryable } from '../db/index.ts';
import { conflict, type Role } from '../core/index.ts';
import type { Account, Invitation } from './directory.ts';

export const INVITATION_TTL_DAYS = 14;

export async function listMembers(
  db: Queryable,
  tenantId: string,
  after: string | null,
  limit: number,
): Promise<Account[]> {
  return db.query<Account & Record<string, unknown>>(
    `SELECT account_id, tenant_id, email, display_name, role, created_at FROM accounts
     WHERE tenant_id = $1 AND ($2::text IS NULL OR email > $2::text) ORDER BY email LIMIT $3`,
    [tenantId, after, limit],
  );
}

export async function listOpenInvitations(db: Queryable, tenantId: string, now: Date): Promise<Invitation[]> {
  return db.query<Invitation & Record<string, unknown>>(
    `SELECT tenant_id, invitation_id, email, role, invited_by, created_at, expires_at FROM invitations
     WHERE tenant_id = $1 AND accepted_at IS NULL AND expires_at > $2 ORDER BY created_at, invitation_id`,
    [tenantId, now],
  );
}

/** Creates (or renews) the open invitation of an address; 409 when the address already has an account. */
export async function invite(
  tx: Queryable,
  tenantId: string,
  email: string,
  role: Role,
  invitedBy: string,
  now: Date,
): Promise<Invitation> {
  const [existing] = await tx.query('SELECT 1 FROM accounts WHERE email = $1', [email]);
  if (existing) throw conflict('This address already has an account.');
  const expires = new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000);
  const [row] = await tx.query<Invitation & Record<string, unknown>>(
    `INSERT INTO invitations (tenant_id, email, role, invited_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, email) WHERE accepted_at IS NULL
       DO UPDATE SET role = EXCLUDED.role, invited_by = EXCLUDED.invited_by,
         created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
     RETURNING tenant_id, invitation_id, email, role, invited_by, created_at, expires_at`,
    [tenantId, email, role, invitedBy, now, expires],
  );
  return row!;
}

export async function cancelInvitation(tx: Queryable, tenantId: string, invitationId: string): Promise<boolean> {
  const rows = await tx.query(
    'DELETE FROM invitations WHERE tenant_id = $1 AND invitation_id = $2 AND accepted_at IS NULL RETURNING 1',
    [tenantId, invitationId],
  );
  return rows.length === 1;
}

/**
 * Serializes the role changes and removals of one workspace on its row. Row
 * locks on the accounts alone deadlock when two admins demote each other at
 * once (each holds its target and waits for the other admin).
 */
async function lockMembers(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query('SELECT 1 FROM workspaces WHERE tenant_id = $1 FOR UPDATE', [tenantId]);
}

/**
 * Locks the workspace's admins so that two concurrent demotions cannot both
 * pass the "at least one admin remains" check.
 */
async function otherAdmins(tx: Queryable, tenantId: string, accountId: string): Promise<number> {
  const rows = await tx.query(
    `SELECT account_id FROM accounts WHERE tenant_id = $1 AND role = 'admin' AND account_id <> $2 FOR UPDATE`,
    [tenantId, accountId],
  );
  return rows.length;
}

export async function changeRole(
  tx: Queryable,
  tenantId: string,
  accountId: string,
  role: Role,
): Promise<{ before: Role; after: Account } | null> {
  await lockMembers(tx, tenantId);
  const [row] = await tx.query<{ role: Role }>(
    'SELECT role FROM accounts WHERE tenant_id = $1 AND account_id = $2 FOR UPDATE',
    [tenantId, accountId],
  );
  if (!row) return null;
  if (row.role === 'admin' && role !== 'admin' && (await otherAdmins(tx, tenantId, accountId)) === 0) {
    throw conflict('A workspace keeps at least one admin.');
  }
  const [after] = await tx.query<Account & Record<string, unknown>>(
    `UPDATE accounts SET role = $3 WHERE tenant_id = $1 AND account_id = $2
     RETURNING account_id, tenant_id, email, display_name, role, created_at`,
    [tenantId, accountId, role],
  );
  return { before: row.role, after: after! };
}

/** Removes a member; their API tokens go with them. */
export async function removeMember(tx: Queryable, tenantId: string, accountId: string): Promise<Account | null> {
  await lockMembers(tx, tenantId);
  const [row] = await tx.query<{ role: Role }>(
    'SELECT role FROM accounts WHERE tenant_id = $1 AND account_id = $2 FOR UPDATE',
    [tenantId, accountId],
  );
  if (!row) return null;
  if (row.role === 'admin' && (await otherAdmins(tx, tenantId, accountId)) === 0) {
    throw conflict('A workspace keeps at least one admin.');
  }
  const [gone] = await tx.query<Account & Record<string, unknown>>(
    `DELETE FROM accounts WHERE tenant_id = $1 AND account_id = $2
     RETURNING account_id, tenant_id, email, display_name, role, created_at`,
    [tenantId, accountId],
  );
  return gone ?? null;
}
