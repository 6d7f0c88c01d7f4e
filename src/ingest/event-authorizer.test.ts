import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpProblem, type Principal } from '../core/index.ts';
import { eventTenant, requireActive } from './event-authorizer.ts';

// The rules every door for events shares (the single and batch endpoints, the gateways' hooks,
// attached outputs, OTLP): which token kinds write, to which workspace, and the workspace's standing.

const A = '0b6f7c1e-3a52-4c4e-9d1e-6b8a1f2e3d4c';
const B = '7d2e9f40-1c3b-4a5d-8e6f-0a1b2c3d4e5f';
const body = (named: unknown) => ({ named: () => named, missing: 'name a workspace' });
const account = (role: 'admin' | 'operator' | 'viewer' | 'auditor'): Principal => ({
  kind: 'account',
  accountId: 'acc',
  tenantId: A,
  role,
  tokenId: 'tok',
  email: 'a@example.com',
});

function refused(f: () => unknown, status: number, detail?: RegExp) {
  assert.throws(f, (err: unknown) => {
    assert.ok(err instanceof HttpProblem);
    assert.equal(err.status, status);
    if (detail) assert.match(err.message, detail);
    return true;
  });
}

test('API tokens of a writer role and ingress tokens write to their own workspace, whatever the request names', () => {
  assert.equal(eventTenant(account('admin'), body(B)), A);
  assert.equal(eventTenant(account('operator'), body(undefined)), A);
  assert.equal(eventTenant({ kind: 'ingress', tenantId: A, tokenId: 't' }, body(B)), A);
});

test('the viewer and auditor roles record no events', () => {
  refused(() => eventTenant(account('viewer'), body(undefined)), 403, /viewer role/);
  refused(() => eventTenant(account('auditor'), body(A)), 403, /auditor role/);
});

test('the fallback token writes to the workspace the request names, by id (any case), and must name one', () => {
  assert.equal(eventTenant({ kind: 'fallback' }, body(A.toUpperCase())), A);
  refused(() => eventTenant({ kind: 'fallback' }, body(undefined)), 403, /name a workspace/);
  refused(() => eventTenant({ kind: 'fallback' }, body(42)), 403, /name a workspace/);
  refused(() => eventTenant({ kind: 'fallback' }, body('acme')), 403, /Unknown workspace/);
});

test('no other token kind records events; no token is a 401', () => {
  refused(() => eventTenant({ kind: 'operator' }, body(A)), 403, /cannot call this endpoint/);
  refused(() => eventTenant(undefined, body(A)), 401);
});

test('the workspace must exist and be active', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const ws = (subscription_status: string, trial_ends_at: Date | null = null) => ({
    plan: { plan_tier: 'team', subscription_status, trial_ends_at } as never,
    caps: {},
  });
  const active = ws('active');
  assert.equal(requireActive(active, now), active);
  refused(() => requireActive(null, now), 403, /Unknown workspace/);
  refused(() => requireActive(ws('canceled'), now), 402);
  refused(() => requireActive(ws('trialing', new Date('2026-05-01T00:00:00Z')), now), 402);
  assert.ok(requireActive(ws('trialing', new Date('2026-07-01T00:00:00Z')), now));
});
