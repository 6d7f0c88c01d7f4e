import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// A destination's URL, signing secret and token at rest, sealed as the judges' API
// keys are (judges/secret-box.ts): AES-256-GCM under a key derived from the
// service secret (never in the database), with the workspace, the destination
// and what the value is as associated data, so a sealed value copied to
// another workspace, destination or column does not open. The token is bound
// to the origin of the URL it is sent to as well: pointed elsewhere behind the
// API's back, it does not open (the API refuses that move without a new token).
// The URL is sealed because it may be the credential itself (a Slack
// incoming-webhook URL) or carry one (user:password, a key in the query); the
// API shows it redacted (shownUrl).

const IV = 12;
const TAG = 16;

export type Sealed = 'secret' | 'token' | 'url';

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

/** The clear URL of a stored destination: sealed (url_sealed), or from a row written before URLs were sealed. */
export function clearUrl(
  kek: Uint8Array,
  d: { tenant_id: string; destination_id: string; url: string | null; url_sealed: string | null },
): string {
  if (d.url_sealed !== null) return open(kek, d.tenant_id, d.destination_id, 'url', '', d.url_sealed);
  if (d.url === null) throw new Error('the destination has no URL');
  return d.url;
}

/**
 * What the API shows of a destination's URL: never its credentials, nor what
 * may be one. HTTP kinds (webhook, slack, splunk_hec) show scheme://host[:port]
 * and `/…` for a path or query (a Slack incoming-webhook URL's path is its
 * secret; a webhook's path or query may hold a key); syslog shows
 * scheme://host:port; e-mail its addresses (no secret). User info is never shown.
 */
export function shownUrl(kind: string, url: string): string {
  if (kind === 'email') return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '…';
  }
  const base = `${u.protocol}//${u.host}`;
  if (kind === 'syslog') return base;
  const rest = (u.pathname !== '/' && u.pathname !== '') || u.search !== '';
  return rest ? `${base}/…` : `${base}/`;
}
