import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// A destination's signing secret and token at rest, sealed as the judges' API
// keys are (judges/secret-box.ts): AES-256-GCM under a key derived from the
// service secret (never in the database), with the workspace, the destination
// and what the value is as associated data, so a sealed value copied to
// another workspace, destination or column does not open. The token is bound
// to the origin of the URL it is sent to as well: pointed elsewhere behind the
// API's back, it does not open (the API refuses that move without a new token).

const IV = 12;
const TAG = 16;

export type Sealed = 'secret' | 'token';

/** scheme://host:port of a URL (syslog+tls:// included), what a token stays bound to. */
export function originOfUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host.toLowerCase()}`;
}

function aad(tenantId: string, destinationId: string, what: Sealed, url: string): Buffer {
  const parts = [tenantId, destinationId, what];
  if (what === 'token') parts.push(originOfUrl(url));
  return Buffer.from(parts.join('\u0000'), 'utf8');
}

export function seal(
  kek: Uint8Array,
  tenantId: string,
  destinationId: string,
  what: Sealed,
  url: string,
  value: string,
) {
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', kek, iv);
  c.setAAD(aad(tenantId, destinationId, what, url));
  return Buffer.concat([iv, c.update(value, 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
}

export function open(
  kek: Uint8Array,
  tenantId: string,
  destinationId: string,
  what: Sealed,
  url: string,
  sealed: string,
) {
  const b = Buffer.from(sealed, 'base64');
  if (b.length < IV + TAG) throw new Error('sealed value too short');
  const d = createDecipheriv('aes-256-gcm', kek, b.subarray(0, IV));
  d.setAAD(aad(tenantId, destinationId, what, url));
  d.setAuthTag(b.subarray(b.length - TAG));
  return Buffer.concat([d.update(b.subarray(IV, b.length - TAG)), d.final()]).toString('utf8');
}
