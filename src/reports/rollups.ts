import type { Queryable } from '../db/index.ts';
import { type AppContext, Poller } from '../core/index.ts';
import { invocationTimeOnceSql } from '../ingest/index.ts';

/** The greatest bigint: an open upper end of an id range. */
const MAX_BIGINT = '9223372036854775807';

// Daily roll-ups (migrations 0190-0193): counts of invocations per UTC day,
// agent, verdict and mode, of their findings per type, and of rogue events per
// type, so that a report over a year reads a few hundred rows per day instead
// of every row of the year. An invocation's findings are folded with it, but
// those of a tool_output scanned in the background are folded by the scan
// (ingest's output_scans, by log position): such an output may be attached and
// scanned long after its invocation was folded.
//
// A background pass folds each workspace's new rows after its mark (the last
// invocation and rogue event id and scan position folded), in bounded transactions: counts and
// mark move together, so a pass that dies leaves nothing half counted, and a
// second pass on the same workspace (another node) skips it while the first
// holds the mark's row lock. Ids are given out per workspace under its log's
// lock, in commit order, so "after the mark" is exactly "id above the mark".
//
// Readers never wait for the pass: they read, in one snapshot, the roll-ups of
// the whole UTC days of a period plus a live count of the rows the roll-ups do
// not hold (the partial days at either end, the rows after the mark), so the
// answers are exactly those of counting every row.

const DAY_MS = 86_400_000;

/** A content row whose findings count with its invocation: any but a tool_output scanned in the background (c). */
const NOT_SCANNED_OUTPUT = `NOT (c.field = 'tool_output' AND EXISTS (
  SELECT 1 FROM ingest_read.output_scans s WHERE s.tenant_id = c.tenant_id AND s.invocation_id = c.invocation_id))`;
/** Invocations (and rogue events) folded per transaction. */
export const ROLLUP_BATCH = 5_000;

