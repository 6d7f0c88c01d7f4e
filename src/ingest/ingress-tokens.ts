import type { Queryable } from '../db/db.ts';
import type { Principal } from '../core/identity.ts';
import { lastUsedToucher } from '../accounts/last-used.ts';
import { newToken, parseToken } from '../accounts/token-format.ts';

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
export async function revokeIngressToken(tx: Queryable, tenantId: string, tokenId: string, now: Date): Promise<boolean | null> {
  const [row] = await tx.query<{ revoked_at: Date | null }>(
    'SELECT revoked_at FROM ingress_tokens WHERE tenant_id = $1 AND token_id = $2 FOR UPDATE',
    [tenantId, tokenId],
  );
  if (!row) return null;
  if (row.revoked_at) return false;
  await tx.query('UPDATE ingress_tokens SET revoked_at = $3 WHERE tenant_id = $1 AND token_id = $2', [tenantId, tokenId, now]);
  return true;
}

/** Looks the token up on every request, so revocation is immediate on every node. */
export function createIngressTokenResolver(db: Queryable, onError: (err: unknown) => void) {
  const touch = lastUsedToucher(
    (tenantId, tokenId) =>
      db.query(
        `UPDATE ingress_tokens SET last_used_at = now() WHERE tenant_id = $1 AND token_id = $2
           AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')`,
        [tenantId, tokenId],
      ),
    onError,
  );
  return async (token: string): Promise<Extract<Principal, { kind: 'ingress' }> | null> => {
    const parsed = parseToken(token);
    if (parsed?.prefix !== 'svc_ingress_') return null;
    const [row] = await db.query<{ tenant_id: string; token_id: string; last_used_at: Date | null }>(
      'SELECT tenant_id, token_id, last_used_at FROM ingress_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
      [parsed.hash],
    );
    if (!row) return null;
    touch(row.tenant_id, row.token_id, row.last_used_at);
    return { kind: 'ingress', tenantId: row.tenant_id, tokenId: row.token_id };
  };
}
