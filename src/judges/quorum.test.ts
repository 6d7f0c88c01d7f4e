import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decide, type JudgeOpinion, type Quorum } from './panel.ts';

// The panel's quorum rules (panel.ts, decide): examples a reviewer can read,
// then the rules as properties over every panel of up to seven judges.

type V = JudgeOpinion['verdict'];
const panel = (...vs: V[]): JudgeOpinion[] =>
  vs.map((verdict, i) => ({ name: `j${i}`, verdict, rationale: '', rubric_points: [], calls: 1 }));
const both = (vs: V[]) => ({
  majority: decide('majority', panel(...vs)),
  unanimous_to_deny: decide('unanimous_to_deny', panel(...vs)),
});

test('examples: majority and unanimous_to_deny side by side', () => {
  const cases: [V[], { decision: string; unanimous: boolean }, { decision: string; unanimous: boolean }][] = [
    [['allow', 'allow', 'allow'], { decision: 'allow', unanimous: true }, { decision: 'allow', unanimous: true }],
    [['deny', 'deny', 'deny'], { decision: 'deny', unanimous: true }, { decision: 'deny', unanimous: true }],
    [['deny', 'deny', 'allow'], { decision: 'deny', unanimous: false }, { decision: 'uncertain', unanimous: false }],
    [['allow', 'allow', 'deny'], { decision: 'allow', unanimous: false }, { decision: 'uncertain', unanimous: false }],
    [['allow', 'allow', 'uncertain'], { decision: 'allow', unanimous: false }, { decision: 'allow', unanimous: false }],
    [['allow', 'deny'], { decision: 'uncertain', unanimous: false }, { decision: 'uncertain', unanimous: false }],
    [
      ['allow', 'deny', 'uncertain'],
      { decision: 'uncertain', unanimous: false },
      { decision: 'uncertain', unanimous: false },
    ],
    [
      ['uncertain', 'uncertain'],
      { decision: 'uncertain', unanimous: true },
      { decision: 'uncertain', unanimous: true },
    ],
    // Abstentions do not count: one answering judge decides, but the panel is not unanimous.
    [
      ['deny', 'abstained', 'abstained'],
      { decision: 'deny', unanimous: false },
      { decision: 'deny', unanimous: false },
    ],
    [['allow', 'abstained'], { decision: 'allow', unanimous: false }, { decision: 'allow', unanimous: false }],
    [
      ['abstained', 'abstained'],
      { decision: 'uncertain', unanimous: false },
      { decision: 'uncertain', unanimous: false },
    ],
    [[], { decision: 'uncertain', unanimous: false }, { decision: 'uncertain', unanimous: false }],
    // uncertain is an answer: it keeps allow from a majority.
    [
      ['allow', 'uncertain', 'uncertain'],
      { decision: 'uncertain', unanimous: false },
      { decision: 'uncertain', unanimous: false },
    ],
    [['allow', 'uncertain'], { decision: 'uncertain', unanimous: false }, { decision: 'uncertain', unanimous: false }],
  ];
  for (const [vs, majority, unanimousToDeny] of cases) {
    assert.deepEqual(both(vs), { majority, unanimous_to_deny: unanimousToDeny }, JSON.stringify(vs));
  }
});

const verdicts = fc.array(fc.constantFrom<V>('allow', 'deny', 'uncertain', 'abstained'), { maxLength: 7 });
const quorum = fc.constantFrom<Quorum>('majority', 'unanimous_to_deny');
const answered = (vs: V[]) => vs.filter((v) => v !== 'abstained');
const count = (vs: V[], v: V) => vs.filter((x) => x === v).length;

test('property: the order of the judges does not matter', () => {
  fc.assert(
    fc.property(
      quorum,
      verdicts.chain((vs) =>
        fc.tuple(fc.constant(vs), fc.shuffledSubarray(vs, { minLength: vs.length, maxLength: vs.length })),
      ),
      (q, [vs, shuffled]) => {
        assert.deepEqual(decide(q, panel(...shuffled)), decide(q, panel(...vs)));
      },
    ),
  );
});

test('property: abstaining judges never change the decision', () => {
  fc.assert(
    fc.property(quorum, verdicts, fc.nat(3), (q, vs, extra) => {
      const withAbstentions = [...vs, ...Array<V>(extra).fill('abstained')];
      assert.equal(decide(q, panel(...withAbstentions)).decision, decide(q, panel(...vs)).decision);
    }),
  );
});

test('property: majority decides v exactly when more than half of the answering judges say v', () => {
  fc.assert(
    fc.property(verdicts, (vs) => {
      const a = answered(vs);
      const { decision } = decide('majority', panel(...vs));
      const holder = (['allow', 'deny', 'uncertain'] as const).find((v) => count(a, v) * 2 > a.length);
      assert.equal(decision, holder ?? 'uncertain');
    }),
  );
});

test('property: unanimous_to_deny denies only when every answering judge denies, allows only with an allow majority and no deny', () => {
  fc.assert(
    fc.property(verdicts, (vs) => {
      const a = answered(vs);
      const { decision } = decide('unanimous_to_deny', panel(...vs));
      assert.equal(decision === 'deny', a.length > 0 && a.every((v) => v === 'deny'));
      assert.equal(decision === 'allow', count(a, 'deny') === 0 && count(a, 'allow') * 2 > a.length);
      // Never harsher than majority: a deny here is a deny there.
      if (decision === 'deny') assert.equal(decide('majority', panel(...vs)).decision, 'deny');
    }),
  );
});

test('property: unanimous means every judge answered, and all the same; both quorums then agree', () => {
  fc.assert(
    fc.property(quorum, verdicts, (q, vs) => {
      const { unanimous, decision } = decide(q, panel(...vs));
      const expected = vs.length > 0 && !vs.includes('abstained') && vs.every((v) => v === vs[0]);
      assert.equal(unanimous, expected);
      if (unanimous) assert.equal(decision, vs[0]);
    }),
  );
});
