import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { aTarget, anEvent } from '../testing/events.ts';
import { makePki, type Pki, type Rsyslog, rsyslogAvailable, startRsyslog } from '../testing/rsyslog.ts';
import { senders } from './index.ts';
import { octetCounted, syslogFrames, syslogMessage } from './syslog.ts';

// Debian's rsyslog is the collector: it parses what arrives as RFC 5424 with
// RFC 6587 octet counting, and the test reads the fields it parsed.

const sender = senders.get('syslog')!;
const signal = () => new AbortController().signal;
const skip = rsyslogAvailable() ? false : 'rsyslogd is not installed (apt-get install rsyslog rsyslog-gnutls)';

let scratch: string;
let pki: Pki;
let otherPki: Pki;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agent-ledger-syslog-pki-'));
  [pki, otherPki] = await Promise.all([makePki(scratch, 'ca'), makePki(scratch, 'other')]);
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('syslog+tcp to rsyslog', { skip }, () => {
  let rsyslog: Rsyslog;
  before(async () => {
    rsyslog = await startRsyslog();
  });
  after(async () => {
    await rsyslog?.close();
  });

  test('a batch of 100 arrives as 100 messages, in order, each field as RFC 5424 says and the JSON whole', async () => {
    const types = ['invocation.denied', 'invocation.flagged', 'invocation.allowed', 'review.decided'];
    const events = Array.from({ length: 100 }, (_, i) => anEvent(types[i % 4], { invocation_id: i + 1 }));
    const out = await sender.send(aTarget('syslog', `syslog+tcp://127.0.0.1:${rsyslog.port}`), events, signal());
    assert.equal(out.ok, true, out.error);
    const got = await rsyslog.waitFor(100);
    assert.equal(got.length, 100);
    assert.deepEqual(
      got.map((m) => JSON.parse(m.msg).id),
      events.map((e) => e.id),
    );
    // facility 13 (log audit) × 8 + severity: err 3, warning 4, info 6, notice 5
    assert.deepEqual(
      got.slice(0, 4).map((m) => m.pri),
      ['107', '108', '110', '109'],
    );
    const first = got[0]!;
    assert.deepEqual(
      { ...first, msg: undefined },
      {
        pri: '107',
        version: '1',
        timestamp: '2026-03-01T10:00:00.000Z',
        hostname: 'ledger.example.com',
        appname: 'agent-ledger',
        procid: '-',
        msgid: 'invocation.denied',
        sd: '-',
        msg: undefined,
      },
    );
    assert.deepEqual(JSON.parse(first.msg), JSON.parse(JSON.stringify(events[0])));
  });

  test('octet counting carries a 40 KB event with newlines and non-ASCII in it as one message', async () => {
    const before = (await rsyslog.messages()).length;
    const big = anEvent('output_scan.flagged', { note: `zoë\nline two ${'x'.repeat(40_000)}`, invocation_id: 7 });
    const out = await sender.send(aTarget('syslog', `syslog+tcp://localhost:${rsyslog.port}`), [big], signal());
    assert.equal(out.ok, true, out.error);
    const got = (await rsyslog.waitFor(before + 1)).slice(before);
    assert.equal(got.length, 1);
    assert.equal(got[0]!.msgid, 'output_scan.flagged');
    assert.equal(JSON.parse(got[0]!.msg).data.note, big.data['note']);
  });

  test('the guard: the metadata address is refused; loopback too when private networks are denied', async () => {
    const before = (await rsyslog.messages()).length;
    const meta = await sender.send(aTarget('syslog', 'syslog+tcp://169.254.169.254:514'), [anEvent()], signal());
    assert.match(meta.error ?? '', /^address refused/);
    const denied = await sender.send(
      aTarget('syslog', `syslog+tcp://localhost:${rsyslog.port}`, { privateNetworks: 'deny' }),
      [anEvent()],
      signal(),
    );
    assert.deepEqual([denied.ok, /^address refused: localhost: /.test(denied.error ?? '')], [false, true]);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await rsyslog.messages()).length, before);
  });
});

