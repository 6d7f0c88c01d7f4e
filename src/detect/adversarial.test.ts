import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { adversarialInputs, findingsDense } from './eval/adversarial.ts';
import { DETECTORS, redact, scan } from './index.ts';

// Linear time: every detector finishes on each adversarial 32,000-character input well within a
// budget (generous for slow CI machines; bench/detect.ts prints the actual figures).
const BUDGET_MS = 400;

// CPU time of this process rather than wall time: on a machine shared with other jobs a long call
// is preempted far more often than a short one, which made wall-clock ratios fail a linear
// detector. CPU time counts only the work done.
const cpuMs = (f: () => unknown): number => {
  const t0 = process.cpuUsage();
  f();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
};

describe('adversarial 32,000-character inputs', () => {
  scan('warm up the dictionaries and the JIT');
  const inputs = adversarialInputs(32_000);
  for (const [name, det] of Object.entries(DETECTORS)) {
    it(`${name} finishes on every input`, () => {
      for (const [inName, input] of Object.entries(inputs)) {
        let out: unknown;
        const ms = cpuMs(() => (out = det(input)));
        assert.ok(Array.isArray(out));
        assert.ok(ms < BUDGET_MS, `${name} took ${ms.toFixed(1)} ms on ${inName}`);
      }
    });
  }

  it('time grows linearly: 4x input costs far less than 16x', () => {
    const small = adversarialInputs(8_000);
    const big = adversarialInputs(32_000);
    const cost = (xs: Record<string, string>) =>
      cpuMs(() => {
        for (const v of Object.values(xs)) scan(v);
      });
    cost(small);
    const a = Math.max(cost(small), 1);
    const b = cost(big);
    assert.ok(b < a * 10, `8k: ${a.toFixed(1)} ms, 32k: ${b.toFixed(1)} ms`);
  });
});

describe('texts dense with findings', () => {
  // 16x the text must cost about 16x, for every detector: one that compares each finding with every
  // earlier one (an IPv4 address with all addresses before it did) costs ~256x. The small text is
  // scanned 16 times so both sides do the same amount of linear work and take milliseconds, not
  // fractions of one: a linear detector gives a ratio near 1, a quadratic one near 16.
  const best = (f: () => unknown) => {
    let ms = Infinity;
    for (let i = 0; i < 5; i++) ms = Math.min(ms, cpuMs(f));
    return ms;
  };
  const small = findingsDense(16_000);
  const big = findingsDense(256_000);
  for (const [name, det] of Object.entries({ ...DETECTORS, scan: (t: string) => scan(t).findings })) {
    it(`${name}: 16x the text costs far less than 256x`, () => {
      const out = det(big);
      if (name === 'scan') assert.ok(out.length > 10_000, `${out.length} findings`);
      const a = best(() => {
        for (let i = 0; i < 16; i++) det(small);
      });
      const b = best(() => det(big));
      assert.ok(b < 4 * Math.max(a, 1), `16 x 16k: ${a.toFixed(2)} ms, 256k: ${b.toFixed(2)} ms`);
    });
  }
});

describe('properties', () => {
  it('findings are in range and redaction never grows unbounded', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const r = scan(s);
        for (const f of r.findings) {
          assert.ok(f.start >= 0 && f.end <= s.length && f.start < f.end);
          assert.ok(f.score >= 0 && f.score <= 1);
        }
        const red = redact(s, r.findings);
        assert.ok(red.length <= s.length + 40 * r.findings.length);
      }),
      { numRuns: 200 },
    );
  });
});
