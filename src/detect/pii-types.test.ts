import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { detectPii } from './index.ts';
import { PII_TYPES } from './pii-types.ts';
import { INJECTION_TYPE, isPiiType, SECRET_TYPES } from './types.ts';

// PII_TYPES against the detectors' code: the hand-written detectors' types are
// named in pii-types.ts, so their source is read here for the types they emit
// (`type: 'X'` in a finding or rule, `push('X', …)` in the names detectors).

const DIR = fileURLToPath(new URL('.', import.meta.url));
const EMITTED = /(?:\btype:\s*|\bpush\(\s*)(["'])([A-Z][A-Z0-9_]*)\1/g;

function typesInSource(): Set<string> {
  const out = new Set<string>();
  for (const name of readdirSync(DIR, { recursive: true }) as string[]) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    for (const m of readFileSync(join(DIR, name), 'utf8').matchAll(EMITTED)) out.add(m[2]!);
  }
  return out;
}

test('every PII type a detector emits is in PII_TYPES, and every listed type is emitted', () => {
  const emitted = typesInSource();
  const pii = [...emitted].filter((t) => !SECRET_TYPES.has(t) && t !== INJECTION_TYPE).sort();
  assert.deepEqual(pii, [...PII_TYPES]);
  assert.ok(PII_TYPES.every(isPiiType));
  assert.ok(PII_TYPES.includes('EMAIL_ADDRESS') && PII_TYPES.includes('CREDIT_CARD'));
  assert.ok(!PII_TYPES.includes('EMAIL'));
});

test("what detectPii finds in a text of every hand-written detector's kind is in PII_TYPES", () => {
  const text = [
    'Mail jane.doe@example.org or see https://example.org/orders?id=7 from 203.0.113.9 (MAC 00:1A:2B:3C:4D:5E).',
    'IBAN DE89 3704 0044 0532 0130 00, phone +1 415 555 0132, card 4111 1111 1111 1111.',
    'Best regards,\nJohn Smith\n221B Baker Street, London',
  ].join('\n');
  const found = new Set(detectPii(text).map((f) => f.type));
  for (const t of [
    'EMAIL_ADDRESS',
    'URL',
    'IP_ADDRESS',
    'MAC_ADDRESS',
    'IBAN_CODE',
    'PHONE_NUMBER',
    'CREDIT_CARD',
    'PERSON',
  ])
    assert.ok(found.has(t), `${t} in ${[...found]}`);
  for (const t of found) assert.ok(PII_TYPES.includes(t), t);
});
