import type { Queryable } from '../db/index.ts';
import { newToken, type Role } from '../core/index.ts';
import type { LiveTokenRow, StoredTokenKind } from './token-resolver.ts';

export interface TokenRow {
  token_id: string;
  prefix: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface IssuedToken {
  token: string;
  token_id: string;
  prefix: string;
  name: string;
}

export async function issueApiToken(
  tx: Queryable,
  tenantId: string,
  accountId: string,
  name: string,
  now: Date,
): Promise<IssuedToken> {
  const t = newToken('svc_live_');
  const [row] = await tx.query<{ token_id: string }>(
    `INSERT INTO api_tokens (tenant_id, account_id, name, prefix, token_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING token_id`,
    [tenantId, accountId, name, t.displayPrefix, t.hash, now],
  );
  return { token: t.token, token_id: row!.token_id, prefix: t.displayPrefix, name };
}

export async function listOwnTokens(db: Queryable, tenantId: string, accountId: string): Promise<TokenRow[]> {
  return db.query<TokenRow & Record<string, unknown>>(
    `SELECT token_id, prefix, name, created_at, last_used_at, revoked_at FROM api_tokens
     WHERE tenant_id = $1 AND account_id = $2 ORDER BY created_at, token_id`,
    [tenantId, accountId],
  );
}

/**
 * Revokes a token the caller may revoke: their own, or any of the workspace
 * when they are an admin. Returns the token's owner, or null when there is no
 * such token for this caller (404: never reveal other workspaces' tokens).
 */
export async function revokeApiToken(
  tx: Queryable,
  caller: { tenantId: string; accountId: string; role: Role },
  tokenId: string,
  now: Date,
): Promise<{ account_id: string; newly: boolean } | null> {
  const [row] = await tx.query<{ account_id: string; revoked_at: Date | null }>(
    `SELECT account_id, revoked_at FROM api_tokens WHERE tenant_id = $1 AND token_id = $2 FOR UPDATE`,
    [caller.tenantId, tokenId],
  );
  if (!row) return null;
  if (row.account_id !== caller.accountId && caller.role !== 'admin') return null;
  if (row.revoked_at) return { account_id: row.account_id, newly: false };
  await tx.query('UPDATE api_tokens SET revoked_at = $3 WHERE tenant_id = $1 AND token_id = $2', [
    caller.tenantId,
    tokenId,
    now,
  ]);
  return { account_id: row.account_id, newly: true };
}

/** API tokens (svc_live_) as the token resolver reads them (token-resolver.ts): a member's token, with the member's role. */
export const API_TOKENS: StoredTokenKind<LiveTokenRow & { account_id: string; role: Role; email: string }> = {
  prefix: 'svc_live_',
  name: 'API token',
  lookup: `SELECT t.token_id, t.tenant_id, t.account_id, t.last_used_at, a.role, a.email
           FROM api_tokens t JOIN accounts a ON a.tenant_id = t.tenant_id AND a.account_id = t.account_id
           WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
  touch: `UPDATE api_tokens SET last_used_at = $3 WHERE tenant_id = $1 AND token_id = $2
            AND (last_used_at IS NULL OR last_used_at < $3::timestamptz - interval '60 seconds')`,
  principal: (row) => ({
    kind: 'account',
    accountId: row.account_id,
    tenantId: row.tenant_id,
    role: row.role,
    tokenId: row.token_id,
    email: row.email,
  }),
};
