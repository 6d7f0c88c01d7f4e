// The deployment's records retention (RECORDS_RETENTION_DAYS=183), on both
// stores under the test clock across a simulated year: the maintenance makes
// the months ahead and drops invocations, their texts and rogue events by
// whole months once past the retention; the per-agent counters equal a recount
// of what is left (a DROP fires no DELETE trigger: they are reduced first); a
// dropped invocation's id answers 410 expired_by_retention, a kept one 200,
// one never given out 404; the dropped invocation's evidence still verifies
// (its leaf stays); recording goes on as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../config/config.ts';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { DAY_MS, evidenceLeaf, INVOCATION, newWorkspace, post, ROGUE } from '../testing/ingest-kit.ts';
import { setSubscription } from '../testing/workspace.ts';

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7).replace('-', '');

test('RECORDS_RETENTION_DAYS below 183 refuses to start, with the reason', () => {
  assert.throws(() => loadConfig({ RECORDS_RETENTION_DAYS: '182' }), /RECORDS_RETENTION_DAYS must be .* from 183/);
  assert.throws(() => loadConfig({ RECORDS_RETENTION_DAYS: 'forever' }), /RECORDS_RETENTION_DAYS/);
  assert.equal(loadConfig({ RECORDS_RETENTION_DAYS: '183' }).recordsRetentionDays, 183);
  assert.equal(loadConfig({}).recordsRetentionDays, undefined, 'unset: kept forever');
});

eachStore(
  'records retention by month',
  (get) => {
    test('a year: months made ahead, dropped past 183 days; counters recounted; 410 for dropped ids', async () => {
      const t = get();
      const a = await newWorkspace(t, 'records-year');
      const tenant = a.account.tenant_id;
      await setSubscription(t, OPERATOR_TOKEN, tenant, { plan_tier: 'team', subscription_status: 'active' });
      const start = t.clock.now();
      const { db } = t.testDb;
      const recorded: Array<{ id: number; evidence: number; at: number }> = [];
      const parts = async (table: string) =>
        (
          await db.query<{ name: string }>(
            `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = $1::regclass AND c.relname <> $2 ORDER BY 1`,
            [table, `${table}_default`],
          )
        ).map((r) => r.name);
      try {
        // Twelve months, an invocation with a prompt and a rogue event every 30 days, a pass each time.
        for (let m = 0; m < 13; m++) {
          t.clock.set(new Date(start.getTime() + m * 30 * DAY_MS));
          await t.service.partitions.maintain();
          const now = t.clock.now().getTime();
          const res = await post(t, INVOCATION, a.token, { agent_key: `bot-${m % 2}`, prompt: `p${m}` });
          assert.equal(res.statusCode, 201, res.body);
          const body = res.json<{ invocation_id: number; evidence_id: number }>();
          recorded.push({ id: body.invocation_id, evidence: body.evidence_id, at: now });
          assert.equal(
            (await post(t, ROGUE, a.token, { event_type: 'loop', agent_key: `bot-${m % 2}` })).statusCode,
            201,
          );
          // The months kept: from the one holding the cutoff to two ahead.
          const first = new Date(now - 183 * DAY_MS);
          const expected: string[] = [];
          for (let d = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1); ;) {
            const at = new Date(d);
            if (at.getTime() > now + 62 * DAY_MS) break;
            if (at.getTime() >= Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth(), 1))
              expected.push(month(d));
            d = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
          }
          const have = (await parts('invocations')).map((n) => n.slice(-6));
          assert.deepEqual(have, expected.slice(0, have.length), `month ${m}: ${have.join()}`);
          assert.ok(have.length >= expected.length - 1, `month ${m}: ${have.join()} vs ${expected.join()}`);
          assert.deepEqual(
            (await parts('invocation_content')).map((n) => n.slice(-6)),
            have,
          );
          assert.deepEqual(
            (await parts('rogue_events')).map((n) => n.slice(-6)),
            have,
          );
        }
        const cutoff = t.clock.now().getTime() - 183 * DAY_MS;
        const kept = recorded.filter(
          (r) => r.at >= Date.UTC(new Date(cutoff).getUTCFullYear(), new Date(cutoff).getUTCMonth(), 1),
        );
        const dropped = recorded.filter((r) => !kept.includes(r));
        assert.ok(dropped.length >= 5 && kept.length >= 6, `${dropped.length} dropped, ${kept.length} kept`);

        // The counters are a recount of what is left.
        const counted = await db.withTenant(tenant, async (tx) => ({
          activity: await tx.query(
            `SELECT agent_key, sum(invocations)::int AS n FROM agent_activity WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1`,
            [tenant],
          ),
          invocations: await tx.query(
            `SELECT agent_key, count(*)::int AS n FROM invocations WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1`,
            [tenant],
          ),
          rogue: await tx.query(
            `SELECT agent_key, sum(events)::int AS n FROM agent_rogue_activity WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1`,
            [tenant],
          ),
          rogueRows: await tx.query(
            `SELECT agent_key, count(*)::int AS n FROM rogue_events WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1`,
            [tenant],
          ),
        }));
        assert.deepEqual(counted.activity, counted.invocations);
        assert.deepEqual(counted.rogue, counted.rogueRows);
        assert.equal(
          counted.invocations.reduce((s, r) => s + Number(r['n']), 0),
          kept.length,
        );

        // Read by id: dropped ones are gone by retention (410, problem+json), kept ones answer, unknown ones 404.
        for (const r of dropped) {
          const res = await t.request({ method: 'GET', url: `/api/v1/invocations/${r.id}`, token: a.token });
          assert.equal(res.statusCode, 410, res.body);
          assert.match(String(res.headers['content-type']), /application\/problem\+json/);
          assert.equal(res.json<{ type: string }>().type, 'urn:agent-ledger:problem:expired_by_retention');
          // Its leaf stays: the evidence and its inclusion proof still answer.
          const leaf = await evidenceLeaf(t, a.token, r.evidence);
          assert.equal(leaf['kind'], 'invocation', JSON.stringify(leaf));
          assert.equal(leaf['invocation_id'], r.id);
        }
        for (const r of kept) {
          const res = await t.request({ method: 'GET', url: `/api/v1/invocations/${r.id}`, token: a.token });
          assert.equal(res.statusCode, 200, res.body);
        }
        const unknown = await t.request({
          method: 'GET',
          url: `/api/v1/invocations/${recorded.at(-1)!.id + 50}`,
          token: a.token,
        });
        assert.equal(unknown.statusCode, 404, unknown.body);
      } finally {
        t.clock.set(start);
      }
    });
  },
  { env: { RECORDS_RETENTION_DAYS: '183' } },
);
