import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { binary, matchCase, metrics, scoreInjection, scoreSpans } from "./score.ts";

describe("matchCase", () => {
  it("counts an overlapping same-type prediction as a true positive", () => {
    const c = matchCase([{ type: "EMAIL_ADDRESS", start: 5, end: 15 }], [{ type: "EMAIL_ADDRESS", start: 7, end: 20 }], ["EMAIL_ADDRESS"]);
    assert.deepEqual(c.get("EMAIL_ADDRESS"), { tp: 1, fp: 0, fn: 0 });
  });

  it("does not match across types", () => {
    const c = matchCase([{ type: "PERSON", start: 0, end: 4 }], [{ type: "LOCATION", start: 0, end: 4 }], ["PERSON", "LOCATION"]);
    assert.deepEqual(c.get("PERSON"), { tp: 0, fp: 0, fn: 1 });
    assert.deepEqual(c.get("LOCATION"), { tp: 0, fp: 1, fn: 0 });
  });

  it("matches each label at most once: a second overlapping prediction is a false positive", () => {
    const c = matchCase([{ type: "PHONE_NUMBER", start: 0, end: 10 }], [
      { type: "PHONE_NUMBER", start: 0, end: 5 },
      { type: "PHONE_NUMBER", start: 5, end: 10 },
    ], ["PHONE_NUMBER"]);
    assert.deepEqual(c.get("PHONE_NUMBER"), { tp: 1, fp: 1, fn: 0 });
  });

  it("counts unmatched predictions as false positives only for checked types", () => {
    const c = matchCase([], [{ type: "URL", start: 0, end: 3 }, { type: "PERSON", start: 4, end: 8 }], ["PERSON"]);
    assert.equal(c.get("URL"), undefined);
    assert.deepEqual(c.get("PERSON"), { tp: 0, fp: 1, fn: 0 });
  });

  it("touching spans (end == start) do not overlap", () => {
    const c = matchCase([{ type: "IP_ADDRESS", start: 0, end: 4 }], [{ type: "IP_ADDRESS", start: 4, end: 8 }], ["IP_ADDRESS"]);
    assert.deepEqual(c.get("IP_ADDRESS"), { tp: 0, fp: 1, fn: 1 });
  });

  it("prefers the label with the larger overlap", () => {
    const labels = [
      { type: "PERSON", start: 0, end: 3 },
      { type: "PERSON", start: 4, end: 12 },
    ];
    const c = matchCase(labels, [{ type: "PERSON", start: 2, end: 12 }, { type: "PERSON", start: 0, end: 2 }], ["PERSON"]);
    assert.deepEqual(c.get("PERSON"), { tp: 2, fp: 0, fn: 0 });
  });
});

describe("scoreSpans", () => {
  it("aggregates per type and reports ambiguous cases apart", () => {
    const cases = [
      { text: "aaa", entities: [{ type: "X", start: 0, end: 3 }], checked_types: ["X"] },
      { text: "bbb", entities: [], checked_types: ["X"] },
      { text: "ccc", entities: [{ type: "X", start: 0, end: 3 }], checked_types: ["X"], ambiguous: true },
    ];
    const r = scoreSpans(cases, (t) => (t === "ccc" ? [] : [{ type: "X", start: 0, end: 1 }]));
    assert.deepEqual(r.headline["X"], { tp: 1, fp: 1, fn: 0, precision: 0.5, recall: 1, support: 1 });
    assert.deepEqual(r.ambiguous["X"], { tp: 0, fp: 0, fn: 1, precision: null, recall: 0, support: 1 });
  });

  it("metrics have null precision without predictions", () => {
    assert.deepEqual(metrics({ tp: 0, fp: 0, fn: 2 }), { tp: 0, fp: 0, fn: 2, precision: null, recall: 0, support: 2 });
  });
});

describe("scoreInjection", () => {
  it("computes recall by kind, false-positive rates and F1", () => {
    const cases = [
      { text: "i1", label: "injection" as const, kind: "direct" },
      { text: "i2", label: "injection" as const, kind: "direct" },
      { text: "i3", label: "injection" as const, kind: "indirect" },
      { text: "b1", label: "benign" as const, kind: "benign" },
      { text: "h1", label: "benign" as const, kind: "hard_negative" },
      { text: "h2", label: "benign" as const, kind: "hard_negative" },
      { text: "a1", label: "injection" as const, kind: "direct", ambiguous: true },
    ];
    const hits = new Set(["i1", "i3", "h1", "a1"]);
    const r = scoreInjection(cases, (t) => hits.has(t));
    assert.equal(r.headline.tp, 2);
    assert.equal(r.headline.fn, 1);
    assert.equal(r.headline.fp, 1);
    assert.equal(r.headline.tn, 2);
    assert.equal(r.headline.recall, 2 / 3);
    assert.equal(r.headline.false_positive_rate, 1 / 3);
    assert.equal(r.hard_negative_false_positive_rate, 1 / 2);
    assert.deepEqual(r.recall_by_kind["direct"], { detected: 1, total: 2, recall: 0.5 });
    assert.equal(r.ambiguous.tp, 1);
    assert.ok(Math.abs((r.headline.f1 ?? 0) - 2 / 3) < 1e-9);
  });

  it("binary handles empty input", () => {
    const b = binary([]);
    assert.equal(b.precision, null);
    assert.equal(b.false_positive_rate, null);
  });
});
