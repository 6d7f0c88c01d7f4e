import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { aTarget, anEvent } from '../testing/events.ts';
import { type Receiver, startReceiver } from '../testing/receiver.ts';
import { senders } from './index.ts';
import { HEC_MAX_BODY, hecBodies, hecEvent, hecEventText } from './splunk-hec.ts';

// Splunk cannot run here: a stand-in answers like HEC does and the test reads
// the batches as Splunk would split them (concatenated JSON objects).

const sender = senders.get('splunk_hec')!;
const SUCCESS = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"text":"Success","code":0}' };
const TOKEN = '6a1f7e3c-7c1d-4b8e-9a51-3f2d0c9e8b11';
let hec: Receiver;
before(async () => {
  hec = await startReceiver(SUCCESS);
});
after(async () => {
  await hec.close();
});
const signal = () => new AbortController().signal;

/** Splits concatenated JSON objects the way HEC does (a streaming parse, whitespace between them allowed). */
function hecObjects(body: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (c === '}' && --depth === 0) out.push(JSON.parse(body.slice(start, i + 1)) as Record<string, unknown>);
  }
  assert.equal(depth, 0, 'the body ends between objects');
  return out;
}

test('a batch is one POST to /services/collector/event with the token, one HEC event object per event, in order', async () => {
  const events = Array.from({ length: 100 }, (_, i) =>
    anEvent(i % 2 ? 'invocation.flagged' : 'invocation.denied', { invocation_id: i + 1 }),
  );
  const out = await sender.send(aTarget('splunk_hec', `${hec.url}/`, { token: TOKEN }), events, signal());
  assert.equal(out.ok, true, out.error);
  assert.equal(hec.requests.length, 1);
  const r = hec.requests[0]!;
  assert.equal(r.path, '/services/collector/event');
  assert.equal(r.headers['authorization'], `Splunk ${TOKEN}`);
  const got = hecObjects(r.body);
  assert.equal(got.length, 100);
  assert.deepEqual(
    got.map((o) => (o['event'] as { id: string }).id),
    events.map((e) => e.id),
  );
  assert.deepEqual(got[0], {
    time: Date.parse(events[0]!.occurred_at) / 1000,
    host: 'ledger.example.com',
    source: 'agent-ledger',
    sourcetype: 'agent-ledger:native',
    event: JSON.parse(JSON.stringify(events[0])),
  });
  assert.equal(got[0]!['time'], 1772359200);
});

test('a batch bigger than a POST may carry goes in several, in order, each at most HEC_MAX_BODY bytes; one refused fails the batch', async () => {
  const pad = 'x'.repeat(4_000);
  const events = Array.from({ length: 1000 }, (_, i) => anEvent('invocation.denied', { invocation_id: i + 1, pad }));
  const before = hec.requests.length;
  const out = await sender.send(aTarget('splunk_hec', hec.url, { token: TOKEN }), events, signal());
  assert.equal(out.ok, true, out.error);
  const posts = hec.requests.slice(before);
  assert.ok(posts.length >= 4 && posts.length <= 6, `${posts.length} POSTs`);
  for (const p of posts) assert.ok(Buffer.byteLength(p.body) <= HEC_MAX_BODY, `${Buffer.byteLength(p.body)} bytes`);
  assert.deepEqual(
    posts.flatMap((p) => hecObjects(p.body).map((o) => (o['event'] as { id: string }).id)),
    events.map((e) => e.id),
  );
  // The second POST refused: the batch failed with its answer, nothing after it sent.
  hec.answer(SUCCESS, { status: 503, headers: { 'retry-after': '5' }, body: '{"text":"Server is busy","code":9}' });
  const at = hec.requests.length;
  const failed = await sender.send(aTarget('splunk_hec', hec.url, { token: TOKEN }), events, signal());
  assert.deepEqual([failed.ok, failed.status, failed.retryAfterMs], [false, 503, 5_000]);
  assert.equal(hec.requests.length, at + 2);
});

test('the URL may name the endpoint, the collector or the base; other paths are refused', async () => {
  for (const path of ['/services/collector/event', '/services/collector', '']) {
    const before = hec.requests.length;
    const out = await sender.send(aTarget('splunk_hec', `${hec.url}${path}`, { token: TOKEN }), [anEvent()], signal());
    assert.equal(out.ok, true, `${path}: ${out.error}`);
    assert.equal(hec.requests[before]!.path, '/services/collector/event', path);
  }
  assert.equal(sender.validateUrl('https://http-inputs-acme.splunkcloud.com/services/collector/event'), undefined);
  assert.match(sender.validateUrl('https://splunk.example.com:8088/services/collector/raw') ?? '', /HEC endpoint/);
  assert.match(sender.validateUrl('splunk.example.com:8088') ?? '', /http/);
  assert.equal(sender.maxBatch, 1000);
});

