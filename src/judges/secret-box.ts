import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// A judge's API key at rest: AES-256-GCM under a key derived from the service
// secret (never in the database), the workspace and judge name as associated
// data, so a sealed key copied to another workspace or judge does not open.

const IV = 12;
const TAG = 16;

export function sealKey(kek: Uint8Array, tenantId: string, judge: string, apiKey: string): string {
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', kek, iv);
  c.setAAD(Buffer.from(`${tenantId}\u0000${judge}`, 'utf8'));
  return Buffer.concat([iv, c.update(apiKey, 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
}

export function openKey(kek: Uint8Array, tenantId: string, judge: string, sealed: string): string {
  const b = Buffer.from(sealed, 'base64');
  if (b.length < IV + TAG) throw new Error('sealed key too short');
  const d = createDecipheriv('aes-256-gcm', kek, b.subarray(0, IV));
  d.setAAD(Buffer.from(`${tenantId}\u0000${judge}`, 'utf8'));
  d.setAuthTag(b.subarray(b.length - TAG));
  return Buffer.concat([d.update(b.subarray(IV, b.length - TAG)), d.final()]).toString('utf8');
}
