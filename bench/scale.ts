// Partitions and retention at scale, with the service's own code, on a
// scratch PostgreSQL database seeded by scripts/seed.ts (many workspaces,
// years of data):
//
//   ./node_modules/.bin/node scripts/seed.ts --database-url URL --invocations 10000000 --days 1095 --workspaces 1000
//   ./node_modules/.bin/node bench/scale.ts --database-url URL [--tenant ID]... [--skip sizes,sweep,drop] [--months 2]
//
//   - sizes: each month's partitions of invocations, invocation_content and
//     rogue_events — rows, table (heap and TOAST) and index bytes;
//   - sweep: the content retention sweep (RetentionSweeper.sweep) of each
//     workspace named (default: the largest and the median one): the first
//     sweep (erasing everything past content_days), a second one (nothing
//     due), and one a day later (a day's content due); each statement of the
//     later sweeps EXPLAINed by auto_explain (ANALYZE, BUFFERS) into the
//     server's log, read back from there, with its partitions;
//   - drop: RECORDS_RETENTION_DAYS set so the oldest month is past it, then
//     the next one (--months, default 2): the partitions module's pass (ingest's and OTLP's tables,
//     with the per-agent counters taken out first), timed per table, and
//     pg_database_size before and after.
//
// DESTRUCTIVE: it erases content and drops months. It runs only on a database
// whose workspaces are all seeded ones, and needs --database-url (never
// DATABASE_URL), so `npm run bench` skips it. auto_explain is loaded with
// session_preload_libraries, which takes a superuser; the server's log is read
// at --server-log (default /var/log/postgresql/postgresql-15-main.log).

import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { AppContext } from '../src/core/index.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { ingestPartitions } from '../src/ingest/index.ts';
import { otlpPartitions } from '../src/otlp/index.ts';
import { PartitionMaintainer } from '../src/partitions/index.ts';
import { RetentionSweeper } from '../src/retention/retention.ts';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    tenant: { type: 'string', multiple: true },
    skip: { type: 'string', default: '' },
    'server-log': { type: 'string', default: '/var/log/postgresql/postgresql-15-main.log' },
    months: { type: 'string', default: '2' },
  },
  strict: false,
});
const url = typeof values['database-url'] === 'string' ? values['database-url'] : undefined;
if (!url) {
  console.log(
    'skipped: bench/scale.ts erases and drops data: it runs only with --database-url of a seeded scratch database',
  );
  console.log(
    '  ./node_modules/.bin/node bench/scale.ts --database-url URL [--tenant ID]... [--skip sizes,sweep,drop] [--months 2]',
  );
  process.exit(0);
}
const skip = new Set(String(values.skip ?? '').split(','));
const serverLog = String(values['server-log']);
/** Months dropped, oldest first. */
const MONTHS = Math.max(1, Number(values.months) || 2);
const SEED_DOMAIN_SUFFIX = '.seed.agent-ledger.invalid';
const DAY = 86_400_000;
const MB = (b: number) => `${(b / 1_048_576).toFixed(1)} MB`;

