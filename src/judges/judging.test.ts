import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { commitment, encodeLeaf } from '../ledger/leaf.ts';
import { pinnedVerifierKey } from '../testing/audit-load.ts';
import { eachStore, OPERATOR_TOKEN, type SignedIn, type TestService } from '../testing/harness.ts';
import { type JudgeStandIn, type StandInStep, startJudgeStandIn } from '../testing/judge-stand-in.ts';
import {
  type Body,
  get,
  invoke,
  leaves,
  newTeam,
  quietJobs,
  REVIEW_PAYMENTS,
  setPolicy,
  type Team,
} from '../testing/review-kit.ts';
import { runCli } from '../testing/server-process.ts';
import { setSubscription } from '../testing/workspace.ts';

// The judge panel at work (issue 17), against a local OpenAI-compatible
// stand-in server (real HTTP; the model provider cannot run here): a flagged
// invocation is escalated as a background job, the panel's answers are what
// the reviewer sees, a judge_verdict leaf commits to them, and every call
// counts exactly against the month's cap.

const CAP = 8;
/** One stand-in per store's suite: call counts are per model name. */
let standIn: JudgeStandIn;

/** A panel of judges, each a stand-in model of its own scripted with these steps. */
async function setPanel(
  t: TestService,
  token: string,
  scripts: Record<string, StandInStep | StandInStep[]>,
  extra: Record<string, unknown> = {},
) {
  for (const [model, steps] of Object.entries(scripts)) standIn.script(model, steps);
  const judges = Object.keys(scripts).map((model) => ({
    name: `judge-${model}`,
    base_url: standIn.baseUrl,
    model,
    api_key: `sk-${model}-secret`,
  }));
  const res = await t.request({
    method: 'PUT',
    url: '/api/v1/workspace/judges',
    token,
    payload: { judges, quorum: 'majority', auto_resolve: false, ...extra },
  });
  assert.equal(res.statusCode, 200, res.body);
}

async function flagged(t: TestService, team: Team, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await invoke(t, team.admin.token, {
    agent_key: 'pay-bot',
    tool_name: 'payments.refund',
    prompt: 'Refund order 1182',
    ...extra,
  });
  assert.equal(r.verdict, 'flag_for_review');
  return r.invocation_id;
}

const detail = async (t: TestService, token: string, id: number) => {
  const r = await get(t, token, `/api/v1/invocations/${id}`);
  assert.equal(r.status, 200, r.raw);
  return r.body as Body;
};
const used = async (t: TestService, s: SignedIn) =>
  (await get(t, s.token, '/api/v1/accounts/me')).body.quotas.multi_judge_calls_used_this_month as number;
const judgeRequests = (model: string) => standIn.requests.filter((r) => r.model === model);

