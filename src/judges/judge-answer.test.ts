import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_RATIONALE_CHARS, MAX_RUBRIC_POINT_CHARS, MAX_RUBRIC_POINTS, messageContent, parseAnswer } from './judge-answer.ts';

// The answer schema is strict: what does not match it exactly is malformed.

test('a well-formed answer is read as it is', () => {
  assert.deepEqual(parseAnswer('{"verdict":"deny","rationale":"R2: a card number was repeated","rubric_points":["R2"]}'), {
    ok: true,
    answer: { verdict: 'deny', rationale: 'R2: a card number was repeated', rubric_points: ['R2'] },
  });
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
  const r = parseAnswer(JSON.stringify({ verdict: 'allow', rationale: 'x'.repeat(50_000), rubric_points: Array.from({ length: 500 }, (_, i) => `R${i}:${'y'.repeat(1000)}`) }));
  assert.ok(r.ok);
  assert.equal(r.answer.rationale.length, MAX_RATIONALE_CHARS);
  assert.ok(r.answer.rationale.endsWith('…'));
  assert.equal(r.answer.rubric_points.length, MAX_RUBRIC_POINTS);
  assert.ok(r.answer.rubric_points.every((p) => p.length === MAX_RUBRIC_POINT_CHARS));
  assert.ok(r.answer.rubric_points[0]!.startsWith('R0:'));
});

test('the envelope: choices[0].message.content, or why not', () => {
  assert.deepEqual(messageContent('{"choices":[{"message":{"role":"assistant","content":"{}"}}]}'), { ok: true, content: '{}' });
  assert.equal(messageContent('<html>bad gateway</html>').ok, false);
  assert.equal(messageContent('{"choices":[]}').ok, false);
  assert.equal(messageContent('{"choices":[{"message":{"content":null,"refusal":"I cannot help"}}]}').ok, false);
  assert.equal(messageContent('{"error":{"message":"overloaded"}}').ok, false);
});
