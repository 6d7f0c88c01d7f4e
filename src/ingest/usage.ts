import type { UsageSource } from '../accounts/index.ts';
import type { Db } from '../db/index.ts';
import { utcDay } from './utc-day.ts';

/**
 * What a workspace used, counted from ingest's own tables: today's invocations and the agents it registered.
 * Needs only the database, so the service builds it before accounts (whose plan views show it) and ingest
 * (which needs accounts) without a cycle between them.
 */
export function ingestUsage(db: Db): Pick<UsageSource, 'invocationsToday' | 'agentsRegistered'> {
  return {
    async invocationsToday(tenantId, now) {
      const [row] = await db.withTenant(tenantId, (tx) =>
        tx.query<{ n: number }>('SELECT invocations AS n FROM usage_daily WHERE tenant_id = $1 AND day = $2', [
          tenantId,
          utcDay(now),
        ]),
      );
      return row?.n ?? 0;
    },
    async agentsRegistered(tenantId) {
      const [row] = await db.withTenant(tenantId, (tx) =>
        tx.query<{ n: number }>('SELECT count(*)::int AS n FROM agents WHERE tenant_id = $1', [tenantId]),
      );
      return row?.n ?? 0;
    },
  };
}