eachStore(
  'the judge panel',
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

    test('an agreeing panel: the reviewer sees the judgement beside the content, the leaf commits to the answers, three calls count', async () => {
      const team = await newTeam(t, 'agree');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      const persona = await t.request({
        method: 'POST',
        url: '/api/v1/personas',
        token: team.admin.token,
        payload: {
          name: 'Refunds',
          description: 'Refunds small orders for customers',
          rubric: 'R1: Refunds under 100 EUR are fine.\nR2: Never refund twice.',
        },
      });
      assert.equal(persona.statusCode, 201, persona.body);
      assert.equal(
        (
          await t.request({
            method: 'PUT',
            url: '/api/v1/agents/pay-bot/persona',
            token: team.admin.token,
            payload: { persona_id: persona.json().persona_id },
          })
        ).statusCode,
        200,
      );
      await setPanel(t, team.admin.token, {
        'agree-a': { verdict: 'allow', rationale: 'Small refund, R1 applies.', rubric_points: ['R1'] },
        'agree-b': { verdict: 'allow', rationale: 'First refund of the order.', rubric_points: ['R2'] },
        'agree-c': { verdict: 'allow', rationale: 'Nothing wrong.' },
      });
      const id = await flagged(t, team);

      // Escalated with the invocation, not in the request: pending until the job runs.
      const before = await detail(t, team.operator.token, id);
      assert.deepEqual(
        [before.judgement.status, before.judgement.decision, before.judgement.judges],
        ['pending', null, []],
      );
      assert.equal(standIn.calls('agree-a'), 0);
      await t.service.jobs.drain();

      const seen = await detail(t, team.operator.token, id);
      assert.equal(seen.review_status, 'pending', 'advice only: auto_resolve is off');
      assert.deepEqual(
        {
          status: seen.judgement.status,
          decision: seen.judgement.decision,
          unanimous: seen.judgement.unanimous,
          trigger: seen.judgement.trigger,
          attempt: seen.judgement.attempt,
          auto_resolved: seen.judgement.auto_resolved,
        },
        { status: 'done', decision: 'allow', unanimous: true, trigger: 'flag', attempt: 1, auto_resolved: false },
      );
      assert.deepEqual(seen.judgement.judges, [
        { name: 'judge-agree-a', verdict: 'allow', rationale: 'Small refund, R1 applies.', rubric_points: ['R1'] },
        { name: 'judge-agree-b', verdict: 'allow', rationale: 'First refund of the order.', rubric_points: ['R2'] },
        { name: 'judge-agree-c', verdict: 'allow', rationale: 'Nothing wrong.', rubric_points: [] },
      ]);
      // A viewer sees the verdicts, not the rationales (written from the content viewers may not read).
      const viewer = await detail(t, team.viewer.token, id);
      assert.deepEqual(
        viewer.judgement.judges.map((j: Body) => [j.verdict, j.rationale]),
        [
          ['allow', null],
          ['allow', null],
          ['allow', null],
        ],
      );
      // The queue shows the panel's opinion beside the item.
      const queue = await get(t, team.operator.token, '/api/v1/reviews?status=pending');
      const item = queue.body.items.find((i: Body) => i.invocation_id === id);
      assert.equal(item.judgement.decision, 'allow');
      assert.equal(item.judgement.judges[0].rationale, 'Small refund, R1 applies.');

      // What each judge was asked: the persona and its rubric, the case; its own key only.
      for (const m of ['agree-a', 'agree-b', 'agree-c']) {
        const [req] = judgeRequests(m);
        assert.equal(req!.headers.authorization, `Bearer sk-${m}-secret`);
        const doc = JSON.parse((req!.body!.messages as Array<{ content: string }>)[1]!.content);
        assert.equal(doc.persona.rubric, 'R1: Refunds under 100 EUR are fine.\nR2: Never refund twice.');
        assert.equal(doc.invocation.tool_name, 'payments.refund');
        assert.deepEqual(doc.content, [{ field: 'prompt', text: 'Refund order 1182' }]);
      }

      // The leaf: verdicts in the clear, one salted commitment the stored row opens.
      const leaf = (await leaves(t, team.admin.token)).filter((l) => l.kind === 'judge_verdict');
      assert.equal(leaf.length, 1);
      const [row] = await t.testDb.db.query<{ judges: unknown[]; salt: Uint8Array; log_index: number }>(
        'SELECT judges, salt, log_index FROM judgements WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, id],
      );
      assert.deepEqual(
        { ...leaf[0], time: undefined, tenant_id: undefined },
        {
          v: 2,
          kind: 'judge_verdict',
          invocation_id: id,
          attempt: 1,
          status: 'done',
          decision: 'allow',
          unanimous: true,
          verdicts: ['allow', 'allow', 'allow'],
          opinions: commitment(row!.salt, encodeLeaf({ judges: row!.judges })),
          time: undefined,
          tenant_id: undefined,
        },
      );
      assert.ok(!JSON.stringify(leaf).includes('Small refund'), 'no rationale in the clear');
      assert.equal(seen.judgement.evidence_id, Number(row!.log_index) + 1);
      assert.equal(await used(t, team.admin), 3);
      // The job is gone: draining again calls nobody.
      await t.service.jobs.drain();
      assert.equal(standIn.calls('agree-a'), 1);
    });

    test('auto_resolve: a unanimous panel resolves the review, recorded as the panel; a split one only advises', async () => {
      const team = await newTeam(t, 'auto');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      await setPanel(
        t,
        team.admin.token,
        { 'auto-a': { verdict: 'deny', rationale: 'Refund to another account.' }, 'auto-b': { verdict: 'deny' } },
        { quorum: 'unanimous_to_deny', auto_resolve: true },
      );
      const id = await flagged(t, team);
      await t.service.jobs.drain();
      const seen = await detail(t, team.operator.token, id);
      assert.equal(seen.review_status, 'rejected');
      assert.equal(seen.review.decided_by, null);
      assert.equal(seen.review.decided_by_panel, true);
      assert.match(seen.review.note, /judge panel: unanimous deny/);
      assert.equal(seen.judgement.auto_resolved, true);
      const review = (await leaves(t, team.admin.token)).filter((l) => l.kind === 'review');
      assert.equal(review.length, 1);
      assert.equal(review[0]!.by_panel, true);
      assert.equal(review[0]!.by_account_id, undefined);
      // A human cannot decide it again.
      assert.equal(
        (
          await t.request({
            method: 'POST',
            url: `/api/v1/reviews/${id}`,
            token: team.operator.token,
            payload: { decision: 'approve' },
          })
        ).statusCode,
        409,
      );

      // Split: one allow, one deny under unanimous_to_deny is uncertain; the review stays for a human.
      standIn.script('auto-a', { verdict: 'allow' });
      const split = await flagged(t, team);
      await t.service.jobs.drain();
      const s = await detail(t, team.operator.token, split);
      assert.deepEqual(
        [s.judgement.decision, s.judgement.unanimous, s.judgement.auto_resolved, s.review_status],
        ['uncertain', false, false, 'pending'],
      );
      assert.deepEqual(
        s.judgement.judges.map((j: Body) => j.verdict),
        ['allow', 'deny'],
      );
    });

    test('a malformed answer is asked again once, then counted uncertain; a timeout abstains; a 429 then an answer is an answer', async () => {
      const team = await newTeam(t, 'faults');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      await setPanel(t, team.admin.token, {
        'fault-garbled': { content: 'I think it is fine, probably.' },
        'fault-slow': { delayMs: 8_000, then: { verdict: 'allow' } },
        'fault-busy': [
          { status: 429, headers: { 'retry-after': '0' } },
          { verdict: 'deny', rationale: 'Refund exceeds policy.' },
        ],
      });
      const id = await flagged(t, team);
      await t.service.jobs.drain();
      const seen = await detail(t, team.admin.token, id);
      const by = Object.fromEntries(seen.judgement.judges.map((j: Body) => [j.name, j.verdict]));
      assert.deepEqual(by, {
        'judge-fault-garbled': 'uncertain',
        'judge-fault-slow': 'abstained',
        'judge-fault-busy': 'deny',
      });
      // Of the two that answered, neither verdict has a majority.
      assert.deepEqual(
        [seen.judgement.status, seen.judgement.decision, seen.judgement.unanimous],
        ['done', 'uncertain', false],
      );
      const calls = {
        garbled: standIn.calls('fault-garbled'),
        slow: standIn.calls('fault-slow'),
        busy: standIn.calls('fault-busy'),
      };
      assert.deepEqual(calls, { garbled: 2, slow: 2, busy: 2 }, 'JUDGE_MAX_ATTEMPTS=2 for the timeout');
      // Every request made was counted, no more.
      assert.equal(await used(t, team.admin), 6);
      const [stored] = await t.testDb.db.query<{ judges: Array<{ name: string; calls: number; error?: string }> }>(
        'SELECT judges FROM judgements WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, id],
      );
      assert.deepEqual(
        stored!.judges.map((j) => [j.name, j.calls, j.error ?? null]),
        [
          ['judge-fault-garbled', 2, 'malformed'],
          ['judge-fault-slow', 2, 'timeout'],
          ['judge-fault-busy', 2, null],
        ],
      );
    });

    test('an invocation the tool_output scan flags is escalated too, once, and judged on the redacted output', async () => {
      const team = await newTeam(t, 'output');
      await setPolicy(t, team.admin.token, [
        {
          id: 'review-output-pii',
          when: { fields: ['tool_output'], finding_categories: ['pii'] },
          verdict: 'flag_for_review',
        },
      ]);
      await setPanel(t, team.admin.token, { 'output-a': { verdict: 'deny', rationale: 'It read a customer e-mail.' } });
      const r = await invoke(t, team.admin.token, {
        agent_key: 'crm-bot',
        tool_name: 'crm.lookup',
        tool_output: 'owner: ann.lee@example.net',
      });
      assert.equal(r.verdict, 'allow', 'decided before the background scan');
      await t.service.jobs.drain();
      const seen = await detail(t, team.admin.token, r.invocation_id);
      assert.equal(seen.review_status, 'pending');
      assert.deepEqual(
        [seen.judgement.status, seen.judgement.decision, seen.judgement.trigger],
        ['done', 'deny', 'flag'],
      );
      const sent = judgeRequests('output-a');
      assert.equal(sent.length, 1);
      assert.ok(!sent[0]!.rawBody.includes('ann.lee@example.net'));
      assert.ok(sent[0]!.rawBody.includes('<EMAIL_ADDRESS>'), 'the redacted output');
    });

    test('POST /invocations/{id}/judge: 202 pending, 409 while pending or without a panel, 404 across workspaces, 429 at the cap with Retry-After', async () => {
      const team = await newTeam(t, 'demand');
      const plain = await invoke(t, team.admin.token, {
        agent_key: 'kb-bot',
        tool_name: 'kb.search',
        prompt: 'Where is my parcel?',
      });
      assert.equal(plain.verdict, 'allow');
      const judge = (token: string, id = plain.invocation_id) =>
        t.request({ method: 'POST', url: `/api/v1/invocations/${id}/judge`, token });
      assert.equal((await judge(team.admin.token)).statusCode, 409, 'no panel yet');
      await setPanel(t, team.admin.token, {
        'demand-a': { verdict: 'allow', rationale: 'A status question.' },
        'demand-b': { verdict: 'allow' },
      });

      assert.equal((await judge(team.viewer.token)).statusCode, 403);
      assert.equal((await judge(team.auditor.token)).statusCode, 403);
      const other = await newTeam(t, 'demand-other');
      assert.equal((await judge(other.admin.token)).statusCode, 404, "another workspace's invocation");

      const res = await judge(team.operator.token);
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(res.json().judgement.status, 'pending');
      assert.equal(res.json().judgement.trigger, 'on_demand');
      assert.equal(res.json().judgement.attempt, 1);
      assert.equal((await judge(team.admin.token)).statusCode, 409, 'one pending at a time');
      await t.service.jobs.drain();
      const seen = await detail(t, team.admin.token, plain.invocation_id);
      assert.deepEqual([seen.judgement.status, seen.judgement.decision, seen.judgement.attempt], ['done', 'allow', 1]);
      assert.equal(seen.review_status, null, 'not in the queue: nothing to resolve');
      assert.equal(await used(t, team.admin), 2);

      // Asked again: attempt 2, two more calls; the other workspace's count never moves.
      assert.equal((await judge(team.admin.token)).statusCode, 202);
      await t.service.jobs.drain();
      assert.equal((await detail(t, team.admin.token, plain.invocation_id)).judgement.attempt, 2);
      assert.equal(await used(t, team.admin), 4);
      assert.equal(await used(t, other.admin), 0);

      // Up to the cap (8): two more judgements of two calls each.
      for (let i = 0; i < 2; i++) {
        assert.equal((await judge(team.admin.token)).statusCode, 202);
        await t.service.jobs.drain();
      }
      assert.equal(await used(t, team.admin), CAP);
      const refused = await judge(team.admin.token);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.match(refused.headers['content-type'] as string, /problem\+json/);
      assert.equal(refused.json().type.endsWith('quota_exceeded'), true, refused.body);
      // The clock is at 2026-06-01T12:00Z: 29.5 days to July.
      assert.equal(refused.headers['retry-after'], String(29.5 * 86_400));

      // An automatic escalation at the cap asks nobody and says so.
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      const before = standIn.calls();
      const id = await flagged(t, team);
      await t.service.jobs.drain();
      const q = await detail(t, team.admin.token, id);
      assert.deepEqual([q.judgement.status, q.judgement.decision, q.judgement.judges], ['quota_exhausted', null, []]);
      assert.equal(standIn.calls(), before);
      assert.equal(await used(t, team.admin), CAP);

      // The next month counts from zero (a paying workspace by then: the trial ends on June 15).
      await setSubscription(t, OPERATOR_TOKEN, team.tenantId, { subscription_status: 'active' });
      t.clock.set('2026-07-01T00:00:01Z');
      assert.equal(await used(t, team.admin), 0);
      assert.equal((await judge(team.admin.token)).statusCode, 202);
      await t.service.jobs.drain();
      assert.equal(await used(t, team.admin), 2);
      t.clock.set('2026-06-01T12:00:00Z');
    });

    test('the free plan never calls a judge: no escalation, 402 on demand', async () => {
      const team = await newTeam(t, 'free');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      await setPanel(t, team.admin.token, { 'free-a': { verdict: 'allow' } });
      await setSubscription(t, OPERATOR_TOKEN, team.tenantId, { plan_tier: 'free' });
      const id = await flagged(t, team);
      await t.service.jobs.drain();
      assert.equal((await detail(t, team.admin.token, id)).judgement, null);
      const res = await t.request({ method: 'POST', url: `/api/v1/invocations/${id}/judge`, token: team.admin.token });
      assert.equal(res.statusCode, 402, res.body);
      assert.equal(standIn.calls('free-a'), 0);
      assert.equal((await get(t, team.admin.token, '/api/v1/accounts/me')).body.quotas.multi_judge_calls_cap, 0);
    });

    test('no raw PII or secret reaches a judge: only the redacted stored content is sent', async () => {
      const team = await newTeam(t, 'pii');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      await setPanel(t, team.admin.token, { 'pii-a': { verdict: 'deny', rationale: 'Personal data in a refund.' } });
      const raw = {
        email: 'jane.doe@example.org',
        phone: '+1 415 555 0132',
        card: '4111 1111 1111 1111',
        // 123-45-6789 is a well-known example number the detectors leave alone (not PII).
        ssn: '536-22-8416',
        key: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
      };
      const id = await flagged(t, team, {
        prompt: `Refund ${raw.email}, call ${raw.phone} if needed`,
        tool_input: JSON.stringify({ card: raw.card, ssn: raw.ssn }),
        tool_output: `charged card ${raw.card} using key ${raw.key} for ${raw.email}`,
      });
      await t.service.jobs.drain();
      const seen = await detail(t, team.admin.token, id);
      assert.equal(seen.judgement.status, 'done');
      const sent = judgeRequests('pii-a');
      assert.equal(sent.length, 1);
      for (const [what, value] of Object.entries(raw)) {
        for (const r of sent) assert.ok(!r.rawBody.includes(value), `the raw ${what} reached the judge`);
      }
      // It saw the redacted text: placeholders where the values were, all three fields.
      const doc = JSON.parse((sent[0]!.body!.messages as Array<{ content: string }>)[1]!.content);
      assert.deepEqual(doc.content.map((c: Body) => c.field).sort(), ['prompt', 'tool_input', 'tool_output']);
      assert.ok(doc.findings.length >= 5, JSON.stringify(doc.findings));
    });

    test("an erasure for a data subject deletes the judges' rationales with the content; verdicts and the leaf stay", async () => {
      const team = await newTeam(t, 'erase');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      await setPanel(t, team.admin.token, {
        'erase-a': { verdict: 'deny', rationale: 'Refund for Ms Example of Flat 4.', rubric_points: ['R2'] },
      });
      const subject = await flagged(t, team, { principal_id: 'subject-erase-1' });
      const other = await flagged(t, team, { principal_id: 'someone-else' });
      await t.service.jobs.drain();
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/erasures',
        token: team.admin.token,
        payload: { principal_id: 'subject-erase-1' },
      });
      assert.equal(res.statusCode, 201, res.body);
      const erased = await detail(t, team.admin.token, subject);
      assert.equal(erased.judgement.rationales_erased, true);
      assert.deepEqual(erased.judgement.judges, [
        { name: 'judge-erase-a', verdict: 'deny', rationale: null, rubric_points: ['R2'] },
      ]);
      assert.equal(erased.judgement.decision, 'deny');
      const kept = await detail(t, team.admin.token, other);
      assert.deepEqual(
        [kept.judgement.rationales_erased, kept.judgement.judges[0].rationale],
        [false, 'Refund for Ms Example of Flat 4.'],
      );
      const rows = await t.testDb.db.query<{ invocation_id: number; text: string; salt: Uint8Array | null }>(
        'SELECT invocation_id, judges::text AS text, salt FROM judgements WHERE tenant_id = $1 ORDER BY invocation_id',
        [team.tenantId],
      );
      assert.deepEqual(
        rows.map((r) => [Number(r.invocation_id), r.text.includes('Ms Example'), r.salt === null]),
        [
          [subject, false, true],
          [other, true, false],
        ],
      );
      assert.equal((await leaves(t, team.admin.token)).filter((l) => l.kind === 'judge_verdict').length, 2);

      // Retention (400 days by default) takes the rest with the content.
      t.clock.advance(401 * 86_400_000);
      try {
        await t.service.retention.sweepAll();
        const swept = await detail(t, team.admin.token, other);
        assert.deepEqual(
          [swept.judgement.rationales_erased, swept.judgement.judges[0].rationale, swept.judgement.judges[0].verdict],
          [true, null, 'deny'],
        );
      } finally {
        t.clock.set('2026-06-01T12:00:00Z');
      }
    });

    test('the log with judge_verdict and panel review leaves verifies', { timeout: 120_000 }, async () => {
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const team = await newTeam(t, 'verify');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      await setPanel(t, team.admin.token, { 'verify-a': { verdict: 'allow' } }, { auto_resolve: true });
      await flagged(t, team);
      await t.service.jobs.drain();
      const kinds = (await leaves(t, team.admin.token)).map((l) => l.kind);
      assert.ok(kinds.includes('judge_verdict') && kinds.includes('review'), kinds.join());
      const key = pinnedVerifierKey(t, team.tenantId);
      const v = await runCli(['verify', '--url', url, '--token', team.admin.token, '--key', key], {}, 120_000);
      assert.equal(v.code, 0, `${v.stdout}\n${v.stderr}`);
    });
  },
  {
    manualJobs: true,
    env: {
      PLAN_CAPS: JSON.stringify({ team: { multi_judge_calls_per_month: CAP } }),
      // long enough for a stand-in's answer on a loaded machine (at 400 ms an answer late by a scheduler's
      // pause was asked again and counted twice); the slow stand-in answers well after it
      JUDGE_TIMEOUT_MS: '3000',
      JUDGE_MAX_ATTEMPTS: '2',
    },
  },
);
