import assert from 'node:assert/strict';
import type { Role } from '../core/identity.ts';
import type { SignedIn, TestService } from './harness.ts';

/** Invites the address with the role (as the admin) and signs it in: a member of the admin's workspace. */
export async function addMember(t: TestService, admin: SignedIn, email: string, role: Role): Promise<SignedIn> {
  const inv = await t.request({
    method: 'POST',
    url: '/api/v1/workspace/invites',
    token: admin.token,
    payload: { email, role },
  });
  assert.equal(inv.statusCode, 201, inv.body);
  const member = await t.signIn(email);
  assert.equal(member.account.tenant_id, admin.account.tenant_id);
  assert.equal(member.account.role, role);
  return member;
}

/** The decoded leaves of the caller's workspace log, oldest first. */
export async function auditLeaves(t: TestService, token: string): Promise<Array<Record<string, unknown>>> {
  const res = await t.request({ method: 'GET', url: '/api/v1/audit/entries?start=0&end=1000', token });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { entries: Array<{ leaf: string }> }).entries.map(
    (e) => JSON.parse(e.leaf) as Record<string, unknown>,
  );
}

/** Moves the operator's view of a workspace (plan, subscription, trial end) through the operator API. */
export async function setSubscription(
  t: TestService,
  operatorToken: string,
  tenantId: string,
  body: { plan_tier?: string; subscription_status?: string; trial_ends_at?: string | null },
) {
  const res = await t.request({
    method: 'PUT',
    url: `/api/v1/operator/workspaces/${tenantId}/subscription`,
    token: operatorToken,
    payload: body,
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
