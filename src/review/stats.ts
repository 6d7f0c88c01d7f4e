import type { Queryable } from '../db/index.ts';

// Counts of invocations by verdict per hour or day: the console's overview
// chart. One GROUP BY over the time range (index invocations_created), so the
// cost follows the range asked for, never the workspace's whole history.

export type Bucket = 'hour' | 'day';
export const BUCKET_MS: Record<Bucket, number> = { hour: 3_600_000, day: 86_400_000 };
/** At most this many buckets per call: a week of hours, ~3 months of days. */
export const MAX_BUCKETS: Record<Bucket, number> = { hour: 168, day: 93 };

export interface StatsRow {
  start: Date;
  allow: number;
  flag_for_review: number;
  deny: number;
}

/** Buckets from `since` (aligned to it) up to `until`; empty buckets are zeros. */
export async function verdictStats(
  tx: Queryable,
  tenantId: string,
  since: Date,
  until: Date,
  bucket: Bucket,
): Promise<StatsRow[]> {
  const rows = await tx.query<{ b: Date; verdict: string; n: string | number }>(
    `SELECT date_bin($4::interval, created_at, $2::timestamptz) AS b, verdict, count(*) AS n
     FROM ingest_read.invocations WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3
     GROUP BY 1, 2`,
    [tenantId, since, until, bucket === 'hour' ? '1 hour' : '1 day'],
  );
  const step = BUCKET_MS[bucket];
  const out: StatsRow[] = [];
  for (let t = since.getTime(); t < until.getTime(); t += step)
    out.push({ start: new Date(t), allow: 0, flag_for_review: 0, deny: 0 });
  for (const r of rows) {
    const i = Math.floor((new Date(r.b).getTime() - since.getTime()) / step);
    const row = out[i];
    if (row && (r.verdict === 'allow' || r.verdict === 'flag_for_review' || r.verdict === 'deny'))
      row[r.verdict] += Number(r.n);
  }
  return out;
}
