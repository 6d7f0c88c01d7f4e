import type { Queryable } from '../db/index.ts';
import { HttpProblem } from '../core/index.ts';

// Who may start a new workspace. A company domain has one workspace by default
// (its admins may turn that off); an address is its mailbox without a
// sub-address tag, so alice+x@acme-corp.com cannot start a second workspace
// (and a second trial) beside alice@acme-corp.com's.

/** The mailbox of an address: its local part without a `+tag`. */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const plus = local.indexOf('+');
  return plus > 0 ? `${local.slice(0, plus)}${email.slice(at)}` : email;
}

export type CreationBlock = { kind: 'mailbox' } | { kind: 'domain'; tenantIds: string[] };

/** Why this address (which has no account and no invitation) may not start a workspace, or null. */
export async function workspaceCreationBlock(
  db: Queryable,
  email: string,
  domain: string,
): Promise<CreationBlock | null> {
  const sameMailbox = await db.query(
    `SELECT 1 FROM accounts WHERE regexp_replace(email, '\\+[^@]*@', '@') = $1 LIMIT 1`,
    [mailboxOf(email)],
  );
  if (sameMailbox.length > 0) return { kind: 'mailbox' };
  const claims = await db.query<{ tenant_id: string }>(
    'SELECT tenant_id FROM workspaces WHERE domain = $1 AND one_workspace_per_domain ORDER BY created_at LIMIT 10',
    [domain],
  );
  return claims.length > 0 ? { kind: 'domain', tenantIds: claims.map((c) => c.tenant_id) } : null;
}

/** The admins of these workspaces, to tell them someone asked to join. */
export async function adminsOf(db: Queryable, tenantIds: string[]): Promise<string[]> {
  const rows = await db.query<{ email: string }>(
    `SELECT email FROM accounts WHERE tenant_id = ANY($1::uuid[]) AND role = 'admin' ORDER BY email LIMIT 50`,
    [tenantIds],
  );
  return rows.map((r) => r.email);
}

export function blockedProblem(block: CreationBlock, domain: string): HttpProblem {
  if (block.kind === 'mailbox') {
    return new HttpProblem(
      'mailbox_has_account',
      'Another address of this mailbox (the same address without its +tag, or with another one) already has an account: sign in with that address, or ask an admin of its workspace to invite this one.',
    );
  }
  return new HttpProblem(
    'domain_has_workspace',
    `${domain} already has a workspace on this service, and its admins keep one workspace per domain. We told them you asked to join: ask them for an invitation, then sign in again with this address.`,
  );
}

/** The mail to a workspace's admins when someone at their domain asked to start a workspace. */
export function askedToJoinMail(
  requester: string,
  domain: string,
  publicUrl: string | undefined,
): { subject: string; text: string } {
  const base = publicUrl?.replace(/\/+$/, '');
  const lines = [
    `${requester} signed in to agent-ledger and wanted to start a workspace.`,
    `${domain} already has yours, so they were asked to get an invitation from you.`,
    '',
    'To let them in, invite the address with a role:',
    ...(base ? [`  in the console: ${base}/console/`] : []),
    `  through the API: POST ${base ?? ''}/api/v1/workspace/invites {"email": "${requester}", "role": "viewer"}`,
    '',
    `If people at ${domain} should be able to start workspaces of their own, an admin can allow it:`,
    `  PATCH ${base ?? ''}/api/v1/workspace/settings {"one_workspace_per_domain": false}`,
    '',
    'If you do not know this address, you need not do anything.',
    '',
  ];
  return { subject: `${requester} asked to join your agent-ledger workspace`, text: lines.join('\n') };
}
