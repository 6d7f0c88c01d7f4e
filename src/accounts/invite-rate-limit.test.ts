// Invitations send a mail to an address the caller chooses: limited per
// workspace and per recipient (across workspaces), 429 with Retry-After, and
// a refused invitation is neither stored nor mailed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eachStore, startTestService, type SignedIn, type TestService } from '../testing/harness.ts';
import { assertProblem } from '../testing/problems.ts';
import { redisSkip, TEST_REDIS_URL } from '../testing/server-process.ts';

const LIMITS = { INVITE_LIMIT_PER_WORKSPACE: '4', INVITE_LIMIT_PER_EMAIL: '2', INVITE_LIMIT_WINDOW_SECONDS: '600' };

const invite = (t: TestService, admin: SignedIn, email: string) =>
  t.request({
    method: 'POST',
    url: '/api/v1/workspace/invites',
    token: admin.token,
    payload: { email, role: 'viewer' },
  });

function assertLimited(res: Awaited<ReturnType<typeof invite>>) {
  assertProblem(res, 429, 'rate_limited');
  const retry = Number(res.headers['retry-after']);
  assert.ok(retry >= 1 && retry <= 600, `Retry-After ${retry}`);
}

/** Mails the SMTP peer received for this address, after the mailer had time to deliver. */
async function mailsTo(t: TestService, email: string): Promise<number> {
  await new Promise((r) => setTimeout(r, 150));
  return t.smtp.messages.filter((m) => m.to.includes(email)).length;
}

async function openInvites(t: TestService, admin: SignedIn): Promise<number> {
  const res = await t.request({ method: 'GET', url: '/api/v1/workspace/invites', token: admin.token });
  return (res.json() as { items: unknown[] }).items.length;
}

eachStore(
  'invitation rate limits',
  (get) => {
    test('per workspace: past the limit → 429; nothing stored, no mail sent; other workspaces unaffected', async () => {
      const t = get();
      const a = await t.signIn('admin@invite-flood.io');
      for (let i = 0; i < 4; i++) assert.equal((await invite(t, a, `out${i}@elsewhere-${i}.io`)).statusCode, 201);
      const sent = t.smtp.messages.length;
      assertLimited(await invite(t, a, 'out4@elsewhere-4.io'));
      assertLimited(await invite(t, a, 'out5@elsewhere-5.io'));
      assert.equal(await mailsTo(t, 'out4@elsewhere-4.io'), 0);
      assert.equal(t.smtp.messages.length, sent, 'no mail for a refused invitation');
      assert.equal(await openInvites(t, a), 4, 'no invitation stored');
      const b = await t.signIn('admin@invite-calm.io');
      assert.equal((await invite(t, b, 'out4@elsewhere-4.io')).statusCode, 201);
      assert.equal(await mailsTo(t, 'out4@elsewhere-4.io'), 1);
    });

    test('per recipient, across workspaces and spellings: one address is not mailed without end', async () => {
      const t = get();
      const victim = 'victim@mailbombed.io';
      const admins = [];
      for (let i = 0; i < 4; i++) admins.push(await t.signIn(`admin@bomber-${i}.io`));
      assert.equal((await invite(t, admins[0]!, victim)).statusCode, 201);
      assert.equal((await invite(t, admins[1]!, 'Victim@MailBombed.io')).statusCode, 201);
      assertLimited(await invite(t, admins[2]!, victim));
      assertLimited(await invite(t, admins[3]!, 'VICTIM@mailbombed.io'));
      assert.equal(await mailsTo(t, victim), 2);
      assert.equal(await openInvites(t, admins[2]!), 0);
      // Another address is not affected.
      assert.equal((await invite(t, admins[2]!, 'someone@else-entirely.io')).statusCode, 201);
    });
  },
  { env: LIMITS },
);

const noRedis = await redisSkip();

describe('invitation rate limits shared through Redis by two services', { skip: noRedis }, () => {
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

  test('per recipient: invitations through either service count against one limit', async () => {
    const victim = `victim-${run}@shared-limit.io`;
    const a1 = await s1.signIn(`admin@one-${run}.io`);
    const a2 = await s2.signIn(`admin@two-${run}.io`);
    const a3 = await s1.signIn(`admin@three-${run}.io`);
    assert.equal((await invite(s1, a1, victim)).statusCode, 201);
    assert.equal((await invite(s2, a2, victim)).statusCode, 201);
    assertLimited(await invite(s1, a3, victim));
  });
});