/** Folds up to `limit` invocations and rogue events; null when another pass holds the workspace. */
export async function foldRollups(tx: Queryable, tenantId: string, limit = ROLLUP_BATCH): Promise<number | null> {
  await tx.query('INSERT INTO rollup_marks (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING', [tenantId]);
  const [held] = await tx.query<{ invocation_id: string }>(
    'SELECT invocation_id FROM rollup_marks WHERE tenant_id = $1 FOR UPDATE SKIP LOCKED',
    [tenantId],
  );
  if (!held) return null;
  // A batch is priced high enough for JIT, whose compilation would cost many times the batch itself.
  await tx.query('SET LOCAL jit = off');
  // One statement, so what it reads is one snapshot: a tool_output is counted here or by its scan, never both.
  const [inv] = await tx.query<{ n: number }>(
    `WITH batch AS (
       SELECT i.invocation_id, i.agent_key, i.verdict, i.mode, (i.created_at AT TIME ZONE 'UTC')::date AS day,
         i.created_at
       FROM ingest_read.invocations i
       WHERE i.tenant_id = $1 AND i.invocation_id > (SELECT invocation_id FROM rollup_marks WHERE tenant_id = $1)
         -- Only the months of the days that gave out ids after the mark (invocations are partitioned by month),
         -- the bounds computed once: in the row filter they ran for every row of every month.
         AND ${invocationTimeOnceSql('i', '$1', `ARRAY[(SELECT invocation_id FROM rollup_marks WHERE tenant_id = $1) + 1, ${MAX_BIGINT}]`)}
       ORDER BY i.invocation_id LIMIT $2),
     counts AS (
       SELECT day, agent_key, verdict, mode, '' AS finding_type, count(*) AS n FROM batch GROUP BY 1, 2, 3, 4
       UNION ALL
       SELECT b.day, b.agent_key, b.verdict, b.mode, f->>'type', count(*)
       FROM batch b
       JOIN ingest_read.invocation_content c
         ON c.tenant_id = $1 AND c.invocation_id = b.invocation_id AND c.created_at = b.created_at
       CROSS JOIN LATERAL jsonb_array_elements(c.findings) AS f
       WHERE ${NOT_SCANNED_OUTPUT}
       GROUP BY 1, 2, 3, 4, 5),
     added AS (
       INSERT INTO daily_rollups (tenant_id, day, agent_key, verdict, mode, finding_type, n)
       SELECT $1, day, agent_key, verdict, mode, finding_type, n FROM counts
       ON CONFLICT (tenant_id, day, agent_key, verdict, mode, finding_type)
       DO UPDATE SET n = daily_rollups.n + EXCLUDED.n
       RETURNING 1)
     UPDATE rollup_marks SET invocation_id = coalesce((SELECT max(invocation_id) FROM batch), invocation_id)
     WHERE tenant_id = $1
     RETURNING (SELECT count(*) FROM batch)::int AS n`,
    [tenantId, limit],
  );
  // The findings of tool_outputs scanned in the background, into their invocation's day.
  const [scans] = await tx.query<{ n: number }>(
    `WITH batch AS (
       SELECT s.log_index, s.invocation_id FROM ingest_read.output_scans s
       WHERE s.tenant_id = $1 AND s.log_index > (SELECT scan_log_index FROM rollup_marks WHERE tenant_id = $1)
       ORDER BY s.log_index LIMIT $2),
     counts AS (
       SELECT (i.created_at AT TIME ZONE 'UTC')::date AS day, i.agent_key, i.verdict, i.mode, f->>'type' AS finding_type,
              count(*) AS n
       FROM batch b
       JOIN ingest_read.invocations i ON i.tenant_id = $1 AND i.invocation_id = b.invocation_id
         AND ${invocationTimeOnceSql('i', '$1', '(SELECT array_agg(invocation_id) FROM batch)')}
       JOIN ingest_read.invocation_content c
         ON c.tenant_id = $1 AND c.invocation_id = b.invocation_id AND c.created_at = i.created_at
           AND c.field = 'tool_output'
       CROSS JOIN LATERAL jsonb_array_elements(c.findings) AS f
       GROUP BY 1, 2, 3, 4, 5),
     added AS (
       INSERT INTO daily_rollups (tenant_id, day, agent_key, verdict, mode, finding_type, n)
       SELECT $1, day, agent_key, verdict, mode, finding_type, n FROM counts
       ON CONFLICT (tenant_id, day, agent_key, verdict, mode, finding_type)
       DO UPDATE SET n = daily_rollups.n + EXCLUDED.n
       RETURNING 1)
     UPDATE rollup_marks SET scan_log_index = coalesce((SELECT max(log_index) FROM batch), scan_log_index)
     WHERE tenant_id = $1
     RETURNING (SELECT count(*) FROM batch)::int AS n`,
    [tenantId, limit],
  );
  const [rogue] = await tx.query<{ n: number }>(
    `WITH batch AS (
       SELECT r.rogue_event_id, r.event_type, (r.created_at AT TIME ZONE 'UTC')::date AS day
       FROM ingest_read.rogue_events r
       WHERE r.tenant_id = $1 AND r.rogue_event_id > (SELECT rogue_event_id FROM rollup_marks WHERE tenant_id = $1)
       ORDER BY r.rogue_event_id LIMIT $2),
     added AS (
       INSERT INTO daily_rogue_rollups (tenant_id, day, event_type, n)
       SELECT $1, day, event_type, count(*) FROM batch GROUP BY day, event_type
       ON CONFLICT (tenant_id, day, event_type) DO UPDATE SET n = daily_rogue_rollups.n + EXCLUDED.n
       RETURNING 1)
     UPDATE rollup_marks SET rogue_event_id = coalesce((SELECT max(rogue_event_id) FROM batch), rogue_event_id)
     WHERE tenant_id = $1
     RETURNING (SELECT count(*) FROM batch)::int AS n`,
    [tenantId, limit],
  );
  return (inv?.n ?? 0) + (rogue?.n ?? 0) + (scans?.n ?? 0);
}

/**
 * The parts of a period [from, to) the readers count: roll-ups for the whole
 * UTC days [t1, t2), live rows for the edges [from, t1) and [t2, to). With no
 * whole day inside, t1 = t2 = to and everything is live.
 */
export interface Split {
  from: Date;
  to: Date;
  t1: Date;
  t2: Date;
  /** The last invocation and rogue event ids and the last scan position the roll-ups hold. */
  mark: { invocation: number; rogue: number; scan: number };
}

export async function splitPeriod(tx: Queryable, tenantId: string, from: Date, to: Date): Promise<Split> {
  let t1 = new Date(Math.ceil(from.getTime() / DAY_MS) * DAY_MS);
  let t2 = new Date(Math.floor(to.getTime() / DAY_MS) * DAY_MS);
  if (t1.getTime() >= t2.getTime()) t1 = t2 = to;
  const [m] = await tx.query<{ invocation_id: string; rogue_event_id: string; scan_log_index: string }>(
    'SELECT invocation_id, rogue_event_id, scan_log_index FROM rollup_marks WHERE tenant_id = $1',
    [tenantId],
  );
  return {
    from,
    to,
    t1,
    t2,
    mark: {
      invocation: Number(m?.invocation_id ?? 0),
      rogue: Number(m?.rogue_event_id ?? 0),
      scan: m ? Math.max(Number(m.scan_log_index), Number.MIN_SAFE_INTEGER) : Number.MIN_SAFE_INTEGER,
    },
  };
}

