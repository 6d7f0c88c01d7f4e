import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachStore, type TestService } from '../testing/harness.ts';
import { type JudgeStandIn, startJudgeStandIn } from '../testing/judge-stand-in.ts';
import { type Body, get, invoke, leaves, quietJobs, setPolicy, uniqueDomain } from '../testing/review-kit.ts';

// "Any policy rule that asks for it" (issue 17): a rule with `judge: true`
// sends the invocations it fires on to the judge panel whatever their
// verdict, against the local OpenAI-compatible stand-in. Such an invocation
// is judged without entering the review queue, so the panel only advises.

let standIn: JudgeStandIn;

const JUDGE_REFUNDS = { id: 'judge-refunds', when: { tools: ['payments.refund'] }, verdict: 'allow', judge: true };

async function admin(t: TestService, label: string) {
  const a = await t.signIn(`admin@${uniqueDomain(label)}`);
  return { token: a.token, tenantId: a.account.tenant_id };
}

/** A panel of two stand-in judges (named after the workspace), both answering `allow`. */
async function setPanel(t: TestService, token: string, prefix: string, extra: Record<string, unknown> = {}) {
  const models = [`${prefix}-a`, `${prefix}-b`];
  for (const m of models) standIn.script(m, { verdict: 'allow', rationale: 'Within the rubric.' });
  const judges = models.map((model) => ({ name: `judge-${model}`, base_url: standIn.baseUrl, model }));
  const res = await t.request({
    method: 'PUT',
    url: '/api/v1/workspace/judges',
    token,
    payload: { judges, quorum: 'majority', auto_resolve: false, ...extra },
  });
  assert.equal(res.statusCode, 200, res.body);
  return models;
}

const detail = async (t: TestService, token: string, id: number) => {
  const r = await get(t, token, `/api/v1/invocations/${id}`);
  assert.equal(r.status, 200, r.raw);
  return r.body as Body;
};

