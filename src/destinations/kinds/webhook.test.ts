import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { aTarget, anEvent } from '../testing/events.ts';
import { type Receiver, startReceiver } from '../testing/receiver.ts';
import { senders } from './index.ts';

import { newSigningKey, publicKeyOf } from './webhook.ts';

// Each webhook is checked the way a receiver would check it: v1 with the
// standardwebhooks package and the `whsec_` secret the admin was shown, v1a
// with node:crypto and only the `whpk_` public key.

const sender = senders.get('webhook')!;
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
});
const signal = () => new AbortController().signal;
const last = () => receiver.requests.at(-1)!;
const headersOf = (r: { headers: Record<string, string | string[] | undefined> }) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

function verifyV1a(whpk: string, r: { headers: Record<string, string | string[] | undefined>; body: string }): boolean {
  const h = headersOf(r);
  const raw = Buffer.from(whpk.slice('whpk_'.length), 'base64');
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
    format: 'der',
    type: 'spki',
  });
  const content = Buffer.from(`${h['webhook-id']}.${h['webhook-timestamp']}.${r.body}`);
  // The header is a space-separated list; one valid v1a entry is enough.
  return h['webhook-signature']
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => verify(null, content, key, Buffer.from(s.slice(4), 'base64')));
}

test('v1 (hmac): the standardwebhooks package verifies it; the body is the native event; a tampered body fails', async () => {
  const { signingKey, secret } = newSigningKey('hmac');
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const event = anEvent();
  const out = await sender.send(
    aTarget('webhook', `${receiver.url}/hooks/ledger`, { secret: signingKey }),
    [event],
    signal(),
  );
  assert.equal(out.ok, true, out.error);
  assert.equal(out.status, 200);
  const r = last();
  assert.equal(r.path, '/hooks/ledger');
  assert.equal(r.headers['content-type'], 'application/json');
  assert.equal(r.headers['webhook-id'], event.id);
  assert.ok(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000) < 5);
  assert.match(String(r.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
  const wh = new Webhook(secret);
  assert.deepEqual(wh.verify(r.body, headersOf(r)), JSON.parse(JSON.stringify(event)));
  assert.throws(() => wh.verify(r.body.replace('deny', 'allow'), headersOf(r)), /signature/i);
  assert.throws(() => new Webhook(newSigningKey('hmac').secret).verify(r.body, headersOf(r)), /signature/i);
});

test('a retry carries the same webhook-id and is signed afresh; both verify', async () => {
  const { signingKey, secret } = newSigningKey('hmac');
  const event = anEvent('rogue.recorded');
  const target = aTarget('webhook', receiver.url, { secret: signingKey });
  receiver.answer({ status: 503 });
  const first = await sender.send(target, [event], signal());
  assert.equal(first.ok, false);
  const second = await sender.send(target, [event], signal());
  assert.equal(second.ok, true);
  const [a, b] = receiver.requests.slice(-2);
  assert.equal(a!.headers['webhook-id'], event.id);
  assert.equal(b!.headers['webhook-id'], event.id);
  assert.equal(a!.body, b!.body);
  const wh = new Webhook(secret);
  wh.verify(a!.body, headersOf(a!));
  wh.verify(b!.body, headersOf(b!));
});

test('v1a (ed25519): verifies with the whpk_ public key alone; a tampered body or another key fails', async () => {
  const { signingKey, secret } = newSigningKey('ed25519');
  assert.match(signingKey, /^whsk_/);
  assert.match(secret, /^whpk_/);
  assert.equal(publicKeyOf(signingKey), secret);
  const event = anEvent('invocation.flagged');
  const out = await sender.send(
    aTarget('webhook', receiver.url, { signing: 'ed25519', secret: signingKey }),
    [event],
    signal(),
  );
  assert.equal(out.ok, true, out.error);
  const r = last();
  assert.match(String(r.headers['webhook-signature']), /^v1a,[A-Za-z0-9+/]{86}==$/);
  assert.ok(verifyV1a(secret, r));
  assert.equal(verifyV1a(secret, { ...r, body: r.body.replace('flag', 'allo') }), false);
  assert.equal(verifyV1a(newSigningKey('ed25519').secret, r), false);
  assert.equal(JSON.parse(r.body).id, event.id);
  // The hmac verifier cannot be fooled into accepting a v1a-only header.
  assert.throws(() => new Webhook(newSigningKey('hmac').secret).verify(r.body, headersOf(r)));
});

test('410 → gone; 429 with Retry-After → retryAfterMs; 500 → not ok with the status', async () => {
  const { signingKey } = newSigningKey('hmac');
  const target = aTarget('webhook', receiver.url, { secret: signingKey });
  receiver.answer({ status: 410, body: 'endpoint removed' });
  const gone = await sender.send(target, [anEvent()], signal());
  assert.deepEqual([gone.ok, gone.status, gone.gone], [false, 410, true]);
  receiver.answer({ status: 429, headers: { 'retry-after': '7' } });
  const slow = await sender.send(target, [anEvent()], signal());
  assert.deepEqual([slow.ok, slow.status, slow.retryAfterMs, slow.gone], [false, 429, 7000, undefined]);
  receiver.answer({ status: 500, body: 'boom' });
  const broken = await sender.send(target, [anEvent()], signal());
  assert.deepEqual([broken.ok, broken.status, broken.error], [false, 500, 'HTTP 500: boom']);
});

test('a redirect is not followed: the outcome names it and the other address hears nothing', async () => {
  const elsewhere = await startReceiver();
  try {
    receiver.answer({ status: 307, headers: { location: `${elsewhere.url}/steal` } });
    const out = await sender.send(
      aTarget('webhook', receiver.url, { secret: newSigningKey('hmac').signingKey }),
      [anEvent()],
      signal(),
    );
    assert.equal(out.ok, false);
    assert.equal(out.status, 307);
    assert.match(out.error ?? '', /redirect .* \(not followed\)/);
    assert.equal(elsewhere.requests.length, 0);
  } finally {
    await elsewhere.close();
  }
});

test('the metadata address is refused before connecting; loopback too when private networks are denied', async () => {
  const { signingKey } = newSigningKey('hmac');
  const meta = await sender.send(
    aTarget('webhook', 'http://169.254.169.254/latest/meta-data', { secret: signingKey }),
    [anEvent()],
    signal(),
  );
  assert.equal(meta.ok, false);
  assert.match(meta.error ?? '', /^address refused/);
  const before = receiver.requests.length;
  const denied = await sender.send(
    aTarget('webhook', receiver.url, { secret: signingKey, privateNetworks: 'deny' }),
    [anEvent()],
    signal(),
  );
  assert.match(denied.error ?? '', /^address refused/);
  assert.equal(receiver.requests.length, before);
});

test('URLs: http(s) only, no credentials; one event per request; no key, no send', async () => {
  assert.equal(sender.maxBatch, 1);
  assert.equal(sender.validateUrl('https://hooks.example.com/x'), undefined);
  assert.ok(sender.validateUrl('ftp://hooks.example.com/x'));
  assert.ok(sender.validateUrl('https://u:p@hooks.example.com/x'));
  const before = receiver.requests.length;
  const two = await sender.send(
    aTarget('webhook', receiver.url, { secret: newSigningKey('hmac').signingKey }),
    [anEvent(), anEvent()],
    signal(),
  );
  assert.equal(two.ok, false);
  const none = await sender.send(aTarget('webhook', receiver.url), [anEvent()], signal());
  assert.match(none.error ?? '', /no signing key/);
  const bad = await sender.send(aTarget('webhook', receiver.url, { secret: 'whsec_c2hvcnQ=' }), [anEvent()], signal());
  assert.match(bad.error ?? '', /signing key unusable/);
  assert.doesNotMatch(bad.error ?? '', /c2hvcnQ/, 'the key never appears in an error');
  assert.equal(receiver.requests.length, before);
});

test("format 'ocsf': the signed body is the event's OCSF mapping, valid against the vendored schema", async () => {
  const { OcsfSchema } = await import('../testing/ocsf-validator.ts');
  const { signingKey, secret } = newSigningKey('hmac');
  const event = anEvent('invocation.denied');
  const out = await sender.send(
    aTarget('webhook', receiver.url, { secret: signingKey, format: 'ocsf' }),
    [event],
    new AbortController().signal,
  );
  assert.equal(out.ok, true, out.error);
  const r = receiver.requests.at(-1)!;
  const body = new Webhook(secret).verify(r.body, headersOf(r)) as Record<string, unknown>;
  assert.equal(body['class_uid'], 2004);
  assert.equal((body['metadata'] as { uid: string }).uid, event.id);
  assert.deepEqual(new OcsfSchema().validate(body), []);
});
