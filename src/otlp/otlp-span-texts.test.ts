import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dumpTables } from '../testing/db-dump.ts';
import { eachStore, OPERATOR_TOKEN, type SignedIn, type TestService } from '../testing/harness.ts';
import { addMember, setSubscription } from '../testing/workspace.ts';

// A span's texts are content, wherever in the span a client put them: its
// name, operation, instrumentation scope, model, provider, finish reasons,
// tool call id and conversation id are stored redacted, withheld from viewers,
// and deleted by an erasure (by principal, by agent and period) and by
// retention — seen through the API as each role sees it, and in the stored
// rows.

const EMAIL = 'jane.roe@example.com';
const CARD = '4111 1111 1111 1111';
const CARD_DIGITS = /4111\D?1111\D?1111\D?1111/;
const SUBJECT = 'subject-jane-91c';
const TEXT_FIELDS = [
  'span_name',
  'operation',
  'model',
  'provider',
  'finish_reasons',
  'tool_call_id',
  'conversation_id',
  'scope',
] as const;

type Attr = { key: string; value: Record<string, unknown> };
const s = (key: string, value: string): Attr => ({ key, value: { stringValue: value } });
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

interface SpanSpec {
  trace: string;
  span: number;
  name: string;
  startMs: number;
  attributes: Attr[];
}

/** One export: each span under its own instrumentation scope. */
function otlpJson(spans: Array<SpanSpec & { scope: string }>): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [s('service.name', 'texts-svc')] },
        scopeSpans: spans.map((x) => ({
          scope: { name: x.scope, version: '1.0.0' },
          spans: [
            {
              traceId: x.trace,
              spanId: hex(x.span, 16),
              name: x.name,
              kind: 3,
              startTimeUnixNano: String(BigInt(x.startMs) * 1_000_000n),
              endTimeUnixNano: String(BigInt(x.startMs + 5) * 1_000_000n),
              attributes: x.attributes,
            },
          ],
        })),
      },
    ],
  });
}

/**
 * A model call and a tool call of one principal, every text of the span
 * carrying an e-mail address or a card number and a marker (`mark`, not
 * personal data: it survives redaction, so only erasure removes it).
 */
function modelAndTool(trace: string, mark: string, principal: string, agent: string, startMs: number) {
  return [
    {
      trace,
      span: 1,
      startMs,
      scope: `${mark} scope of ${EMAIL}`,
      name: `${mark} chat for ${EMAIL}`,
      attributes: [
        s('gen_ai.operation.name', `${mark} chat card ${CARD}`),
        s('gen_ai.agent.name', agent),
        s('gen_ai.request.model', `${mark}-model ${EMAIL}`),
        s('gen_ai.provider.name', `${mark} provider ${CARD}`),
        {
          key: 'gen_ai.response.finish_reasons',
          value: { arrayValue: { values: [{ stringValue: `stop ${EMAIL}` }] } },
        },
        s('gen_ai.conversation.id', `${mark} conversation ${EMAIL}`),
        s('enduser.id', principal),
        { key: 'gen_ai.usage.input_tokens', value: { intValue: '12' } },
        s('gen_ai.input.messages', `${mark} please refund the order`),
      ],
    },
    {
      trace,
      span: 2,
      startMs,
      scope: `${mark} tools`,
      name: `${mark} execute_tool refund for ${EMAIL}`,
      attributes: [
        s('gen_ai.operation.name', 'execute_tool'),
        s('gen_ai.agent.name', agent),
        s('gen_ai.tool.name', 'refund'),
        s('gen_ai.tool.call.id', `${mark} call ${CARD}`),
        s('enduser.id', principal),
      ],
    },
  ];
}

type Otel = Record<(typeof TEXT_FIELDS)[number], unknown> & {
  trace_id: string;
  span_id: string;
  span_kind: string;
  start_time: string;
  usage: Record<string, number> | null;
  texts: string;
};
type Detail = {
  invocation_id: number;
  otel: Otel;
  content?: Array<{ field: string; text: string | null }>;
};

