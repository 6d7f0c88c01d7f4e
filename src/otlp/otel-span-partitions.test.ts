// Recorded spans in monthly partitions (otlp migration 0204), on both stores
// under the test clock across a simulated year with RECORDS_RETENTION_DAYS=183:
// each span's row lands in its invocation's month, made ahead by the
// maintenance and dropped with its invocations' month; a span re-sent months
// later (its idempotency key long gone) is still recorded once; a parent
// recorded a month after its children, and a child recorded twenty days after
// its parent, are linked across months; every read of the table names the
// months it can be in, and the plans (generic ones too) read no other.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Queryable } from '../db/index.ts';
import { eachStore, OPERATOR_TOKEN, type TestService } from '../testing/harness.ts';
import { DAY_MS, newWorkspace } from '../testing/ingest-kit.ts';
import { setSubscription } from '../testing/workspace.ts';
import { eraseSpanTexts, redactLegacySpanTexts } from './span-texts.ts';
import { otelDetails, recordedSpans, spanLinks, type SpanRow } from './store.ts';

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7).replace('-', '');
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const traceId = (n: number) => hex(n, 32);
const spanId = (n: number) => hex(n, 16);
const NS_PER_MS = 1_000_000n;

interface SpanSpec {
  trace: number;
  span: number;
  parent?: number;
  startMs: number;
}

function otlpJson(spans: SpanSpec[]): string {
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'months-svc')] },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: spans.map((s) => ({
              traceId: traceId(s.trace),
              spanId: spanId(s.span),
              ...(s.parent === undefined ? {} : { parentSpanId: spanId(s.parent) }),
              name: 'chat',
              kind: 1,
              startTimeUnixNano: String(BigInt(s.startMs) * NS_PER_MS),
              endTimeUnixNano: String((BigInt(s.startMs) + 5n) * NS_PER_MS),
              attributes: [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.agent.name', 'month-agent')],
            })),
          },
        ],
      },
    ],
  });
}

/** The partitions of `table` a plan names, and of those the ones it ran (EXPLAIN ANALYZE: not "never executed"). */
function partitionsIn(plan: string, table: string): { named: string[]; ran: string[] } {
  const named = new Set<string>();
  const ran = new Set<string>();
  for (const line of plan.split('\n')) {
    const m = new RegExp(`\\bon (${table}_(?:p\\d{6}|default))\\b`).exec(line);
    if (!m) continue;
    named.add(m[1]!);
    if (!line.includes('never executed')) ran.add(m[1]!);
  }
  return { named: [...named].sort(), ran: [...ran].sort() };
}

