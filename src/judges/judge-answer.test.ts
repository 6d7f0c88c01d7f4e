import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  MAX_RATIONALE_CHARS,
  MAX_RUBRIC_POINT_CHARS,
  MAX_RUBRIC_POINTS,
  messageContent,
  parseAnswer,
} from './judge-answer.ts';

// The answer schema is strict: what does not match it exactly is malformed.

test('a well-formed answer is read as it is', () => {
  assert.deepEqual(
    parseAnswer('{"verdict":"deny","rationale":"R2: a card number was repeated","rubric_points":["R2"]}'),
    {
      ok: true,
      answer: { verdict: 'deny', rationale: 'R2: a card number was repeated', rubric_points: ['R2'] },
    },
  );
  assert.deepEqual(parseAnswer(' {"rubric_points":[],"rationale":"","verdict":"uncertain"} '), {
    ok: true,
    answer: { verdict: 'uncertain', rationale: '', rubric_points: [] },
  });
});

test('anything else is malformed, with a reason', () => {
  const bad: [string, RegExp][] = [
    ['the verdict is allow', /not JSON/],
    ['```json\n{"verdict":"allow","rationale":"","rubric_points":[]}\n```', /not JSON/],
    ['["allow"]', /not a JSON object/],
    ['null', /not a JSON object/],
    ['{"verdict":"allow","rationale":"ok"}', /keys/],
    ['{"verdict":"allow","rationale":"ok","rubric_points":[],"confidence":0.9}', /keys/],
    ['{"verdict":"ALLOW","rationale":"ok","rubric_points":[]}', /verdict/],
    ['{"verdict":"approve","rationale":"ok","rubric_points":[]}', /verdict/],
    ['{"verdict":true,"rationale":"ok","rubric_points":[]}', /verdict/],
    ['{"verdict":"allow","rationale":42,"rubric_points":[]}', /rationale/],
    ['{"verdict":"allow","rationale":"ok","rubric_points":"R1"}', /rubric_points/],
    ['{"verdict":"allow","rationale":"ok","rubric_points":[1]}', /rubric_points/],
  ];
  for (const [content, reason] of bad) {
    const r = parseAnswer(content);
    assert.equal(r.ok, false, content);
    assert.match((r as { reason: string }).reason, reason, content);
  }
});

test('a long rationale and too many rubric points are cut to their bounds', () => {
  const r = parseAnswer(
    JSON.stringify({
      verdict: 'allow',
      rationale: 'x'.repeat(50_000),
      rubric_points: Array.from({ length: 500 }, (_, i) => `R${i}:${'y'.repeat(1000)}`),
    }),
  );
  assert.ok(r.ok);
  assert.equal(r.answer.rationale.length, MAX_RATIONALE_CHARS);
  assert.ok(r.answer.rationale.endsWith('…'));
  assert.equal(r.answer.rubric_points.length, MAX_RUBRIC_POINTS);
  assert.ok(r.answer.rubric_points.every((p) => p.length === MAX_RUBRIC_POINT_CHARS));
  assert.ok(r.answer.rubric_points[0]!.startsWith('R0:'));
});

test('the envelope: choices[0].message.content, or why not', () => {
  assert.deepEqual(messageContent('{"choices":[{"message":{"role":"assistant","content":"{}"}}]}'), {
    ok: true,
    content: '{}',
  });
  assert.equal(messageContent('<html>bad gateway</html>').ok, false);
  assert.equal(messageContent('{"choices":[]}').ok, false);
  assert.equal(messageContent('{"choices":[{"message":{"content":null,"refusal":"I cannot help"}}]}').ok, false);
  assert.equal(messageContent('{"error":{"message":"overloaded"}}').ok, false);
});

test('property: any text or JSON value is either a bounded answer or malformed, never a throw', () => {
  const check = (content: string) => {
    const r = parseAnswer(content);
    if (!r.ok) return assert.equal(typeof r.reason, 'string');
    assert.ok(['allow', 'deny', 'uncertain'].includes(r.answer.verdict));
    assert.ok(r.answer.rationale.length <= MAX_RATIONALE_CHARS);
    assert.ok(r.answer.rubric_points.length <= MAX_RUBRIC_POINTS);
  };
  fc.assert(fc.property(fc.string(), check));
  fc.assert(fc.property(fc.jsonValue(), (v) => check(JSON.stringify(v))));
  fc.assert(
    fc.property(
      fc.record({
        verdict: fc.oneof(fc.constantFrom('allow', 'deny', 'uncertain'), fc.string()),
        rationale: fc.string(),
        rubric_points: fc.array(fc.string()),
      }),
      (v) => {
        const r = parseAnswer(JSON.stringify(v));
        assert.equal(r.ok, ['allow', 'deny', 'uncertain'].includes(v.verdict));
      },
    ),
  );
  fc.assert(fc.property(fc.string(), (body) => assert.equal(typeof messageContent(body).ok, 'boolean')));
});
