import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { aTarget, anEvent } from '../testing/events.ts';
import { type Receiver, startReceiver } from '../testing/receiver.ts';
import { senders } from './index.ts';

// Slack cannot run here: a stand-in receiver takes the incoming-webhook POST
// and the test reads the message as Slack would render it.

const sender = senders.get('slack')!;
let slack: Receiver;
before(async () => {
  slack = await startReceiver({ status: 200, body: 'ok' });
});
after(async () => {
  await slack.close();
});
const signal = () => new AbortController().signal;
const CONSOLE = 'https://ledger.example.com/console/';

interface Block {
  type: string;
  text?: { type: string; text: string };
  fields?: Array<{ text: string }>;
  elements?: Array<{ type: string; url?: string; text: string | { text: string } }>;
}

test('a deny becomes a readable message: headline, agent, tool, verdict, reasons and a button to the invocation', async () => {
  const event = anEvent('invocation.denied', {
    invocation_id: 42,
    agent_key: 'billing-bot',
    tool_name: 'stripe.refund',
  });
  const out = await sender.send(
    aTarget('slack', `${slack.url}/services/T000/B000/XXXX`, { consoleUrl: CONSOLE }),
    [event],
    signal(),
  );
  assert.equal(out.ok, true, out.error);
  const r = slack.requests.at(-1)!;
  assert.equal(r.path, '/services/T000/B000/XXXX');
  assert.equal(r.headers['content-type'], 'application/json');
  const msg = JSON.parse(r.body) as { text: string; blocks: Block[] };
  assert.equal(
    msg.text,
    'Denied: billing-bot → stripe.refund — https://ledger.example.com/console/invocations?selected=42',
  );
  const [header, facts, reasons, actions, context] = msg.blocks;
  assert.deepEqual(header!.text, { type: 'plain_text', text: 'Denied: billing-bot → stripe.refund', emoji: false });
  const shown = Object.fromEntries(facts!.fields!.map((f) => f.text.split('\n') as [string, string]));
  assert.equal(shown['*Event*'], 'invocation.denied');
  assert.equal(shown['*Agent*'], 'billing-bot');
  assert.equal(shown['*Tool*'], 'stripe.refund');
  assert.equal(shown['*Verdict*'], 'deny');
  assert.equal(shown['*Mode*'], 'enforced');
  assert.equal(shown['*Invocation*'], '42');
  assert.equal(shown['*Audit-trail entry*'], `41 of ${event.evidence.log_origin}`);
  assert.equal(reasons!.text!.text, '*Reasons*\n• secret: aws_access_key in arguments');
  assert.equal(actions!.elements![0]!.url, 'https://ledger.example.com/console/invocations?selected=42');
  assert.match(String((context!.elements![0]!.text as string) ?? ''), new RegExp(event.id));
});

test('what a tenant wrote cannot become a Slack link or mention; a rogue event links to the rogue page', async () => {
  const event = anEvent('rogue.recorded', {
    invocation_id: undefined,
    agent_key: '<!channel> <https://evil.example|click>',
    tool_name: undefined,
    tool: 'shell.exec',
    event_type: 'oos_tool',
    reasons: undefined,
  });
  const out = await sender.send(aTarget('slack', slack.url, { consoleUrl: CONSOLE }), [event], signal());
  assert.equal(out.ok, true, out.error);
  const msg = JSON.parse(slack.requests.at(-1)!.body) as { text: string; blocks: Block[] };
  // mrkdwn (the text and the fields) is where Slack reads <…>; plain_text headers are shown as written.
  const mrkdwn = [msg.text, ...msg.blocks.flatMap((b) => (b.fields ?? []).map((f) => f.text))];
  for (const t of mrkdwn) assert.doesNotMatch(t, /<!channel>|<https:\/\/evil/);
  assert.equal(msg.blocks[0]!.text!.type, 'plain_text');
  assert.match(msg.text, /^Rogue event: &lt;!channel&gt; &lt;https:\/\/evil\.example\|click&gt; → shell\.exec/);
  assert.ok(
    msg.blocks.some((b) => b.type === 'actions' && b.elements![0]!.url === 'https://ledger.example.com/console/rogue'),
  );
  assert.ok(!msg.blocks.some((b) => b.text?.text.startsWith('*Reasons*')), 'no reasons section without reasons');
});

test('Slack refusing the message (404 no_service) is a failure naming its answer; 410 is gone', async () => {
  slack.answer({ status: 404, body: 'no_service' }, { status: 410, body: 'channel_is_archived' });
  const target = aTarget('slack', slack.url);
  const missing = await sender.send(target, [anEvent()], signal());
  assert.deepEqual([missing.ok, missing.error], [false, 'HTTP 404: no_service']);
  const gone = await sender.send(target, [anEvent()], signal());
  assert.deepEqual([gone.ok, gone.gone], [false, true]);
});

test('URLs: Slack hosts over https, or an IP literal the address guard judges; nothing else', async () => {
  assert.equal(sender.validateUrl('https://hooks.slack.com/services/T0/B0/x'), undefined);
  assert.equal(sender.validateUrl('https://hooks.slack-gov.com/services/T0/B0/x'), undefined);
  assert.match(sender.validateUrl('http://hooks.slack.com/services/T0/B0/x') ?? '', /https/);
  assert.match(sender.validateUrl('https://hooks.slack.com.evil.example/services/x') ?? '', /Slack incoming-webhook/);
  assert.match(sender.validateUrl('https://example.com/services/x') ?? '', /Slack incoming-webhook/);
  assert.equal(sender.validateUrl('http://127.0.0.1:9000/hook'), undefined);
  const before = slack.requests.length;
  const meta = await sender.send(aTarget('slack', 'http://169.254.169.254/hook'), [anEvent()], signal());
  assert.match(meta.error ?? '', /^address refused/);
  const denied = await sender.send(aTarget('slack', slack.url, { privateNetworks: 'deny' }), [anEvent()], signal());
  assert.match(denied.error ?? '', /^address refused/);
  const elsewhere = await sender.send(aTarget('slack', 'https://example.com/hook'), [anEvent()], signal());
  assert.match(elsewhere.error ?? '', /Slack incoming-webhook/);
  assert.equal(slack.requests.length, before);
});