test('HEC refusing (403 invalid token, 400 invalid data, 503 busy with Retry-After) is a failure saying so', async () => {
  hec.answer(
    { status: 403, body: '{"text":"Invalid token","code":4}' },
    { status: 400, body: '{"text":"Invalid data format","code":6,"invalid-event-number":1}' },
    { status: 503, headers: { 'retry-after': '30' }, body: '{"text":"Server is busy","code":9}' },
  );
  const target = aTarget('splunk_hec', hec.url, { token: 'wrong' });
  const denied = await sender.send(target, [anEvent()], signal());
  assert.deepEqual(
    [denied.ok, denied.status, denied.error],
    [false, 403, 'HTTP 403: {"text":"Invalid token","code":4}'],
  );
  const invalid = await sender.send(target, [anEvent(), anEvent()], signal());
  assert.deepEqual([invalid.ok, invalid.status], [false, 400]);
  const busy = await sender.send(target, [anEvent()], signal());
  assert.deepEqual([busy.ok, busy.retryAfterMs], [false, 30_000]);
  assert.doesNotMatch(JSON.stringify([denied, invalid, busy]), /wrong/, 'the token is never in an outcome');
});

test('no token, too big a batch or the metadata address: nothing is sent', async () => {
  const before = hec.requests.length;
  const none = await sender.send(aTarget('splunk_hec', hec.url), [anEvent()], signal());
  assert.match(none.error ?? '', /no HEC token/);
  const big = await sender.send(
    aTarget('splunk_hec', hec.url, { token: TOKEN }),
    Array.from({ length: 1001 }, () => anEvent()),
    signal(),
  );
  assert.match(big.error ?? '', /at most 1000/);
  const meta = await sender.send(
    aTarget('splunk_hec', 'http://169.254.169.254:8088', { token: TOKEN }),
    [anEvent()],
    signal(),
  );
  assert.match(meta.error ?? '', /^address refused/);
  assert.equal(hec.requests.length, before);
});

test("format 'ocsf': sourcetype agent-ledger:ocsf and the OCSF event inside", async () => {
  const before = hec.requests.length;
  const event = anEvent('invocation.allowed', { verdict: 'allow' });
  const out = await sender.send(aTarget('splunk_hec', hec.url, { token: TOKEN, format: 'ocsf' }), [event], signal());
  assert.equal(out.ok, true, out.error);
  const [got] = hecObjects(hec.requests[before]!.body);
  assert.equal(got!['sourcetype'], 'agent-ledger:ocsf');
  const o = got!['event'] as { class_uid: number; api: { operation: string }; metadata: { uid: string } };
  assert.deepEqual([o.class_uid, o.api.operation, o.metadata.uid], [6003, 'stripe.refund', event.id]);
});

test('each event is the text JSON.stringify(hecEvent) makes, whatever its characters, time or origin', () => {
  const events = [
    anEvent('invocation.denied', {
      note: 'naïve € 𝄞 "quoted" \\ \u2028 \u0000',
      nested: { list: [1, 2.5, null, true] },
    }),
    { ...anEvent('invocation.flagged'), occurred_at: 'not a date' },
    { ...anEvent('rogue.recorded'), evidence: { log_origin: '/t/no-host', index: 3, leaf_hash: 'x' } },
    { ...anEvent('policy.changed'), occurred_at: '2026-03-01T10:00:00.123Z' },
  ];
  for (const format of ['native', 'ocsf'] as const) {
    const heads = new Map<string, string>();
    for (const e of events) {
      const text = hecEventText({ format }, e, heads);
      assert.equal(text, JSON.stringify(hecEvent({ format }, e)), `${format} ${e.type}`);
    }
  }
});

test('bodies of multi-byte text stay within HEC_MAX_BODY bytes, every event whole and in order', () => {
  // 3 and 4 bytes a character in UTF-8: a body counted by characters would overflow.
  const events = Array.from({ length: 1000 }, (_, i) =>
    anEvent('invocation.denied', { invocation_id: i + 1, pad: (i % 3 === 0 ? '€' : '𝄞').repeat(300 + (i % 7) * 50) }),
  );
  const bodies = hecBodies({ format: 'native' }, events);
  assert.ok(bodies.length > 1, `${bodies.length} bodies`);
  const texts = events.map((e) => JSON.stringify(hecEvent({ format: 'native' }, e)));
  for (const b of bodies) assert.ok(b.length <= HEC_MAX_BODY, `${b.length} bytes`);
  assert.equal(bodies.map((b) => b.toString('utf8')).join('\n'), texts.join('\n'));
  // Each body but the last is full: the next event would not have fitted.
  let next = 0;
  for (const b of bodies.slice(0, -1)) {
    next += b.toString('utf8').split('\n').length;
    assert.ok(b.length + 1 + Buffer.byteLength(texts[next]!) > HEC_MAX_BODY);
  }
  // An event bigger than a body goes alone, between the others.
  const huge = anEvent('invocation.denied', { pad: 'é'.repeat(HEC_MAX_BODY / 2) });
  const alone = hecBodies({ format: 'native' }, [events[0]!, huge, events[1]!]);
  assert.deepEqual(
    alone.map((b) => b.toString('utf8')),
    [texts[0], JSON.stringify(hecEvent({ format: 'native' }, huge)), texts[1]],
  );
});
