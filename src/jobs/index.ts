// The jobs module's face: what other modules may use. Nothing else of jobs/ is imported from outside it.

export {
  JobBell,
  JobWorker,
  claimJobsSql,
  enqueue,
  enqueueJobsSql,
  enqueueLater,
  enqueueMany,
  queuedFor,
} from './jobs.ts';
export type { Job, JobBatchHandler, JobHandler, JobKind } from './jobs.ts';
export { JUDGE_JOB, judgeJobPayload } from './kinds.ts';
export type { JudgeJobPayload } from './kinds.ts';
