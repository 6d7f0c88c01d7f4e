// Who may call, and in what standing: the vocabulary every module shares.
// HTTP resolves a bearer token to a Principal; the modules decide with it.

export type Role = 'admin' | 'operator' | 'viewer' | 'auditor';
export const ROLES: readonly Role[] = ['admin', 'operator', 'viewer', 'auditor'];

/** Who is calling, as resolved from the bearer token. */
export type Principal =
  | { kind: 'account'; accountId: string; tenantId: string; role: Role; tokenId: string; email: string }
  | { kind: 'ingress'; tenantId: string; tokenId: string }
  | { kind: 'fallback' }
  | { kind: 'operator' };

export type AccountPrincipal = Extract<Principal, { kind: 'account' }>;

/** The derived standing of a workspace: only `active` ones may write. */
export type AccountStatus = 'active' | 'trial_expired' | 'sub_lapsed' | 'sub_canceled';
