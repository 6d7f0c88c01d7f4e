// Job kinds that one module enqueues and another handles, named once here so
// that neither imports the other for a string: the queue is the contract
// between them. A kind its own module both enqueues and handles stays there.

/**
 * The judge panel reviews an invocation (handled by judges/judge-job.ts).
 * Ingest enqueues it with the invocation when it escalates, the plan allows
 * judge calls and the workspace has a panel; judges' routes enqueue a re-judging.
 */
export const JUDGE_JOB = 'judge';

/**
 * A judge job's payload. `by_rule`: a policy rule asked for the panel (judge: true), so it is judged in or out of
 * the review queue; `attempt`: a re-judging asked for by a reviewer.
 */
export type JudgeJobPayload = { invocation_id: number; by_rule?: true; attempt?: number };

export function judgeJobPayload(invocationId: number, decision: { judge: boolean }): JudgeJobPayload {
  return decision.judge ? { invocation_id: invocationId, by_rule: true } : { invocation_id: invocationId };
}
