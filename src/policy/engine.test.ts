import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_REASON, decide, type Facts, globMatch, OUT_OF_SCOPE_REASON, type PolicyDocument } from './engine.ts';

/** Reference glob: translate to an anchored regex (fine for the short inputs of the property). */
function reference(pattern: string, text: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[\\s\\S]*')
    .replace(/\?/g, '[\\s\\S]');
  return new RegExp(`^${re}$`).test(text);
}

test('globMatch agrees with a regex reference', () => {
  const chars = fc.constantFrom('a', 'b', '.', '*', '?');
  fc.assert(
    fc.property(
      fc.string({ unit: chars, maxLength: 8 }),
      fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 12 }),
      (p, t) => {
        assert.equal(globMatch(p, t), reference(p, t));
      },
    ),
    { numRuns: 3000 },
  );
});

test('globMatch stays fast on adversarial 32,000-character inputs', () => {
  const text = 'a'.repeat(32_000);
  const pattern = `${'*a'.repeat(200)}b`;
  const t0 = performance.now();
  assert.equal(globMatch(pattern, text), false);
  assert.equal(globMatch('*'.repeat(500), text), true);
  // Generous bound: the greedy walk is O(pattern × text) at worst, far from exponential.
  assert.ok(performance.now() - t0 < 2000);
});

const base: Facts = { agent_key: 'bot', mode: 'observed', outcome: 'success', principal_id: 'bot', findings: [] };

test('decide: most severe rule wins, every fired rule is a reason, none fired gives the default', () => {
  const policy: PolicyDocument = {
    default_verdict: 'allow',
    rules: [
      { id: 'flag-pii', when: { finding_categories: ['pii'] }, verdict: 'flag_for_review' },
      { id: 'deny-card-to-tool', when: { finding_types: ['CREDIT_CARD'], fields: ['tool_input'] }, verdict: 'deny' },
      { id: 'shadow-only', when: { modes: ['shadow'] }, verdict: 'deny' },
    ],
  };
  assert.deepEqual(decide(policy, base), { verdict: 'allow', reasons: [DEFAULT_REASON], judge: false });
  const card = { type: 'CREDIT_CARD', start: 0, end: 4, score: 0.9, category: 'pii' as const };
  assert.deepEqual(decide(policy, { ...base, findings: [{ field: 'prompt', findings: [card] }] }), {
    verdict: 'flag_for_review',
    reasons: ['flag-pii'],
    judge: false,
  });
  assert.deepEqual(decide(policy, { ...base, findings: [{ field: 'tool_input', findings: [card] }] }), {
    verdict: 'deny',
    reasons: ['flag-pii', 'deny-card-to-tool'],
    judge: false,
  });
  assert.deepEqual(decide(policy, { ...base, tool_name: 'x', tool_in_scope: false }), {
    verdict: 'deny',
    reasons: [OUT_OF_SCOPE_REASON],
    judge: false,
  });
});

test('decide: min_score, agent/tool globs, outcomes and principals narrow a rule', () => {
  const policy: PolicyDocument = {
    default_verdict: 'allow',
    rules: [
      {
        id: 'r',
        when: {
          agents: ['pay-*'],
          tools: ['refund'],
          outcomes: ['error'],
          principal_kinds: ['user'],
          finding_types: ['X'],
          min_score: 0.7,
        },
        verdict: 'deny',
      },
    ],
  };
  const f = (score: number) => [{ field: 'prompt' as const, findings: [{ type: 'X', start: 0, end: 1, score }] }];
  const hit: Facts = {
    ...base,
    agent_key: 'pay-bot',
    tool_name: 'refund',
    outcome: 'error',
    principal_kind: 'user',
    findings: f(0.8),
  };
  assert.equal(decide(policy, hit).verdict, 'deny');
  assert.equal(decide(policy, { ...hit, findings: f(0.6) }).verdict, 'allow');
  assert.equal(decide(policy, { ...hit, agent_key: 'crm-bot' }).verdict, 'allow');
  assert.equal(decide(policy, { ...hit, tool_name: undefined }).verdict, 'allow');
  assert.equal(decide(policy, { ...hit, outcome: 'success' }).verdict, 'allow');
  assert.equal(decide(policy, { ...hit, principal_kind: undefined }).verdict, 'allow');
});

test('decide: a firing rule with judge: true asks for the panel whatever the verdict; a persona override carries its own judge', () => {
  const policy: PolicyDocument = {
    default_verdict: 'allow',
    rules: [
      { id: 'judge-refunds', when: { tools: ['payments.refund'] }, verdict: 'allow', judge: true },
      { id: 'flag-exports', when: { tools: ['crm.export'] }, verdict: 'flag_for_review' },
    ],
  };
  assert.deepEqual(decide(policy, { ...base, tool_name: 'payments.refund' }), {
    verdict: 'allow',
    reasons: ['judge-refunds'],
    judge: true,
  });
  assert.deepEqual(decide(policy, { ...base, tool_name: 'kb.search' }), {
    verdict: 'allow',
    reasons: [DEFAULT_REASON],
    judge: false,
  });
  assert.equal(decide(policy, { ...base, tool_name: 'crm.export' }).judge, false, 'a flag alone is no rule asking');
  const persona = {
    id: 'p1',
    version: 2,
    allowed_tools: null,
    allowed_pii_types: null,
    overrides: [
      { id: 'judge-refunds', when: { tools: ['payments.refund'] }, verdict: 'allow' as const },
      { id: 'judge-exports', when: { tools: ['crm.export'] }, verdict: 'flag_for_review' as const, judge: true },
    ],
  };
  assert.deepEqual(decide(policy, { ...base, tool_name: 'payments.refund', persona }), {
    verdict: 'allow',
    reasons: ['persona.p1.v2.judge-refunds'],
    judge: false,
  });
  assert.deepEqual(decide(policy, { ...base, tool_name: 'crm.export', persona }), {
    verdict: 'flag_for_review',
    reasons: ['flag-exports', 'persona.p1.v2.judge-exports'],
    judge: true,
  });
});
