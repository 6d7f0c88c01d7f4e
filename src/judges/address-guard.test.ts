import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startJudgeStandIn, type JudgeStandIn } from '../testing/judge-stand-in.ts';
import { blockedReason, judgeDispatcher } from './address-guard.ts';
import { runPanel, type JudgeCase, type JudgeEndpoint } from './panel.ts';

// A workspace admin picks the judges' base_url: the service must not become
// their way into the cloud's metadata service or, when the operator says so,
// into the private network. Checked against a real listening stand-in.

let standIn: JudgeStandIn;
before(async () => {
  standIn = await startJudgeStandIn();
});
after(async () => {
  await standIn.close();
});

test('blockedReason: link-local, unspecified and multicast never; loopback and private only when allowed', () => {
  const never = [
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    'fe80::1',
    'ff02::1',
    'fd00:ec2::254',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '[fe80::1]',
  ];
  for (const ip of never) {
    assert.ok(blockedReason(ip, 'allow'), `${ip} with private networks allowed`);
    assert.ok(blockedReason(ip, 'deny'), `${ip} with private networks denied`);
  }
  const privateOnes = [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::1]',
  ];
  for (const ip of privateOnes) {
    assert.equal(blockedReason(ip, 'allow'), null, `${ip} allowed`);
    assert.ok(blockedReason(ip, 'deny'), `${ip} denied`);
  }
  for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(blockedReason(ip, 'deny'), null, `${ip} is public`);
  }
});

const aCase: JudgeCase = {
  persona: null,
  invocation: { id: 'inv-1' },
  content: [{ field: 'prompt', text: 'hello' }],
  findings: [],
};
const judge = (name: string, baseUrl: string): JudgeEndpoint => {
  standIn.script(name, { verdict: 'allow' });
  return { name, base_url: baseUrl, model: name, api_key: 'sk-test' };
};
const counted = () => {
  let n = 0;
  return { calls: () => n, reserveCall: async () => ((n += 1), true) };
};

test('a judge on the metadata address abstains as blocked_address at once, one call, no retry', async () => {
  const q = counted();
  const out = await runPanel([judge('meta', 'http://169.254.169.254/v1')], 'majority', aCase, {
    reserveCall: q.reserveCall,
    timeoutMs: 2_000,
    backoffBaseMs: 10,
  });
  assert.deepEqual(
    out.judges.map((o) => [o.verdict, o.error, o.calls]),
    [['abstained', 'blocked_address', 1]],
  );
});

test('JUDGE_PRIVATE_NETWORKS=deny: a judge on loopback, by IP or by name, is refused before any byte is sent', async () => {
  const port = new URL(standIn.baseUrl).port;
  const before = standIn.calls();
  const deny = judgeDispatcher('deny');
  try {
    const out = await runPanel(
      [judge('by-ip', `http://127.0.0.1:${port}/v1`), judge('by-name', `http://localhost:${port}/v1`)],
      'majority',
      aCase,
      { reserveCall: counted().reserveCall, timeoutMs: 2_000, backoffBaseMs: 10, dispatcher: deny },
    );
    assert.deepEqual(
      out.judges.map((o) => [o.name, o.verdict, o.error]),
      [
        ['by-ip', 'abstained', 'blocked_address'],
        ['by-name', 'abstained', 'blocked_address'],
      ],
    );
    assert.equal(standIn.calls(), before, 'the stand-in heard nothing');
  } finally {
    await deny.close();
  }
});

test('private networks allowed (the default): the same local judge answers', async () => {
  const port = new URL(standIn.baseUrl).port;
  const allow = judgeDispatcher('allow');
  try {
    const out = await runPanel([judge('local', `http://localhost:${port}/v1`)], 'majority', aCase, {
      reserveCall: counted().reserveCall,
      timeoutMs: 2_000,
      dispatcher: allow,
    });
    assert.deepEqual(
      out.judges.map((o) => [o.verdict, o.error]),
      [['allow', undefined]],
    );
    assert.equal(out.decision, 'allow');
  } finally {
    await allow.close();
  }
});
