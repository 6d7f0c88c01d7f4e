import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { SmtpPeer } from '../mail/testing/smtp-peer.ts';
import { multiProcessSkip, redisSkip, type ServerProcess, TEST_REDIS_URL } from '../testing/server-process.ts';
import type { TestDb } from '../testing/test-db.ts';
import { startTwoNodes, type TwoNodes } from '../testing/two-nodes.ts';

// Two `agent-ledger serve` processes on one PostgreSQL database (and one Redis):
// what one node does, the other sees on its very next request.

const OP = 'multi_node_operator_token_0123';
const noRedis = await redisSkip();

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely, as with inject()'s json()
  json(): any;
}

/** One HTTP call from a chosen client address (any 127/8 address works on Linux). */
function call(
  node: ServerProcess,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; from?: string } = {},
): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: node.port,
        method,
        path,
        localAddress: opts.from ?? clientAddress,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body) }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const randomLoopback = () => `127.${[...randomBytes(3)].map((b) => Math.max(1, b)).join('.')}`;
/** This run's client address: limits kept in the shared Redis never mix with another run's. */
const clientAddress = randomLoopback();

describe('two server processes on one PostgreSQL', { skip: multiProcessSkip() }, () => {
  let nodes: TwoNodes | undefined;
  let db: TestDb;
  let smtp: SmtpPeer;
  let a: ServerProcess;
  let b: ServerProcess;
  const run = randomBytes(4).toString('hex');
  const email = (who: string) => `${who}@${who}-${run}.multi-node.example`;

  /** Sign-up on one node, verification on the other. */
  async function signIn(who: string, askAt: ServerProcess, verifyAt: ServerProcess) {
    const address = email(who);
    const seen = new Set(smtp.messages);
    const s = await call(askAt, 'POST', '/api/v1/accounts/signup', { body: { email: address } });
    assert.equal(s.status, 200, s.body);
    const mail = await smtp.waitFor((m) => !seen.has(m) && m.to.includes(address), 15_000);
    const code = /\b(\d{6,})\b/.exec(mail.subject)![1]!;
    const v = await call(verifyAt, 'POST', '/api/v1/accounts/verify', { body: { email: address, code } });
    assert.equal(v.status, 200, v.body);
    return v.json() as { token: string; token_id: string; account: { id: string; tenant_id: string; role: string } };
  }

  before(async () => {
    // Both start at once on an empty database: the migrations must run exactly once.
    nodes = await startTwoNodes({
      empty: true,
      env: {
        OPERATOR_TOKEN: OP,
        SIGNUP_LIMIT_PER_EMAIL: '3',
        SIGNUP_LIMIT_PER_IP: '1000',
        ...(noRedis ? {} : { REDIS_URL: TEST_REDIS_URL }),
      },
    });
    ({ db, smtp, a, b } = nodes);
  });
  after(async () => {
    await nodes?.stop();
  });

  test('both nodes serve one directory: a code asked on one is verified on the other', async () => {
    const alice = await signIn('alice', a, b);
    for (const node of [a, b]) {
      const me = await call(node, 'GET', '/api/v1/accounts/me', { token: alice.token });
      assert.equal(me.status, 200);
      assert.equal(me.json().account.id, alice.account.id);
    }
    const [applied] = await db.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    const [distinct] = await db.db.query<{ n: number }>('SELECT count(DISTINCT name)::int AS n FROM schema_migrations');
    assert.equal(applied!.n, distinct!.n);
  });

  test('revocation on one node takes effect at once on the other', async () => {
    const alice = await signIn('revoker', a, a);
    for (let i = 0; i < 10; i++) {
      const [issueAt, revokeAt] = i % 2 === 0 ? [a, b] : [b, a];
      const issued = await call(issueAt, 'POST', '/api/v1/accounts/tokens', {
        token: alice.token,
        body: { name: `t${i}` },
      });
      assert.equal(issued.status, 200);
      const { token, token_id } = issued.json();
      assert.equal((await call(revokeAt, 'GET', '/api/v1/accounts/me', { token })).status, 200);
      assert.equal(
        (await call(revokeAt, 'DELETE', `/api/v1/accounts/tokens/${token_id}`, { token: alice.token })).status,
        204,
      );
      // The very next request, on the node that issued it (and has seen it in use).
      const refused = await call(issueAt, 'GET', '/api/v1/accounts/me', { token });
      assert.equal(refused.status, 401, `round ${i}`);
      assert.equal(refused.headers['www-authenticate'], 'Bearer');
      assert.equal((await call(revokeAt, 'GET', '/api/v1/accounts/me', { token })).status, 401);
    }
  });

  test('a member removed on one node is refused by the other at once; a role change applies at once', async () => {
    const admin = await signIn('admin', a, a);
    const inv = await call(a, 'POST', '/api/v1/workspace/invites', {
      token: admin.token,
      body: { email: email('member'), role: 'viewer' },
    });
    assert.equal(inv.status, 201);
    const member = await signIn('member', b, b);
    assert.equal(member.account.tenant_id, admin.account.tenant_id);
    assert.equal((await call(b, 'GET', '/api/v1/workspace/members', { token: member.token })).status, 403);
    assert.equal(
      (
        await call(a, 'PATCH', `/api/v1/workspace/members/${member.account.id}`, {
          token: admin.token,
          body: { role: 'admin' },
        })
      ).status,
      200,
    );
    assert.equal((await call(b, 'GET', '/api/v1/workspace/members', { token: member.token })).status, 200);
    assert.equal(
      (
        await call(b, 'PATCH', `/api/v1/workspace/members/${member.account.id}`, {
          token: admin.token,
          body: { role: 'viewer' },
        })
      ).status,
      200,
    );
    assert.equal((await call(a, 'GET', '/api/v1/workspace/members', { token: member.token })).status, 403);
    assert.equal(
      (await call(a, 'DELETE', `/api/v1/workspace/members/${member.account.id}`, { token: admin.token })).status,
      204,
    );
    assert.equal((await call(b, 'GET', '/api/v1/accounts/me', { token: member.token })).status, 401);
  });

  test('the account status gate follows an operator change made through the other node', async () => {
    const owner = await signIn('owner', a, b);
    const put = (node: ServerProcess, body: object) =>
      call(node, 'PUT', `/api/v1/operator/workspaces/${owner.account.tenant_id}/subscription`, { token: OP, body });
    assert.equal((await put(a, { subscription_status: 'past_due' })).status, 200);
    const refused = await call(b, 'POST', '/api/v1/accounts/tokens', { token: owner.token, body: { name: 'x' } });
    assert.equal(refused.status, 402);
    assert.equal(refused.json().code, 'payment_required');
    assert.equal((await put(b, { subscription_status: 'active' })).status, 200);
    assert.equal(
      (await call(a, 'POST', '/api/v1/accounts/tokens', { token: owner.token, body: { name: 'x' } })).status,
      200,
    );
  });

  test('the sign-up rate limit is one limit for both nodes (shared through Redis)', { skip: noRedis }, async () => {
    const address = email('limited');
    const results = [];
    for (const node of [a, b, a, b, a])
      results.push(
        await call(node, 'POST', '/api/v1/accounts/signup', { body: { email: address }, from: randomLoopback() }),
      );
    // Each node saw at most 3; only a shared count refuses the 4th and 5th.
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200, 200, 429, 429],
    );
    for (const r of results.slice(3)) {
      assert.match(String(r.headers['retry-after']), /^\d+$/);
      assert.equal(r.json().code, 'rate_limited');
      assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
    }
  });
});
