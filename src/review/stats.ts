import type { Queryable } from '../db/index.ts';
import { splitPeriod, verdictDays } from '../reports/index.ts';

// Counts of invocations by verdict per hour or day: the console's overview
// chart. Days that start at UTC midnight are read from the daily roll-ups plus
// a live count of what they do not hold yet (reports' rollups.ts), so their
// cost follows the number of days; hours and other day boundaries are one
// GROUP BY over the time range (index invocations_created). Either way the
// cost follows the range asked for, never the workspace's whole history. The
// caller runs it on one snapshot (Db.snapshot): roll-ups and live rows must
// be read as of the same moment.

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
  const step = BUCKET_MS[bucket];
  const out: StatsRow[] = [];
  for (let t = since.getTime(); t < until.getTime(); t += step)
    out.push({ start: new Date(t), allow: 0, flag_for_review: 0, deny: 0 });
  const add = (at: number, verdict: string, n: number) => {
    const row = out[Math.floor((at - since.getTime()) / step)];
    if (row && (verdict === 'allow' || verdict === 'flag_for_review' || verdict === 'deny')) row[verdict] += n;
  };
  if (bucket === 'day' && since.getTime() % step === 0) {
    const split = await splitPeriod(tx, tenantId, since, until);
    for (const r of await verdictDays(tx, tenantId, split)) add(Date.parse(`${r.day}T00:00:00Z`), r.verdict, r.n);
    return out;
  }
  const rows = await tx.query<{ b: Date; verdict: string; n: string | number }>(
    `SELECT date_bin($4::interval, created_at, $2::timestamptz) AS b, verdict, count(*) AS n
     FROM ingest_read.invocations WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3
     GROUP BY 1, 2`,
    [tenantId, since, until, bucket === 'hour' ? '1 hour' : '1 day'],
  );
  for (const r of rows) add(new Date(r.b).getTime(), r.verdict, Number(r.n));
  return out;
}
