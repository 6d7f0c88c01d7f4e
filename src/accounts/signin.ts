import type { Queryable } from '../db/index.ts';
import { HttpProblem, serviceUnavailable } from '../core/index.ts';
import { signInMail } from '../mail/index.ts';
import { issueApiToken } from './api-tokens.ts';
import type { AccountRouteDeps } from './deps.ts';
import {
  type Account,
  type Workspace,
  accountView,
  createWorkspaceWithAdmin,
  findAccountByEmail,
  findOpenInvitation,
  getWorkspace,
  insertAccount,
  markInvitationAccepted,
} from './directory.ts';
import {
  adminsOf,
  askedToJoinMail,
  blockedProblem,
  type CreationBlock,
  workspaceCreationBlock,
} from './domain-claim.ts';
import { isPersonalDomain } from './email-domains.ts';
import { CODE_TTL_MINUTES, consumeCode, newCode, storeCode } from './signin-codes.ts';

const personalDomain = () =>
  new HttpProblem(
    'personal_email_domain',
    'Workspaces are created from company e-mail addresses; ask your workspace admin for an invitation.',
    { errors: [{ field: '/email', message: 'is at a personal e-mail provider' }] },
  );

export const invalidCode = () => new HttpProblem('invalid_code', 'The code is wrong, expired or already used.');

/**
 * Mails a fresh code. Every accepted address takes the same path (store a
 * code, send one mail), so neither the answer nor its timing tells whether an
 * account exists. Only policy refuses early: a personal domain with no
 * account and no invitation can never sign in.
 */
export async function requestCode(deps: AccountRouteDeps, email: string, domain: string): Promise<void> {
  const { ctx } = deps;
  const now = ctx.now();
  if (isPersonalDomain(domain)) {
    const [account, invitation] = await Promise.all([
      findAccountByEmail(ctx.db, email),
      findOpenInvitation(ctx.db, email, now),
    ]);
    if (!account && !invitation) throw personalDomain();
  }
  const code = newCode();
  await storeCode(ctx.db, deps.pepper, email, code, now);
  const mail = signInMail(code, {
    minutes: CODE_TTL_MINUTES,
    ...(ctx.config.publicUrl ? { publicUrl: ctx.config.publicUrl } : {}),
  });
  try {
    await ctx.mailer.send({ to: email, ...mail, ref: 'signin-code' });
  } catch (err) {
    throw serviceUnavailable('The sign-in mail could not be sent; try again shortly.', 30).withCause(err);
  }
}

/**
 * Consumes the code, then signs the account in, or joins its invitation, or
 * creates its workspace, and issues an API token, all in one transaction.
 */
export async function verifyCode(deps: AccountRouteDeps, email: string, domain: string, code: string) {
  return signInWithCode(deps, email, domain, code, async (tx, account, ws, now) => {
    const name = `sign-in ${now.toISOString().slice(0, 16)}Z`;
    const issued = await issueApiToken(tx, account.tenant_id, account.account_id, name, now);
    await deps.appendAudit(tx, account.tenant_id, {
      kind: 'token_issued',
      token_id: issued.token_id,
      token_prefix: issued.prefix,
      account_id: account.account_id,
      by_account_id: account.account_id,
      via: 'sign-in',
    });
    return { ...issued, account: accountView(account, ws) };
  });
}

/**
 * The sign-in itself, shared by the API (an API token) and the console (a
 * session cookie): `issue` runs in the same transaction as the account's
 * creation, so a failed issue leaves no half-made workspace.
 */
export async function signInWithCode<T>(
  deps: AccountRouteDeps,
  email: string,
  domain: string,
  code: string,
  issue: (tx: Queryable, account: Account, ws: Workspace, now: Date) => Promise<T>,
): Promise<T> {
  const { ctx } = deps;
  const now = ctx.now();
  if (!/^\d{1,32}$/.test(code)) throw invalidCode();
  // The code is consumed in its own transaction: a failure afterwards must not
  // hand the attempt back.
  if (!(await consumeCode(ctx.db, deps.pepper, email, code, now))) throw invalidCode();
  let blocked: CreationBlock | null = null;
  const result = await ctx.db.transaction(async (tx) => {
    let account: Account | null = await findAccountByEmail(tx, email);
    if (!account) {
      const invitation = await findOpenInvitation(tx, email, now);
      if (invitation) {
        account = await insertAccount(tx, invitation.tenant_id, email, invitation.role, now);
        await markInvitationAccepted(tx, invitation, now);
        await deps.appendAudit(tx, account.tenant_id, {
          kind: 'member_change',
          change: 'joined',
          account_id: account.account_id,
          email,
          role: account.role,
          invitation_id: invitation.invitation_id,
        });
      } else if (isPersonalDomain(domain)) {
        throw personalDomain();
      } else if ((blocked = await workspaceCreationBlock(tx, email, domain))) {
        return null;
      } else {
        account = await createWorkspaceWithAdmin(tx, ctx.config, email, domain, now);
        await deps.appendAudit(tx, account.tenant_id, {
          kind: 'workspace_created',
          account_id: account.account_id,
          email,
          domain,
        });
      }
    }
    const ws = await getWorkspace(tx, account.tenant_id);
    return issue(tx, account, ws!, now);
  });
  const block = blocked as CreationBlock | null;
  if (block === null) return result as T;
  // The address is proven (the code was right) but may not start a workspace.
  // The admins hear of it only from someone who owns an address at their domain.
  if (block.kind === 'domain') await tellAdmins(deps, block.tenantIds, email, domain);
  throw blockedProblem(block, domain);
}

async function tellAdmins(deps: AccountRouteDeps, tenantIds: string[], email: string, domain: string): Promise<void> {
  const { ctx } = deps;
  const mail = askedToJoinMail(email, domain, ctx.config.publicUrl);
  for (const admin of await adminsOf(ctx.db, tenantIds)) {
    await ctx.mailer
      .send({ to: admin, ...mail, ref: 'asked-to-join' })
      .catch((err: unknown) => console.error('asked-to-join mail not sent', err));
  }
}