describe('syslog+tls to rsyslog (gnutls)', { skip }, () => {
  let rsyslog: Rsyslog;
  before(async () => {
    rsyslog = await startRsyslog({ tls: pki });
  });
  after(async () => {
    await rsyslog?.close();
  });

  test('with the private CA trusted, messages arrive over TLS', async () => {
    const a = anEvent('rogue.recorded');
    const b = anEvent('invocation.denied');
    const out = await sender.send(
      aTarget('syslog', `syslog+tls://localhost:${rsyslog.port}`, { tlsCa: pki.caPem }),
      [a, b],
      signal(),
    );
    assert.equal(out.ok, true, out.error);
    const got = await rsyslog.waitFor(2);
    assert.deepEqual(
      got.map((m) => [m.msgid, m.pri, JSON.parse(m.msg).id]),
      [
        ['rogue.recorded', '108', a.id],
        ['invocation.denied', '107', b.id],
      ],
    );
  });

  test('the server certificate is verified: another CA, the system roots, or a name it does not carry all fail', async () => {
    const before = (await rsyslog.messages()).length;
    const url = `syslog+tls://localhost:${rsyslog.port}`;
    const otherCa = await sender.send(aTarget('syslog', url, { tlsCa: otherPki.caPem }), [anEvent()], signal());
    assert.equal(otherCa.ok, false);
    assert.match(otherCa.error ?? '', /^tls: /);
    const systemRoots = await sender.send(aTarget('syslog', url), [anEvent()], signal());
    assert.match(systemRoots.error ?? '', /^tls: /);
    assert.match(otherCa.error ?? '', /certificate|signature|UNABLE|SELF_SIGNED/i);
    // The same server by its address: the certificate names only localhost.
    const wrongName = await sender.send(
      aTarget('syslog', `syslog+tls://127.0.0.1:${rsyslog.port}`, { tlsCa: pki.caPem }),
      [anEvent()],
      signal(),
    );
    assert.equal(wrongName.ok, false);
    assert.match(wrongName.error ?? '', /^tls: ERR_TLS_CERT_ALTNAME_INVALID/);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await rsyslog.messages()).length, before);
  });
});

test('URLs: syslog+tls or syslog+tcp with a host, nothing else; batches of at most 1000', () => {
  assert.equal(sender.maxBatch, 1000);
  assert.equal(sender.validateUrl('syslog+tls://siem.example.com:6514'), undefined);
  assert.equal(sender.validateUrl('syslog+tcp://10.0.0.5:514'), undefined);
  assert.equal(sender.validateUrl('syslog+tls://[2001:db8::1]'), undefined);
  assert.match(sender.validateUrl('syslog://siem.example.com:514') ?? '', /syslog\+tls/);
  assert.match(sender.validateUrl('syslog+udp://siem.example.com:514') ?? '', /syslog\+tls/);
  assert.match(sender.validateUrl('syslog+tls://u:p@siem.example.com:6514') ?? '', /credentials/);
  assert.match(sender.validateUrl('syslog+tls://siem.example.com:6514/x') ?? '', /only a host/);
});

test('a batch of frames: each event’s message octet-counted, back to back, whatever the types, origins and characters', () => {
  const events = [
    anEvent('invocation.denied', { note: 'zoë ✓ 𝄞' }),
    anEvent('invocation.allowed'),
    anEvent('invocation.denied', { note: 'line one\nline two' }),
    { ...anEvent('review.decided'), occurred_at: 'not a time' },
    { ...anEvent('rogue.recorded'), evidence: { ...anEvent().evidence, log_origin: 'other.example.org/t/1' } },
  ];
  for (const format of ['native', 'ocsf'] as const) {
    const target = aTarget('syslog', 'syslog+tcp://127.0.0.1:514', { format });
    const frames = syslogFrames(target, events);
    assert.deepEqual(frames, Buffer.concat(events.map((e) => octetCounted(syslogMessage(target, e)))));
    // Read back as a collector frames them: a byte count, a space, that many bytes.
    const messages: string[] = [];
    for (let at = 0; at < frames.length;) {
      const space = frames.indexOf(0x20, at);
      const length = Number(frames.subarray(at, space).toString('ascii'));
      messages.push(frames.subarray(space + 1, space + 1 + length).toString('utf8'));
      at = space + 1 + length;
    }
    assert.deepEqual(
      messages.map((m) => m.split(' ').slice(0, 6)),
      [
        ['<107>1', '2026-03-01T10:00:00.000Z', 'ledger.example.com', 'agent-ledger', '-', 'invocation.denied'],
        ['<110>1', '2026-03-01T10:00:00.000Z', 'ledger.example.com', 'agent-ledger', '-', 'invocation.allowed'],
        ['<107>1', '2026-03-01T10:00:00.000Z', 'ledger.example.com', 'agent-ledger', '-', 'invocation.denied'],
        ['<109>1', '-', 'ledger.example.com', 'agent-ledger', '-', 'review.decided'],
        ['<108>1', '2026-03-01T10:00:00.000Z', 'other.example.org', 'agent-ledger', '-', 'rogue.recorded'],
      ],
    );
  }
});
