import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { eachStore, OPERATOR_TOKEN, type SignedIn } from '../testing/harness.ts';
import { setSubscription } from '../testing/workspace.ts';
import { MAX_CONCURRENT_EXPORTS, MAX_EXPORTS_PER_WORKSPACE } from './routes.ts';

// Load shedding and plan limits on the OTLP endpoint, as an exporter sees
// them: partial_success, 429 with Retry-After, 402, 503 with Retry-After.

const chat = (traceId: string, spanId: string, extra: unknown[] = []) => ({
  traceId,
  spanId,
  name: 'chat',
  attributes: [
    { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
    { key: 'gen_ai.agent.name', value: { stringValue: 'capped-bot' } },
    ...extra,
  ],
});
const exportOf = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
/** gRPC code and problem code of a JSON error answer (a google.rpc.Status, as the OTLP spec wants). */
const statusOf = async (res: Response) => {
  assert.match(res.headers.get('content-type') ?? '', /^application\/json(;|$)/);
  const s = (await res.json()) as { code: number; details: Array<{ reason: string }> };
  return [s.code, s.details[0]!.reason];
};

eachStore(
  'OTLP limits',
  (get) => {
    let alice: SignedIn;
    let base: string;
    const post = (body: string, token = alice.token) =>
      fetch(`${base}/api/v1/otel/v1/traces`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });

    test('setup', async () => {
      const t = get();
      alice = await t.signIn('alice@otlp-limits.example');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    });

    test('the daily cap: spans past it are rejected in partial_success, then every span → 429 with Retry-After', async () => {
      const trace = 'c'.repeat(32);
      const first = await post(exportOf([1, 2, 3, 4, 5].map((i) => chat(trace, `${i}`.repeat(16)))));
      assert.equal(first.status, 200);
      const body = (await first.json()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
      assert.equal(body.partialSuccess.rejectedSpans, '2');
      assert.match(body.partialSuccess.errorMessage, /3 invocations a day/);
      const again = await post(exportOf([chat(trace, '6'.repeat(16))]));
      assert.equal(again.status, 429);
      assert.ok(Number(again.headers.get('retry-after')) >= 1);
      assert.deepEqual(await statusOf(again), [8, 'quota_exceeded']); // RESOURCE_EXHAUSTED
      // Re-sending what was recorded is still a success: nothing new to count.
      const dup = await post(exportOf([chat(trace, '1'.repeat(16))]));
      assert.equal(dup.status, 200);
      const list = await get().request({
        method: 'GET',
        url: `/api/v1/invocations?correlation_id=${trace}`,
        token: alice.token,
      });
      assert.equal((list.json() as { items: unknown[] }).items.length, 3);
    });

    test('more exports in progress than the node takes → 503 with Retry-After, before the body is read', async () => {
      const addr = new URL(base);
      const held = Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => {
        const req = httpRequest({
          host: addr.hostname,
          port: addr.port,
          method: 'POST',
          path: '/api/v1/otel/v1/traces',
          headers: {
            authorization: `Bearer ${alice.token}`,
            'content-type': 'application/json',
            'content-length': '1000',
          },
        });
        req.on('error', () => {});
        req.write('{'); // the body never completes while the test runs
        return req;
      });
      try {
        // The held requests reach the route at their own pace on a loaded machine: ask until the node sheds.
        let shed: Response | undefined;
        for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
          const res = await post(exportOf([]));
          if (res.status === 503) {
            shed = res;
            break;
          }
          assert.equal(res.status, 200);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(shed, 'no 503 while every slot was taken');
        assert.equal(shed.headers.get('retry-after'), '1');
        assert.deepEqual(await statusOf(shed), [14, 'service_unavailable']); // UNAVAILABLE
      } finally {
        for (const r of held) r.destroy();
      }
      for (const deadline = Date.now() + 20_000; ;) {
        const res = await post(exportOf([]));
        if (res.status === 200) break; // the slots are released when those requests end
        assert.ok(Date.now() < deadline, `still ${res.status} after the held requests ended`);
        await new Promise((r) => setTimeout(r, 50));
      }
    });

    test('a workspace holding slow uploads holds a quarter of the slots at most: another workspace still exports', async () => {
      const bob = await get().signIn('bob@otlp-limits-other.example');
      const addr = new URL(base);
      // Slow-loris: headers, then a byte now and then; as many as the node has slots.
      const statuses: number[] = [];
      const held = Array.from({ length: MAX_CONCURRENT_EXPORTS }, () => {
        const req = httpRequest({
          host: addr.hostname,
          port: addr.port,
          method: 'POST',
          path: '/api/v1/otel/v1/traces',
          headers: {
            authorization: `Bearer ${alice.token}`,
            'content-type': 'application/json',
            'content-length': '1000',
          },
        });
        req.on('error', () => {});
        req.on('response', (res) => {
          statuses.push(res.statusCode ?? 0);
          res.resume();
        });
        req.write('{');
        return req;
      });
      try {
        // All but alice's share are refused at once (before their bodies, which never complete).
        for (
          const deadline = Date.now() + 20_000;
          statuses.length < MAX_CONCURRENT_EXPORTS - MAX_EXPORTS_PER_WORKSPACE;
        ) {
          assert.ok(Date.now() < deadline, `only ${statuses.length} of alice's uploads were answered`);
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.deepEqual(new Set(statuses), new Set([503]));
        // Bob's exports go through, up to his own share at once.
        const results = await Promise.all(
          Array.from({ length: MAX_EXPORTS_PER_WORKSPACE }, () => post(exportOf([]), bob.token)),
        );
        assert.deepEqual(
          results.map((r) => r.status),
          Array(MAX_EXPORTS_PER_WORKSPACE).fill(200),
        );
        // Alice's own next export is shed: her share is taken.
        const hers = await post(exportOf([]));
        assert.equal(hers.status, 503);
        assert.deepEqual(await statusOf(hers), [14, 'service_unavailable']);
      } finally {
        for (const r of held) r.destroy();
      }
      for (const deadline = Date.now() + 20_000; ;) {
        const res = await post(exportOf([]));
        if (res.status === 200) break; // released when the slow uploads end
        assert.ok(Date.now() < deadline, `still ${res.status} after the slow uploads ended`);
        await new Promise((r) => setTimeout(r, 50));
      }
    });

    test('a slow upload is cut off at REQUEST_TIMEOUT_MS and its slot released', async () => {
      const addr = new URL(base);
      const started = Date.now();
      const ended = Array.from(
        { length: MAX_EXPORTS_PER_WORKSPACE },
        () =>
          new Promise<string>((resolve) => {
            const req = httpRequest({
              host: addr.hostname,
              port: addr.port,
              method: 'POST',
              path: '/api/v1/otel/v1/traces',
              headers: {
                authorization: `Bearer ${alice.token}`,
                'content-type': 'application/json',
                'content-length': '1000',
              },
            });
            req.on('error', (err) => resolve(`error ${(err as NodeJS.ErrnoException).code}`));
            req.on('response', (res) => {
              res.resume();
              resolve(String(res.statusCode));
            });
            req.write('{');
            // A byte now and then: never idle, never done.
            const drip = setInterval(() => req.write(' '), 200);
            req.on('close', () => clearInterval(drip));
          }),
      );
      // Her share is taken while they drip.
      for (const deadline = Date.now() + 5_000; ;) {
        const res = await post(exportOf([]));
        if (res.status === 503) break;
        assert.ok(Date.now() < deadline, 'the slow uploads never took the slots');
        await new Promise((r) => setTimeout(r, 50));
      }
      const outcomes = await Promise.all(ended);
      const waited = Date.now() - started;
      assert.ok(waited >= 1_500, `cut after ${waited} ms, before the 2 s timeout`);
      assert.ok(waited < 15_000, `cut only after ${waited} ms`);
      for (const o of outcomes) assert.match(o, /^(408|error ECONNRESET)$/);
      assert.equal((await post(exportOf([]))).status, 200);
    });

    test('a workspace that may not write → 402', async () => {
      await setSubscription(get(), OPERATOR_TOKEN, alice.account.tenant_id, { subscription_status: 'canceled' });
      const res = await post(exportOf([chat('d'.repeat(32), '7'.repeat(16))]));
      assert.equal(res.status, 402);
      assert.deepEqual(await statusOf(res), [7, 'payment_required']); // PERMISSION_DENIED
    });
  },
  {
    env: {
      REQUEST_TIMEOUT_MS: '2000',
      PLAN_CAPS: JSON.stringify({
        free: { invocations_per_day: 3 },
        team: { invocations_per_day: 3 },
        enterprise: { invocations_per_day: 3 },
      }),
    },
  },
);
