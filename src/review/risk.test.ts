import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type RiskInputs, riskScore } from './risk.ts';

const none: RiskInputs = { denies: 0, flags: 0, rogue_events: 0, pii_findings: 0, clean_invocations: 0 };
const count = fc.integer({ min: 0, max: 1_000_000 });
const inputs = fc.record({
  denies: count,
  flags: count,
  rogue_events: count,
  pii_findings: count,
  clean_invocations: count,
});

test('the documented examples', () => {
  assert.equal(riskScore(none), 0);
  assert.equal(riskScore({ ...none, clean_invocations: 10_000 }), 0);
  assert.equal(riskScore({ ...none, denies: 1 }), 33); // 10 / (10 + 0 + 20)
  assert.equal(riskScore({ ...none, denies: 1, clean_invocations: 1000 }), 1); // 10 / 1030 → 0.97 → 1
  assert.equal(riskScore({ ...none, rogue_events: 1, clean_invocations: 5 }), 17); // 5 / 30
  assert.equal(riskScore({ ...none, flags: 1, pii_findings: 1, clean_invocations: 1 }), 13); // 3 / 24 = 12.5 → 13
  assert.equal(riskScore({ ...none, denies: 1000 }), 99);
  assert.equal(riskScore({ ...none, pii_findings: 1, clean_invocations: 1_000_000 }), 1);
});

test('0 exactly when nothing went wrong, otherwise 1-99', () => {
  fc.assert(
    fc.property(inputs, (r) => {
      const s = riskScore(r);
      assert.ok(Number.isInteger(s));
      const bad = r.denies + r.flags + r.rogue_events + r.pii_findings;
      if (bad === 0) assert.equal(s, 0);
      else assert.ok(s >= 1 && s <= 99, String(s));
    }),
  );
});

test('rises with each kind of incident, never falls with one; decays with clean activity', () => {
  fc.assert(
    fc.property(
      inputs,
      fc.constantFrom<keyof RiskInputs>('denies', 'flags', 'rogue_events', 'pii_findings'),
      fc.integer({ min: 1, max: 1000 }),
      (r, k, n) => {
        assert.ok(riskScore({ ...r, [k]: r[k] + n }) >= riskScore(r));
        assert.ok(riskScore({ ...r, clean_invocations: r.clean_invocations + n }) <= riskScore(r));
      },
    ),
  );
  // Strictly, while the score is away from its bounds.
  const r = { ...none, denies: 3, clean_invocations: 40 };
  assert.ok(riskScore({ ...r, denies: 4 }) > riskScore(r));
  assert.ok(riskScore({ ...r, clean_invocations: 80 }) < riskScore(r));
  // A deny weighs more than a rogue event, which weighs more than a flag, which weighs more than a PII finding.
  const base = { ...none, clean_invocations: 100 };
  const one = (k: keyof RiskInputs) => riskScore({ ...base, [k]: 1 });
  assert.ok(
    one('denies') > one('rogue_events') && one('rogue_events') > one('flags') && one('flags') > one('pii_findings'),
  );
});
