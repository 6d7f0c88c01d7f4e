// Invocations and their texts in monthly partitions (migration 0202), on both
// stores under the test clock: invocations recorded over months land in their
// months' partitions with their texts beside them, made ahead by the
// maintenance; one recorded before its month's partition existed waits in the
// default partition, is read by id there, and is moved with its texts; a
// tool_output attached months later joins its invocation's month; a read by
// id reads one month's partition (the plan names no other), and the record,
// its content and a list page answer as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { DAY_MS, INVOCATION, newWorkspace, post } from '../testing/ingest-kit.ts';
import { setSubscription } from '../testing/workspace.ts';
import { encodeTimeKey } from '../review/cursor.ts';
import { invocationListQuery } from '../review/invocation-queries.ts';
import { oneInvocationTimeSql } from './invocation-time.ts';

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7).replace('-', '');

eachStore('invocations by month', (get) => {
  test('recorded across months, each with its texts in its month; read by id from its month only', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-months');
    const tenant = a.account.tenant_id;
    await setSubscription(t, OPERATOR_TOKEN, tenant, { plan_tier: 'team', subscription_status: 'active' });
    const start = t.clock.now();
    const { db } = t.testDb;
    const record = async (n: number) => {
      const res = await post(t, INVOCATION, a.token, {
        agent_key: `bot-${n % 2}`,
        tool_name: 'search',
        prompt: `question ${n}`,
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json<{ invocation_id: number }>().invocation_id;
    };
    const ids: Array<{ id: number; at: number }> = [];
    try {
      // Four months, two invocations each; the maintenance passes as the clock goes.
      for (let m = 0; m < 4; m++) {
        t.clock.set(new Date(start.getTime() + m * 31 * DAY_MS));
        await t.service.partitions.maintain();
        for (let k = 0; k < 2; k++) ids.push({ id: await record(2 * m + k), at: t.clock.now().getTime() });
      }
      // Past every partition made: recorded into the default partitions, and read by id there.
      const far = start.getTime() + 8 * 31 * DAY_MS;
      t.clock.set(new Date(far));
      const late = await record(8);
      ids.push({ id: late, at: far });
      const where = () =>
        db.query<{ id: string; inv: string; texts: string }>(
          `SELECT i.invocation_id AS id, i.tableoid::regclass::text AS inv,
             (SELECT string_agg(DISTINCT c.tableoid::regclass::text, ',') FROM invocation_content c
               WHERE c.tenant_id = i.tenant_id AND c.invocation_id = i.invocation_id) AS texts
           FROM invocations i WHERE i.tenant_id = $1 ORDER BY 1`,
          [tenant],
        );
      const lateRow = (await where()).find((r) => Number(r.id) === late)!;
      assert.deepEqual([lateRow.inv, lateRow.texts], ['invocations_default', 'invocation_content_default']);
      const readLate = await t.request({ method: 'GET', url: `/api/v1/invocations/${late}`, token: a.token });
      assert.equal(readLate.statusCode, 200, readLate.body);

      const pass = await t.service.partitions.maintain();
      assert.ok(pass.created.includes(`invocations_p${month(far)}`), pass.created.join());
      assert.ok(pass.created.includes(`invocation_content_p${month(far)}`), pass.created.join());
      assert.equal(pass.defaultRowsMoved, 2, 'the invocation and its prompt');
      assert.deepEqual(
        (await where()).map((r) => [Number(r.id), r.inv, r.texts]),
        ids.map(({ id, at }) => [id, `invocations_p${month(at)}`, `invocation_content_p${month(at)}`]),
      );

      // A tool_output attached to a months-old invocation is kept in that invocation's month.
      const old = ids[1]!;
      const attached = await t.request({
        method: 'POST',
        url: `/api/v1/invocations/${old.id}/output`,
        token: a.token,
        payload: { tool_output: 'three results' },
      });
      assert.equal(attached.statusCode, 201, attached.body);
      const [output] = await db.query<{ part: string }>(
        `SELECT tableoid::regclass::text AS part FROM invocation_content
          WHERE tenant_id = $1 AND invocation_id = $2 AND field = 'tool_output'`,
        [tenant, old.id],
      );
      assert.equal(output!.part, `invocation_content_p${month(old.at)}`);

      // The record and its content, read by id, answer as before.
      for (const { id, at } of ids) {
        const res = await t.request({ method: 'GET', url: `/api/v1/invocations/${id}`, token: a.token });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json<{ invocation_id: number; created_at: string; content: Array<{ field: string }> }>();
        assert.equal(body.invocation_id, id);
        assert.equal(body.created_at, new Date(at).toISOString());
        assert.ok(
          body.content.some((c) => c.field === 'prompt'),
          res.body,
        );
      }
      // An id never given out is not found.
      const none = await t.request({ method: 'GET', url: `/api/v1/invocations/${late + 100}`, token: a.token });
      assert.equal(none.statusCode, 404, none.body);

      // A list page of one month answers its two invocations.
      const lo = new Date(start.getTime() + 2 * 31 * DAY_MS);
      const since = new Date(Date.UTC(lo.getUTCFullYear(), lo.getUTCMonth(), 1)).toISOString();
      const until = new Date(Date.UTC(lo.getUTCFullYear(), lo.getUTCMonth() + 1, 1)).toISOString();
      const list = await t.request({
        method: 'GET',
        url: `/api/v1/invocations?since=${since}&until=${until}`,
        token: a.token,
      });
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(
        list
          .json<{ items: Array<{ invocation_id: number }> }>()
          .items.map((i) => i.invocation_id)
          .sort((x, y) => x - y),
        [ids[4]!.id, ids[5]!.id],
      );

      // The plans: a read by id (the record, its texts) and a list page name one month's partitions only.
      const plan = async (sql: string, params: unknown[]) =>
        db.withTenant(tenant, async (tx) =>
          (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n'),
        );
      const scanned = (text: string, table: string) =>
        [...new Set(text.match(new RegExp(`\\b${table}_(p\\d{6}|default)\\b`, 'g')) ?? [])].sort();
      for (const { id, at } of [ids[0]!, ids[5]!, ids[8]!]) {
        const byId = await plan(
          `SELECT i.invocation_id FROM ingest_read.invocations i
            WHERE i.tenant_id = $1 AND i.invocation_id = $2 AND ${oneInvocationTimeSql('i', '$1', '$2::bigint')}`,
          [tenant, id],
        );
        assert.deepEqual(scanned(byId, 'invocations'), [`invocations_p${month(at)}`], byId);
        const texts = await plan(
          `SELECT field FROM ingest_read.invocation_content
            WHERE tenant_id = $1 AND invocation_id = $2 AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`,
          [tenant, id],
        );
        assert.deepEqual(scanned(texts, 'invocation_content'), [`invocation_content_p${month(at)}`], texts);
      }
      const page = await plan(
        `SELECT invocation_id FROM ingest_read.invocations WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3
          ORDER BY created_at DESC, invocation_id DESC LIMIT 51`,
        [tenant, since, until],
      );
      assert.deepEqual(scanned(page, 'invocations'), [`invocations_p${month(lo.getTime())}`], page);

      // A later page of the list without a time (the explorer's, as the service builds it) reads only the months
      // up to its cursor: here the first month's, not the three after it nor the default partition.
      const first = ids[1]!;
      const [key] = await db.withTenant(tenant, (tx) =>
        tx.query<{ us: string }>(
          `SELECT (extract(epoch FROM created_at) * 1000000)::bigint AS us FROM invocations
            WHERE tenant_id = $1 AND invocation_id = $2`,
          [tenant, first.id],
        ),
      );
      const after = { us: Number(key!.us), id: first.id };
      const older = await t.request({
        method: 'GET',
        url: `/api/v1/invocations?cursor=${encodeURIComponent(encodeTimeKey(after))}`,
        token: a.token,
      });
      assert.equal(older.statusCode, 200, older.body);
      assert.deepEqual(
        older.json<{ items: Array<{ invocation_id: number }> }>().items.map((i) => i.invocation_id),
        [ids[0]!.id],
      );
      const q = invocationListQuery(tenant, {}, after, 50);
      const paged = await plan(q.sql, q.params);
      // The page's keys (subquery k; the rows are then read by key, each pruned to its month as it runs).
      const lines = paged.split('\n');
      const k = lines.findIndex((l) => l.includes('Subquery Scan on k'));
      const depth = (l: string) => l.length - l.trimStart().length;
      const end = lines.findIndex((l, i) => i > k && depth(l) <= depth(lines[k]!));
      const keys = lines.slice(k, end).join('\n');
      assert.deepEqual(scanned(keys, 'invocations'), ['invocations_default', `invocations_p${month(first.at)}`], paged);
    } finally {
      t.clock.set(start);
    }
  });
});
