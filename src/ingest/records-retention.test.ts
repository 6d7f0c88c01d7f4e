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
import { openPostgres } from '../db/postgres.ts';
import { PartitionMaintainer } from '../partitions/index.ts';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { DAY_MS, evidenceLeaf, INVOCATION, newWorkspace, post, ROGUE } from '../testing/ingest-kit.ts';
import { setSubscription } from '../testing/workspace.ts';
import { ingestPartitions } from './partitioned.ts';

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

// A dropped month's rows leave the per-agent counters of every workspace in
// it at once (one UPDATE per table, as the maintenance role): each
// workspace's counters are a recount of its rows after the drop, a workspace
// with nothing in the month keeps its counters as they were, and a pass that
// fails after taking the month out of them (a crash, a DROP given up at its
// lock timeout) takes nothing out: run again, it drops the month and counts
// it out once.
eachStore(
  'records retention: the counters of many workspaces',
  (get) => {
    test('a month dropped for several workspaces; failed passes leave the counters; the pass again', async () => {
      const t = get();
      const { db } = t.testDb;
      const start = t.clock.now(); // June
      const at = (days: number) => t.clock.set(new Date(start.getTime() + days * DAY_MS));
      const [a, b, c] = [
        await newWorkspace(t, 'records-many-a'),
        await newWorkspace(t, 'records-many-b'),
        await newWorkspace(t, 'records-many-c'),
      ];
      for (const w of [a, b, c])
        await setSubscription(t, OPERATOR_TOKEN, w.account.tenant_id, {
          plan_tier: 'team',
          subscription_status: 'active',
        });
      // n invocations over three agents, every other one with an e-mail address in its tool input; a rogue event each third.
      const record = async (w: typeof a, n: number) => {
        for (let i = 0; i < n; i++) {
          const payload =
            i % 2 === 0
              ? { agent_key: `bot-${i % 3}`, prompt: `p${i}` }
              : { agent_key: `bot-${i % 3}`, tool_name: 'reply', tool_input: `Write to jane.doe@example.com (${i}).` };
          const res = await post(t, INVOCATION, w.token, payload);
          assert.equal(res.statusCode, 201, res.body);
          if (i % 3 === 0)
            assert.equal(
              (await post(t, ROGUE, w.token, { event_type: i % 2 ? 'loop' : 'scope', agent_key: `bot-${i % 3}` }))
                .statusCode,
              201,
            );
        }
      };
      // What a workspace's counters say, and a recount of its rows.
      const counters = (w: typeof a) =>
        db.withTenant(w.account.tenant_id, async (tx) => ({
          activity: await tx.query(
            `SELECT agent_key, verdict, mode, outcome, invocations::int AS n, pii_invocations::int AS pii_n,
                    pii_findings::int AS pii
               FROM agent_activity WHERE tenant_id = $1 AND invocations > 0 ORDER BY 1, 2, 3, 4`,
            [w.account.tenant_id],
          ),
          rogue: await tx.query(
            `SELECT agent_key, event_type, events::int AS n FROM agent_rogue_activity
              WHERE tenant_id = $1 AND events > 0 ORDER BY 1, 2`,
            [w.account.tenant_id],
          ),
        }));
      const recount = (w: typeof a) =>
        db.withTenant(w.account.tenant_id, async (tx) => ({
          activity: await tx.query(
            `SELECT agent_key, verdict, mode, outcome, count(*)::int AS n,
                    (count(*) FILTER (WHERE pii_count > 0))::int AS pii_n, coalesce(sum(pii_count), 0)::int AS pii
               FROM invocations WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
            [w.account.tenant_id],
          ),
          rogue: await tx.query(
            `SELECT agent_key, event_type, count(*)::int AS n FROM rogue_events WHERE tenant_id = $1
              GROUP BY 1, 2 ORDER BY 1, 2`,
            [w.account.tenant_id],
          ),
        }));
      const total = async (w: typeof a) => (await counters(w)).activity.reduce((s, r) => s + Number(r['n']), 0);
      const partitions = async () =>
        (
          await db.query<{ name: string }>(
            `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent IN ('invocations'::regclass, 'rogue_events'::regclass) ORDER BY 1`,
          )
        ).map((r) => r.name);
      const june = ['invocations_p202606', 'rogue_events_p202606'];
      try {
        await t.service.partitions.maintain();
        // June: a and b record, c does not.
        await record(a, 6);
        await record(b, 4);
        // July: all three.
        at(40);
        await t.service.partitions.maintain();
        await record(a, 3);
        await record(b, 2);
        await record(c, 3);
        // April, after the months' partitions were made: b's rows land in the default partition.
        at(-55);
        await record(b, 2);
        at(40 + 183); // June and April past the retention, July not
        const before = { a: await counters(a), b: await counters(b), c: await counters(c) };
        assert.equal(await total(a), 9);
        assert.equal(await total(b), 8);
        assert.ok(
          before.a.activity.some((r) => Number(r['pii']) > 0) && before.a.rogue.length > 1,
          JSON.stringify(before.a),
        );
        for (const name of june) assert.ok((await partitions()).includes(name), name);

        // A pass that fails after the counters: rolled back with them, the month still there.
        const errors: unknown[] = [];
        const counted = ingestPartitions(183).filter((p) => p.beforeRemove);
        const crashing = new PartitionMaintainer({
          db,
          now: t.clock.now,
          tables: counted.map((p) => ({
            ...p,
            beforeRemove: async (tx, relation, until) => {
              await p.beforeRemove!(tx, relation, until);
              throw new Error('crash after the counters');
            },
          })),
          onError: (err) => errors.push(err),
        });
        const crashed = await crashing.maintain();
        assert.deepEqual(crashed.dropped, []);
        assert.equal(errors.length, 2, String(errors));
        assert.deepEqual({ a: await counters(a), b: await counters(b), c: await counters(c) }, before);
        for (const name of june) assert.ok((await partitions()).includes(name), name);

        // PostgreSQL: a DROP given up at its lock timeout behind a reader of the month rolls back the counters too.
        if (t.testDb.url) {
          const reader = await openPostgres(t.testDb.url, { max: 1 });
          try {
            let release!: () => void;
            let reading!: () => void;
            const read = new Promise<void>((r) => (reading = r));
            const held = reader.transaction(async (tx) => {
              await tx.query('SELECT count(*) FROM invocations_p202606');
              await tx.query('SELECT count(*) FROM rogue_events_p202606');
              reading();
              await new Promise<void>((r) => (release = r));
            });
            await read;
            const refused: unknown[] = [];
            const pass = await new PartitionMaintainer(
              { db, now: t.clock.now, tables: counted, onError: (err) => refused.push(err) },
              { lockTimeoutMs: 100 },
            ).maintain();
            release();
            await held;
            assert.deepEqual(pass.dropped, []);
            assert.equal(refused.length, 2, String(refused));
            for (const err of refused) assert.match(String(err), /lock timeout/);
            assert.deepEqual({ a: await counters(a), b: await counters(b), c: await counters(c) }, before);
          } finally {
            await reader.close();
          }
        }

        // The pass again: June dropped, April's rows deleted, once.
        const pass = await t.service.partitions.maintain();
        for (const name of june) assert.ok(pass.dropped.includes(name), `${name}: ${pass.dropped.join()}`);
        assert.ok(pass.defaultRowsDeleted >= 2, String(pass.defaultRowsDeleted));
        for (const w of [a, b, c]) assert.deepEqual(await counters(w), await recount(w), w.account.email);
        assert.equal(await total(a), 3);
        assert.equal(await total(b), 2);
        assert.deepEqual(await counters(c), before.c, 'a workspace with nothing in the month keeps its counters');
        // And once more: nothing left to drop, nothing taken out twice.
        const again = await t.service.partitions.maintain();
        assert.deepEqual(again.dropped, []);
        for (const w of [a, b, c]) assert.deepEqual(await counters(w), await recount(w), w.account.email);
      } finally {
        t.clock.set(start);
      }
    });
  },
  { env: { RECORDS_RETENTION_DAYS: '183' } },
);
