// Two `agent-ledger serve` processes on one PostgreSQL judge one workspace's
// flagged invocations at once, both workers taking jobs: the month's calls
// end exactly at the cap, never over it, on the counter, at the stand-in and
// in /me on either node.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { SmtpPeer } from '../mail/testing/smtp-peer.ts';
import { type JudgeStandIn, startJudgeStandIn } from '../testing/judge-stand-in.ts';
import { call, flag, reviewWithPanel, settled, signUp } from '../testing/judge-nodes.ts';
import { multiProcessSkip, type ServerProcess } from '../testing/server-process.ts';
import type { TestDb } from '../testing/test-db.ts';
import { startTwoNodes, type TwoNodes } from '../testing/two-nodes.ts';

const CAP = 7;
const INVOCATIONS = 12;

describe('two nodes racing at the judge-call cap', { skip: multiProcessSkip() }, () => {
  let nodes: TwoNodes | undefined;
  let db: TestDb;
  let smtp: SmtpPeer;
  let standIn: JudgeStandIn;
  let a: ServerProcess;
  let b: ServerProcess;

  before(async () => {
    standIn = await startJudgeStandIn({
      first: { delayMs: 30, then: { verdict: 'allow' } },
      second: { delayMs: 30, then: { verdict: 'deny' } },
    });
    nodes = await startTwoNodes({
      env: {
        PLAN_CAPS: JSON.stringify({ team: { multi_judge_calls_per_month: CAP } }),
        // One job per poll: the two nodes' workers share the jobs and judge at the same time.
        JOB_BATCH: '1',
      },
    });
    ({ db, smtp, a, b } = nodes);
  });
  after(async () => {
    await nodes?.stop();
    await standIn?.close();
  });

  test(
    `${INVOCATIONS} escalations of two judges each, cap ${CAP}: exactly ${CAP} calls`,
    { timeout: 300_000 },
    async () => {
      const { token, tenantId } = await signUp(a, smtp, `admin@race-${randomBytes(3).toString('hex')}.io`);
      await reviewWithPanel(a, token, standIn.baseUrl, ['first', 'second']);
      // Recorded on both nodes at once; each node's worker takes jobs as they come.
      const ids = await Promise.all(Array.from({ length: INVOCATIONS }, (_, i) => flag(i % 2 === 0 ? a : b, token, i)));
      const judgements = await settled(b, token, ids);

      assert.equal(standIn.calls(), CAP, 'requests the judges received');
      const [row] = await db.db.query<{ used: number; calls: number }>(
        'SELECT (SELECT used FROM judge_usage WHERE tenant_id = $1) AS used, (SELECT count(*)::int FROM judge_calls WHERE tenant_id = $1) AS calls',
        [tenantId],
      );
      assert.deepEqual(row, { used: CAP, calls: CAP });
      for (const node of [a, b])
        assert.equal(
          (await call(node, 'GET', '/api/v1/accounts/me', undefined, token)).json().quotas
            .multi_judge_calls_used_this_month,
          CAP,
        );
      // Odd cap, two judges each: a judgement is done only when both its calls were counted; one cut short
      // at the cap is quota_exhausted; every answer the workspace got is one counted call.
      const answered = (j: { judges: Array<{ verdict: string }> }) =>
        j.judges.filter((o) => o.verdict !== 'abstained').length;
      for (const j of judgements) {
        assert.ok(['done', 'quota_exhausted'].includes(j.status), j.status);
        if (j.status === 'done') assert.equal(answered(j), 2);
      }
      assert.ok(judgements.filter((j) => j.status === 'done').length <= Math.floor(CAP / 2));
      assert.equal(
        judgements.reduce((n, j) => n + answered(j), 0),
        CAP,
      );
    },
  );
});
