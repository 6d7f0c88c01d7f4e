// The reports module's face: what other modules may use. Nothing else of reports/ is imported from outside it.

export { compareFacts } from './facts.ts';
export type { Period, ReportFacts, ReportPseudonyms } from './facts.ts';
export { recountFacts } from './recount.ts';
export { reportRoutes } from './routes.ts';
export { foldRollups, RollupWorker, type RollupDeps, splitPeriod, verdictDays } from './rollups.ts';
