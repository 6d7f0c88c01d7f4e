// The accounts module's face: what other modules may use. Nothing else of accounts/ is imported from outside it.

export { createAccounts } from './accounts.ts';
export type { UsageSource } from './deps.ts';
export { accountStatus, secondsToUtcMidnight } from './plans.ts';
export type { WorkspacePlan } from './plans.ts';
export type { StoredTokenKind } from './token-resolver.ts';
