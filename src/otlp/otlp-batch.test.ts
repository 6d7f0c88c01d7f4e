import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db, Queryable } from '../db/db.ts';
import { compareFacts, type ReportFacts } from '../reports/facts.ts';
import { recountFacts } from '../reports/recount.ts';
import { eachStore, type SignedIn } from '../testing/harness.ts';
import { storedMeta } from '../testing/ingest-kit.ts';
import { auditLeaves } from '../testing/workspace.ts';

// An export is recorded as one batch through ingest (set-based): its cost in
// statements does not grow with its spans, concurrent copies of it record
// each span once, and each span's start time is its invocation's occurred_at.

type Attr = { key: string; value: { stringValue: string } };
const attr = (key: string, value: string): Attr => ({ key, value: { stringValue: value } });
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const NS_PER_MS = 1_000_000n;

interface SpanSpec {
  trace: number;
  span: number;
  parent?: number;
  startMs?: number;
  attributes: Attr[];
}

function otlpJson(spans: SpanSpec[], run: string): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'batch-svc')] },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: spans.map((s) => {
              const start = s.startMs === undefined ? 0n : BigInt(s.startMs) * NS_PER_MS;
              return {
                traceId: `${run}${hex(s.trace, 32 - run.length)}`,
                spanId: hex(s.span, 16),
                ...(s.parent === undefined ? {} : { parentSpanId: hex(s.parent, 16) }),
                name: 'span',
                kind: 1,
                startTimeUnixNano: String(start),
                endTimeUnixNano: String(start + 5n * NS_PER_MS),
                attributes: s.attributes,
              };
            }),
          },
        ],
      },
    ],
  });
}

/**
 * Traces of an agent (one of two) calling a model and a tool; children come
 * before their parent, as exporters send them. Every third tool is outside
 * the agent's scope (an oos_tool rogue event too).
 */
function traces(count: number): SpanSpec[] {
  const out: SpanSpec[] = [];
  for (let t = 1; t <= count; t++) {
    const agent = 3 * t;
    out.push(
      {
        trace: t,
        span: agent + 1,
        parent: agent,
        attributes: [
          attr('gen_ai.operation.name', 'chat'),
          attr('gen_ai.input.messages', `refund for jane${t}@example.com`),
        ],
      },
      {
        trace: t,
        span: agent + 2,
        parent: agent,
        attributes: [
          attr('gen_ai.operation.name', 'execute_tool'),
          attr('gen_ai.tool.name', t % 3 === 0 ? 'wipe_disk' : 'refund'),
          attr('gen_ai.tool.call.arguments', `{"order":${t}}`),
        ],
      },
      {
        trace: t,
        span: agent,
        attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', `batch-agent-${t % 2}`)],
      },
    );
  }
  return out;
}

/**
 * Counts the statements the database receives, per transaction; a checkpoint
 * signed by the scheduler meanwhile (its own transaction, on a timer) is left out.
 */
function countStatements(db: Db): { take(): string[] } {
  let seen: string[][] = [];
  const origQuery = db.query.bind(db);
  const origWithTenant = db.withTenant.bind(db);
  const label = (sql: string) => sql.trim().split(/\s+/).slice(0, 3).join(' ');
  (db as { query: Db['query'] }).query = (sql, params) => {
    seen.push([label(sql)]);
    return origQuery(sql, params);
  };
  (db as { withTenant: Db['withTenant'] }).withTenant = (tenantId, fn) => {
    const mine: string[] = [];
    seen.push(mine);
    return origWithTenant(tenantId, (tx) => {
      const wrapped: Queryable = {
        query: (sql, params) => {
          mine.push(sql.includes('checkpoints') ? 'CHECKPOINT' : label(sql));
          return tx.query(sql, params);
        },
        exec: (sql) => tx.exec(sql),
      };
      return fn(wrapped);
    });
  };
  return {
    take() {
      const out = seen.filter((t) => !t.includes('CHECKPOINT')).flat();
      seen = [];
      return out;
    },
  };
}

