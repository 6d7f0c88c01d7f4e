import type { Queryable } from '../db/index.ts';
import type { StoredTokenKind } from '../accounts/index.ts';
import { newToken } from '../core/index.ts';

export interface IngressTokenRow {
  token_id: string;
  prefix: string;
  name: string;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLS = 'token_id, prefix, name, created_by, created_at, last_used_at, revoked_at';

export async function issueIngressToken(tx: Queryable, tenantId: string, name: string, createdBy: string, now: Date) {
  const t = newToken('svc_ingress_');
  const [row] = await tx.query<IngressTokenRow & Record<string, unknown>>(
    `INSERT INTO ingress_tokens (tenant_id, name, prefix, token_hash, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLS}`,
    [tenantId, name, t.displayPrefix, t.hash, createdBy, now],
  );
  return { token: t.token, ...row! };
}

/** A page of the workspace's tokens in (created_at, token_id) order, after the given key. */
export async function listIngressTokens(
  db: Queryable,
  tenantId: string,
  after: { createdAt: string; tokenId: string } | null,
  limit: number,
): Promise<IngressTokenRow[]> {
  return db.query<IngressTokenRow & Record<string, unknown>>(
    `SELECT ${COLS} FROM ingress_tokens WHERE tenant_id = $1
       AND ($2::timestamptz IS NULL OR (created_at, token_id) > ($2::timestamptz, $3::uuid))
     ORDER BY created_at, token_id LIMIT $4`,
    [tenantId, after?.createdAt ?? null, after?.tokenId ?? null, limit],
  );
}

/** Revokes a token of the workspace; null when there is none, false when it was already revoked. */
export async function revokeIngressToken(
  tx: Queryable,
  tenantId: string,
  tokenId: string,
  now: Date,
): Promise<boolean | null> {
  const [row] = await tx.query<{ revoked_at: Date | null }>(
    'SELECT revoked_at FROM ingress_tokens WHERE tenant_id = $1 AND token_id = $2 FOR UPDATE',
    [tenantId, tokenId],
  );
  if (!row) return null;
  if (row.revoked_at) return false;
  await tx.query('UPDATE ingress_tokens SET revoked_at = $3 WHERE tenant_id = $1 AND token_id = $2', [
    tenantId,
    tokenId,
    now,
  ]);
  return true;
}

/** Ingress tokens (svc_ingress_) as the token resolver reads them (accounts/token-resolver.ts): a workspace's scoped token. */
export const INGRESS_TOKENS: StoredTokenKind = {
  prefix: 'svc_ingress_',
  name: 'ingress token',
  lookup: 'SELECT tenant_id, token_id, last_used_at FROM ingress_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
  touch: `UPDATE ingress_tokens SET last_used_at = $3 WHERE tenant_id = $1 AND token_id = $2
            AND (last_used_at IS NULL OR last_used_at < $3::timestamptz - interval '60 seconds')`,
  principal: (row) => ({ kind: 'ingress', tenantId: row.tenant_id, tokenId: row.token_id }),
};
