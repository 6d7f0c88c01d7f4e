// A sealed judge key opens only for its workspace, judge name and origin;
// keys sealed before the origin was bound still open.
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { openKey, sealKey } from './secret-box.ts';

const kek = randomBytes(32);
const T = '00000000-0000-4000-8000-000000000001';

test('a sealed key opens for its workspace, name and origin only', () => {
  const sealed = sealKey(kek, T, 'gpt', 'https://api.vendor.example/v1', 'sk-1');
  assert.equal(openKey(kek, T, 'gpt', 'https://API.vendor.example:443/v2', sealed), 'sk-1', 'same origin');
  for (const [tenant, name, url] of [
    ['00000000-0000-4000-8000-000000000002', 'gpt', 'https://api.vendor.example/v1'],
    [T, 'other', 'https://api.vendor.example/v1'],
    [T, 'gpt', 'https://attacker.example/v1'],
    [T, 'gpt', 'http://api.vendor.example/v1'],
    [T, 'gpt', 'https://api.vendor.example:8443/v1'],
  ] as const) {
    assert.throws(() => openKey(kek, tenant, name, url, sealed), /authenticate/, `${tenant} ${name} ${url}`);
  }
});

test('a key sealed before origins were bound (workspace and name only) still opens', () => {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', kek, iv);
  c.setAAD(Buffer.from(`${T}\u0000gpt`, 'utf8'));
  const legacy = Buffer.concat([iv, c.update('sk-old', 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
  assert.equal(openKey(kek, T, 'gpt', 'https://anywhere.example/v1', legacy), 'sk-old');
});
