// The write path's cost does not grow with the batch: recording 1 event and
// recording 200 (new agents, content, a tool_output job, an out-of-scope tool's
// rogue event, idempotency keys, rogue events) send the same statements to the
// database, and what they store is complete and verifies.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { PlanCaps } from '../config/config.ts';
import { scanField } from '../detect/index.ts';
import { LogWriter } from '../ledger/log-writer.ts';
import { readEntries } from '../ledger/log-store.ts';
import { rootFromLeafHashes } from '../ledger/merkle.ts';
import { leafHashOf, newSalt } from '../ledger/leaf.ts';
import { DEFAULT_POLICY } from '../policy/default-policy.ts';
import { decide } from '../policy/engine.ts';
import { countingDb } from '../testing/counting-db.ts';
import { eachTestDb } from '../testing/test-db.ts';
import { scanContent, type PreparedInvocation } from './prepare.ts';
import { KnownAgents } from './known-agents.ts';
import { recordSet } from './record.ts';
import type { RecordItem } from './set-items.ts';

const caps = { agents: 10_000, invocations_per_day: 1_000_000 } as PlanCaps;

function items(tenantId: string, n: number, now: Date, keyPrefix = 'k'): RecordItem[] {
  return Array.from({ length: n }, (_, i): RecordItem => {
    const base = {
      now,
      caps,
      epoch: 0,
      idem: { key: `${keyPrefix}-${i}`, fingerprint: createHash('sha256').update(String(i)).digest('hex') },
    };
    const pseudonyms = { agent: `sha256:agent-${i}`, type: 'sha256:probe' };
    if (i % 10 === 9)
      return { ...base, kind: 'rogue', event: { event_type: 'probe', agent_key: `agent-${i}`, pseudonyms } };
    const body = {
      agent_key: `agent-${i}`,
      prompt: `hello ${i} jane${i}@example.com`,
      tool_name: 'shell',
      ...(i % 3 === 0 ? { tool_output: 'out' } : {}),
    };
    const scanned = scanContent(body, scanField, { kek: new Uint8Array(32).fill(7), tenantId });
    const prepared: PreparedInvocation = {
      tenantId,
      agentKey: body.agent_key,
      agentPseudonym: pseudonyms.agent,
      metaSalt: newSalt(),
      outOfScope:
        i % 4 === 0
          ? {
              event_type: 'oos_tool',
              agent_key: body.agent_key,
              tool: 'shell',
              source: 'agent-ledger',
              severity: 'high',
              pseudonyms: { ...pseudonyms, type: 'sha256:oos' },
            }
          : undefined,
      mode: 'observed',
      outcome: 'success',
      durationMs: undefined,
      principalKind: undefined,
      principalId: body.agent_key,
      parentInvocationId: undefined,
      correlationId: undefined,
      toolName: 'shell',
      ...scanned,
      decision: decide(DEFAULT_POLICY, {
        agent_key: body.agent_key,
        tool_name: 'shell',
        mode: 'observed',
        outcome: 'success',
        principal_id: body.agent_key,
        findings: scanned.findings,
        tool_in_scope: i % 4 === 0 ? false : undefined,
      }),
      policyVersion: 0,
      toolInScope: i % 4 === 0 ? false : undefined,
    };
    return { ...base, kind: 'invocation', prepared };
  });
}

/**
 * Items of the kinds named, one event a letter: m a metadata invocation, c one
 * with content, r a rogue event, o an invocation of an out-of-scope tool (and
 * so a rogue event too); `keyed`: each with an Idempotency-Key.
 */
function itemsOf(tenantId: string, kinds: string, keyed: boolean, now: Date): RecordItem[] {
  return [...kinds].map((kind, i): RecordItem => {
    const base = {
      now,
      caps,
      epoch: 0,
      ...(keyed
        ? { idem: { key: `${kinds}-${i}`, fingerprint: createHash('sha256').update(`${kinds}-${i}`).digest('hex') } }
        : {}),
    };
    const agent = `agent-${kind}-${i}`;
    const pseudonyms = { agent: `sha256:${agent}`, type: 'sha256:probe' };
    if (kind === 'r') return { ...base, kind: 'rogue', event: { event_type: 'probe', agent_key: agent, pseudonyms } };
    const body = {
      agent_key: agent,
      tool_name: 'shell',
      ...(kind === 'c' ? { prompt: `write to jane${i}@example.com` } : {}),
    };
    const scanned = scanContent(body, scanField, { kek: new Uint8Array(32).fill(7), tenantId });
    const outOfScope = kind === 'o';
    const prepared: PreparedInvocation = {
      tenantId,
      agentKey: agent,
      agentPseudonym: pseudonyms.agent,
      metaSalt: newSalt(),
      outOfScope: outOfScope
        ? {
            event_type: 'oos_tool',
            agent_key: agent,
            tool: 'shell',
            source: 'agent-ledger',
            severity: 'high',
            pseudonyms: { ...pseudonyms, type: 'sha256:oos' },
          }
        : undefined,
      mode: 'observed',
      outcome: 'success',
      durationMs: undefined,
      principalKind: undefined,
      principalId: agent,
      parentInvocationId: undefined,
      correlationId: undefined,
      toolName: 'shell',
      ...scanned,
      decision: decide(DEFAULT_POLICY, {
        agent_key: agent,
        tool_name: 'shell',
        mode: 'observed',
        outcome: 'success',
        principal_id: agent,
        findings: scanned.findings,
        tool_in_scope: outOfScope ? false : undefined,
      }),
      policyVersion: 0,
      toolInScope: outOfScope ? false : undefined,
    };
    return { ...base, kind: 'invocation', prepared };
  });
}

