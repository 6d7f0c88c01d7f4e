import type { Queryable } from '../db/index.ts';

export const LEASE_MINUTES = 5;

export interface Lease {
  invocation_id: number;
  expires_at: Date;
}

/**
 * Leases the oldest pending invocation that no other reviewer holds (and that
 * is not in `exclude`: the items this reviewer skipped) to `accountId`,
 * releasing the reviewer's previous lease. Null when nothing is left.
 * Two reviewers racing for one item: the conditional upsert lets one win,
 * the other tries the next item.
 */
export async function leaseNext(
  tx: Queryable,
  tenantId: string,
  accountId: string,
  exclude: number[],
  now: Date,
): Promise<Lease | null> {
  const expires = new Date(now.getTime() + LEASE_MINUTES * 60_000);
  for (let attempt = 0; attempt < 5; attempt++) {
    const [next] = await tx.query<{ invocation_id: string | number }>(
      `SELECT i.invocation_id FROM ingest_read.invocations i
       WHERE i.tenant_id = $1 AND i.review_status = 'pending' AND NOT (i.invocation_id = ANY($3::bigint[]))
         AND NOT EXISTS (SELECT 1 FROM review_leases l WHERE l.tenant_id = i.tenant_id AND l.invocation_id = i.invocation_id
                           AND l.expires_at > $2 AND l.account_id <> $4)
       ORDER BY i.created_at, i.invocation_id LIMIT 1`,
      [tenantId, now, exclude, accountId],
    );
    if (!next) {
      await release(tx, tenantId, accountId);
      return null;
    }
    const id = Number(next.invocation_id);
    const won = await tx.query(
      `INSERT INTO review_leases (tenant_id, invocation_id, account_id, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, invocation_id) DO UPDATE SET account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at
         WHERE review_leases.account_id = EXCLUDED.account_id OR review_leases.expires_at <= $5
       RETURNING invocation_id`,
      [tenantId, id, accountId, expires, now],
    );
    if (won.length === 0) continue;
    await tx.query('DELETE FROM review_leases WHERE tenant_id = $1 AND account_id = $2 AND invocation_id <> $3', [
      tenantId,
      accountId,
      id,
    ]);
    return { invocation_id: id, expires_at: expires };
  }
  return null;
}

export async function release(tx: Queryable, tenantId: string, accountId: string): Promise<void> {
  await tx.query('DELETE FROM review_leases WHERE tenant_id = $1 AND account_id = $2', [tenantId, accountId]);
}

/** Who else holds a live lease on the invocation, if anyone. */
export async function leasedByOther(
  tx: Queryable,
  tenantId: string,
  invocationId: number,
  accountId: string,
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    'SELECT 1 FROM review_leases WHERE tenant_id = $1 AND invocation_id = $2 AND account_id <> $3 AND expires_at > $4',
    [tenantId, invocationId, accountId, now],
  );
  return rows.length > 0;
}

/** Pending items in the queue (for the reviewer's progress). */
export async function pendingCount(tx: Queryable, tenantId: string): Promise<number> {
  const [r] = await tx.query<{ n: string | number }>(
    "SELECT count(*) AS n FROM ingest_read.invocations WHERE tenant_id = $1 AND review_status = 'pending'",
    [tenantId],
  );
  return Number(r?.n ?? 0);
}