/**
 * The invocations the roll-ups do not hold, as a UNION ALL of index range
 * scans: the two edges (any id) and the rows after the mark in the whole
 * days. `cols` is the select list; $1 tenant, $2 from, $3 t1, $4 t2, $5 to,
 * $6 mark, $7 log size.
 */
function liveInvocations(cols: string): string {
  const base = `FROM ingest_read.invocations i WHERE i.tenant_id = $1 AND i.log_index < $7`;
  return `SELECT ${cols} ${base} AND i.created_at >= $2 AND i.created_at < $3
    UNION ALL SELECT ${cols} ${base} AND i.created_at >= $4 AND i.created_at < $5
    UNION ALL SELECT ${cols} ${base} AND i.invocation_id > $6 AND i.created_at >= $3 AND i.created_at < $4`;
}

function params(tenantId: string, s: Split, logSize: number | null, mark: number): unknown[] {
  return [tenantId, s.from, s.t1, s.t2, s.to, mark, logSize ?? Number.MAX_SAFE_INTEGER];
}

const dayOf = (t: Date) => t.toISOString().slice(0, 10);

/** The roll-ups' read of a report: invocations and findings of the whole days in one pass. */
export function rollupReadQuery(tenantId: string, s: Split) {
  return {
    sql: `SELECT finding_type, agent_key, verdict, mode, sum(n)::int AS n FROM daily_rollups
          WHERE tenant_id = $1 AND day >= $2::date AND day < $3::date GROUP BY 1, 2, 3, 4`,
    params: [tenantId, dayOf(s.t1), dayOf(s.t2)],
  };
}

export interface PeriodCounts {
  /** Invocations by agent, verdict and mode. */
  invocations: Array<{ agent_key: string; verdict: string; mode: string; n: number }>;
  /** Their findings by type. */
  findings: Array<{ type: string; n: number }>;
}

/** Invocations of the period by agent, verdict and mode, and their findings by type (log entries below logSize, or all). */
export async function periodCounts(
  tx: Queryable,
  tenantId: string,
  s: Split,
  logSize: number | null,
): Promise<PeriodCounts> {
  const inv = new Map<string, { agent_key: string; verdict: string; mode: string; n: number }>();
  const found = new Map<string, number>();
  const addInv = (agent_key: string, verdict: string, mode: string, n: number) => {
    const key = JSON.stringify([agent_key, verdict, mode]);
    const g = inv.get(key);
    if (g) g.n += n;
    else inv.set(key, { agent_key, verdict, mode, n });
  };
  const addFinding = (type: string, n: number) => found.set(type, (found.get(type) ?? 0) + n);
  const r = rollupReadQuery(tenantId, s);
  for (const g of await tx.query<{ finding_type: string; agent_key: string; verdict: string; mode: string; n: number }>(
    r.sql,
    r.params,
  )) {
    if (g.finding_type === '') addInv(g.agent_key, g.verdict, g.mode, g.n);
    else addFinding(g.finding_type, g.n);
  }
  const p = params(tenantId, s, logSize, s.mark.invocation);
  for (const g of await tx.query<{ agent_key: string; verdict: string; mode: string; n: number }>(
    `SELECT agent_key, verdict, mode, count(*)::int AS n FROM (${liveInvocations('i.agent_key, i.verdict, i.mode')}) live
     GROUP BY 1, 2, 3`,
    p,
  ))
    addInv(g.agent_key, g.verdict, g.mode, g.n);
  // Live: every finding of the edges; those of the invocations after the mark but for outputs scanned in the
  // background; those of the scans after the scan mark (whatever their invocation).
  const withContent = `FROM ingest_read.invocations i
    JOIN ingest_read.invocation_content c
      ON c.tenant_id = i.tenant_id AND c.invocation_id = i.invocation_id AND c.created_at = i.created_at
    WHERE i.tenant_id = $1 AND i.log_index < $7`;
  for (const f of await tx.query<{ type: string; n: number }>(
    `SELECT f->>'type' AS type, count(*)::int AS n FROM (
       SELECT c.findings ${withContent} AND i.created_at >= $2 AND i.created_at < $3
       UNION ALL SELECT c.findings ${withContent} AND i.created_at >= $4 AND i.created_at < $5
       UNION ALL SELECT c.findings ${withContent} AND i.invocation_id > $6 AND i.created_at >= $3 AND i.created_at < $4
         AND ${NOT_SCANNED_OUTPUT}
       UNION ALL SELECT c.findings FROM ingest_read.output_scans s
         JOIN ingest_read.invocations i ON i.tenant_id = s.tenant_id AND i.invocation_id = s.invocation_id
         JOIN ingest_read.invocation_content c
           ON c.tenant_id = s.tenant_id AND c.invocation_id = s.invocation_id AND c.created_at = i.created_at
             AND c.field = 'tool_output'
         WHERE s.tenant_id = $1 AND s.log_index > $8 AND s.log_index < $7 AND i.created_at >= $3 AND i.created_at < $4
     ) x CROSS JOIN LATERAL jsonb_array_elements(COALESCE(x.findings, '[]'::jsonb)) AS f
     GROUP BY 1`,
    [...p, s.mark.scan],
  ))
    addFinding(f.type, f.n);
  return {
    invocations: [...inv.values()].filter((g) => g.n > 0),
    findings: [...found].filter(([, n]) => n > 0).map(([type, n]) => ({ type, n })),
  };
}

