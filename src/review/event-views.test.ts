// The invocations an outbound event shows (invocationViews), on both stores
// with invocations in two months' partitions: an invocation's own entry
// names the time its row was recorded with, and is read by that time — a
// window of the partition's rows (the plan names its month only, whatever
// plan the statement's cache holds); an id named without a time (a review's,
// a scan's), or whose time finds no row, is read by id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Queryable } from '../db/index.ts';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { DAY_MS, INVOCATION, newWorkspace, post } from '../testing/ingest-kit.ts';
import { setSubscription } from '../testing/workspace.ts';
import { invocationViews } from './event-views.ts';

interface Recorded {
  id: number;
  at: string;
  agent: string;
}

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7).replace('-', '');

eachStore('the invocations of outbound events', (get) => {
  test('read by their entries’ times in their month, or by id when no time finds them', async () => {
    const t = get();
    const a = await newWorkspace(t, 'event-views');
    const tenant = a.account.tenant_id;
    await setSubscription(t, OPERATOR_TOKEN, tenant, { plan_tier: 'team', subscription_status: 'active' });
    const start = t.clock.now();
    const { db } = t.testDb;
    const recorded: Recorded[] = [];
    try {
      for (let m = 0; m < 2; m++) {
        t.clock.set(new Date(start.getTime() + m * 31 * DAY_MS));
        await t.service.partitions.maintain();
        for (let k = 0; k < 3; k++) {
          const agent = `bot-${m}-${k}`;
          const res = await post(t, INVOCATION, a.token, { agent_key: agent, tool_name: 'search', prompt: 'q' });
          assert.equal(res.statusCode, 201, res.body);
          recorded.push({
            id: res.json<{ invocation_id: number }>().invocation_id,
            at: t.clock.now().toISOString(),
            agent,
          });
          t.clock.set(new Date(t.clock.now().getTime() + 1000));
        }
      }
      const [a0, a1, a2, b0, b1, b2] = recorded as [Recorded, Recorded, Recorded, Recorded, Recorded, Recorded];
      // What invocationViews asks, to explain it after.
      const asked: Array<{ sql: string; params: readonly unknown[] }> = [];
      const views = await db.withTenant(tenant, (tx) => {
        const spy: Queryable = Object.create(tx) as Queryable;
        spy.query = (sql, params) => {
          asked.push({ sql, params: params ?? [] });
          return tx.query(sql, params);
        };
        return invocationViews(spy, tenant, [
          { id: b0.id, recordedAt: b0.at },
          { id: b1.id, recordedAt: b1.at },
          // A review's or a scan's: no time.
          { id: a0.id },
          // A time that is not the row's: found by id all the same.
          { id: a2.id, recordedAt: b2.at },
          // Never given out.
          { id: b2.id + 100, recordedAt: b2.at },
        ]);
      });
      assert.deepEqual(
        [...views.entries()].map(([id, v]) => [id, v.agent_key]).sort((x, y) => Number(x[0]) - Number(y[0])),
        [a0, a2, b0, b1].map((r) => [r.id, r.agent]),
      );
      assert.ok(!views.has(a1.id) && !views.has(b2.id), 'only what was asked');
      assert.equal(asked.length, 2, 'one read by time, one by id');

      // The read by time names one month's partition only, in a custom plan and in the cached generic one.
      const byTime = asked[0]!;
      assert.deepEqual(byTime.params.slice(1, 3), [b0.at, b2.at]);
      const [tenantParam, from, to, ids] = byTime.params as [string, string, string, number[]];
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        const plan = await db.withTenant(tenant, async (tx) => {
          await tx.query(`SET LOCAL plan_cache_mode = ${mode}`);
          await tx.query(`PREPARE event_views_by_time(uuid, timestamptz, timestamptz, bigint[]) AS ${byTime.sql}`);
          try {
            const rows = await tx.query<{ 'QUERY PLAN': string }>(
              `EXPLAIN ANALYZE EXECUTE event_views_by_time('${tenantParam}', '${from}', '${to}', '{${ids.join(',')}}')`,
            );
            return rows.map((r) => r['QUERY PLAN']).join('\n');
          } finally {
            await tx.query('DEALLOCATE event_views_by_time');
          }
        });
        // Pruned when execution starts (removed) or before a partition runs (never executed).
        const ran = [
          ...new Set(
            plan
              .split('\n')
              .filter((line) => !line.includes('never executed'))
              .flatMap((line) => line.match(/\binvocations_(p\d{6}|default)\b/g) ?? []),
          ),
        ];
        assert.deepEqual(ran, [`invocations_p${month(Date.parse(b0.at))}`], `${mode}\n${plan}`);
      }
    } finally {
      t.clock.set(start);
    }
  });
});
