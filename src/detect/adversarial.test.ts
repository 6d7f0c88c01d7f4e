import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { adversarialInputs } from "./adversarial.ts";
import { DETECTORS, redact, scan } from "./index.ts";

// Linear time: every detector finishes on each adversarial 32,000-character input well within a
// budget (generous for slow CI machines; bench/detect.ts prints the actual figures).
const BUDGET_MS = 400;

describe("adversarial 32,000-character inputs", () => {
  scan("warm up the dictionaries and the JIT");
  const inputs = adversarialInputs(32_000);
  for (const [name, det] of Object.entries(DETECTORS)) {
    it(`${name} finishes on every input`, () => {
      for (const [inName, input] of Object.entries(inputs)) {
        const t0 = performance.now();
        const out = det(input);
        const ms = performance.now() - t0;
        assert.ok(Array.isArray(out));
        assert.ok(ms < BUDGET_MS, `${name} took ${ms.toFixed(1)} ms on ${inName}`);
      }
    });
  }

  it("time grows linearly: 4x input costs far less than 16x", () => {
    const small = adversarialInputs(8_000);
    const big = adversarialInputs(32_000);
    const cost = (xs: Record<string, string>) => {
      const t0 = performance.now();
      for (const v of Object.values(xs)) scan(v);
      return performance.now() - t0;
    };
    cost(small);
    const a = Math.max(cost(small), 1);
    const b = cost(big);
    assert.ok(b < a * 10, `8k: ${a.toFixed(1)} ms, 32k: ${b.toFixed(1)} ms`);
  });
});

describe("properties", () => {
  it("findings are in range and redaction never grows unbounded", () => {
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
