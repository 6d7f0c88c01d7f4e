import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eachStore, OPERATOR_TOKEN, startTestService } from '../testing/harness.ts';
import { assertProblem } from '../testing/problems.ts';
import { testStores } from '../testing/test-db.ts';

const METRICS_TOKEN = 'metrics_test_token_0123456789';

const ACCOUNT_PATHS: Array<[string, string]> = [
  ['/api/v1/accounts/signup', 'post'],
  ['/api/v1/accounts/verify', 'post'],
  ['/api/v1/accounts/me', 'get'],
  ['/api/v1/accounts/tokens', 'post'],
  ['/api/v1/accounts/tokens', 'get'],
  ['/api/v1/accounts/tokens/{token_id}', 'delete'],
  ['/api/v1/workspace/members', 'get'],
  ['/api/v1/workspace/members/{account_id}', 'patch'],
  ['/api/v1/workspace/members/{account_id}', 'delete'],
  ['/api/v1/workspace/invites', 'get'],
  ['/api/v1/workspace/invites', 'post'],
  ['/api/v1/workspace/invites/{invitation_id}', 'delete'],
  ['/api/v1/operator/workspaces', 'get'],
  ['/api/v1/operator/workspaces/{tenant_id}/subscription', 'put'],
];

eachStore(
  'operations endpoints',
  (get) => {
    test('/openapi.json is OpenAPI 3.1 and documents every account path, its security and its problems', async () => {
      const t = get();
      const res = await t.request({ method: 'GET', url: '/openapi.json' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const doc = res.json();
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(typeof doc.info.title, 'string');
      assert.deepEqual(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer' });
      for (const [path, method] of ACCOUNT_PATHS) {
        const op = doc.paths?.[path]?.[method];
        assert.ok(op, `${method.toUpperCase()} ${path} is missing`);
        assert.ok(op.summary, `${method} ${path} has no summary`);
        const statuses = Object.keys(op.responses);
        assert.ok(
          statuses.some((s) => s.startsWith('2')),
          `${method} ${path} documents no success`,
        );
        if (!path.endsWith('/signup') && !path.endsWith('/verify')) {
          assert.deepEqual(op.security, [{ bearer: [] }], `${method} ${path} security`);
          assert.ok(statuses.includes('401'), `${method} ${path} documents no 401`);
        }
      }
      // The documented errors are the ones the routes give.
      assert.ok('402' in doc.paths['/api/v1/accounts/tokens'].post.responses);
      assert.ok(
        !('402' in doc.paths['/api/v1/accounts/tokens/{token_id}'].delete.responses),
        'revocation is not gated',
      );
      assert.ok('402' in doc.paths['/api/v1/workspace/invites/{invitation_id}'].delete.responses);
      assert.ok('409' in doc.paths['/api/v1/workspace/members/{account_id}'].patch.responses);
      assert.ok('429' in doc.paths['/api/v1/accounts/signup'].post.responses);
      const signupBody = doc.paths['/api/v1/accounts/signup'].post.requestBody.content['application/json'].schema;
      assert.deepEqual(signupBody.required, ['email']);
      assert.equal(signupBody.properties.email.maxLength, 254);
      // Internal endpoints stay out of the document.
      for (const hidden of ['/healthz', '/readyz', '/metrics', '/openapi.json'])
        assert.equal(doc.paths[hidden], undefined);
    });

    test('/docs serves an HTML reference', async () => {
      const t = get();
      let res = await t.request({ method: 'GET', url: '/docs' });
      if (res.statusCode >= 300 && res.statusCode < 400)
        res = await t.request({ method: 'GET', url: String(res.headers.location) });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /<html/i);
    });

    test('/healthz and /readyz answer 200 while the database is up', async () => {
      const t = get();
      const h = await t.request({ method: 'GET', url: '/healthz' });
      assert.equal(h.statusCode, 200);
      assert.deepEqual(h.json(), { status: 'ok' });
      const r = await t.request({ method: 'GET', url: '/readyz' });
      assert.equal(r.statusCode, 200);
      assert.deepEqual(r.json(), { status: 'ready' });
    });

    test('/metrics answers only to METRICS_TOKEN: no token, another token or a valid API token → 401', async () => {
      const t = get();
      const alice = await t.signIn('alice@metrics-auth.example');
      for (const token of [undefined, 'not-the-metrics-token-at-all', alice.token, OPERATOR_TOKEN]) {
        const res = await t.request({ method: 'GET', url: '/metrics', ...(token ? { token } : {}) });
        assertProblem(res, 401, 'unauthorized');
        assert.ok(!res.body.includes('http_requests_total'));
      }
    });

    test('/metrics: Prometheus text with http_requests_total by route and status', async () => {
      const t = get();
      const alice = await t.signIn('alice@metrics.example');
      await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: alice.token });
      await t.request({ method: 'GET', url: '/api/v1/accounts/me' });
      await t.request({ method: 'GET', url: '/no/such/route' });
      const res = await t.request({ method: 'GET', url: '/metrics', token: METRICS_TOKEN });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.body, /# TYPE http_requests_total counter/);
      const count = (route: string, status: string, method = 'GET') => {
        const line = res.body
          .split('\n')
          .find(
            (l) =>
              l.startsWith('http_requests_total{') &&
              l.includes(`method="${method}"`) &&
              l.includes(`route="${route}"`) &&
              l.includes(`status="${status}"`),
          );
        return line ? Number(line.split(' ').pop()) : 0;
      };
      assert.ok(count('/api/v1/accounts/me', '200') >= 1);
      assert.ok(count('/api/v1/accounts/me', '401') >= 1);
      assert.ok(count('/api/v1/accounts/signup', '200', 'POST') >= 1);
      assert.ok(count('/api/v1/accounts/verify', '200', 'POST') >= 1);
      // Unknown paths share one label: a scanner cannot blow up the series count.
      assert.ok(count('unmatched', '404') >= 1);
      assert.ok(!res.body.includes('/no/such/route'));
      assert.match(res.body, /http_request_duration_seconds_bucket\{/);
      // No secrets in metrics.
      assert.ok(!res.body.includes(alice.token));
    });

    test('/metrics: agent_ledger_events_total counts the events stored, by kind and verdict — not replays, not refusals', async () => {
      const t = get();
      const alice = await t.signIn('alice@metrics-events.example');
      const counts = async () => {
        const res = await t.request({ method: 'GET', url: '/metrics', token: METRICS_TOKEN });
        const count = (kind: string, verdict: string) => {
          const line = res.body
            .split('\n')
            .find(
              (l) =>
                l.startsWith('agent_ledger_events_total{') &&
                l.includes(`kind="${kind}"`) &&
                l.includes(`verdict="${verdict}"`),
            );
          return line ? Number(line.split(' ').pop()) : 0;
        };
        return { allow: count('invocation', 'allow'), rogue: count('rogue', 'n/a') };
      };
      const before = await counts();
      const inv = (agent_key: string, event_id?: string) => ({
        kind: 'invocation',
        event: { agent_key, tool_name: 'search' },
        ...(event_id ? { event_id } : {}),
      });
      const batch = (events: unknown[]) =>
        t.request({
          method: 'POST',
          url: '/api/v1/admin/agents/events/batch',
          token: alice.token,
          payload: { events },
        });
      const first = await batch([
        inv('m1', 'e-1'),
        inv('m1'),
        inv('m2'),
        { kind: 'rogue', event: { event_type: 'oos_tool', agent_key: 'm1', tool: 'rm' } },
        { kind: 'invocation', event: { tool_name: 'no agent' } },
      ]);
      assert.equal(first.statusCode, 207, first.body);
      assert.deepEqual(
        first.json().results.map((r: { status: number }) => r.status),
        [201, 201, 201, 201, 422],
      );
      // e-1 again is a replay: answered, not stored again.
      const again = await batch([inv('m1', 'e-1'), inv('m2')]);
      assert.deepEqual(
        again.json().results.map((r: { status: number }) => r.status),
        [201, 201],
      );
      const after = await counts();
      assert.equal(after.allow - before.allow, 4);
      assert.equal(after.rogue - before.rogue, 1);
    });
  },
  { env: { METRICS_TOKEN } },
);

describe('/metrics without METRICS_TOKEN', () => {
  for (const store of testStores()) {
    test(`[${store}] is off: 404 for everyone`, async () => {
      const t = await startTestService(store);
      try {
        const alice = await t.signIn('alice@nometrics.example');
        for (const token of [undefined, alice.token, OPERATOR_TOKEN]) {
          assertProblem(
            await t.request({ method: 'GET', url: '/metrics', ...(token ? { token } : {}) }),
            404,
            'not_found',
          );
        }
      } finally {
        await t.close();
      }
    });
  }
});

describe('/readyz when the database is gone', () => {
  for (const store of testStores()) {
    test(`[${store}] 503 service_unavailable from /readyz, 500 without internals elsewhere; /healthz stays up`, async () => {
      const t = await startTestService(store);
      try {
        const alice = await t.signIn('alice@gone.example');
        assert.equal((await t.request({ method: 'GET', url: '/readyz' })).statusCode, 200);
        await t.testDb.db.close();
        const ready = await t.request({ method: 'GET', url: '/readyz' });
        assertProblem(ready, 503, 'service_unavailable');
        assert.equal((await t.request({ method: 'GET', url: '/healthz' })).statusCode, 200);
        const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: alice.token });
        assertProblem(me, 500, 'internal_error');
        const signup = await t.request({
          method: 'POST',
          url: '/api/v1/accounts/signup',
          payload: { email: 'bob@gone.example' },
        });
        assertProblem(signup, 500, 'internal_error');
      } finally {
        await t.close();
      }
    });
  }
});