/** Runs fn with a Queryable whose statements are explained (ANALYZE: run, for reads), under a generic plan if asked. */
async function explained(
  t: TestService,
  tenant: string,
  how: { analyze: boolean; generic: boolean },
  fn: (tx: Queryable) => Promise<unknown>,
): Promise<string[]> {
  const analyze = how.analyze;
  const plans: string[] = [];
  await t.testDb.db.withTenant(tenant, async (tx) => {
    if (how.generic) await tx.exec('SET LOCAL plan_cache_mode = force_generic_plan');
    const wrapped: Queryable = {
      query: async <T>(sql: string, params?: unknown[]) => {
        const rows = await tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (${analyze ? 'ANALYZE, TIMING OFF, SUMMARY OFF, ' : ''}COSTS OFF) ${sql}`,
          params,
        );
        plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
        return [] as T[];
      },
      exec: (sql) => tx.exec(sql),
    };
    await fn(wrapped);
  });
  return plans;
}

eachStore(
  'recorded spans by month',
  (get) => {
    test('a year of spans: in their invocations months, re-sends recorded once, parents linked across months, plans pruned', async () => {
      const t = get();
      const a = await newWorkspace(t, 'span-months');
      const tenant = a.account.tenant_id;
      await setSubscription(t, OPERATOR_TOKEN, tenant, { plan_tier: 'team', subscription_status: 'active' });
      const { db } = t.testDb;
      const start = t.clock.now();
      const exportSpans = async (spans: SpanSpec[]) => {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/otel/v1/traces',
          token: a.token,
          headers: { 'content-type': 'application/json' },
          payload: otlpJson(spans),
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json<Record<string, unknown>>();
      };
      const rows = () =>
        db.query<{ span: string; part: string; inv_part: string | null; invocation_id: string }>(
          `SELECT s.span_id AS span, s.tableoid::regclass::text AS part, s.invocation_id,
             (SELECT i.tableoid::regclass::text FROM invocations i
               WHERE i.tenant_id = s.tenant_id AND i.invocation_id = s.invocation_id) AS inv_part
           FROM otel_spans s WHERE s.tenant_id = $1`,
          [tenant],
        );
      const invocationOf = async (span: number) =>
        Number((await rows()).find((r) => r.span === spanId(span))!.invocation_id);
      const detail = async (span: number) => {
        const res = await t.request({
          method: 'GET',
          url: `/api/v1/invocations/${await invocationOf(span)}`,
          token: a.token,
        });
        assert.equal(res.statusCode, 200, res.body);
        return res.json<{ trace: { parent: { invocation_id: number } | null }; otel: { span_id: string } | null }>();
      };
      const invocationCount = async () =>
        Number(
          (await db.query<{ n: string }>('SELECT count(*) AS n FROM invocations WHERE tenant_id = $1', [tenant]))[0]!.n,
        );
      const parts = async (table: string) =>
        (
          await db.query<{ name: string }>(
            `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = $1::regclass AND c.relname <> $2 ORDER BY 1`,
            [table, `${table}_default`],
          )
        ).map((r) => r.name.slice(-6));

      try {
        for (let m = 0; m < 13; m++) {
          t.clock.set(new Date(start.getTime() + m * 30 * DAY_MS));
          await t.service.partitions.maintain();
          const now = t.clock.now().getTime();
          // A trace a month: the child before its parent, as exporters send them.
          assert.deepEqual(
            await exportSpans([
              { trace: 100 + m, span: 100 * m + 11, parent: 100 * m + 10, startMs: now - 2_000 },
              { trace: 100 + m, span: 100 * m + 10, startMs: now - 3_000 },
            ]),
            {},
          );
          const child = await detail(100 * m + 11);
          assert.equal(child.otel?.span_id, spanId(100 * m + 11));
          assert.equal(child.trace.parent?.invocation_id, await invocationOf(100 * m + 10));

          if (m === 7) {
            // A long run: a child recorded now, its parent (started before it) next month.
            assert.deepEqual(await exportSpans([{ trace: 900, span: 901, parent: 900, startMs: now - 30_000 }]), {});
            // A parent that ended first (work it did not wait for); its child starts twenty days later, next month.
            assert.deepEqual(await exportSpans([{ trace: 800, span: 800, startMs: now - 60_000 }]), {});
            t.clock.set(new Date(now + 20 * DAY_MS));
            assert.deepEqual(
              await exportSpans([{ trace: 800, span: 801, parent: 800, startMs: now + 20 * DAY_MS - 60_000 }]),
              {},
            );
            assert.equal((await detail(801)).trace.parent?.invocation_id, await invocationOf(800));
          }
          if (m === 8) {
            const childStart = start.getTime() + 7 * 30 * DAY_MS - 30_000;
            assert.deepEqual(await exportSpans([{ trace: 900, span: 900, startMs: childStart - 10_000 }]), {});
            const all = await rows();
            const part = (span: number) => all.find((r) => r.span === spanId(span))!.part;
            assert.notEqual(part(901), part(900), 'the child and its parent are in different months');
            assert.notEqual(part(801), part(800), 'the child and its parent are in different months');
            assert.equal((await detail(901)).trace.parent?.invocation_id, await invocationOf(900));
          }
          if (m === 10) {
            // The export of two months ago, sent again: its keys are long gone, its spans are found by their time.
            const before = await invocationCount();
            const then = start.getTime() + 8 * 30 * DAY_MS;
            await exportSpans([
              { trace: 108, span: 811, parent: 810, startMs: then - 2_000 },
              { trace: 108, span: 810, startMs: then - 3_000 },
            ]);
            assert.equal(await invocationCount(), before, 'nothing recorded twice');
          }

          // Every row in its invocation's month; the months are the invocations' months.
          for (const r of await rows()) assert.equal(r.part.slice(-6), r.inv_part?.slice(-6), JSON.stringify(r));
          assert.deepEqual(await parts('otel_spans'), await parts('invocations'), `month ${m}`);
        }
        // Past 183 days the months went, with their invocations: no row outlives its invocation.
        const now = t.clock.now().getTime();
        const kept = await parts('otel_spans');
        assert.ok(!kept.includes(month(start.getTime())), kept.join());
        assert.ok(kept.includes(month(now - 150 * DAY_MS)), kept.join());
        const all = await rows();
        assert.ok(all.length >= 12, `${all.length} rows`);
        assert.ok(
          all.every((r) => r.inv_part !== null),
          'a row whose invocation was dropped',
        );
        assert.equal(all.length, await invocationCount());

        // The plans, generic ones (the statements as the service sends them).
        const current = `otel_spans_p${month(now)}`;
        const recent = { traceId: traceId(112), spanId: spanId(1211), at: new Date(now - 2_000) };
        const [lookup] = await explained(t, tenant, { analyze: true, generic: true }, (tx) =>
          recordedSpans(tx, tenant, [recent], new Date(now)),
        );
        assert.deepEqual(partitionsIn(lookup!, 'otel_spans').ran, [current], lookup);
        const older = { traceId: traceId(108), spanId: spanId(811), at: new Date(start.getTime() + 8 * 30 * DAY_MS) };
        const [lookupOld] = await explained(t, tenant, { analyze: true, generic: true }, (tx) =>
          recordedSpans(tx, tenant, [older], new Date(now)),
        );
        const ranOld = partitionsIn(lookupOld!, 'otel_spans').ran;
        assert.ok(!ranOld.includes(`otel_spans_p${month(now - 150 * DAY_MS)}`), lookupOld);
        assert.ok(ranOld.includes(`otel_spans_p${month(older.at.getTime())}`), lookupOld);

        const inv = await invocationOf(1211);
        const [createdAt] = await db.withTenant(tenant, (tx) =>
          tx.query<{ created_at: Date }>('SELECT created_at FROM otel_spans WHERE tenant_id = $1 AND span_id = $2', [
            tenant,
            spanId(1211),
          ]),
        );
        const row: SpanRow = {
          invocationId: inv,
          recordedAt: new Date(createdAt!.created_at),
          at: recent.at,
          parentSpanId: spanId(1210),
          extras: { trace_id: recent.traceId, span_id: recent.spanId } as unknown as SpanRow['extras'],
        };
        const [links] = await explained(t, tenant, { analyze: true, generic: true }, (tx) =>
          spanLinks(tx, tenant, [row], new Date(now)),
        );
        const linkParts = partitionsIn(links!, 'otel_spans');
        assert.ok(linkParts.ran.length > 0 && linkParts.ran.length <= 2, links);
        assert.ok(!linkParts.ran.includes(`otel_spans_p${month(now - 150 * DAY_MS)}`), links);

        const [details] = await explained(t, tenant, { analyze: false, generic: true }, (tx) =>
          otelDetails(tx, tenant, { id: inv, createdAt: new Date(createdAt!.created_at) }, true, (s) => s),
        );
        assert.deepEqual(partitionsIn(details!, 'otel_spans').named, [current], details);

        // Retention's erasure reads only the months of its period; the legacy redaction none made since 0204.
        const from = new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 1, 1));
        // As invocation_content's: a period's bounds, each or null, fold into the plan the statement gets for them.
        const [erase] = await explained(t, tenant, { analyze: false, generic: false }, (tx) =>
          eraseSpanTexts(tx, tenant, { from, to: new Date(from.getTime() + 10 * DAY_MS) }, new Date(now)),
        );
        assert.deepEqual(partitionsIn(erase!, 'otel_spans').named, [`otel_spans_p${month(from.getTime())}`], erase);
        const [legacy] = await explained(t, tenant, { analyze: false, generic: true }, (tx) =>
          redactLegacySpanTexts(tx, tenant, (s) => s),
        );
        assert.ok(!partitionsIn(legacy!, 'otel_spans').named.includes(current), legacy);
      } finally {
        t.clock.set(start);
      }
    });
  },
  { env: { RECORDS_RETENTION_DAYS: '183' } },
);
