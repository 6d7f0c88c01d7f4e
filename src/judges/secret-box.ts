import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { destinationOf } from '../outbound/index.ts';

// A judge's API key at rest: AES-256-GCM under a key derived from the service
// secret (never in the database), with the workspace, the judge's name and the
// origin of its base_url as associated data: a sealed key copied to another
// workspace or judge does not open, nor one whose judge was pointed at another
// origin behind the API's back (the API itself refuses that move without a
// new key: outbound/bound-secret.ts). Keys sealed before the origin was bound
// (no "d1." mark) open with the workspace and name alone.

const IV = 12;
const TAG = 16;
const BOUND = 'd1.';

function aad(tenantId: string, judge: string, baseUrl: string | null): Buffer {
  const parts = [tenantId, judge];
  if (baseUrl !== null) parts.push(destinationOf(baseUrl));
  return Buffer.from(parts.join('\u0000'), 'utf8');
}

export function sealKey(kek: Uint8Array, tenantId: string, judge: string, baseUrl: string, apiKey: string): string {
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', kek, iv);
  c.setAAD(aad(tenantId, judge, baseUrl));
  return BOUND + Buffer.concat([iv, c.update(apiKey, 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
}

export function openKey(kek: Uint8Array, tenantId: string, judge: string, baseUrl: string, sealed: string): string {
  const bound = sealed.startsWith(BOUND);
  const b = Buffer.from(bound ? sealed.slice(BOUND.length) : sealed, 'base64');
  if (b.length < IV + TAG) throw new Error('sealed key too short');
  const d = createDecipheriv('aes-256-gcm', kek, b.subarray(0, IV));
  d.setAAD(aad(tenantId, judge, bound ? baseUrl : null));
  d.setAuthTag(b.subarray(b.length - TAG));
  return Buffer.concat([d.update(b.subarray(IV, b.length - TAG)), d.final()]).toString('utf8');
}
