import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runPanel, type JudgeCase, type JudgeEndpoint } from '../judges/panel.ts';
import { startJudgeStandIn, type JudgeStandIn } from '../testing/judge-stand-in.ts';
import { blockedReason, embeddedIpv4, ipv6Bytes, outboundDispatcher } from './address-guard.ts';

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

// The judge guard held for IPv4 and its mapped forms; these are the other
// ways an IPv6 address reaches an IPv4 one (translators, tunnels).
test('IPv4 embedded in IPv6 — NAT64, SIIT, compatible, 6to4, Teredo, ISATAP — is checked by the IPv4 rules', () => {
  const metadata = [
    '64:ff9b::169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '64:FF9B::A9FE:A9FE',
    '64:ff9b:1::a9fe:a9fe', // local-use NAT64 at /96
    '::ffff:0:169.254.169.254', // SIIT IPv4-translated
    '::ffff:0:a9fe:a9fe',
    '::169.254.169.254', // IPv4-compatible
    '2002:a9fe:a9fe::1', // 6to4
    '2001:0:a9fe:a9fe::1', // Teredo server
    '2001:0:4136:e378:8000:63bf:5601:5601', // Teredo client 169.254.169.254 (inverted)
    'fe90::5efe:169.254.169.254'.replace('fe90', '2606:4700'), // ISATAP interface id
    '[64:ff9b::a9fe:a9fe]',
    '64:ff9b::0.0.0.0',
    '64:ff9b::e000:1', // multicast 224.0.0.1
  ];
  for (const ip of metadata) {
    assert.match(blockedReason(ip, 'allow') ?? '', /embeds/, `${ip} with private networks allowed`);
  }
  const privateOnes = [
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '::ffff:0:10.0.0.1',
    '::ffff:0:7f00:1',
    '2002:c0a8:101::1',
    '2002:7f00:1::',
    '64:ff9b:1::192.168.1.1',
    '2001:0:a00:1::f7ff:fffe', // Teredo server 10.0.0.1, client 8.0.0.1
  ];
  for (const ip of privateOnes) {
    assert.equal(blockedReason(ip, 'allow'), null, `${ip} allowed`);
    assert.match(blockedReason(ip, 'deny') ?? '', /loopback or private/, `${ip} denied`);
  }
  for (const ip of ['64:ff9b::8.8.8.8', '2002:808:808::1', '::ffff:0:8.8.8.8', '2606:4700::1111', '2001:db9::1']) {
    assert.equal(blockedReason(ip, 'deny'), null, `${ip} is public`);
  }
  assert.equal(blockedReason('::1', 'allow'), null, 'loopback is not read as the compatible 0.0.0.1');
  // Local-use NAT64 is the operator's own translator: private at every prefix length it may use.
  for (const ip of ['64:ff9b:1:a9fe:a9:fe00::', '64:ff9b:1:a9:fe00:a9fe::', '64:ff9b:1::a9:fea9:fe00:0'])
    assert.match(blockedReason(ip, 'deny') ?? '', /private/, ip);
  assert.ok(blockedReason('not-an-ip', 'allow'));
  // The parser agrees with the text forms.
  assert.deepEqual([...ipv6Bytes('64:ff9b::1.2.3.4')!], [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]);
  assert.deepEqual(embeddedIpv4(ipv6Bytes('2002:102:304::')!), ['1.2.3.4']);
  assert.equal(ipv6Bytes('1.2.3.4'), null);
});

test('a NAT64 literal of the metadata address is refused at connect time, before any byte is sent', async () => {
  const q = counted();
  const allow = outboundDispatcher('allow');
  try {
    const out = await runPanel([judge('nat64', 'http://[64:ff9b::a9fe:a9fe]/v1')], 'majority', aCase, {
      reserveCall: q.reserveCall,
      timeoutMs: 2_000,
      backoffBaseMs: 10,
      dispatcher: allow,
    });
    assert.deepEqual(
      out.judges.map((o) => [o.verdict, o.error, o.calls]),
      [['abstained', 'blocked_address', 1]],
    );
  } finally {
    await allow.close();
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
  const deny = outboundDispatcher('deny');
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
  const allow = outboundDispatcher('allow');
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
