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
import { balancedSpans, fencedBlocks } from './answer-json.ts';

// The answer schema is strict: what does not match it exactly is malformed.
// The one JSON object is read through a Markdown code fence and the prose
// around it (answer-json.ts); more than one is ambiguous, hence malformed.

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

const ANSWER = '{"verdict":"deny","rationale":"R2: a card {number} was \\"repeated\\"}","rubric_points":["R2"]}';
const READ = { verdict: 'deny', rationale: 'R2: a card {number} was "repeated"}', rubric_points: ['R2'] };

test('the one JSON object is read through a code fence and the prose around it', () => {
  const good = [
    '```json\n' + ANSWER + '\n```',
    '```\n' + ANSWER + '\n```',
    '  ```JSON  \n' + ANSWER + '\n  ```  ',
    '~~~json\n' + ANSWER + '\n~~~',
    '````json\n' + ANSWER + '\n````',
    'Here is my assessment:\n\n```json\n' + ANSWER + '\n```\n\nLet me know if you need more.',
    'Sure. ' + ANSWER + ' Hope this helps!',
    'My verdict:\n' + ANSWER,
    ANSWER + '\n(rubric point R2 applies)',
    // A fence never closed: the prose around the one object.
    '```json\n' + ANSWER,
    // Outside the fence, the schema quoted as an example; the fenced object is the answer.
    'The format is {"verdict": "allow|deny|uncertain", "rationale": "…", "rubric_points": []}.\n```json\n' +
      ANSWER +
      '\n```',
    // Braces in prose that are no JSON.
    'Checked {all} fields {none missing}: ' + ANSWER,
  ];
  for (const content of good) assert.deepEqual(parseAnswer(content), { ok: true, answer: READ }, content);
});

test('around a fence or prose, the object is held to the schema; none, or more than one, is malformed', () => {
  const bad: [string, RegExp][] = [
    ['```json\n{"verdict":"allow","rationale":"ok"}\n```', /keys/],
    ['Answer: {"verdict":"maybe","rationale":"ok","rubric_points":[]}', /verdict/],
    ['```json\n{"verdict":"allow",\n```', /not JSON/],
    ['```json\n["allow"]\n```', /not JSON/],
    ['```json\n' + ANSWER + '\n```\nor\n```json\n' + ANSWER + '\n```', /more than one fenced JSON object/],
    [`First ${ANSWER} then {"verdict":"allow","rationale":"","rubric_points":[]}`, /more than one JSON object/],
    ['I would allow it {but only once', /not JSON/],
    ['', /not JSON/],
  ];
  for (const [content, reason] of bad) {
    const r = parseAnswer(content);
    assert.equal(r.ok, false, content);
    assert.match((r as { reason: string }).reason, reason, content);
  }
});

test('fences and balanced spans are found in one pass, braces inside JSON strings skipped', () => {
  assert.deepEqual(balancedSpans('a {"x":"}"} b {c {d}} e {unclosed'), ['{"x":"}"}', '{c {d}}']);
  assert.deepEqual(balancedSpans('{"a":"\\"}"} {'), ['{"a":"\\"}"}']);
  assert.deepEqual(fencedBlocks('x\n```js\n1\n2\n```\ny\n~~~\n3\n~~~~\n```\nopen'), ['1\n2', '3']);
  assert.deepEqual(fencedBlocks('```\n```'), ['']);
  // What the crafted answers of the longest size a judge may send come to: nothing, without backtracking.
  assert.deepEqual(fencedBlocks('```\n'.repeat(3)), [''], 'the third fence is never closed');
  assert.deepEqual(balancedSpans('{'.repeat(200_000)), []);
  assert.equal(parseAnswer('```json\n'.repeat(30_000)).ok, false);
  assert.equal(parseAnswer('{"'.repeat(100_000)).ok, false);
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
