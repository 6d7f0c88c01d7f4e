// An Idempotency-Key's fingerprint is kept for 24 hours in the database: a
// retry must fingerprint to the same hex whichever build wrote the first one,
// so the text hashed stays the canonicalize package's, for every body.
import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { test } from 'node:test';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { fingerprint } from './pipeline.ts';

const byPackage = (kind: string, body: unknown) => hash('sha256', `${kind}\n${canonicalize(body) ?? ''}`, 'hex');

test("the fingerprint hashes the kind and the canonicalize package's text of any JSON body", () => {
  fc.assert(
    fc.property(fc.constantFrom('invocation', 'rogue'), fc.jsonValue(), (kind, body) => {
      assert.equal(fingerprint(kind, body), byPackage(kind, body));
    }),
    { numRuns: 2000 },
  );
});

test("bodies canonical JSON declines (a lone surrogate, nesting past 256 levels) keep the package's fingerprint", () => {
  const lone = JSON.parse('{"agent_key":"a\\ud800"}') as unknown;
  let deep: unknown = 'x';
  for (let i = 0; i < 300; i++) deep = [deep];
  // The package refuses a lone surrogate (requests holding one are refused before they are fingerprinted); so does this.
  assert.throws(() => byPackage('invocation', lone), /Lone surrogate/);
  assert.throws(() => fingerprint('invocation', lone), /Lone surrogate/);
  const nested = { agent_key: 'a', metadata: deep };
  assert.equal(fingerprint('invocation', nested), byPackage('invocation', nested));
  // The same event however it is spelled: key order does not count.
  assert.equal(
    fingerprint('invocation', { b: 1, a: [2, { d: 3, c: 4 }] }),
    fingerprint('invocation', { a: [2, { c: 4, d: 3 }], b: 1 }),
  );
});
