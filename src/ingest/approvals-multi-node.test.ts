import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { multiProcessSkip } from '../testing/server-process.ts';
import { call, signUp } from '../testing/judge-nodes.ts';
import type { TestDb } from '../testing/test-db.ts';
import { startTwoNodes, type TwoNodes } from '../testing/two-nodes.ts';

// Two `agent-ledger serve` processes on one PostgreSQL: an agent's long poll
// waits on node B while a person decides on node A. B hears the decision's
// NOTIFY and answers at once, holding no database connection meanwhile.

/** Connections of this database that are in a transaction or running a statement. */
async function busyConnections(db: TestDb): Promise<number> {
  const [row] = await db.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
  );
  return row!.n;
}

describe('approvals across two server processes', { skip: multiProcessSkip() }, () => {
  let nodes: TwoNodes | undefined;
  before(async () => (nodes = await startTwoNodes({ env: { SIGNUP_LIMIT_PER_IP: '1000' } })));
  after(() => nodes?.stop());

  test('a long poll on one node answers as soon as the other node records the decision, with no connection held', async (t) => {
    const { db, smtp, a, b } = nodes!;
    const address = `admin@approvals-${randomBytes(4).toString('hex')}.multi-node.example`;
    const { token } = await signUp(a, smtp, address);
    const policy = await call(
      a,
      'PUT',
      '/api/v1/policy',
      {
        default_verdict: 'allow',
        rules: [{ id: 'hold-refunds', when: { tools: ['payments.*'] }, verdict: 'allow', hold: true }],
      },
      token,
    );
    assert.equal(policy.status, 200, policy.text);
    const ingress = await call(a, 'POST', '/api/v1/workspace/ingress-tokens', { name: 'gate' }, token);
    assert.equal(ingress.status, 201, ingress.text);
    const agent = ingress.json().token as string;

    // Recorded through B, as the agent would; held.
    const inv = await call(
      b,
      'POST',
      '/api/v1/admin/agents/events/invocation',
      { agent_key: 'billing', mode: 'enforced', tool_name: 'payments.refund' },
      agent,
    );
    assert.equal(inv.status, 201, inv.text);
    const approvalId = inv.json().approval.approval_id as string;

    const polls = Array.from({ length: 20 }, () =>
      call(b, 'GET', `/api/v1/approvals/${approvalId}?wait=30`, undefined, agent),
    );
    await new Promise((r) => setTimeout(r, 500));
    // Twenty polls parked on B: were each holding a connection (in a transaction or a statement), at least
    // twenty would show; the nodes' own background work (job polls, checkpoints) shows a few at most.
    for (let i = 0; i < 5; i++) {
      const busy = await busyConnections(db);
      assert.ok(busy < 10, `${busy} connections busy while 20 polls wait`);
      await new Promise((r) => setTimeout(r, 50));
    }

    const decidedAt = Date.now();
    const decided = await call(a, 'POST', `/api/v1/approvals/${approvalId}/decision`, { decision: 'deny' }, token);
    assert.equal(decided.status, 200, decided.text);
    const answers = await Promise.all(polls);
    const lagMs = Date.now() - decidedAt;
    for (const r of answers) {
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json().status, 'denied');
    }
    assert.ok(lagMs < 2_000, `B answered ${lagMs} ms after A's decision`);
    t.diagnostic(`20 polls on B answered ${lagMs} ms after A's decision was sent`);
  });
});
