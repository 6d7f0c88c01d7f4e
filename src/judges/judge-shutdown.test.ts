// Stopping the service while a judge keeps the panel waiting: the job worker
// aborts the panel instead of waiting out the judge's timeout, the judgement
// stays pending, and the job runs again (its counted call not counted twice).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestService } from '../testing/harness.ts';
import { startJudgeStandIn } from '../testing/judge-stand-in.ts';
import { get, invoke, newTeam, REVIEW_PAYMENTS, setPolicy } from '../testing/review-kit.ts';
import { testStores } from '../testing/test-db.ts';

const HOLD_MS = 60_000;

for (const store of testStores()) {
  test(
    `stopping the job worker gives up a waiting panel; the judgement runs again once [${store}]`,
    { timeout: 120_000 },
    async () => {
      const t = await startTestService(store, { env: { JUDGE_TIMEOUT_MS: String(HOLD_MS * 2) } });
      const standIn = await startJudgeStandIn({ slow: { delayMs: HOLD_MS, then: { verdict: 'allow' } } });
      try {
        const team = await newTeam(t, 'shutdown');
        await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
        const panel = {
          judges: [{ name: 'slow', base_url: standIn.baseUrl, model: 'slow' }],
          quorum: 'majority',
          auto_resolve: false,
        };
        assert.equal(
          (await t.request({ method: 'PUT', url: '/api/v1/workspace/judges', token: team.admin.token, payload: panel }))
            .statusCode,
          200,
        );
        const { invocation_id: id } = await invoke(t, team.admin.token, {
          agent_key: 'pay-bot',
          tool_name: 'payments.refund',
          prompt: 'refund',
        });
        const deadline = Date.now() + 30_000;
        while (standIn.calls('slow') === 0) {
          assert.ok(Date.now() < deadline, 'the worker never asked the judge');
          await new Promise((r) => setTimeout(r, 20));
        }

        // stop() returns while the judge still holds its answer, not after it.
        const stopped = await Promise.race([
          t.service.jobs.stop().then(() => 'stopped'),
          new Promise((r) => setTimeout(() => r('still waiting'), HOLD_MS / 2)),
        ]);
        assert.equal(stopped, 'stopped');
        const pending = await get(t, team.admin.token, `/api/v1/invocations/${id}`);
        assert.deepEqual([pending.body.judgement.status, pending.body.judgement.attempt], ['pending', 1]);
        const [job] = await t.testDb.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM jobs WHERE kind = 'judge'",
        );
        assert.equal(job!.n, 1, 'the job stays for the next run');

        // Run again (as a restarted node would): the judge answers now; its one call counted once.
        standIn.script('slow', { verdict: 'deny', rationale: 'now' });
        const again = Date.now() + 30_000;
        for (;;) {
          await t.service.jobs.drain();
          const j = (await get(t, team.admin.token, `/api/v1/invocations/${id}`)).body.judgement;
          if (j.status === 'done') {
            assert.deepEqual([j.attempt, j.decision], [1, 'deny']);
            break;
          }
          assert.ok(Date.now() < again, `still ${j.status}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        assert.equal(standIn.calls('slow'), 2);
        assert.equal(
          (await get(t, team.admin.token, '/api/v1/accounts/me')).body.quotas.multi_judge_calls_used_this_month,
          1,
        );
      } finally {
        await standIn.close();
        await t.close();
      }
    },
  );
}
