// Two `agent-ledger serve` processes on one PostgreSQL: what the event
// endpoints keep in memory (token, plan, policy, scopes) never outlives a
// change made on the other node — the very next event sees it — and
// Idempotency-Key holds across nodes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { SmtpPeer } from '../mail/testing/smtp-peer.ts';
import { multiProcessSkip, type ServerProcess } from '../testing/server-process.ts';
import type { TestDb } from '../testing/test-db.ts';
import { startTwoNodes, type TwoNodes } from '../testing/two-nodes.ts';

const OP = 'ingest_multi_node_operator_0123';
const INVOCATION = '/api/v1/admin/agents/events/invocation';

async function call(
  node: ServerProcess,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely
  return { status: res.status, headers: res.headers, text, json: (): any => JSON.parse(text) };
}

describe('event endpoints on two nodes', { skip: multiProcessSkip() }, () => {
  let nodes: TwoNodes | undefined;
  let db: TestDb;
  let smtp: SmtpPeer;
  let a: ServerProcess;
  let b: ServerProcess;
  const run = randomBytes(4).toString('hex');

  async function signIn(who: string) {
    const address = `${who}@${who}-${run}.example`;
    const seen = new Set(smtp.messages);
    assert.equal((await call(a, 'POST', '/api/v1/accounts/signup', { body: { email: address } })).status, 200);
    const mail = await smtp.waitFor((m) => !seen.has(m) && m.to.includes(address), 15_000);
    const code = /\b(\d{6,})\b/.exec(mail.subject)![1]!;
    const v = await call(b, 'POST', '/api/v1/accounts/verify', { body: { email: address, code } });
    assert.equal(v.status, 200, v.text);
    return v.json() as { token: string; token_id: string; account: { tenant_id: string } };
  }

  before(async () => {
    nodes = await startTwoNodes({ env: { OPERATOR_TOKEN: OP } });
    ({ db, smtp, a, b } = nodes);
  });
  after(async () => {
    await nodes?.stop();
  });

  test('a policy change on node A decides the next event on node B; a scope too', async () => {
    const owner = await signIn('policy');
    const event = { agent_key: 'pol-bot', tool_name: 'crm.lookup', prompt: 'hello' };
    for (let round = 0; round < 5; round++) {
      // B has the current policy in memory.
      assert.equal(
        (await call(b, 'POST', INVOCATION, { token: owner.token, body: event })).json().verdict,
        round % 2 === 0 ? 'allow' : 'deny',
      );
      const verdict = round % 2 === 0 ? 'deny' : 'allow';
      const put = await call(a, 'PUT', '/api/v1/policy', {
        token: owner.token,
        body: { default_verdict: verdict, rules: [] },
      });
      assert.equal(put.status, 200, put.text);
      const next = await call(b, 'POST', INVOCATION, { token: owner.token, body: event });
      assert.equal(next.status, 201, next.text);
      assert.equal(next.json().verdict, verdict, `round ${round}`);
    }
    await call(a, 'PUT', '/api/v1/policy', { token: owner.token, body: { default_verdict: 'allow', rules: [] } });
    assert.equal((await call(b, 'POST', INVOCATION, { token: owner.token, body: event })).json().verdict, 'allow');
    const scope = await call(a, 'PUT', '/api/v1/agents/pol-bot/scope', {
      token: owner.token,
      body: { allowed_tools: ['search.*'] },
    });
    assert.equal(scope.status, 200, scope.text);
    assert.equal((await call(b, 'POST', INVOCATION, { token: owner.token, body: event })).json().verdict, 'deny');
  });

  test('a token revoked on node A is refused by node B on its next event; a plan change applies at once', async () => {
    const owner = await signIn('revoke');
    for (let i = 0; i < 5; i++) {
      const issued = await call(a, 'POST', '/api/v1/accounts/tokens', { token: owner.token, body: { name: `t${i}` } });
      const { token, token_id } = issued.json();
      assert.equal((await call(b, 'POST', INVOCATION, { token, body: { agent_key: 'rv' } })).status, 201);
      assert.equal(
        (await call(a, 'DELETE', `/api/v1/accounts/tokens/${token_id}`, { token: owner.token })).status,
        204,
      );
      const refused = await call(b, 'POST', INVOCATION, { token, body: { agent_key: 'rv' } });
      assert.equal(refused.status, 401, `round ${i}: ${refused.text}`);
    }
    assert.equal((await call(b, 'POST', INVOCATION, { token: owner.token, body: { agent_key: 'rv' } })).status, 201);
    const lapse = await call(a, 'PUT', `/api/v1/operator/workspaces/${owner.account.tenant_id}/subscription`, {
      token: OP,
      body: { subscription_status: 'past_due' },
    });
    assert.equal(lapse.status, 200, lapse.text);
    const gated = await call(b, 'POST', INVOCATION, { token: owner.token, body: { agent_key: 'rv' } });
    assert.equal(gated.status, 402);
  });

  test('50 identical requests with one Idempotency-Key, spread over both nodes at once: one row, one leaf, one count', async () => {
    const owner = await signIn('idem');
    const tenant = owner.account.tenant_id;
    const body = { agent_key: 'idem-bot', prompt: 'exactly once', correlation_id: 'x-node' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', INVOCATION, {
          token: owner.token,
          body,
          headers: { 'idempotency-key': 'cross-node' },
        }),
      ),
    );
    assert.deepEqual([...new Set(answers.map((r) => r.status))], [201]);
    assert.equal(new Set(answers.map((r) => r.text)).size, 1, 'identical bodies');
    const [row] = await db.db.query<{ inv: number; leaves: number; usage: number }>(
      `SELECT (SELECT count(*)::int FROM invocations WHERE tenant_id = $1) AS inv,
              (SELECT count(*)::int FROM log_entries WHERE tenant_id = $1 AND leaf LIKE '%"kind":"invocation"%') AS leaves,
              (SELECT coalesce(sum(invocations), 0)::int FROM usage_daily WHERE tenant_id = $1) AS usage`,
      [tenant],
    );
    assert.deepEqual(row, { inv: 1, leaves: 1, usage: 1 });
  });
});
