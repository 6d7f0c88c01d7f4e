import type { Config } from '../config/index.ts';
import type { Queryable } from '../db/index.ts';
import type { Role } from '../core/index.ts';
import type { WorkspacePlan } from './plans.ts';

// Workspaces, accounts and invitations: the rows sign-in reads and writes.

export interface Account {
  account_id: string;
  tenant_id: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: Date;
}

export interface Workspace extends WorkspacePlan {
  tenant_id: string;
  display_name: string;
  domain: string;
  created_at: Date;
}

export interface Invitation {
  tenant_id: string;
  invitation_id: string;
  email: string;
  role: Role;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
}

const ACCOUNT_COLS = 'account_id, tenant_id, email, display_name, role, created_at';

export async function findAccountByEmail(db: Queryable, email: string): Promise<Account | null> {
  const [row] = await db.query<Account & Record<string, unknown>>(
    `SELECT ${ACCOUNT_COLS} FROM accounts WHERE email = $1`,
    [email],
  );
  return row ?? null;
}

export async function getWorkspace(db: Queryable, tenantId: string): Promise<Workspace | null> {
  const [row] = await db.query<Workspace & Record<string, unknown>>(
    `SELECT tenant_id, display_name, domain, plan_tier, subscription_status, trial_ends_at, created_at
     FROM workspaces WHERE tenant_id = $1`,
    [tenantId],
  );
  return row ?? null;
}

/** Every workspace id (for sweeps across workspaces, such as retention). */
export async function workspaceIds(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ tenant_id: string }>('SELECT tenant_id FROM workspaces ORDER BY tenant_id');
  return rows.map((r) => r.tenant_id);
}

/** The newest invitation for the address that is still open. */
export async function findOpenInvitation(db: Queryable, email: string, now: Date): Promise<Invitation | null> {
  const [row] = await db.query<Invitation & Record<string, unknown>>(
    `SELECT tenant_id, invitation_id, email, role, invited_by, created_at, expires_at
     FROM invitations WHERE email = $1 AND accepted_at IS NULL AND expires_at > $2
     ORDER BY created_at DESC LIMIT 1`,
    [email, now],
  );
  return row ?? null;
}

export function displayNameOf(email: string): string {
  return email.slice(0, email.indexOf('@'));
}

export async function createWorkspaceWithAdmin(
  tx: Queryable,
  config: Config,
  email: string,
  domain: string,
  now: Date,
): Promise<Account> {
  const trialEnds = new Date(now.getTime() + config.trialDays * 86_400_000);
  const [ws] = await tx.query<{ tenant_id: string }>(
    `INSERT INTO workspaces (display_name, domain, plan_tier, subscription_status, trial_ends_at, created_at)
     VALUES ($1, $1, 'team', 'trialing', $2, $3) RETURNING tenant_id`,
    [domain, trialEnds, now],
  );
  return insertAccount(tx, ws!.tenant_id, email, 'admin', now);
}

export async function insertAccount(
  tx: Queryable,
  tenantId: string,
  email: string,
  role: Role,
  now: Date,
): Promise<Account> {
  const [row] = await tx.query<Account & Record<string, unknown>>(
    `INSERT INTO accounts (tenant_id, email, display_name, role, created_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${ACCOUNT_COLS}`,
    [tenantId, email, displayNameOf(email), role, now],
  );
  return row!;
}

export async function markInvitationAccepted(tx: Queryable, inv: Invitation, now: Date): Promise<void> {
  await tx.query('UPDATE invitations SET accepted_at = $3 WHERE tenant_id = $1 AND invitation_id = $2', [
    inv.tenant_id,
    inv.invitation_id,
    now,
  ]);
}

export function accountView(
  a: Pick<Account, 'account_id' | 'tenant_id' | 'email' | 'role'>,
  ws: Pick<Workspace, 'plan_tier'>,
) {
  return { id: a.account_id, email: a.email, plan_tier: ws.plan_tier, tenant_id: a.tenant_id, role: a.role };
}
