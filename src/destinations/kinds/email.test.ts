import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createMailer, type Mailer } from '../../mail/index.ts';
import { parseMessage, type SmtpPeer, startSmtpPeer } from '../../mail/testing/smtp-peer.ts';
import { aTarget, anEvent } from '../testing/events.ts';
import { createSenders, senders } from './index.ts';

// The e-mail kind through the service's real mailer to a real SMTP server
// (smtp-server on loopback), read back as a recipient would.

let peer: SmtpPeer;
let mailer: Mailer;
let scratch: string;
const logged: Array<Record<string, unknown>> = [];
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agent-ledger-dest-mail-'));
  peer = await startSmtpPeer({ rejectRecipients: ['gone@acme-corp.com'] });
  mailer = createMailer({
    smtpUrl: peer.url,
    from: 'agent-ledger <alerts@ledger.test>',
    outboxDir: join(scratch, 'outbox'),
    log: { info: (obj) => logged.push(obj as Record<string, unknown>) },
  });
});
after(async () => {
  await mailer.close();
  await peer.close();
  await rm(scratch, { recursive: true, force: true });
});
const signal = () => new AbortController().signal;
const CONSOLE = 'https://ledger.example.com/console';

test('one deny: every recipient gets a readable mail with the console link and the evidence', async () => {
  const sender = createSenders({ mailer }).get('email')!;
  const event = anEvent('invocation.denied', { invocation_id: 42 });
  const target = aTarget('email', 'mailto:sec@acme-corp.com,oncall%2Bledger@acme-corp.com', {
    name: 'security team',
    consoleUrl: CONSOLE,
  });
  const out = await sender.send(target, [event], signal());
  assert.equal(out.ok, true, out.error);
  const a = await peer.waitFor((m) => m.to.includes('sec@acme-corp.com'), 5000);
  const b = await peer.waitFor((m) => m.to.includes('oncall+ledger@acme-corp.com'), 5000);
  assert.deepEqual(a.to, ['sec@acme-corp.com'], 'one recipient a mail: they do not see each other');
  const parsed = parseMessage(a.raw);
  assert.equal(parsed.subject, 'agent-ledger: Denied: billing-bot → stripe.refund');
  assert.equal(parsed.headers['auto-submitted'], 'auto-generated');
  const text = parsed.text;
  assert.match(text, /^Denied: billing-bot → stripe\.refund\n/);
  assert.match(text, /\nAgent: billing-bot\n/);
  assert.match(text, /\nTool: stripe\.refund\n/);
  assert.match(text, /\nVerdict: deny\n/);
  assert.match(text, /\nReasons:\n {2}- secret: aws_access_key in arguments\n/);
  assert.match(text, /\nOpen in agent-ledger: https:\/\/ledger\.example\.com\/console\/invocations\?selected=42\n/);
  assert.match(text, new RegExp(`\nEvent id: ${event.id}\n`));
  assert.match(text, new RegExp(`\nLeaf hash: ${event.evidence.leaf_hash}\n`));
  assert.match(text, /destination "security team"/);
  assert.equal(parseMessage(b.raw).text, text);
  assert.ok(!JSON.stringify(logged).includes('acme-corp.com'), 'no address is logged');
});

test('a batch is one mail naming every event; a tenant-written line break never reaches the subject', async () => {
  const sender = createSenders({ mailer }).get('email')!;
  const events = [
    anEvent('invocation.denied', { agent_key: 'evil\r\nBcc: x@evil.example' }),
    anEvent('invocation.flagged', { invocation_id: 43 }),
    anEvent('invocation.flagged', { invocation_id: 44 }),
  ];
  const out = await sender.send(aTarget('email', 'mailto:batch@acme-corp.com'), events, signal());
  assert.equal(out.ok, true, out.error);
  const m = await peer.waitFor((x) => x.to.includes('batch@acme-corp.com'), 5000);
  assert.deepEqual(m.to, ['batch@acme-corp.com']);
  const parsed = parseMessage(m.raw);
  assert.equal(parsed.subject, 'agent-ledger: 3 events (1 invocation.denied, 2 invocation.flagged)');
  for (const e of events) assert.ok(parsed.text.includes(`Event id: ${e.id}`));
  assert.equal(parsed.headers['bcc'], undefined);
  const single = await sender.send(aTarget('email', 'mailto:single@acme-corp.com'), [events[0]!], signal());
  assert.equal(single.ok, true, single.error);
  const s = parseMessage((await peer.waitFor((x) => x.to.includes('single@acme-corp.com'), 5000)).raw);
  assert.equal(s.subject, 'agent-ledger: Denied: evil Bcc: x@evil.example → stripe.refund');
  assert.equal(s.headers['bcc'], undefined);
});

test('a refused recipient fails the send without naming any address; the others still get theirs', async () => {
  const sender = createSenders({ mailer }).get('email')!;
  const out = await sender.send(
    aTarget('email', 'mailto:gone@acme-corp.com,still@acme-corp.com'),
    [anEvent()],
    signal(),
  );
  assert.equal(out.ok, false);
  assert.match(out.error ?? '', /^1 of 2 recipients failed: /);
  assert.doesNotMatch(out.error ?? '', /acme-corp/);
  await peer.waitFor((x) => x.to.includes('still@acme-corp.com'), 5000);
});

test('URLs: mailto with bare addresses only; the registry default has no mailer and says so', async () => {
  const sender = senders.get('email')!;
  assert.equal(sender.validateUrl('mailto:a@example.com,b@example.com'), undefined);
  assert.match(sender.validateUrl('mailto:a@example.com?subject=hi') ?? '', /only addresses/);
  assert.match(sender.validateUrl('mailto:Alice <a@example.com>') ?? '', /bare/);
  assert.match(sender.validateUrl('mailto:') ?? '', /bare/);
  assert.match(sender.validateUrl('https://example.com') ?? '', /mailto/);
  assert.match(sender.validateUrl('mailto:a@example.com,A@example.com') ?? '', /twice/);
  const eleven = Array.from({ length: 11 }, (_, i) => `u${i}@example.com`).join(',');
  assert.match(sender.validateUrl(`mailto:${eleven}`) ?? '', /at most 10/);
  const before = peer.messages.length;
  const out = await sender.send(aTarget('email', 'mailto:nobody@acme-corp.com'), [anEvent()], signal());
  assert.match(out.error ?? '', /no mailer/);
  assert.equal(peer.messages.length, before);
});