eachStore(
  'a policy rule that asks for the judge panel',
  (getService) => {
    let t: TestService;
    before(async () => {
      t = getService();
      await quietJobs(t);
      standIn = await startJudgeStandIn();
    });
    after(async () => {
      await standIn.close();
    });

    test('an allow matching a judge: true rule is judged (advice only, even with auto_resolve); one matching no such rule, or in shadow mode, is not', async () => {
      const a = await admin(t, 'rule');
      await setPolicy(t, a.token, [JUDGE_REFUNDS, { id: 'note-kb', when: { tools: ['kb.*'] }, verdict: 'allow' }]);
      const models = await setPanel(t, a.token, 'rule', { auto_resolve: true });

      const judged = await invoke(t, a.token, {
        agent_key: 'pay-bot',
        tool_name: 'payments.refund',
        prompt: 'Refund order 1182',
      });
      const plain = await invoke(t, a.token, {
        agent_key: 'pay-bot',
        tool_name: 'kb.search',
        prompt: 'Refund policy?',
      });
      const shadow = await invoke(t, a.token, {
        agent_key: 'pay-bot',
        tool_name: 'payments.refund',
        mode: 'shadow',
        prompt: 'Refund order 1183',
      });
      assert.deepEqual([judged.verdict, plain.verdict, shadow.verdict], ['allow', 'allow', 'allow']);
      // Escalated with the invocation: pending until the job runs; the others never were.
      assert.equal((await detail(t, a.token, judged.invocation_id)).judgement.status, 'pending');
      await t.service.jobs.drain();

      const seen = await detail(t, a.token, judged.invocation_id);
      assert.deepEqual(
        [
          seen.judgement.status,
          seen.judgement.decision,
          seen.judgement.unanimous,
          seen.judgement.trigger,
          seen.judgement.attempt,
        ],
        ['done', 'allow', true, 'flag', 1],
      );
      assert.deepEqual(seen.reasons, ['judge-refunds'], 'the reasons name the rule that asked');
      assert.deepEqual(
        seen.judgement.judges.map((j: Body) => j.verdict),
        ['allow', 'allow'],
      );
      // Not in the review queue, so a unanimous panel has nothing to resolve.
      assert.equal(seen.review_status, null);
      assert.equal(seen.judgement.auto_resolved, false);
      assert.equal((await detail(t, a.token, plain.invocation_id)).judgement, null);
      assert.equal((await detail(t, a.token, shadow.invocation_id)).judgement, null);

      const kinds = (await leaves(t, a.token)).map((l) => l.kind);
      assert.equal(kinds.filter((k) => k === 'judge_verdict').length, 1);
      assert.equal(kinds.filter((k) => k === 'review').length, 0);
      assert.deepEqual(
        models.map((m) => standIn.calls(m)),
        [1, 1],
      );
      assert.equal((await get(t, a.token, '/api/v1/accounts/me')).body.quotas.multi_judge_calls_used_this_month, 2);
    });

    test("a persona's override rule with judge: true escalates that persona's agents only", async () => {
      const a = await admin(t, 'persona-rule');
      await setPolicy(t, a.token, []);
      const models = await setPanel(t, a.token, 'persona-rule');
      const persona = await t.request({
        method: 'POST',
        url: '/api/v1/personas',
        token: a.token,
        payload: { name: 'Refunds', rubric: 'R1: Refunds under 100 EUR are fine.', overrides: [JUDGE_REFUNDS] },
      });
      assert.equal(persona.statusCode, 201, persona.body);
      const personaId = persona.json().persona_id as string;
      const assign = await t.request({
        method: 'PUT',
        url: '/api/v1/agents/pay-bot/persona',
        token: a.token,
        payload: { persona_id: personaId },
      });
      assert.equal(assign.statusCode, 200, assign.body);

      const judged = await invoke(t, a.token, { agent_key: 'pay-bot', tool_name: 'payments.refund' });
      const other = await invoke(t, a.token, { agent_key: 'ops-bot', tool_name: 'payments.refund' });
      await t.service.jobs.drain();
      const seen = await detail(t, a.token, judged.invocation_id);
      assert.deepEqual(seen.reasons, [`persona.${personaId}.v1.judge-refunds`]);
      assert.deepEqual([seen.judgement.status, seen.judgement.decision], ['done', 'allow']);
      assert.equal((await detail(t, a.token, other.invocation_id)).judgement, null);
      assert.deepEqual(
        models.map((m) => standIn.calls(m)),
        [1, 1],
      );
    });

    test('after the tool_output scan: a rule firing only on the scanned output escalates; one firing before and after escalates once', async () => {
      const a = await admin(t, 'rule-output');
      await setPolicy(t, a.token, [
        {
          id: 'judge-output-pii',
          when: { fields: ['tool_output'], finding_categories: ['pii'] },
          verdict: 'allow',
          judge: true,
        },
        { id: 'judge-crm', when: { tools: ['crm.*'] }, verdict: 'allow', judge: true },
      ]);
      const models = await setPanel(t, a.token, 'rule-output');

      // Fires only once the output's e-mail address is found, in the background scan.
      const late = await invoke(t, a.token, {
        agent_key: 'mail-bot',
        tool_name: 'mail.read',
        tool_output: 'from: ann.lee@example.net',
      });
      // Fires at ingest (the tool) and again after the scan (the tool and the output).
      const twice = await invoke(t, a.token, {
        agent_key: 'crm-bot',
        tool_name: 'crm.lookup',
        tool_output: 'owner: bo.chan@example.net',
      });
      assert.equal(
        (await detail(t, a.token, late.invocation_id)).judgement,
        null,
        'nothing asked for a judge before the scan',
      );
      await t.service.jobs.drain();

      const l = await detail(t, a.token, late.invocation_id);
      assert.deepEqual(
        [l.judgement.status, l.judgement.decision, l.judgement.attempt, l.review_status],
        ['done', 'allow', 1, null],
      );
      const w = await detail(t, a.token, twice.invocation_id);
      assert.deepEqual([w.judgement.status, w.judgement.attempt], ['done', 1]);
      const [count] = await t.testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM judgements WHERE tenant_id = $1',
        [a.tenantId],
      );
      assert.equal(count!.n, 2, 'one judgement per invocation');
      // Two invocations, two judges each, every judge asked once per invocation; judged on the redacted output.
      assert.deepEqual(
        models.map((m) => standIn.calls(m)),
        [2, 2],
      );
      for (const r of standIn.requestsFor(models[0]!)) {
        assert.ok(
          !r.rawBody.includes('@example.net') && r.rawBody.includes('<EMAIL_ADDRESS>'),
          'the redacted output only',
        );
      }
    });
  },
  {
    manualJobs: true,
    env: {
      PLAN_CAPS: JSON.stringify({ team: { multi_judge_calls_per_month: 50 } }),
      JUDGE_TIMEOUT_MS: '2000',
      JUDGE_MAX_ATTEMPTS: '2',
    },
  },
);
