import { Type } from 'typebox';
import { NullableTimestamp } from '../http/index.ts';

// The judgement object (issue 17) as the API publishes it: in GET
// /api/v1/invocations/{id}, the review queue's items and POST
// /api/v1/invocations/{id}/judge.

const Decision = Type.Union([Type.Literal('allow'), Type.Literal('deny'), Type.Literal('uncertain')]);

export const JudgementSchema = Type.Object(
  {
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('done'), Type.Literal('quota_exhausted'), Type.Literal('failed')],
      {
        description:
          "pending: queued or running; done: the panel answered; quota_exhausted: the month's multi_judge_calls_cap was reached (no call, or not every judge could be asked); failed: it could not run (e.g. the judges' keys no longer open)",
      },
    ),
    decision: Type.Union([Decision, Type.Null()], {
      description: "The panel's decision under its quorum; null until done",
    }),
    unanimous: Type.Union([Type.Boolean(), Type.Null()], { description: 'Every judge answered, all alike' }),
    attempt: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Attempts of one invocation count from 1; null while an automatic escalation waits to start',
    }),
    trigger: Type.Union([Type.Literal('flag'), Type.Literal('on_demand')], {
      description:
        "flag: escalated automatically, by the verdict flag_for_review or by a policy rule with judge: true (the invocation's reasons name the rule); on_demand: POST …/judge",
    }),
    auto_resolved: Type.Boolean({
      description: "The unanimous panel resolved the review itself (the workspace's auto_resolve)",
    }),
    rationales_erased: Type.Boolean({
      description: 'Retention or an erasure deleted the rationales with the content they were written from',
    }),
    judges: Type.Array(
      Type.Object({
        name: Type.String(),
        verdict: Type.Union([Decision, Type.Literal('abstained')], {
          description: 'abstained: timeouts, 429s or 5xx outlasted the retries, or no call was left',
        }),
        rationale: Type.Union([Type.String(), Type.Null()], {
          description: 'null for viewers (it is written from the stored content) and once erased',
        }),
        rubric_points: Type.Array(Type.String()),
      }),
    ),
    evidence_id: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The judge_verdict entry in the audit trail',
    }),
    requested_at: NullableTimestamp,
    finished_at: NullableTimestamp,
  },
  { description: "The judge panel's latest review of the invocation" },
);

export const NullableJudgement = Type.Union([JudgementSchema, Type.Null()], {
  description: 'null: never sent to the judge panel',
});
