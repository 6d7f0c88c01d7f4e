// Rogue events in monthly partitions (migration 0201), on both stores under
// the test clock: events recorded over months land in their months'
// partitions, made ahead by the maintenance; one recorded before its month's
// partition existed waits in the default partition and is moved without
// changing the per-agent counters; the list by time and its pages read only
// the months they can find rows in; the read side answers as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { DAY_MS, newWorkspace, ROGUE } from '../testing/ingest-kit.ts';
import { setSubscription } from '../testing/workspace.ts';

eachStore('rogue events by month', (get) => {
  test('recorded across months, each in its month; moved out of the default partition; lists pruned', async () => {
    const t = get();
    const a = await newWorkspace(t, 'rogue-months');
    const tenant = a.account.tenant_id;
    // A subscription, not a trial: the clock runs for months.
    await setSubscription(t, OPERATOR_TOKEN, tenant, { plan_tier: 'team', subscription_status: 'active' });
    const start = t.clock.now();
    const { db } = t.testDb;
    const post = async (n: number) => {
      const res = await t.request({
        method: 'POST',
        url: ROGUE,
        token: a.token,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ event_type: 'loop', agent_key: `bot-${n % 2}` }),
      });
      assert.equal(res.statusCode, 201, res.body);
    };
    const part = (ms: number) => `rogue_events_p${new Date(ms).toISOString().slice(0, 7).replace('-', '')}`;
    try {
      // Five months, two events each; the maintenance passes as the clock goes.
      for (let m = 0; m < 5; m++) {
        t.clock.set(new Date(start.getTime() + m * 31 * DAY_MS));
        await t.service.partitions.maintain();
        await post(2 * m);
        await post(2 * m + 1);
      }
      // A month past every partition made: recorded, into the default partition, then moved.
      const far = start.getTime() + 9 * 31 * DAY_MS;
      t.clock.set(new Date(far));
      await post(10);
      const where = async () =>
        db.query<{ part: string; n: number }>(
          `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM rogue_events WHERE tenant_id = $1
            GROUP BY 1 ORDER BY 1`,
          [tenant],
        );
      assert.ok((await where()).some((r) => r.part === 'rogue_events_default'));
      const counters = async () =>
        db.withTenant(tenant, (tx) =>
          tx.query<{ agent_key: string; events: number }>(
            `SELECT agent_key, events::int AS events FROM ingest_read.agent_rogue_activity WHERE tenant_id = $1
              ORDER BY agent_key`,
            [tenant],
          ),
        );
      const before = await counters();
      assert.deepEqual(
        before.map((r) => [r.agent_key, r.events]),
        [
          ['bot-0', 6],
          ['bot-1', 5],
        ],
      );
      const pass = await t.service.partitions.maintain();
      assert.ok(pass.created.includes(part(far)), pass.created.join());
      assert.equal(pass.defaultRowsMoved, 1);
      assert.deepEqual(await counters(), before, 'moving a row changes no counter');
      const expected = [0, 1, 2, 3, 4].map((m) => [part(start.getTime() + m * 31 * DAY_MS), 2]);
      assert.deepEqual(
        (await where()).map((r) => [r.part, r.n]),
        [...expected, [part(far), 1]].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
      );

      // The list of one month reads that month's partition only, and answers its two events.
      const lo = new Date(start.getTime() + 2 * 31 * DAY_MS);
      const since = new Date(Date.UTC(lo.getUTCFullYear(), lo.getUTCMonth(), 1)).toISOString();
      const until = new Date(Date.UTC(lo.getUTCFullYear(), lo.getUTCMonth() + 1, 1)).toISOString();
      const res = await t.request({
        method: 'GET',
        url: `/api/v1/rogue-events?since=${since}&until=${until}&limit=1`,
        token: a.token,
      });
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json<{ items: Array<{ agent_key: string }>; next_cursor: string | null }>();
      assert.deepEqual(
        page.items.map((i) => i.agent_key),
        ['bot-1'],
      );
      assert.ok(page.next_cursor);
      const next = await t.request({
        method: 'GET',
        url: `/api/v1/rogue-events?since=${since}&until=${until}&limit=1&cursor=${page.next_cursor}`,
        token: a.token,
      });
      assert.deepEqual(
        next.json<{ items: Array<{ agent_key: string }> }>().items.map((i) => i.agent_key),
        ['bot-0'],
      );
      const plan = async (sql: string, params: unknown[]) =>
        (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
      const partitions = (text: string) => [...new Set(text.match(/rogue_events_(p\d{6}|default)/g) ?? [])].sort();
      const month = plan(
        `SELECT rogue_event_id FROM rogue_events WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3
          ORDER BY created_at DESC, rogue_event_id DESC LIMIT 51`,
        [tenant, since, until],
      );
      assert.deepEqual(partitions(await month), [part(lo.getTime())], await month);
      // A later page (the cursor's time bounds it too) reads the months up to the cursor, not those after.
      const paged = plan(
        `SELECT rogue_event_id FROM rogue_events WHERE tenant_id = $1 AND created_at <= $2
          AND (created_at, rogue_event_id) < ($2::timestamptz, $3::bigint)
          ORDER BY created_at DESC, rogue_event_id DESC LIMIT 51`,
        [tenant, lo.toISOString(), 5],
      );
      assert.ok(!partitions(await paged).includes(part(far)), await paged);
    } finally {
      t.clock.set(start);
    }
  });
});