eachTestDb('set-based write', (testDb) => {
  test('a batch of 1 and a batch of 200 send the same statements; all of it is stored and the root matches', async () => {
    const seen: Record<number, string[]> = {};
    for (const n of [1, 200]) {
      const tenantId = randomUUID();
      const { db, statements } = countingDb(testDb.db);
      const writer = new LogWriter(db);
      const set = recordSet(new KnownAgents());
      // Warm: the first append of a workspace creates its log; the second has a log, like every later one.
      await writer.submitSet(tenantId, set, items(tenantId, 1, new Date(), 'warm'));
      statements.length = 0;
      const out = await writer.submitSet(tenantId, set, items(tenantId, n, new Date()));
      assert.equal(out.length, n);
      assert.ok(
        out.every((o) => 'status' in o && o.status === 201),
        JSON.stringify(out.find((o) => !('status' in o))),
      );
      seen[n] = [...statements];
      const [row] = await testDb.db.query<{
        inv: number;
        content: number;
        rogue: number;
        jobs: number;
        keys: number;
        size: number;
        root: Uint8Array;
      }>(
        `SELECT (SELECT count(*)::int FROM invocations WHERE tenant_id = $1) AS inv,
                  (SELECT count(*)::int FROM invocation_content WHERE tenant_id = $1) AS content,
                  (SELECT count(*)::int FROM rogue_events WHERE tenant_id = $1) AS rogue,
                  (SELECT count(*)::int FROM jobs WHERE tenant_id = $1) AS jobs,
                  (SELECT count(*)::int FROM idempotency_keys WHERE tenant_id = $1) AS keys,
                  (SELECT size FROM log_heads WHERE tenant_id = $1) AS size,
                  (SELECT root FROM log_heads WHERE tenant_id = $1) AS root`,
        [tenantId],
      );
      const invs = 1 + items(tenantId, n, new Date()).filter((i) => i.kind === 'invocation').length;
      assert.equal(row!.inv, invs);
      assert.equal(row!.keys, n + 1);
      // The same keys again: replayed, nothing written.
      const replay = await writer.submitSet(tenantId, set, items(tenantId, n, new Date()));
      assert.ok(replay.every((o) => 'status' in o && o.status === 201 && o.replayed));
      const entries = await testDb.db.withTenant(tenantId, (tx) => readEntries(tx, tenantId, 0, row!.size));
      assert.equal(entries.length, row!.size);
      assert.deepEqual(Buffer.from(row!.root), Buffer.from(rootFromLeafHashes(entries.map((e) => leafHashOf(e.leaf)))));
      for (const e of entries) assert.deepEqual(Buffer.from(e.leafHash), Buffer.from(leafHashOf(e.leaf)));
    }
    assert.deepEqual(seen[200], seen[1]);
    assert.ok(seen[1]!.length <= 5, `statements: ${seen[1]!.join(' | ')}`);
  });

  test('a set writes only the tables it has rows for; every row of every mix is stored and counted', async () => {
    // Each mix in a workspace of its own, recorded twice (the second time the agents are known).
    for (const [kinds, keyed] of [
      ['mm', false],
      ['r', false],
      ['cm', true],
      ['o', false],
      ['mcro', true],
      ['rr', true],
    ] as const) {
      const tenantId = randomUUID();
      const writes: string[] = [];
      const db = {
        ...testDb.db,
        withTenant: ((id, fn, opening) =>
          testDb.db.withTenant(
            id,
            (tx, opened) => {
              const seen = (sql: string) => (/INSERT INTO log_entries/.test(sql) ? writes.push(sql) : 0);
              const wrapped = {
                query: ((sql, params) => (seen(sql), tx.query(sql, params))) as typeof tx.query,
                exec: (sql: string) => tx.exec(sql),
                ...(tx.queryThenCommit
                  ? {
                      queryThenCommit: ((sql, params) => (
                        seen(sql),
                        tx.queryThenCommit!(sql, params)
                      )) as typeof tx.queryThenCommit,
                    }
                  : {}),
              };
              return fn(wrapped, opened);
            },
            opening,
          )) as typeof testDb.db.withTenant,
      };
      const writer = new LogWriter(db);
      const set = recordSet(new KnownAgents());
      for (const round of [0, 1]) {
        const out = await writer.submitSet(
          tenantId,
          set,
          itemsOf(tenantId, kinds, keyed, new Date(Date.now() + round)).map((it) =>
            it.idem ? { ...it, idem: { ...it.idem, key: `${it.idem.key}-${round}` } } : it,
          ),
        );
        assert.ok(
          out.every((o) => 'status' in o && o.status === 201),
          `${kinds}: ${JSON.stringify(out)}`,
        );
      }
      const invocations = [...kinds].filter((k) => k !== 'r').length * 2;
      const rogue = [...kinds].filter((k) => k === 'r' || k === 'o').length * 2;
      const content = [...kinds].filter((k) => k === 'c').length * 2;
      const [row] = await testDb.db.query<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM invocations WHERE tenant_id = $1) AS inv,
                  (SELECT count(*)::int FROM invocation_content WHERE tenant_id = $1) AS content,
                  (SELECT count(*)::int FROM rogue_events WHERE tenant_id = $1) AS rogue,
                  (SELECT count(*)::int FROM idempotency_keys WHERE tenant_id = $1) AS keys,
                  (SELECT count(*)::int FROM agents WHERE tenant_id = $1) AS agents,
                  (SELECT coalesce(sum(invocations), 0)::int FROM agent_activity WHERE tenant_id = $1) AS counted,
                  (SELECT coalesce(sum(events), 0)::int FROM agent_rogue_activity WHERE tenant_id = $1) AS rogue_counted,
                  (SELECT coalesce(sum(invocations), 0)::int FROM usage_daily WHERE tenant_id = $1) AS used,
                  (SELECT coalesce(jsonb_object_agg(kind, last_id), '{}') FROM event_ids WHERE tenant_id = $1) AS ids,
                  (SELECT size::int FROM log_heads WHERE tenant_id = $1) AS size`,
        [tenantId],
      );
      assert.deepEqual(
        { ...row },
        {
          inv: invocations,
          content,
          rogue,
          keys: keyed ? kinds.length * 2 : 0,
          agents: invocations / 2,
          counted: invocations,
          rogue_counted: rogue,
          used: invocations,
          ids: { ...(invocations ? { invocation: invocations } : {}), ...(rogue ? { rogue_event: rogue } : {}) },
          // A leaf an event, one more an out-of-scope tool's rogue event, one more an agent seen first.
          size: kinds.length * 2 + [...kinds].filter((k) => k === 'o').length * 2 + invocations / 2,
        },
        kinds,
      );
      // The statements named only the tables written; the second round's agents were known.
      assert.equal(writes.length, 2, kinds);
      writes.forEach((sql, round) => {
        const named = (table: string) => sql.includes(`INSERT INTO ${table} `);
        assert.deepEqual(
          {
            inv: named('invocations'),
            content: named('invocation_content'),
            rogue: named('rogue_events'),
            keys: named('idempotency_keys'),
            agents: named('agents'),
            usage: named('usage_daily'),
          },
          {
            inv: invocations > 0,
            content: content > 0,
            rogue: rogue > 0,
            keys: keyed,
            agents: round === 0 && invocations > 0,
            usage: invocations > 0,
          },
          `${kinds}, round ${round}`,
        );
      });
    }
  });

  test('a transaction takes requests up to maxItems events; a request of more goes whole, alone; all of it is stored', async () => {
    const tenantId = randomUUID();
    const sizes: number[] = [];
    const writer = new LogWriter(testDb.db, { maxItems: 250, onBatch: (n) => sizes.push(n) });
    const set = recordSet(new KnownAgents());
    await writer.submitSet(tenantId, set, items(tenantId, 1, new Date(), 'warm'));
    sizes.length = 0;
    // Queued together: six requests of 100 and one of 300.
    const requests = [
      ...Array.from({ length: 6 }, (_, r) => items(tenantId, 100, new Date(), `r${r}`)),
      items(tenantId, 300, new Date(), 'big'),
    ];
    const out = await Promise.all(requests.map((r) => writer.submitSet(tenantId, set, r)));
    assert.ok(out.flat().every((o) => 'status' in o && o.status === 201));
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      900,
    );
    assert.ok(
      sizes.every((n) => n <= 250 || n === 300),
      `transactions of ${sizes.join(', ')} events`,
    );
    assert.ok(sizes.includes(300), `transactions of ${sizes.join(', ')} events`);
    const [row] = await testDb.db.query<{ keys: number; size: number }>(
      `SELECT (SELECT count(*)::int FROM idempotency_keys WHERE tenant_id = $1) AS keys, (SELECT size FROM log_heads WHERE tenant_id = $1) AS size`,
      [tenantId],
    );
    assert.equal(row!.keys, 901);
    const entries = await testDb.db.withTenant(tenantId, (tx) => readEntries(tx, tenantId, 0, row!.size));
    assert.equal(entries.length, row!.size);
  });
});
