import type { Queryable } from '../db/index.ts';
import { newToken, type Role } from '../core/index.ts';
import type { LiveTokenRow, StoredTokenKind } from './token-resolver.ts';

// A console session is a token of its own kind (svc_session_…) carried in an
// HttpOnly cookie: the browser never holds an API token. It ends at the first
// of: sign-out (revoked), SESSION_HOURS after sign-in, IDLE_MINUTES without use.

export const SESSION_HOURS = 12;
export const IDLE_MINUTES = 120;

export interface SessionRow {
  session_id: string;
  prefix: string;
  user_agent: string;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date;
  revoked_at: Date | null;
}

export interface StartedSession {
  token: string;
  session_id: string;
  prefix: string;
  expires_at: Date;
}

export async function startSession(
  tx: Queryable,
  tenantId: string,
  accountId: string,
  userAgent: string,
  now: Date,
): Promise<StartedSession> {
  const t = newToken('svc_session_');
  const expires = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
  const [row] = await tx.query<{ session_id: string }>(
    `INSERT INTO console_sessions (tenant_id, account_id, prefix, token_hash, user_agent, created_at, expires_at, last_used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $6) RETURNING session_id`,
    [tenantId, accountId, t.displayPrefix, t.hash, userAgent.slice(0, 256), now, expires],
  );
  return { token: t.token, session_id: row!.session_id, prefix: t.displayPrefix, expires_at: expires };
}

/** The caller's sessions that can still be used, newest first. */
export async function listOwnSessions(
  db: Queryable,
  tenantId: string,
  accountId: string,
  now: Date,
): Promise<SessionRow[]> {
  return db.query<SessionRow & Record<string, unknown>>(
    `SELECT session_id, prefix, user_agent, created_at, expires_at, last_used_at, revoked_at FROM console_sessions
     WHERE tenant_id = $1 AND account_id = $2 AND revoked_at IS NULL AND expires_at > $3
       AND last_used_at > $3::timestamptz - make_interval(mins => $4)
     ORDER BY created_at DESC, session_id`,
    [tenantId, accountId, now, IDLE_MINUTES],
  );
}

/**
 * Revokes a session the caller may end: their own, or any of the workspace
 * when they are an admin. Null when there is no such session for this caller.
 */
export async function revokeSession(
  tx: Queryable,
  caller: { tenantId: string; accountId: string; role: Role },
  sessionId: string,
  now: Date,
): Promise<{ account_id: string; newly: boolean } | null> {
  const [row] = await tx.query<{ account_id: string; revoked_at: Date | null }>(
    'SELECT account_id, revoked_at FROM console_sessions WHERE tenant_id = $1 AND session_id = $2 FOR UPDATE',
    [caller.tenantId, sessionId],
  );
  if (!row) return null;
  if (row.account_id !== caller.accountId && caller.role !== 'admin') return null;
  if (row.revoked_at) return { account_id: row.account_id, newly: false };
  await tx.query('UPDATE console_sessions SET revoked_at = $3 WHERE tenant_id = $1 AND session_id = $2', [
    caller.tenantId,
    sessionId,
    now,
  ]);
  return { account_id: row.account_id, newly: true };
}

/**
 * Console sessions (svc_session_) as the token resolver reads them (token-resolver.ts): live until sign-out
 * (revoked), SESSION_HOURS after sign-in or IDLE_MINUTES without use, whichever comes first ($2: now).
 */
export const CONSOLE_SESSIONS: StoredTokenKind<LiveTokenRow & { account_id: string; role: Role; email: string }> = {
  prefix: 'svc_session_',
  name: 'console session',
  lookup: `SELECT s.session_id AS token_id, s.tenant_id, s.account_id, s.last_used_at, a.role, a.email
           FROM console_sessions s JOIN accounts a ON a.tenant_id = s.tenant_id AND a.account_id = s.account_id
           WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2
             AND s.last_used_at > $2::timestamptz - make_interval(mins => $3)`,
  lookupParams: (now) => [now, IDLE_MINUTES],
  touch: `UPDATE console_sessions SET last_used_at = $3 WHERE tenant_id = $1 AND session_id = $2
            AND last_used_at < $3::timestamptz - interval '60 seconds'`,
  principal: (row) => ({
    kind: 'account',
    accountId: row.account_id,
    tenantId: row.tenant_id,
    role: row.role,
    tokenId: row.token_id,
    email: row.email,
  }),
};
