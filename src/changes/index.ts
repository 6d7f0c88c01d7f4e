// The changes module's face: what other modules may use. Nothing else of changes/ is imported from outside it.

export { epochSql, listenForChanges, readEpoch } from './changes.ts';
