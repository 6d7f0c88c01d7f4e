import type { AppContext } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';

/** An account-side change that matters to an auditor, recorded as a leaf of the workspace log. */
export interface AuditEntry {
  kind:
    | 'token_issued'
    | 'token_revoked'
    | 'member_change'
    | 'subscription_change'
    | 'workspace_created'
    | 'console_session_started'
    | 'console_session_revoked'
    | 'workspace_settings';
  [field: string]: unknown;
}

/** Appends an entry to the workspace's log inside the caller's transaction. */
export type AppendAudit = (tx: Queryable, tenantId: string, entry: AuditEntry) => Promise<void>;

/** Live usage figures owned by other modules (ingest), read for quotas. */
export interface UsageSource {
  invocationsToday(tenantId: string, now: Date): Promise<number>;
  agentsRegistered(tenantId: string): Promise<number>;
  /** Personas that exist in the workspace (personas module). */
  personasUsed(tenantId: string): Promise<number>;
  /** Judge calls counted this calendar month (UTC) (judges module). */
  judgeCallsThisMonth(tenantId: string, now: Date): Promise<number>;
}

/** What the account routes are given by the service. */
export interface AccountRouteDeps {
  ctx: AppContext;
  pepper: Buffer;
  appendAudit: AppendAudit;
  usage: UsageSource;
}
