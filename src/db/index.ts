// The db module's face: what other modules may use. Nothing else of db/ is imported from outside it.

export { CommitOutcomeUnknown, TENANT_ROLE, pgErrorCode } from './db.ts';
export type { Db, Queryable, Row, SendAhead, Statement } from './db.ts';
export { migrate } from './migrate.ts';
export { openDb } from './open.ts';
export { openPostgres } from './postgres.ts';
