import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { DeliveryOutcome, DestinationTarget, KindSender, OutboundEvent } from '../kind.ts';
import { httpUrlProblem, postToDestination } from '../outbound-http.ts';
import { payloadOf } from './payload.ts';

// Standard Webhooks 1.0 (standardwebhooks.com): one event per request, so a
// receiver's idempotency key is the event and the signature covers exactly
// one body. webhook-id is the event id, the same on every retry (the receiver
// drops a duplicate by it); webhook-timestamp is when this attempt was signed
// (receivers refuse stale ones, so a retry is signed afresh); the signed
// content is `id.timestamp.body` over the exact bytes sent.
//   v1  = base64 HMAC-SHA256 with the `whsec_` secret's decoded bytes;
//   v1a = base64 Ed25519 signature; the receiver holds only the `whpk_` public
//         key, so nobody who can verify can also forge (the spec prefers it).

const HMAC_PREFIX = 'whsec_';
const SECRET_KEY_PREFIX = 'whsk_';
const PUBLIC_KEY_PREFIX = 'whpk_';

// DER prefixes that turn a raw Ed25519 seed / public key into PKCS#8 / SPKI.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * A new signing key for a webhook destination (as the engine makes them):
 * `signingKey` is what the service keeps (encrypted) and passes as
 * target.secret; `secret` is what the admin is shown once and gives the
 * receiver — the same `whsec_` secret for hmac, the `whpk_` public key for ed25519.
 */
export function newSigningKey(signing: DestinationTarget['signing']): { signingKey: string; secret: string } {
  if (signing === 'hmac') {
    const secret = HMAC_PREFIX + randomBytes(32).toString('base64');
    return { signingKey: secret, secret };
  }
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_ED25519.length);
  const pub = publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519.length);
  return {
    signingKey: SECRET_KEY_PREFIX + seed.toString('base64'),
    secret: PUBLIC_KEY_PREFIX + pub.toString('base64'),
  };
}

/** The `whpk_` public key of an ed25519 signing key (what the admin gives receivers). */
export function publicKeyOf(signingKey: string): string {
  const key = createPublicKey(ed25519PrivateKey(signingKey));
  return (
    PUBLIC_KEY_PREFIX + key.export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519.length).toString('base64')
  );
}

function ed25519PrivateKey(signingKey: string) {
  if (!signingKey.startsWith(SECRET_KEY_PREFIX)) throw new Error('an ed25519 signing key starts with whsk_');
  const raw = Buffer.from(signingKey.slice(SECRET_KEY_PREFIX.length), 'base64');
  // libsodium keeps seed‖public (64 bytes); a bare seed is 32.
  if (raw.length !== 32 && raw.length !== 64) throw new Error('an ed25519 signing key holds 32 or 64 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, raw.subarray(0, 32)]), format: 'der', type: 'pkcs8' });
}

function hmacKey(signingKey: string): Buffer {
  if (!signingKey.startsWith(HMAC_PREFIX)) throw new Error('an hmac signing key starts with whsec_');
  const raw = Buffer.from(signingKey.slice(HMAC_PREFIX.length), 'base64');
  if (raw.length < 24 || raw.length > 64) throw new Error('an hmac signing key holds 24 to 64 bytes');
  return raw;
}

/** The webhook-signature header value for one request (`v1,…` or `v1a,…`). */
export function signatureHeader(
  signing: DestinationTarget['signing'],
  signingKey: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const content = Buffer.from(`${id}.${timestamp}.${body}`, 'utf8');
  if (signing === 'hmac') return `v1,${createHmac('sha256', hmacKey(signingKey)).update(content).digest('base64')}`;
  return `v1a,${sign(null, content, ed25519PrivateKey(signingKey)).toString('base64')}`;
}

export const webhookSender: KindSender = {
  kind: 'webhook',
  maxBatch: 1,
  validateUrl: httpUrlProblem,
  async send(
    target: DestinationTarget,
    events: readonly OutboundEvent[],
    signal: AbortSignal,
  ): Promise<DeliveryOutcome> {
    const event = events[0];
    if (events.length !== 1 || !event) return { ok: false, error: 'a webhook carries exactly one event', latencyMs: 0 };
    if (!target.secret) return { ok: false, error: 'the destination has no signing key', latencyMs: 0 };
    const body = JSON.stringify(payloadOf(target, event));
    const timestamp = Math.floor(Date.now() / 1000);
    let signature: string;
    try {
      signature = signatureHeader(target.signing, target.secret, event.id, timestamp, body);
    } catch (err) {
      // The reason names the key's shape, never its bytes.
      return { ok: false, error: `signing key unusable: ${(err as Error).message}`, latencyMs: 0 };
    }
    return postToDestination(target, {
      url: target.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'agent-ledger',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      body,
      signal,
    });
  },
};