/** Invocations of the period per UTC day and verdict. */
export async function verdictDays(
  tx: Queryable,
  tenantId: string,
  s: Split,
): Promise<Array<{ day: string; verdict: string; n: number }>> {
  return tx.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, verdict, sum(n)::int AS n FROM (
       SELECT day, verdict, n FROM daily_rollups
       WHERE tenant_id = $1 AND finding_type = '' AND day >= ($3::timestamptz AT TIME ZONE 'UTC')::date
         AND day < ($4::timestamptz AT TIME ZONE 'UTC')::date
       UNION ALL
       SELECT (created_at AT TIME ZONE 'UTC')::date, verdict, 1 FROM (${liveInvocations('i.created_at, i.verdict')}) live
     ) x GROUP BY 1, 2`,
    params(tenantId, s, null, s.mark.invocation),
  );
}

/** Rogue events of the period by type. */
export async function rogueGroups(
  tx: Queryable,
  tenantId: string,
  s: Split,
  logSize: number | null,
): Promise<Array<{ event_type: string; n: number }>> {
  const base = `FROM ingest_read.rogue_events r WHERE r.tenant_id = $1 AND r.log_index < $7`;
  return tx.query(
    `SELECT event_type, sum(n)::int AS n FROM (
       SELECT event_type, n FROM daily_rogue_rollups
       WHERE tenant_id = $1 AND day >= ($3::timestamptz AT TIME ZONE 'UTC')::date
         AND day < ($4::timestamptz AT TIME ZONE 'UTC')::date
       UNION ALL SELECT r.event_type, 1 ${base} AND r.created_at >= $2 AND r.created_at < $3
       UNION ALL SELECT r.event_type, 1 ${base} AND r.created_at >= $4 AND r.created_at < $5
       UNION ALL SELECT r.event_type, 1 ${base} AND r.rogue_event_id > $6 AND r.created_at >= $3 AND r.created_at < $4
     ) x GROUP BY 1`,
    params(tenantId, s, logSize, s.mark.rogue),
  );
}

export interface RollupDeps {
  ctx: AppContext;
  /** Every workspace id (accounts). */
  tenants(): Promise<string[]>;
}

/** The background pass: every workspace's new rows folded, one bounded transaction at a time. */
export class RollupWorker {
  readonly #deps: RollupDeps;
  readonly #poller: Poller;
  #stopped = false;

  constructor(deps: RollupDeps, opts: { intervalMs?: number } = {}) {
    this.#deps = deps;
    this.#poller = new Poller({
      // A pass drains every workspace; the next one is an interval later.
      round: () => this.foldAll().then(() => 0),
      pollMs: opts.intervalMs ?? 60_000,
      onError: (err) => console.error('roll-up pass failed', err),
    });
  }

  start(): void {
    this.#poller.start(5_000);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#poller.stop();
  }

  /** One pass over every workspace; how many rows it folded. */
  async foldAll(limit = ROLLUP_BATCH): Promise<number> {
    let n = 0;
    for (const tenantId of await this.#deps.tenants()) {
      if (this.#stopped) break;
      n += await this.fold(tenantId, limit);
    }
    return n;
  }

  /** Folds a workspace until nothing is left (or another pass holds it); how many rows it folded. */
  async fold(tenantId: string, limit = ROLLUP_BATCH): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.#deps.ctx.db.withTenant(tenantId, (tx) => foldRollups(tx, tenantId, limit));
      if (n === null || n === 0) return total;
      total += n;
      if (this.#stopped) return total;
    }
  }
}
