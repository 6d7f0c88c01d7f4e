import type { Role } from '../core/index.ts';

// Who may do what on the read side, as the roles table of API.md says.

/** Read invocations, rogue events, agents and the review queue. Viewers see no stored content. */
export const READERS = ['admin', 'operator', 'viewer', 'auditor'] as const satisfies readonly Role[];

/** Decide reviews. */
export const REVIEWERS = ['admin', 'operator'] as const satisfies readonly Role[];

/**
 * Whether the role may read stored (redacted) content: the text of each
 * field, the offsets of its findings, and review notes (which may hold
 * personal data too). Viewers get the record without them.
 */
export function seesContent(role: Role): boolean {
  return role !== 'viewer';
}