eachStore(
  "a span's texts are content: redacted, withheld from viewers, erased and expired",
  (get) => {
    let t: TestService;
    let base: string;
    let admin: SignedIn;
    let operator: SignedIn;
    let viewer: SignedIn;
    let auditor: SignedIn;
    const run = hex(Date.now() % 0xffffff, 6);
    const trace = (n: number) => `${run}${hex(n, 26)}`;

    const post = async (body: string) => {
      const res = await fetch(`${base}/api/v1/otel/v1/traces`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      });
      const answer = await res.text();
      assert.equal(res.status, 200, answer);
      assert.deepEqual(JSON.parse(answer), {}, 'every span recorded');
    };
    const ids = async (traceId: string): Promise<number[]> => {
      const res = await t.request({
        method: 'GET',
        url: `/api/v1/invocations?correlation_id=${traceId}`,
        token: admin.token,
      });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { items: Array<{ invocation_id: number }> }).items.map((i) => i.invocation_id).sort();
    };
    const detail = async (id: number, who: SignedIn): Promise<Detail> => {
      const res = await t.request({ method: 'GET', url: `/api/v1/invocations/${id}`, token: who.token });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Detail;
    };
    const rows = (traceId: string) =>
      t.testDb.db.withTenant(admin.account.tenant_id, (tx) =>
        tx.query<Record<string, unknown>>('SELECT * FROM otel_spans WHERE trace_id = $1 ORDER BY span_id', [traceId]),
      );
    /** The invocations of a trace's model call (span 1) and tool call (span 2). */
    const chatAndTool = async (traceId: string) => (await rows(traceId)).map((r) => Number(r.invocation_id));
    /** Asserts a detail's span texts are gone (`erased`) and what is not content stays. */
    const assertErased = (d: Detail, traceId: string) => {
      assert.equal(d.otel.texts, 'erased');
      for (const f of TEXT_FIELDS) assert.equal(d.otel[f], null, f);
      assert.equal(d.otel.trace_id, traceId);
      assert.equal(d.otel.span_kind, 'client');
    };
    const assertErasedRows = async (traceId: string, mark: string) => {
      const stored = await rows(traceId);
      assert.equal(stored.length, 2);
      for (const r of stored) {
        for (const f of TEXT_FIELDS) assert.equal(r[f], null, `${f} of a stored row`);
        assert.ok(r.texts_erased_at instanceof Date || typeof r.texts_erased_at === 'string');
        assert.equal(r.trace_id, traceId, 'the ids stay: a re-sent span is still recognised');
      }
      assert.ok(!JSON.stringify(stored).includes(mark));
    };

    test('setup: a workspace with an operator and a viewer', async () => {
      t = get();
      admin = await t.signIn('dpo@span-texts.example');
      operator = await addMember(t, admin, 'ops@span-texts.example', 'operator');
      viewer = await addMember(t, admin, 'viewer@span-texts.example', 'viewer');
      auditor = await addMember(t, admin, 'audit@span-texts.example', 'auditor');
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = url;
      // The spans start an hour after the workspace exists (their start is the invocation's time).
      t.clock.advance(2 * 3_600_000);
    });

    test('every text of a span is stored redacted and shown so to admins, operators and auditors, as in context', async () => {
      const started = t.clock.now().getTime() - 3_600_000;
      await post(otlpJson(modelAndTool(trace(1), 'JANEMARK', SUBJECT, 'texts-agent', started)));
      const [chat, tool] = await chatAndTool(trace(1));
      for (const who of [admin, operator, auditor]) {
        const c = (await detail(chat!, who)).otel;
        assert.equal(c.texts, 'stored');
        assert.equal(c.span_name, 'JANEMARK chat for <EMAIL_ADDRESS>');
        assert.equal(c.operation, 'JANEMARK chat card <CREDIT_CARD>');
        assert.equal(c.scope, 'JANEMARK scope of <EMAIL_ADDRESS>');
        assert.equal(c.model, 'JANEMARK-model <EMAIL_ADDRESS>');
        assert.equal(c.provider, 'JANEMARK provider <CREDIT_CARD>');
        assert.deepEqual(c.finish_reasons, ['stop <EMAIL_ADDRESS>']);
        assert.equal(c.conversation_id, 'JANEMARK conversation <EMAIL_ADDRESS>');
        assert.deepEqual(c.usage, { input_tokens: 12 });
        const tl = (await detail(tool!, who)).otel;
        assert.equal(tl.tool_call_id, 'JANEMARK call <CREDIT_CARD>');
        assert.equal(tl.span_name, 'JANEMARK execute_tool refund for <EMAIL_ADDRESS>');
        assert.equal(tl.operation, 'execute_tool');
        assert.equal(tl.scope, 'JANEMARK tools');
      }
      const context = (await detail(chat!, admin)).content?.find((f) => f.field === 'context')?.text ?? '';
      assert.ok(context.includes('JANEMARK') && !context.includes(EMAIL), context);

      // Nothing raw in the stored rows, nor anywhere in the database.
      const stored = JSON.stringify(await rows(trace(1)));
      assert.ok(stored.includes('JANEMARK'));
      assert.ok(!stored.includes(EMAIL) && !CARD_DIGITS.test(stored), stored);
      const dump = (await dumpTables(t.testDb.db)).text;
      assert.ok(!dump.includes(EMAIL), 'the database holds the e-mail address nowhere');
      assert.ok(!CARD_DIGITS.test(dump), 'the database holds the card number nowhere');
    });

    test("viewers get a span's ids, kind, time and counts, never its texts", async () => {
      const [chat, tool] = await chatAndTool(trace(1));
      for (const id of [chat!, tool!]) {
        const d = await detail(id, viewer);
        assert.equal(d.content, undefined, 'no stored content for viewers');
        assert.equal(d.otel.texts, 'withheld');
        for (const f of TEXT_FIELDS) assert.equal(d.otel[f], null, f);
        assert.equal(d.otel.trace_id, trace(1));
        assert.equal(d.otel.span_kind, 'client');
        assert.match(d.otel.start_time, /^\d{4}-\d\d-\d\dT/);
        assert.ok(!JSON.stringify(d).includes('JANEMARK'), 'nothing of the texts, redacted or not');
      }
      assert.deepEqual((await detail(chat!, viewer)).otel.usage, { input_tokens: 12 });
    });

    test("an erasure for a principal deletes its spans' texts (rows and API); others' spans keep theirs", async () => {
      const started = t.clock.now().getTime() - 1_800_000;
      await post(otlpJson(modelAndTool(trace(2), 'BOBMARK', 'subject-bob', 'texts-agent', started)));
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/erasures',
        token: admin.token,
        payload: { principal_id: SUBJECT },
      });
      assert.equal(res.statusCode, 201, res.body);
      for (const id of await ids(trace(1))) {
        for (const who of [admin, operator]) assertErased(await detail(id, who), trace(1));
        assert.equal((await detail(id, viewer)).otel.texts, 'erased');
      }
      await assertErasedRows(trace(1), 'JANEMARK');
      const dump = (await dumpTables(t.testDb.db)).text;
      assert.ok(!dump.includes('JANEMARK'), 'nothing of the subject’s spans is left in the database');
      assert.match(dump, /BOBMARK chat for <EMAIL_ADDRESS>/, 'other principals keep theirs');
      const [bobChat] = await ids(trace(2));
      const bob = (await detail(bobChat!, operator)).otel;
      assert.equal(bob.texts, 'stored');
      assert.equal(bob.span_name, 'BOBMARK chat for <EMAIL_ADDRESS>');

      // The erased span sent again is recognised (its ids stay): nothing new is recorded.
      const before = await ids(trace(1));
      await post(
        otlpJson(modelAndTool(trace(1), 'JANEMARK', SUBJECT, 'texts-agent', t.clock.now().getTime() - 3_600_000)),
      );
      assert.deepEqual(await ids(trace(1)), before);
      await assertErasedRows(trace(1), 'JANEMARK');
    });

    test('an erasure for an agent and a period (of recording) reaches the spans of that agent recorded then only', async () => {
      // The period bounds created_at, when the service recorded the invocation (not the span's start).
      const early = t.clock.now().getTime();
      await post(otlpJson(modelAndTool(trace(3), 'CAROLEARLY', 'subject-carol', 'carol-agent', early - 60_000)));
      await post(otlpJson(modelAndTool(trace(5), 'DAVEEARLY', 'subject-dave', 'dave-agent', early - 60_000)));
      t.clock.advance(30 * 60_000);
      // Started in the period, recorded after it: outside.
      await post(otlpJson(modelAndTool(trace(4), 'CAROLLATE', 'subject-carol', 'carol-agent', early)));
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/erasures',
        token: admin.token,
        payload: {
          agent_key: 'carol-agent',
          from: new Date(early - 60_000).toISOString(),
          to: new Date(early + 60_000).toISOString(),
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      for (const id of await ids(trace(3))) assertErased(await detail(id, admin), trace(3));
      await assertErasedRows(trace(3), 'CAROLEARLY');
      for (const [n, mark] of [
        [4, 'CAROLLATE'],
        [5, 'DAVEEARLY'],
      ] as const) {
        for (const id of await ids(trace(n))) {
          const d = (await detail(id, admin)).otel;
          assert.equal(d.texts, 'stored', `${mark} is outside the erasure`);
          assert.ok(String(d.span_name).startsWith(mark));
        }
      }
    });

    test('span texts stored raw before they were stored redacted are shown redacted, and redacted in storage by the sweep', async () => {
      // What a database written before then holds (otlp migration 0131 marks such rows).
      await t.testDb.db.withTenant(admin.account.tenant_id, (tx) =>
        tx.query(
          `UPDATE otel_spans SET span_name = $2, conversation_id = $3, finish_reasons = $4::jsonb, texts_redacted = false
           WHERE trace_id = $1 AND span_id = '0000000000000001'`,
          [trace(5), `DAVEEARLY chat for ${EMAIL}`, `conversation ${CARD}`, JSON.stringify([`stop ${EMAIL}`])],
        ),
      );
      const [chat] = await chatAndTool(trace(5));
      const shown = (await detail(chat!, operator)).otel;
      assert.equal(shown.texts, 'stored');
      assert.equal(shown.span_name, 'DAVEEARLY chat for <EMAIL_ADDRESS>');
      assert.equal(shown.conversation_id, 'conversation <CREDIT_CARD>');
      assert.deepEqual(shown.finish_reasons, ['stop <EMAIL_ADDRESS>']);
      assert.equal((await detail(chat!, viewer)).otel.span_name, null);

      assert.deepEqual(await t.service.retention.sweepAll(), { fields: 0, reviewNotes: 0 }, 'nothing expired');
      const stored = await rows(trace(5));
      assert.ok(stored.every((r) => r.texts_redacted === true));
      assert.equal(stored[0]!.span_name, 'DAVEEARLY chat for <EMAIL_ADDRESS>');
      assert.equal(stored[0]!.conversation_id, 'conversation <CREDIT_CARD>');
      const dump = (await dumpTables(t.testDb.db)).text;
      assert.ok(!dump.includes(EMAIL) && !CARD_DIGITS.test(dump), 'nothing raw is left');
      assert.deepEqual((await detail(chat!, operator)).otel, shown, 'shown as before');
    });

    test("retention deletes span texts with the invocation's other content, and nothing newer", async () => {
      const put = await t.request({
        method: 'PUT',
        url: '/api/v1/workspace/retention',
        token: admin.token,
        payload: { content_days: 200 },
      });
      assert.equal(put.statusCode, 200, put.body);
      await setSubscription(t, OPERATOR_TOKEN, admin.account.tenant_id, {
        plan_tier: 'team',
        subscription_status: 'active',
      });
      t.clock.advance(199 * 86_400_000);
      await post(
        otlpJson(modelAndTool(trace(6), 'FRESHMARK', 'subject-erin', 'texts-agent', t.clock.now().getTime() - 60_000)),
      );
      t.clock.advance(2 * 86_400_000); // everything before is 201 days old; FRESHMARK 2 days
      await t.service.retention.sweepAll();
      for (const [n, mark] of [
        [2, 'BOBMARK'],
        [4, 'CAROLLATE'],
        [5, 'DAVEEARLY'],
      ] as const) {
        for (const id of await ids(trace(n))) {
          assertErased(await detail(id, operator), trace(n));
          const context = (await detail(id, operator)).content?.find((f) => f.field === 'context');
          assert.equal(context?.text, null, 'the context went with them');
        }
        await assertErasedRows(trace(n), mark);
      }
      for (const id of await ids(trace(6))) assert.equal((await detail(id, operator)).otel.texts, 'stored');
      const dump = (await dumpTables(t.testDb.db)).text;
      for (const gone of ['BOBMARK', 'CAROLLATE', 'DAVEEARLY']) assert.ok(!dump.includes(gone), gone);
      assert.match(dump, /FRESHMARK chat for <EMAIL_ADDRESS>/);
    });
  },
  { manualJobs: true },
);
