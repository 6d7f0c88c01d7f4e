// What each role may do, exactly as the API decides it (src/review/access.ts,
// src/policy/routes.ts, src/reports/routes.ts, src/accounts/workspace-routes.ts,
// src/ingest/approval-routes.ts).
export type Role = 'admin' | 'operator' | 'viewer' | 'auditor';

export const can = {
  seeContent: (r: Role) => r !== 'viewer',
  review: (r: Role) => r === 'admin' || r === 'operator',
  decideApprovals: (r: Role) => r === 'admin' || r === 'operator',
  readPolicy: (r: Role) => r !== 'viewer',
  policy: (r: Role) => r === 'admin',
  scope: (r: Role) => r === 'admin',
  reports: (r: Role) => r === 'admin' || r === 'auditor',
  admin: (r: Role) => r === 'admin',
};

export const roleNames: Record<Role, string> = {
  admin: 'Admin',
  operator: 'Operator',
  viewer: 'Viewer',
  auditor: 'Auditor',
};
