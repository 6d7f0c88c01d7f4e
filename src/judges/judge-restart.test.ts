// A judgement survives its node: `agent-ledger serve` is killed (SIGKILL)
// while the judge job waits for an answer, a new process on the same store
// takes the job when its lease ends, and the invocation ends with one
// judgement, one judge_verdict leaf and each judge's call counted once; the
// log still verifies.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { formatSignerKey, generateSignerKey } from '../ledger/note.ts';
import { startSmtpPeer } from '../mail/testing/smtp-peer.ts';
import { pinnedVerifierKey } from '../testing/audit-load.ts';
import { startJudgeStandIn } from '../testing/judge-stand-in.ts';
import { call, flag, reviewWithPanel, settled, signUp } from '../testing/judge-nodes.ts';
import { runCli, type ServerProcess, startServerProcess } from '../testing/server-process.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';

for (const store of testStores()) {
  test(
    `a node killed mid-judgement: the restarted service finishes it once, counting each call once [${store}]`,
    { timeout: 300_000 },
    async () => {
      const testDb = store === 'postgres' ? await createTestDb('postgres') : undefined;
      await testDb?.db.close();
      const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-judge-restart-'));
      const smtp = await startSmtpPeer();
      const standIn = await startJudgeStandIn();
      const signerKey = formatSignerKey(generateSignerKey('agent-ledger.local'));
      // A short lease so the restarted node takes the dead node's job soon; longer than the kill takes.
      const env = {
        LEDGER_SIGNING_KEY: signerKey,
        SMTP_URL: smtp.url,
        JOB_LEASE_SECONDS: '3',
        JUDGE_TIMEOUT_MS: '60000',
      };
      const start = () => startServerProcess({ databaseUrl: testDb?.url, dataDir, env, timeoutMs: 120_000 });
      let node: ServerProcess | undefined;
      try {
        node = await start();
        const { token, tenantId } = await signUp(node, smtp, `admin@restart-${randomBytes(3).toString('hex')}.io`);
        // 'quick' answers at once; 'stuck' holds its answer far past the kill.
        standIn.script('quick', { verdict: 'allow', rationale: 'fine' });
        standIn.script('stuck', { delayMs: 120_000, then: { verdict: 'allow' } });
        await reviewWithPanel(node, token, standIn.baseUrl, ['quick', 'stuck']);
        const id = await flag(node, token, 1);

        const deadline = Date.now() + 60_000;
        while (standIn.calls('stuck') === 0 || standIn.calls('quick') === 0) {
          assert.ok(Date.now() < deadline, 'the judge job never called the judges');
          await new Promise((r) => setTimeout(r, 20));
        }
        const pending = await call(node, 'GET', `/api/v1/invocations/${id}`, undefined, token);
        assert.equal(pending.json().judgement.status, 'pending');
        await node.stop('SIGKILL');

        standIn.script('stuck', { verdict: 'deny', rationale: 'changed its mind' });
        node = await start();
        const [judgement] = await settled(node, token, [id]);
        assert.deepEqual(
          {
            status: judgement.status,
            attempt: judgement.attempt,
            decision: judgement.decision,
            verdicts: judgement.judges.map((j: { verdict: string }) => j.verdict),
          },
          { status: 'done', attempt: 1, decision: 'uncertain', verdicts: ['allow', 'deny'] },
        );
        // Each judge was asked twice (once per process), yet each call of the attempt counted once.
        assert.deepEqual([standIn.calls('quick'), standIn.calls('stuck')], [2, 2]);
        const me = await call(node, 'GET', '/api/v1/accounts/me', undefined, token);
        assert.equal(me.json().quotas.multi_judge_calls_used_this_month, 2);
        const entries = (await call(node, 'GET', '/api/v1/audit/entries?start=0&end=1000', undefined, token)).json()
          .entries as Array<{ leaf: string }>;
        const verdicts = entries.map((e) => JSON.parse(e.leaf)).filter((l) => l.kind === 'judge_verdict');
        assert.equal(verdicts.length, 1);
        assert.equal(verdicts[0].invocation_id, id);

        const key = pinnedVerifierKey({ signerKey }, tenantId);
        const verify = await runCli(
          ['verify', '--url', node.url, '--key', key],
          { AGENT_LEDGER_TOKEN: token },
          120_000,
        );
        assert.equal(verify.code, 0, `${verify.stdout}\n${verify.stderr}`);
      } finally {
        await node?.stop();
        await standIn.close();
        await smtp.close();
        await testDb?.dispose();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
}