eachStore(
  'OTLP exports as set-based batches',
  (get) => {
    let alice: SignedIn;
    let base: string;
    const post = (body: string) =>
      fetch(`${base}/api/v1/otel/v1/traces`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      });
    const listTrace = async (traceId: string) => {
      const res = await get().request({
        method: 'GET',
        url: `/api/v1/invocations?correlation_id=${traceId}&limit=10`,
        token: alice.token,
      });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { items: Array<{ invocation_id: number; created_at: string; tool_name: string | null }> })
        .items;
    };

    test('setup', async () => {
      const t = get();
      alice = await t.signIn('alice@otlp-batch.example');
      for (const a of ['batch-agent-0', 'batch-agent-1']) {
        const scope = await t.request({
          method: 'PUT',
          url: `/api/v1/agents/${a}/scope`,
          token: alice.token,
          payload: { allowed_tools: ['refund'] },
        });
        assert.equal(scope.statusCode, 200, scope.body);
      }
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    });

    test('an export costs the same statements for 6 spans as for 510: one batch, not one write per span', async () => {
      const t = get();
      const counter = countStatements(t.testDb.db);
      // Warm-up: agents registered, caches (plan, policy, scopes, pseudonyms) filled.
      assert.equal((await post(otlpJson(traces(3), 'e0'))).status, 200);
      counter.take();
      const seen: Record<number, string[]> = {};
      const leavesBefore = (await auditLeaves(t, alice.token)).length;
      for (const [n, run] of [
        [2, 'e1'],
        [170, 'e2'],
      ] as const) {
        counter.take();
        const res = await post(otlpJson(traces(n), run));
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), {}, 'every span recorded');
        seen[n] = counter.take();
      }
      assert.deepEqual(seen[170], seen[2], `6 spans: ${seen[2]!.join(' | ')}\n510 spans: ${seen[170]!.join(' | ')}`);
      assert.ok(seen[2]!.length <= 30, seen[2]!.join(' | '));
      // All of it is there: 3 invocations per trace, one oos_tool leaf per third trace, parents linked.
      const leaves = await auditLeaves(t, alice.token);
      const added = leaves.slice(leavesBefore);
      assert.equal(added.filter((l) => l.kind === 'invocation').length, 3 * 172);
      assert.equal(added.filter((l) => l.kind === 'rogue').length, Math.floor(170 / 3));
      const trace = await listTrace(`e2${hex(170, 30)}`);
      assert.equal(trace.length, 3);
      const details = await Promise.all(
        trace.map(
          async (i) =>
            (
              await t.request({ method: 'GET', url: `/api/v1/invocations/${i.invocation_id}`, token: alice.token })
            ).json() as {
              invocation_id: number;
              agent_key: string;
              verdict: string;
              tool_name: string | null;
              trace: { parent: { invocation_id: number } | null };
              otel: { operation: string };
            },
        ),
      );
      const agent = details.find((d) => d.otel.operation === 'invoke_agent')!;
      const tool = details.find((d) => d.tool_name === 'refund')!;
      assert.ok(details.every((d) => d.agent_key === 'batch-agent-0'));
      assert.equal(tool.verdict, 'allow');
      assert.equal(tool.trace.parent?.invocation_id, agent.invocation_id, 'the child sent before its parent is linked');
    });

    test('two concurrent exports of the same spans record each span once; both are told success', async () => {
      const t = get();
      const body = otlpJson(traces(20), 'c1');
      const before = (await auditLeaves(t, alice.token)).length;
      const [a, b] = await Promise.all([post(body), post(body)]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.deepEqual(await a.json(), {});
      assert.deepEqual(await b.json(), {});
      const added = (await auditLeaves(t, alice.token)).slice(before);
      assert.equal(added.filter((l) => l.kind === 'invocation').length, 60);
      assert.equal(added.filter((l) => l.kind === 'rogue').length, 6);
      for (const n of [1, 7, 20]) assert.equal((await listTrace(`c1${hex(n, 30)}`)).length, 3);
      // And once more, after both: nothing new.
      assert.equal((await post(body)).status, 200);
      assert.equal((await auditLeaves(t, alice.token)).length, before + 66);
    });

    test("stopped between the two writes (invocations committed, otel_spans not): the exporter's retry completes it without a second record", async () => {
      const t = get();
      const body = otlpJson(traces(2), 'd1');
      assert.equal((await post(body)).status, 200);
      const trace = `d1${hex(1, 30)}`;
      const before = await listTrace(trace);
      assert.equal(before.length, 3);
      // What a process stopping after ingest's commit leaves behind: the invocations without their span rows.
      await t.testDb.db.query('DELETE FROM otel_spans WHERE tenant_id = $1 AND trace_id = $2', [
        alice.account.tenant_id,
        trace,
      ]);
      await t.testDb.db.query(
        'UPDATE invocations SET parent_invocation_id = NULL WHERE tenant_id = $1 AND correlation_id = $2',
        [alice.account.tenant_id, trace],
      );
      const leaves = (await auditLeaves(t, alice.token)).length;
      assert.equal((await post(body)).status, 200); // the exporter never got an answer, so it sends the export again
      assert.equal((await auditLeaves(t, alice.token)).length, leaves, 'nothing recorded twice');
      const after = await listTrace(trace);
      assert.deepEqual(after.map((i) => i.invocation_id).sort(), before.map((i) => i.invocation_id).sort());
      const details = await Promise.all(
        after.map(
          async (i) =>
            (
              await t.request({ method: 'GET', url: `/api/v1/invocations/${i.invocation_id}`, token: alice.token })
            ).json() as {
              invocation_id: number;
              trace: { parent: { invocation_id: number } | null };
              otel: { operation: string } | null;
            },
        ),
      );
      assert.ok(
        details.every((d) => d.otel !== null),
        'the span rows are back',
      );
      const agent = details.find((d) => d.otel!.operation === 'invoke_agent')!;
      assert.ok(
        details.filter((d) => d !== agent).every((d) => d.trace.parent?.invocation_id === agent.invocation_id),
        'and the tree',
      );
    });

    test("a span's start time is its invocation's occurred_at (list, detail, filter, leaf meta); created_at, the leaf's time and reports are the receipt; a start after the receipt or before the workspace is not taken", async () => {
      const t = get();
      t.clock.advance(3 * 3_600_000); // the workspace is three hours old
      const now = t.clock.now().getTime();
      const created = now - 3 * 3_600_000;
      const started = now - 3_600_000;
      const receipt = new Date(now).toISOString();
      const spans = (trace: number, startMs: number | undefined, tool: string): SpanSpec => ({
        trace,
        span: 1,
        ...(startMs === undefined ? {} : { startMs }),
        attributes: [
          attr('gen_ai.operation.name', 'execute_tool'),
          attr('gen_ai.agent.name', 'batch-agent-1'),
          attr('gen_ai.tool.name', tool),
        ],
      });
      const body = otlpJson(
        [
          spans(1, started, 'wipe_disk'),
          spans(2, now + 3_600_000, 'refund'),
          spans(3, created - 86_400_000, 'refund'),
          spans(4, undefined, 'refund'),
        ],
        'f1',
      );
      assert.equal((await post(body)).status, 200);
      type Listed = { invocation_id: number; created_at: string; occurred_at: string };
      const at = async (trace: number) => {
        const [inv] = (await listTrace(`f1${hex(trace, 30)}`)) as unknown as Listed[];
        const d = (
          await t.request({ method: 'GET', url: `/api/v1/invocations/${inv!.invocation_id}`, token: alice.token })
        ).json() as {
          invocation_id: number;
          created_at: string;
          occurred_at: string;
          evidence_id: number;
          otel: { start_time: string };
        };
        return { listed: inv!, ...d };
      };
      const inside = await at(1);
      assert.equal(inside.listed.occurred_at, new Date(started).toISOString(), 'the list shows when it happened');
      assert.equal(inside.listed.created_at, receipt, 'and when it was recorded');
      assert.equal(inside.occurred_at, new Date(started).toISOString());
      assert.equal(inside.created_at, receipt);
      const leaves = await auditLeaves(t, alice.token);
      const leaf = leaves[inside.evidence_id - 1]!;
      assert.equal(leaf.time, receipt, "the leaf's time is the service's clock");
      // The leaf commits to the start through its meta, as an auditor with the database recomputes it.
      const meta = await storedMeta(t, alice.account.tenant_id, 'invocations', inside.invocation_id);
      assert.equal(meta.fields.occurred_at, new Date(started).toISOString());
      assert.equal(leaf.meta, meta.commitment);
      // The oos_tool rogue event of that span is recorded then too.
      assert.equal(leaves[inside.evidence_id]!.kind, 'rogue');
      assert.equal(leaves[inside.evidence_id]!.time, receipt);
      const future = await at(2);
      assert.equal(future.occurred_at, receipt, 'a start after the receipt: the receipt time');
      assert.equal(future.otel.start_time, new Date(now + 3_600_000).toISOString(), 'the start as sent stays visible');
      const early = await at(3);
      assert.equal(early.occurred_at, receipt, 'a start before the workspace existed: the receipt time');
      assert.equal(early.otel.start_time, new Date(created - 86_400_000).toISOString());
      assert.equal((await at(4)).occurred_at, receipt, 'no start time: the receipt time');
      for (const x of [future, early]) {
        const m = await storedMeta(t, alice.account.tenant_id, 'invocations', x.invocation_id);
        assert.equal(m.fields.occurred_at, receipt);
        assert.equal(leaves[x.evidence_id - 1]!.meta, m.commitment);
      }

      // occurred_from/occurred_to filter on when it happened; since/until on when it was recorded.
      const list = async (query: string) => {
        const res = await t.request({
          method: 'GET',
          url: `/api/v1/invocations?agent_key=batch-agent-1&${query}`,
          token: alice.token,
        });
        assert.equal(res.statusCode, 200, res.body);
        return (res.json() as { items: Listed[] }).items.map((i) => i.invocation_id);
      };
      const around = (ms: number, name: [string, string]) =>
        `${name[0]}=${new Date(ms - 60_000).toISOString()}&${name[1]}=${new Date(ms + 60_000).toISOString()}`;
      assert.deepEqual(await list(around(started, ['occurred_from', 'occurred_to'])), [inside.invocation_id]);
      assert.deepEqual(await list(around(started, ['since', 'until'])), []);
      assert.equal((await list(around(now, ['since', 'until']))).length, 4);
      assert.deepEqual(
        (await list(around(now, ['occurred_from', 'occurred_to']))).sort(),
        [future.invocation_id, early.invocation_id, (await at(4)).invocation_id].sort(),
      );
      const backwards = await t.request({
        method: 'GET',
        url: `/api/v1/invocations?occurred_from=${receipt}&occurred_to=${new Date(started).toISOString()}`,
        token: alice.token,
      });
      assert.equal(backwards.statusCode, 422, backwards.body);
      assert.equal(backwards.json().errors[0].field, '/occurred_to');

      // A report counts by the recording time, as the log's leaves do: the hour of the start holds none of them.
      const report = async (from: number, to: number) => {
        const period = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
        const res = await t.request({ method: 'GET', url: `/api/v1/reports/compliance?${period}`, token: alice.token });
        assert.equal(res.statusCode, 200, res.body);
        const r = res.json() as ReportFacts & {
          period: { from: string; to: string };
          pseudonyms: Record<string, Record<string, string>>;
          evidence: { tree_size: number };
        };
        const entries = (
          await t.request({
            method: 'GET',
            url: `/api/v1/audit/entries?start=0&end=${r.evidence.tree_size}`,
            token: alice.token,
          })
        ).json() as { entries: Array<{ index: number; leaf: string }> };
        assert.deepEqual(compareFacts(r, recountFacts(entries.entries, r.period, r.pseudonyms)), []);
        return r;
      };
      assert.equal((await report(started - 1_800_000, started + 1_800_000)).totals.invocations, 0);
      const recorded = await report(now - 60_000, now + 60_000);
      assert.equal(recorded.totals.invocations, 4);
      assert.equal(recorded.totals.rogue_events, 1);
    });
  },
  { manualJobs: true },
);
