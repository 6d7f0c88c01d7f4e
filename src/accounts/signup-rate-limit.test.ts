import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { eachStore, startTestService, type TestService } from '../testing/harness.ts';
import { assertProblem } from '../testing/problems.ts';
import { redisSkip, TEST_REDIS_URL } from '../testing/server-process.ts';

const SIGNUP = '/api/v1/accounts/signup';
const LIMITS = { SIGNUP_LIMIT_PER_IP: '5', SIGNUP_LIMIT_PER_EMAIL: '3', SIGNUP_LIMIT_WINDOW_SECONDS: '600' };

const signup = (t: TestService, email: string, ip: string) =>
  t.request({ method: 'POST', url: SIGNUP, payload: { email }, remoteAddress: ip });

/** A client address no other test (or run sharing Redis) uses. */
const randomIp = () => `10.${[...randomBytes(3)].join('.')}`;

function assertLimited(res: Awaited<ReturnType<typeof signup>>, windowSeconds = 600) {
  assertProblem(res, 429, 'rate_limited');
  const retry = String(res.headers['retry-after']);
  assert.match(retry, /^\d+$/);
  assert.ok(Number(retry) >= 1 && Number(retry) <= windowSeconds, `Retry-After ${retry}`);
}

eachStore(
  'sign-up rate limits (in memory)',
  (get) => {
    test('per e-mail: over the limit → 429 with Retry-After, from any client address, whatever the case', async () => {
      const t = get();
      for (const email of ['limit@per-mail.example', 'Limit@Per-Mail.example', 'LIMIT@per-mail.EXAMPLE']) {
        assert.equal((await signup(t, email, randomIp())).statusCode, 200);
      }
      const mails = t.smtp.messages.length;
      assertLimited(await signup(t, 'limit@per-mail.example', randomIp()));
      assertLimited(await signup(t, 'lImIt@per-mail.example', randomIp()));
      // No mail was sent for the refused requests.
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(t.smtp.messages.length, mails);
      // Another address is not affected.
      assert.equal((await signup(t, 'other@per-mail.example', randomIp())).statusCode, 200);
    });

    test('per client address: over the limit → 429 with Retry-After; another address is not affected', async () => {
      const t = get();
      const ip = randomIp();
      for (let i = 0; i < 5; i++) assert.equal((await signup(t, `u${i}@per-ip.example`, ip)).statusCode, 200);
      assertLimited(await signup(t, 'u5@per-ip.example', ip));
      assertLimited(await signup(t, 'u0@per-ip.example', ip));
      assert.equal((await signup(t, 'u5@per-ip.example', randomIp())).statusCode, 200);
    });

    test('refused requests count too: a personal address cannot be used to probe without limit', async () => {
      const t = get();
      const ip = randomIp();
      for (let i = 0; i < 5; i++) assertProblem(await signup(t, `p${i}@gmail.com`, ip), 422, 'personal_email_domain');
      assertLimited(await signup(t, 'fine@per-ip-2.example', ip));
    });

    test('the limit answers the same for an existing account and a new address', async () => {
      const t = get();
      await t.signIn('exists@same-429.example'); // one sign-up from the default address
      for (let i = 0; i < 2; i++) await signup(t, 'exists@same-429.example', randomIp());
      for (let i = 0; i < 3; i++) await signup(t, 'new@same-429.example', randomIp());
      const a = await signup(t, 'exists@same-429.example', randomIp());
      const b = await signup(t, 'new@same-429.example', randomIp());
      assertLimited(a);
      assertLimited(b);
      assert.equal(a.body, b.body);
    });

    test('verify is limited per client address too (5 × the sign-up limit)', async () => {
      const t = get();
      const ip = randomIp();
      const verify = () =>
        t.request({
          method: 'POST',
          url: '/api/v1/accounts/verify',
          payload: { email: 'v@verify-limit.example', code: '000000' },
          remoteAddress: ip,
        });
      for (let i = 0; i < 25; i++) assertProblem(await verify(), 401, 'invalid_code');
      assertLimited(await verify());
    });

    test('the limit resets after the window (Retry-After is honest)', async () => {
      const t = await startTestService('pglite', { env: { ...LIMITS, SIGNUP_LIMIT_WINDOW_SECONDS: '1' } });
      try {
        const ip = randomIp();
        for (let i = 0; i < 3; i++) assert.equal((await signup(t, 'again@window.example', ip)).statusCode, 200);
        const limited = await signup(t, 'again@window.example', ip);
        assertLimited(limited, 1);
        await new Promise((r) => setTimeout(r, Number(limited.headers['retry-after']) * 1000 + 100));
        assert.equal((await signup(t, 'again@window.example', ip)).statusCode, 200);
      } finally {
        await t.close();
      }
    });
  },
  { env: LIMITS },
);

const noRedis = await redisSkip();

describe('sign-up rate limits shared through Redis by two services', { skip: noRedis }, () => {
  let s1: TestService;
  let s2: TestService;
  const run = randomBytes(4).toString('hex');

  before(async () => {
    const env = { ...LIMITS, REDIS_URL: TEST_REDIS_URL };
    [s1, s2] = await Promise.all([startTestService('pglite', { env }), startTestService('pglite', { env })]);
  });
  after(async () => {
    await Promise.all([s1?.close(), s2?.close()]);
  });

  test('per e-mail: requests to either service count against one limit', async () => {
    const email = `shared-${run}@redis-limit.example`;
    assert.equal((await signup(s1, email, randomIp())).statusCode, 200);
    assert.equal((await signup(s2, email, randomIp())).statusCode, 200);
    assert.equal((await signup(s1, email, randomIp())).statusCode, 200);
    // Each service saw at most 2: only a shared count refuses the 4th.
    assertLimited(await signup(s2, email, randomIp()));
    assertLimited(await signup(s1, email, randomIp()));
  });

  test('per client address: shared as well', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const s = i % 2 === 0 ? s1 : s2;
      assert.equal((await signup(s, `ip${i}-${run}@redis-limit.example`, ip)).statusCode, 200);
    }
    assertLimited(await signup(s2, `ip5-${run}@redis-limit.example`, ip));
    assertLimited(await signup(s1, `ip6-${run}@redis-limit.example`, ip));
  });

  test('the count lives in Redis, with an expiry', async () => {
    const r = new Redis(TEST_REDIS_URL);
    try {
      const keys = await r.keys(`*shared-${run}@redis-limit.example*`);
      assert.equal(keys.length, 1, `keys: ${keys.join(', ')}`);
      const ttl = await r.pttl(keys[0]!);
      assert.ok(ttl > 0 && ttl <= 600_000, `ttl ${ttl}`);
    } finally {
      r.disconnect();
    }
  });
});
