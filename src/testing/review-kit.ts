// Helpers of the read-side tests: workspaces with a member of each role,
// events recorded through the real endpoints, reads, and a look at stored
// rows and log leaves.
import assert from 'node:assert/strict';
import type { Role } from '../core/identity.ts';
import { verifyBundle } from '../ledger/index.ts';
import type { SignedIn, TestService } from './harness.ts';
import { addMember } from './workspace.ts';

export const INVOKE = '/api/v1/admin/agents/events/invocation';
export const ROGUE = '/api/v1/admin/agents/events/rogue';

let seq = 0;

/** A corporate domain no other workspace of the file uses. */
export function uniqueDomain(label: string): string {
  seq += 1;
  return `${label}-${seq}.review-tests.dev`;
}

export interface Team {
  admin: SignedIn;
  operator: SignedIn;
  viewer: SignedIn;
  auditor: SignedIn;
  tenantId: string;
  domain: string;
}

/** Signs in an admin of a new workspace and, by invitation, one member per other role. */
export async function newTeam(t: TestService, label: string): Promise<Team> {
  const domain = uniqueDomain(label);
  const admin = await t.signIn(`admin@${domain}`);
  const member = (role: Role) => addMember(t, admin, `${role}@${domain}`, role);
  const [operator, viewer, auditor] = [await member('operator'), await member('viewer'), await member('auditor')];
  return { admin, operator, viewer, auditor, tenantId: admin.account.tenant_id, domain };
}

export interface Recorded {
  invocation_id: number;
  tenant_id: string;
  verdict: string;
  evidence_id: number;
  pii_count?: number;
}

export async function invoke(t: TestService, token: string, payload: Record<string, unknown>): Promise<Recorded> {
  const res = await t.request({ method: 'POST', url: INVOKE, token, payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as Recorded;
}

export async function rogue(t: TestService, token: string, payload: Record<string, unknown>): Promise<void> {
  const res = await t.request({ method: 'POST', url: ROGUE, token, payload });
  assert.equal(res.statusCode, 201, res.body);
}

/** Replaces the workspace policy (allow by default) with these rules. */
export async function setPolicy(t: TestService, token: string, rules: unknown[]): Promise<void> {
  const res = await t.request({
    method: 'PUT',
    url: '/api/v1/policy',
    token,
    payload: { default_verdict: 'allow', rules },
  });
  assert.equal(res.statusCode, 200, res.body);
}

/** A rule sending every call of a payments.* tool to review. */
export const REVIEW_PAYMENTS = { id: 'review-payments', when: { tools: ['payments.*'] }, verdict: 'flag_for_review' };
export const DENY_SHELL = { id: 'deny-shell', when: { tools: ['shell.*'] }, verdict: 'deny' };

/** A parsed response body: tests read it field by field and assert on what they find. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked by assertions, not by the compiler
export type Body = any;

/** GETs a path as the caller and returns status and parsed body. */
export async function get<T = Body>(
  t: TestService,
  token: string | undefined,
  url: string,
): Promise<{ status: number; body: T; raw: string }> {
  const res = await t.request({ method: 'GET', url, ...(token ? { token } : {}) });
  return { status: res.statusCode, body: (res.body ? JSON.parse(res.body) : null) as T, raw: res.body };
}

/** Every item of a list endpoint, following next_cursor with this page size. */
export async function all<T = Body>(
  t: TestService,
  token: string,
  url: string,
  limit: number,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const res: { status: number; body: { items: T[]; next_cursor: string | null } } = await get(
      t,
      token,
      `${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.items.length <= limit);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
    pages += 1;
    assert.ok(pages < 1000, 'paging does not end');
  } while (cursor !== null);
  return { items, pages };
}

/** The decoded leaves of a workspace log, oldest first. */
export async function leaves(t: TestService, token: string): Promise<Array<Record<string, unknown>>> {
  const res = await t.request({ method: 'GET', url: '/api/v1/audit/entries?start=0&end=1000', token });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { entries: Array<{ leaf: string }> }).entries.map(
    (e) => JSON.parse(e.leaf) as Record<string, unknown>,
  );
}

/**
 * Background jobs run only when the test calls jobs.drain(). With
 * `manualJobs` the worker does not poll, but an ingest still pokes it into one
 * run in the background, which races the test's own drain() (that then finds
 * the job leased and returns at once). A stopped worker ignores pokes, while
 * drain() still runs every due job.
 */
export async function quietJobs(t: TestService): Promise<void> {
  await t.service.jobs.stop();
}

/** The whole workspace log checks out against its signed checkpoint and key. */
export async function assertLogVerifies(t: TestService, team: Team): Promise<void> {
  const key = (await get(t, team.auditor.token, '/api/v1/audit/key')).body.verifier_key as string;
  const checkpoint = (await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: team.auditor.token }))
    .body;
  const size = Number(checkpoint.split('\n')[1]);
  const entries = (await get(t, team.auditor.token, `/api/v1/audit/entries?start=0&end=${size}`)).body.entries;
  assert.equal(entries.length, size);
  assert.deepEqual(verifyBundle({ verifierKeys: [key], checkpoint, entries, complete: true }), []);
}
