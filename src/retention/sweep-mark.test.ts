// Content retention by what came due (retention migration 0203), on both
// stores under the test clock: a sweep erases the texts of invocations before
// the workspace's cutoff and marks where it got to; the next sweep reads only
// the invocations since the mark (a text left unerased behind the mark stays
// as it is: it is not read again, and its plan names only the months between
// mark and cutoff); a tool_output is not attached to an invocation past
// retention. The notes, rationales and approval notes the sweep erases by
// their own time are found by that time alone: their statements read no
// month of invocations, and each has an index of its pending texts by time.
// Texts are erased in chunks that go on from the previous chunk's last
// invocation: each text once, an invocation's texts split across two chunks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Queryable } from '../db/index.ts';
import { APPROVAL_NOTES, eraseInvocationContent, eraseText, oneInvocationTimeSql } from '../ingest/index.ts';
import { JUDGE_RATIONALES } from '../judges/index.ts';
import { eraseSpanTexts } from '../otlp/index.ts';
import { REVIEW_NOTES } from '../review/index.ts';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { DAY_MS, INVOCATION, newWorkspace, post } from '../testing/ingest-kit.ts';
import { setSubscription } from '../testing/workspace.ts';

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7).replace('-', '');

eachStore('content retention from its mark', (get) => {
  test('the second sweep reads only what came due since the first; no attaching past retention', async () => {
    const t = get();
    const a = await newWorkspace(t, 'sweep-mark');
    const tenant = a.account.tenant_id;
    await setSubscription(t, OPERATOR_TOKEN, tenant, { plan_tier: 'team', subscription_status: 'active' });
    const put = await t.request({
      method: 'PUT',
      url: '/api/v1/workspace/retention',
      token: a.token,
      payload: { content_days: 183 },
    });
    assert.equal(put.statusCode, 200, put.body);
    const start = t.clock.now();
    const { db } = t.testDb;
    const ids: Array<{ id: number; at: number }> = [];
    try {
      // An invocation with a prompt every 30 days for ten months.
      for (let m = 0; m < 10; m++) {
        t.clock.set(new Date(start.getTime() + m * 30 * DAY_MS));
        await t.service.partitions.maintain();
        const res = await post(t, INVOCATION, a.token, { agent_key: 'bot', prompt: `prompt ${m}` });
        assert.equal(res.statusCode, 201, res.body);
        ids.push({ id: res.json<{ invocation_id: number }>().invocation_id, at: t.clock.now().getTime() });
      }
      const erased = () =>
        db.withTenant(tenant, async (tx) =>
          (
            await tx.query<{ id: string }>(
              'SELECT invocation_id AS id FROM invocation_content WHERE tenant_id = $1 AND erased_at IS NOT NULL ORDER BY 1',
              [tenant],
            )
          ).map((r) => Number(r.id)),
        );
      const now1 = t.clock.now().getTime();
      const cutoff1 = now1 - 183 * DAY_MS;
      // (The service's own sweeper may run a pass too: what is asserted is the state, not who erased it.)
      await t.service.retention.sweep(tenant);
      const due1 = ids.filter((i) => i.at < cutoff1).map((i) => i.id);
      assert.ok(due1.length >= 3, String(due1));
      assert.deepEqual(await erased(), due1);
      const mark = async () =>
        db.withTenant(tenant, async (tx) => {
          const [r] = await tx.query<{ at: Date }>(
            'SELECT content_swept_before AS at FROM retention_sweeps WHERE tenant_id = $1',
            [tenant],
          );
          return r === undefined ? undefined : new Date(r.at).getTime();
        });
      assert.equal(await mark(), cutoff1);

      // A text behind the mark left unerased (as if written there): the sweeps that follow do not read it again.
      const behind = ids[0]!;
      await db.withTenant(tenant, (tx) =>
        tx.query(
          `UPDATE invocation_content SET body = 'kept', erased_at = NULL WHERE tenant_id = $1 AND invocation_id = $2
             AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`,
          [tenant, behind.id],
        ),
      );
      t.clock.set(new Date(now1 + 60 * DAY_MS));
      const cutoff2 = t.clock.now().getTime() - 183 * DAY_MS;
      await t.service.retention.sweep(tenant);
      const due2 = ids.filter((i) => i.at >= cutoff1 && i.at < cutoff2).map((i) => i.id);
      assert.ok(due2.length >= 1, String(due2));
      assert.deepEqual(
        await erased(),
        [...due1, ...due2].filter((id) => id !== behind.id).sort((x, y) => x - y),
        'what came due since the mark, and nothing behind it read again',
      );
      assert.equal(await mark(), cutoff2);

      // The sweep's statement between mark and cutoff reads the invocations' and texts' months between them only.
      const plan = await db.withTenant(tenant, async (tx) => {
        // The statement eraseInvocationContent runs, explained instead of run.
        const lines: string[] = [];
        const explain = {
          query: async (text: string, params: unknown[] = []) => {
            const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params);
            lines.push(...rows.map((r) => r['QUERY PLAN']));
            return [];
          },
        };
        await eraseInvocationContent(
          explain as unknown as typeof tx,
          tenant,
          { from: new Date(cutoff1), to: new Date(cutoff2) },
          t.clock.now(),
        );
        return lines.join('\n');
      });
      const months = new Set<string>();
      for (let m = cutoff1; m < cutoff2 + 31 * DAY_MS; m += DAY_MS) if (m < cutoff2) months.add(month(m));
      const scanned = (table: string) =>
        [...new Set(plan.match(new RegExp(`\\b${table}_(p\\d{6}|default)\\b`, 'g')) ?? [])].sort();
      assert.deepEqual(
        scanned('invocation_content'),
        [...months].sort().map((m) => `invocation_content_p${m}`),
        plan,
      );

      // A tool_output for an invocation past retention is refused as erased; a recent one is attached.
      const old = ids.find((i) => i.at < cutoff2 && i.id !== behind.id)!;
      const refused = await t.request({
        method: 'POST',
        url: `/api/v1/invocations/${old.id}/output`,
        token: a.token,
        payload: { tool_output: 'late result' },
      });
      assert.equal(refused.statusCode, 409, refused.body);
      const recent = ids.at(-1)!;
      const ok = await t.request({
        method: 'POST',
        url: `/api/v1/invocations/${recent.id}/output`,
        token: a.token,
        payload: { tool_output: 'a result' },
      });
      assert.equal(ok.statusCode, 201, ok.body);
      // An invocation without texts past retention, too (it has no erased text to tell by).
      const bare = await post(t, INVOCATION, a.token, { agent_key: 'bot' });
      const bareId = bare.json<{ invocation_id: number }>().invocation_id;
      t.clock.set(new Date(t.clock.now().getTime() + 200 * DAY_MS));
      await t.service.partitions.maintain();
      const late = await t.request({
        method: 'POST',
        url: `/api/v1/invocations/${bareId}/output`,
        token: a.token,
        payload: { tool_output: 'much later' },
      });
      assert.equal(late.statusCode, 409, late.body);
    } finally {
      t.clock.set(start);
    }
  });

  test("the sweep's notes, rationales, approval notes and span texts by their own time: no month of invocations read", async () => {
    const t = get();
    const a = await newWorkspace(t, 'sweep-notes');
    const tenant = a.account.tenant_id;
    const { db } = t.testDb;
    const start = t.clock.now();
    try {
      // Months of partitions, as a workspace kept for a while has them.
      for (let m = 0; m < 4; m++) {
        t.clock.set(new Date(start.getTime() + m * 31 * DAY_MS));
        await t.service.partitions.maintain();
      }
      // A statement the sweep runs, explained instead of run: as the planner picks, and with sequential scans off
      // (the tables are small here), which index serves it.
      const explain = (seqscan: boolean, erase: (tx: Queryable) => Promise<unknown>) =>
        db.withTenant(tenant, async (tx) => {
          if (!seqscan) await tx.query('SET LOCAL enable_seqscan = off');
          const lines: string[] = [];
          const explaining = {
            query: async (sql: string, params: unknown[] = []) => {
              const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
              lines.push(...rows.map((r) => r['QUERY PLAN']));
              return [];
            },
          };
          await erase(explaining as unknown as Queryable);
          return lines.join('\n');
        });
      const noInvocations = /\binvocations(_p\d{6}|_default)?\b/;
      const cutoff = new Date(t.clock.now().getTime() - 183 * DAY_MS);
      for (const [text, index] of [
        [REVIEW_NOTES, 'reviews_note_due'],
        [JUDGE_RATIONALES, 'judgements_rationale_due'],
        [APPROVAL_NOTES, 'approvals_note_due'],
      ] as const) {
        const erase = (tx: Queryable) => eraseText(tx, tenant, text, { before: cutoff }, t.clock.now());
        const plan = await explain(true, erase);
        assert.doesNotMatch(plan, noInvocations, `${text.table}: ${plan}`);
        const indexed = await explain(false, erase);
        assert.match(indexed, new RegExp(`\\b${index}\\b`), `${text.table}: ${indexed}`);
      }
      // Span texts by their invocation's time, which each span row holds (a period alone, as the sweep passes).
      const spansBefore = new Date(t.clock.now().getTime() - 60 * DAY_MS);
      const eraseSpans = (tx: Queryable) => eraseSpanTexts(tx, tenant, { to: spansBefore }, t.clock.now());
      const plan = await explain(true, eraseSpans);
      assert.doesNotMatch(plan, noInvocations, plan);
      assert.doesNotMatch(plan, /selected_invocations/, plan);
      const indexed = await explain(false, eraseSpans);
      assert.match(indexed, /\botel_spans_p\d{6}_tenant_id_created_at_idx\b/, indexed);
    } finally {
      t.clock.set(start);
    }
  });

  test('chunks of texts go on from the last invocation of the one before', async () => {
    const t = get();
    const a = await newWorkspace(t, 'sweep-chunks');
    const tenant = a.account.tenant_id;
    const { db } = t.testDb;
    const ids: number[] = [];
    for (let k = 0; k < 3; k++) {
      const res = await post(t, INVOCATION, a.token, { agent_key: 'bot', prompt: `p ${k}`, response: `r ${k}` });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json<{ invocation_id: number }>().invocation_id);
    }
    const period = { to: new Date(t.clock.now().getTime() + DAY_MS) };
    const chunks: Array<{ fields: number; invocationIds: number[] }> = [];
    for (let after = 0; ;) {
      const c = await db.withTenant(tenant, (tx) =>
        eraseInvocationContent(tx, tenant, period, t.clock.now(), 3, after),
      );
      chunks.push(c);
      if (c.fields < 3) break;
      after = Math.max(...c.invocationIds);
    }
    assert.deepEqual(
      chunks.map((c) => [c.fields, [...c.invocationIds].sort((x, y) => x - y)]),
      [
        [3, [ids[0]!, ids[1]!]],
        [3, [ids[1]!, ids[2]!]],
        [0, []],
      ],
    );
    const [left] = await db.withTenant(tenant, (tx) =>
      tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM invocation_content WHERE tenant_id = $1 AND erased_at IS NULL',
        [tenant],
      ),
    );
    assert.equal(left!.n, 0);
    // A chunk reads from its starting invocation on: a text left before it is not read.
    await db.withTenant(tenant, (tx) =>
      tx.query(
        `UPDATE invocation_content SET body = 'kept', erased_at = NULL WHERE tenant_id = $1 AND invocation_id = $2
           AND field = 'prompt' AND ${oneInvocationTimeSql('', '$1', '$2::bigint')}`,
        [tenant, ids[0]],
      ),
    );
    const from = async (after: number) =>
      (await db.withTenant(tenant, (tx) => eraseInvocationContent(tx, tenant, period, t.clock.now(), 3, after))).fields;
    assert.equal(await from(ids[1]!), 0);
    assert.equal(await from(0), 1);
  });
});