const db = await openPostgres(url, { max: 2 });
try {
  const [real] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM workspaces WHERE domain NOT LIKE '%' || $1`,
    [SEED_DOMAIN_SUFFIX],
  );
  if ((real?.n ?? 1) > 0)
    throw new Error('the database holds workspaces scripts/seed.ts did not make: not touching it');
  const [load] = readFileSync('/proc/loadavg', 'utf8').split(' ');
  console.log(`load average (1 min) at start: ${load}`);

  if (!skip.has('sizes')) await sizes();
  if (!skip.has('sweep')) await sweeps();
  if (!skip.has('drop')) await drops();
} finally {
  await db.close();
}

async function sizes(): Promise<void> {
  const rows = await db.query<{
    parent: string;
    month: string;
    rows: number;
    table_bytes: number;
    index_bytes: number;
  }>(
    `SELECT p.relname AS parent, right(c.relname, 6) AS month, c.reltuples::bigint AS rows,
            pg_table_size(c.oid) AS table_bytes, pg_indexes_size(c.oid) AS index_bytes
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname IN ('invocations', 'invocation_content', 'rogue_events') AND c.relname ~ '_p[0-9]{6}$'
      ORDER BY 2, 1`,
  );
  const months = [...new Set(rows.map((r) => r.month))];
  const cell = (parent: string, month: string) => rows.find((r) => r.parent === parent && r.month === month);
  console.log('\nper month: rows / table / indexes (MB) of invocations | invocation_content | rogue_events');
  const total = { invocations: [0, 0, 0], invocation_content: [0, 0, 0], rogue_events: [0, 0, 0] } as Record<
    string,
    number[]
  >;
  for (const m of months) {
    const parts = ['invocations', 'invocation_content', 'rogue_events'].map((t) => {
      const r = cell(t, m);
      if (!r) return '-';
      const sum = total[t]!;
      sum[0]! += Number(r.rows);
      sum[1]! += Number(r.table_bytes);
      sum[2]! += Number(r.index_bytes);
      return `${Number(r.rows)} / ${(Number(r.table_bytes) / 1_048_576).toFixed(1)} / ${(Number(r.index_bytes) / 1_048_576).toFixed(1)}`;
    });
    console.log(`  ${m}  ${parts.join('  |  ')}`);
  }
  for (const [t, [n, tb, ib]] of Object.entries(total))
    console.log(
      `  total ${t}: ${n} rows, table ${MB(tb!)}, indexes ${MB(ib!)}; per row ${(tb! / Math.max(1, n!)).toFixed(0)} + ${(ib! / Math.max(1, n!)).toFixed(0)} B`,
    );
  const others = await db.query<{ name: string; bytes: number }>(
    `SELECT relname AS name, pg_total_relation_size(oid) AS bytes FROM pg_class
      WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace
        AND relname IN ('daily_rollups', 'daily_rogue_rollups', 'usage_daily', 'agent_activity', 'agent_rogue_activity', 'reviews', 'agents')
      ORDER BY 1`,
  );
  for (const o of others) console.log(`  ${o.name}: ${MB(Number(o.bytes))} (with indexes)`);
  const [d] = await db.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes');
  console.log(`  database: ${MB(Number(d!.bytes))}`);
}

/** The workspaces to sweep: those named, or the largest and the median seeded one. */
async function chosenTenants(): Promise<string[]> {
  const named = values.tenant;
  if (Array.isArray(named) && named.length > 0) return named.map(String);
  const all = await db.query<{ tenant_id: string; n: number }>(
    'SELECT tenant_id, last_id AS n FROM event_ids WHERE kind = $1 ORDER BY last_id DESC, tenant_id',
    ['invocation'],
  );
  return [all[0]!.tenant_id, all[Math.floor(all.length / 2)]!.tenant_id];
}

/** What auto_explain wrote to the server's log since `from`: each statement's time, buffers and partitions. */
function explained(from: number): Array<{ ms: number; hit: number; read: number; query: string; scans: string[] }> {
  const text = readFileSync(serverLog, 'utf8').slice(from);
  const out = [];
  for (const block of text.split(/\n(?=\S.*LOG:\s+duration: )/)) {
    const m = /LOG:\s+duration: ([\d.]+) ms\s+plan:/.exec(block);
    if (!m) continue;
    const buf = /Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(block);
    // The statement's text runs up to the plan's top node, the first line with a cost.
    const query = /Query Text: ([\s\S]*?)\n[^\n]*\(cost=/.exec(block);
    const scans = [...block.matchAll(/on (\w+_p\d{6})/g)].map((s) => s[1]!);
    out.push({
      ms: Number(m[1]),
      hit: Number(buf?.[1] ?? 0),
      read: Number(buf?.[2] ?? 0),
      query: (query?.[1] ?? block.slice(0, 200)).replace(/\s+/g, ' ').slice(0, 90),
      scans: [...new Set(scans)],
    });
  }
  return out;
}

async function sweeps(): Promise<void> {
  const traced = await openPostgres(
    `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(
      '-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 -c auto_explain.log_analyze=on ' +
        '-c auto_explain.log_buffers=on -c auto_explain.log_timing=off -c auto_explain.log_nested_statements=on',
    )}`,
    { max: 1 },
  );
  try {
    for (const tenant of await chosenTenants()) {
      const [n] = await db.query<{ n: number; fields: number }>(
        `SELECT (SELECT last_id FROM event_ids WHERE tenant_id = $1 AND kind = 'invocation') AS n,
                (SELECT count(*) FROM invocation_content WHERE tenant_id = $1)::int AS fields`,
        [tenant],
      );
      console.log(`\nretention sweep of workspace ${tenant}: ${n!.n} invocations, ${n!.fields} stored texts`);
      const now = new Date();
      const sweeper = (useDb: typeof db, at: Date) =>
        new RetentionSweeper({
          ctx: { db: useDb, readDb: useDb, now: () => at } as unknown as AppContext,
          appendInTx: () => Promise.reject(new Error('the sweep appends nothing')),
          tenants: () => Promise.resolve([tenant]),
        });
      const timed = async (what: string, useDb: typeof db, at: Date) => {
        const logFrom = statSync(serverLog).size;
        const t0 = performance.now();
        const r = await sweeper(useDb, at).sweep(tenant);
        const ms = performance.now() - t0;
        console.log(`  ${what}: ${r.fields} fields, ${r.reviewNotes} review notes erased in ${ms.toFixed(1)} ms`);
        if (useDb === traced) {
          const plans = explained(logFrom);
          const hit = plans.reduce((a, p) => a + p.hit, 0);
          const read = plans.reduce((a, p) => a + p.read, 0);
          const stmt = plans.reduce((a, p) => a + p.ms, 0);
          console.log(
            `    ${plans.length} statements: ${(hit + read).toLocaleString('en')} shared buffers (hit ${hit}, read ${read}), ` +
              `${stmt.toFixed(1)} ms in the statements (timing off, ANALYZE on)`,
          );
          for (const p of plans)
            console.log(
              `    ${String(p.hit + p.read).padStart(7)} buf ${p.ms.toFixed(1).padStart(7)} ms  ${p.query}${p.scans.length ? `  [${p.scans.join(', ')}]` : ''}`,
            );
        }
      };
      await timed('first sweep (everything past content_days)', db, now);
      await timed('second sweep (nothing due)', db, now);
      await timed('second sweep again, explained', traced, now);
      const later = new Date(now.getTime() + DAY);
      await timed('a sweep a day later (a day due), explained', traced, later);
      await timed('and again (nothing due)', db, later);
    }
  } finally {
    await traced.close();
  }
}

async function drops(): Promise<void> {
  const [range] = await db.query<{ oldest: Date }>('SELECT min(created_at) AS oldest FROM invocations');
  const oldest = new Date(range!.oldest);
  const now = new Date();
  // Days that put the cutoff at (or within a day after) the end of the month `k` months after the oldest one.
  const daysFor = (k: number) => {
    const end = Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth() + 1 + k, 1);
    return Math.floor((now.getTime() - end) / DAY);
  };
  for (let k = 0; k < MONTHS; k++) {
    const days = daysFor(k);
    const month = new Date(Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth() + k, 1)).toISOString();
    const parts = await db.query<{ name: string; bytes: number; rows: number }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes, c.reltuples::bigint AS rows
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent IN ('invocations'::regclass, 'invocation_content'::regclass, 'rogue_events'::regclass)
          AND c.relname ~ '_p[0-9]{6}$' AND right(c.relname, 6) = $1
      ORDER BY 1`,
      [`${month.slice(0, 4)}${month.slice(5, 7)}`],
    );
    const [before] = await db.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes');
    console.log(
      `\nRECORDS_RETENTION_DAYS=${days}: drops ${parts.map((p) => `${p.name} (${Number(p.rows)} rows, ${MB(Number(p.bytes))})`).join(', ')}`,
    );
    let all = 0;
    for (const table of [...ingestPartitions(days), ...otlpPartitions(days)]) {
      if (table.dropBefore === undefined) continue; // idempotency keys: their own day partitions
      // How much of the pass is taking the rows out of the per-agent counters (before the DROP, same transaction).
      let uncountMs = 0;
      const before = table.beforeRemove;
      const timed = before && {
        ...table,
        beforeRemove: async (tx: Parameters<typeof before>[0], relation: string, at?: Date) => {
          const u0 = performance.now();
          await before(tx, relation, at);
          uncountMs += performance.now() - u0;
        },
      };
      const t0 = performance.now();
      const pass = await new PartitionMaintainer({
        db,
        now: () => now,
        tables: [timed ?? table],
        onError: (err) => console.error(`  ${table.table}:`, err),
      }).maintain();
      const ms = performance.now() - t0;
      all += ms;
      console.log(
        `  ${table.table}: dropped [${pass.dropped.join(', ')}] in ${ms.toFixed(1)} ms (the whole pass` +
          `${before ? `; ${uncountMs.toFixed(1)} ms of it taking the rows out of the per-agent counters` : ''})`,
      );
    }
    const [after] = await db.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes');
    const expected = parts.reduce((a, p) => a + Number(p.bytes), 0);
    const freed = Number(before!.bytes) - Number(after!.bytes);
    console.log(
      `  all tables: ${all.toFixed(1)} ms; database ${MB(Number(before!.bytes))} → ${MB(Number(after!.bytes))}: ` +
        `${MB(freed)} given back of the partitions' ${MB(expected)} (${((100 * freed) / Math.max(1, expected)).toFixed(0)} %)`,
    );
  }
}
