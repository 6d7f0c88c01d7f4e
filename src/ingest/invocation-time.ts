// Invocation ids carry no time, and invocations are partitioned by month of
// created_at (migration 0202): a read by id that named only the id would
// probe every month's index. usage_daily keeps, per UTC day, the first and
// last invocation id the day gave out, written in the same transaction as the
// invocations; ingest_read.invocations_from/until turn ids into those days,
// and a query bounding created_at by them reads only their months (pruned
// when its execution starts).

/**
 * A SQL condition bounding `<alias>.created_at` to the days that gave out the
 * invocation ids `ids` (a bigint[] SQL expression) in workspace `tenant` (a
 * uuid SQL expression): every invocation with one of those ids satisfies it.
 * An id never given out satisfies none.
 */
export function invocationTimeSql(alias: string, tenant: string, ids: string): string {
  const col = alias === '' ? 'created_at' : `${alias}.created_at`;
  return `${col} >= ingest_read.invocations_from(${tenant}, ${ids}) AND ${col} < ingest_read.invocations_until(${tenant}, ${ids})`;
}

/**
 * invocationTimeSql with each bound a scalar subquery: the statement computes
 * it once (an InitPlan) and prunes the months by it as it runs. For a
 * condition evaluated per row of a loop (a LATERAL join per id), where the
 * plain calls ran again on every row, each reading the whole id array:
 * quadratic in the number of ids.
 */
export function invocationTimeOnceSql(alias: string, tenant: string, ids: string): string {
  const col = alias === '' ? 'created_at' : `${alias}.created_at`;
  return `${col} >= (SELECT ingest_read.invocations_from(${tenant}, ${ids})) AND ${col} < (SELECT ingest_read.invocations_until(${tenant}, ${ids}))`;
}

/** invocationTimeSql for one id (a bigint SQL expression). */
export function oneInvocationTimeSql(alias: string, tenant: string, id: string): string {
  return invocationTimeSql(alias, tenant, `ARRAY[${id}]::bigint[]`);
}
