import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eachStore, type TestService } from '../testing/harness.ts';
import { type JudgeStandIn, startJudgeStandIn } from '../testing/judge-stand-in.ts';
import { get, invoke, quietJobs, REVIEW_PAYMENTS, setPolicy, uniqueDomain } from '../testing/review-kit.ts';

// "Never in the request path, never blocking ingest" (issue 17): the judge
// stand-in holds its answer while the judge job waits on it, and events are
// posted meanwhile. Were ingest waiting on the panel, they could not be
// answered before the release.

/** Answers well under the judge's timeout, or says it did not. */
const PROMPTLY_MS = 5_000;

let standIn: JudgeStandIn;

async function within<T>(ms: number, p: Promise<T>): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

eachStore(
  'ingest while the judge panel is busy',
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

    test('with the judge holding its answer, further events are 201 at once and the judgement stays pending; released, it is done', async () => {
      const a = await t.signIn(`admin@${uniqueDomain('busy-panel')}`);
      await setPolicy(t, a.token, [REVIEW_PAYMENTS]);
      // The first request is held until release(); any later one is answered at once.
      standIn.script('held', [
        { hold: { verdict: 'deny', rationale: 'Answered after the release.' } },
        { verdict: 'deny' },
      ]);
      const panel = {
        judges: [{ name: 'judge-held', base_url: standIn.baseUrl, model: 'held' }],
        quorum: 'majority',
        auto_resolve: false,
      };
      assert.equal(
        (await t.request({ method: 'PUT', url: '/api/v1/workspace/judges', token: a.token, payload: panel }))
          .statusCode,
        200,
      );

      const flagged = await invoke(t, a.token, {
        agent_key: 'pay-bot',
        tool_name: 'payments.refund',
        prompt: 'Refund order 77',
      });
      assert.equal(flagged.verdict, 'flag_for_review');
      // The job worker runs the judge job in the background until the judge is waiting for its answer.
      const worker = t.service.jobs.drain();
      const deadline = Date.now() + 30_000;
      while (standIn.held('held') === 0) {
        assert.ok(Date.now() < deadline, 'the judge job never asked the judge');
        await new Promise((r) => setTimeout(r, 10));
      }

      // Events of the same workspace and agent, a flagged one among them, are answered meanwhile.
      const events = [
        { agent_key: 'pay-bot', tool_name: 'kb.search', prompt: 'Refund policy?' },
        { agent_key: 'pay-bot', tool_name: 'payments.refund', prompt: 'Refund order 78' },
        { agent_key: 'other-bot', tool_name: 'kb.search' },
      ];
      for (const payload of events) {
        const started = Date.now();
        const res = await within(PROMPTLY_MS, invoke(t, a.token, payload));
        assert.notEqual(res, 'late', `an event waited ${PROMPTLY_MS} ms while a judge held its answer`);
        assert.ok(Date.now() - started < PROMPTLY_MS);
      }
      const pending = await get(t, a.token, `/api/v1/invocations/${flagged.invocation_id}`);
      assert.deepEqual([pending.body.judgement.status, pending.body.judgement.decision], ['pending', null]);
      assert.equal(standIn.held('held'), 1, 'still held: nothing above waited for it');

      assert.equal(standIn.release('held'), 1);
      await worker;
      const done = await get(t, a.token, `/api/v1/invocations/${flagged.invocation_id}`);
      assert.deepEqual(
        [done.body.judgement.status, done.body.judgement.decision, done.body.judgement.judges[0].rationale],
        ['done', 'deny', 'Answered after the release.'],
      );
    });
  },
  {
    manualJobs: true,
    env: {
      PLAN_CAPS: JSON.stringify({ team: { multi_judge_calls_per_month: 20 } }),
      JUDGE_TIMEOUT_MS: '120000',
      JUDGE_MAX_ATTEMPTS: '1',
    },
  },
);
