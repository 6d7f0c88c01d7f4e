// The judges module's face: what other modules may use. Nothing else of judges/ is imported from outside it.

export { JUDGE_RATIONALES } from './erasure.ts';
export { createJudges, judgeCallsThisMonth } from './judges.ts';
export { NullableJudgement } from './schemas.ts';
export type { JudgementSchema } from './schemas.ts';
