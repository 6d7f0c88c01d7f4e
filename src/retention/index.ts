// The retention module's face: what other modules may use. Nothing else of retention/ is imported from outside it.

export { contentDaysSql, RetentionSweeper } from './retention.ts';
export type { RetentionDeps } from './retention.ts';
export { retentionRoutes } from './routes.ts';
