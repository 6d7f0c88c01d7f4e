import assert from 'node:assert/strict';
import { test } from 'node:test';
import { haskellListStrings } from '../../../scripts/detect/build-structured-data.ts';
import type { StructuredCase } from '../../../scripts/detect/build-structured-data.ts';
import { scoreStructured, structuredCases, structuredLines, structuredMacro } from './structured.ts';

const base = { source: 's', lang: 'en' };

test('span cases: a missed phone is a miss, a phone found in a negative is a false positive, an unchecked type is neither', () => {
  const cases: StructuredCase[] = [
    { ...base, id: 'a', family: 'f', text: 'Call 0123', entities: [[5, 9, 'PHONE_NUMBER']], checked: ['PHONE_NUMBER'] },
    { ...base, id: 'b', family: 'f', text: 'nothing 555', entities: [], checked: ['PHONE_NUMBER'] },
    { ...base, id: 'c', family: 'g', text: 'x', entities: [[0, 1, 'PHONE_NUMBER']], checked: ['PHONE_NUMBER'] },
  ];
  const r = scoreStructured(cases, (t) =>
    t === 'nothing 555'
      ? [
          { type: 'PHONE_NUMBER', start: 8, end: 11 },
          { type: 'URL', start: 0, end: 3 },
        ]
      : t === 'x'
        ? [{ type: 'PHONE_NUMBER', start: 0, end: 1 }]
        : [],
  );
  assert.deepEqual(
    r.map((x) => [x.family, Object.fromEntries(x.pii)]),
    [
      ['f', { PHONE_NUMBER: { tp: 0, fp: 1, fn: 1 } }],
      ['g', { PHONE_NUMBER: { tp: 1, fp: 0, fn: 0 } }],
    ],
  );
  // macro: the mean of the two families' recalls (0 and 1)
  assert.equal(structuredMacro(r).pii.PHONE_NUMBER!.recall!.mean, 0.5);
});

test('secret cases: found as any secret, found as its type, GENERIC_SECRET precision against must-not-match texts', () => {
  const cases: StructuredCase[] = [
    { ...base, id: 'p1', family: 'f', text: 'ghp_x', secret: 'GITHUB_TOKEN' },
    { ...base, id: 'p2', family: 'f', text: 'key=abc', secret: 'ANY' },
    { ...base, id: 'p3', family: 'f', text: 'missed', secret: 'ANY' },
    { ...base, id: 'n1', family: 'f', text: 'placeholder', secret: null },
    { ...base, id: 'n2', family: 'f', text: 'clean', secret: null },
  ];
  const preds: Record<string, string> = {
    ghp_x: 'GENERIC_SECRET',
    'key=abc': 'GENERIC_SECRET',
    placeholder: 'GENERIC_SECRET',
  };
  const [r] = scoreStructured(cases, (t) => (preds[t] ? [{ type: preds[t], start: 0, end: t.length }] : []));
  assert.deepEqual(r!.secrets, {
    found: { hit: 2, n: 3 },
    typed: { hit: 0, n: 1 },
    genericTp: 2,
    genericFp: 1,
    negativeHit: { hit: 1, n: 2 },
  });
});

test('the builder reads Haskell list strings with their escapes, not strings built by code', () => {
  const src =
    'negativeCorpus = xs\n  where\n    xs =\n      [ "12"\n      , T.replicate 3 "0"\n      ]\nallExamples = concat\n  [ examples (V "1") [ "\\1633-\\x41\\&2", "a\\"b" ] ]\n';
  assert.deepEqual(haskellListStrings(src), [
    { block: 'negativeCorpus', text: '12' },
    { block: 'allExamples', text: '\u0661-A2' },
    { block: 'allExamples', text: 'a"b' },
  ]);
});

test('the dataset parses, every family is scored and the table prints its macro-averages', () => {
  const cases = structuredCases();
  const results = scoreStructured(cases);
  assert.deepEqual(
    results.map((r) => r.family),
    ['duckling', 'kingfisher', 'noseyparker', 'recognizers-text', 'ripsecrets', 'scrubadub'],
  );
  assert.equal(
    results.reduce((a, r) => a + r.cases, 0),
    cases.length,
  );
  const lines = structuredLines(results).join('\n');
  assert.match(lines, /recognizers-text \(read\) +PHONE_NUMBER +\d+\.\d/);
  assert.match(lines, /held-out families only:\n +CREDIT_CARD/);
  assert.match(lines, /PHONE_NUMBER +precision +\d+\.\d \[[\d.]+-[\d.]+\] over 3 +recall/);
  assert.match(lines, /scrubadub +US_SSN +\d+\.\d/);
  assert.match(lines, /secrets found +\d+\.\d \[[\d.]+-[\d.]+\] over 3/);
});
