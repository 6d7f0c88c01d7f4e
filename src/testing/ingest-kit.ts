// Helpers shared by the event-endpoint and ingress-token test files: unique
// workspaces, members of a role, requests, problem assertions and a look at
// what was stored (rows and leaves) for one workspace.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Role } from '../core/identity.ts';
import { metaCommitment } from '../ingest/metadata.ts';
import { commitment } from '../ledger/leaf.ts';
import type { SignedIn, TestService } from './harness.ts';
import { addMember as addMemberAs } from './workspace.ts';

export const INVOCATION = '/api/v1/admin/agents/events/invocation';
export const ROGUE = '/api/v1/admin/agents/events/rogue';
export const INGRESS_TOKENS = '/api/v1/workspace/ingress-tokens';
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const DAY_MS = 86_400_000;

/** One code point outside the BMP: 2 UTF-16 units, 4 UTF-8 bytes. */
export const EMOJI = '😀';
export const emoji = (n: number) => EMOJI.repeat(n);

let seq = 0;

/** A domain no other test of the file uses (corporate: not a personal mail domain). */
export function uniqueDomain(label: string): string {
  seq += 1;
  return `${label}-${seq}.ledger-tests.dev`;
}

/** A fresh workspace whose admin signed in through the real flow. */
export function newWorkspace(t: TestService, label: string): Promise<SignedIn> {
  return t.signIn(`admin@${uniqueDomain(label)}`);
}

/** Invites an address of the admin's domain with this role and signs it in. */
export async function addMember(t: TestService, admin: SignedIn, role: Role): Promise<SignedIn> {
  seq += 1;
  return addMemberAs(t, admin, `${role}-${seq}@${admin.account.email.split('@')[1]}`, role);
}

export interface IssuedIngressToken {
  token: string;
  token_id: string;
  prefix: string;
  name: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export async function issueIngress(t: TestService, admin: SignedIn, name = 'collector'): Promise<IssuedIngressToken> {
  const res = await t.request({ method: 'POST', url: INGRESS_TOKENS, token: admin.token, payload: { name } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as IssuedIngressToken;
}

/** POSTs a JSON value (any value, not only objects) with an optional bearer token. */
export function post(
  t: TestService,
  url: string,
  token: string | undefined,
  payload: unknown,
): Promise<LightMyRequestResponse> {
  return postRaw(t, url, token, JSON.stringify(payload));
}

/** POSTs these exact bytes as application/json. */
export function postRaw(
  t: TestService,
  url: string,
  token: string | undefined,
  raw: string,
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'POST',
    url,
    ...(token === undefined ? {} : { token }),
    headers: { 'content-type': 'application/json' },
    payload: raw,
  });
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: Array<{ field: string; message: string }>;
}

/** Asserts an RFC 9457 problem with this status and code that shows no internals. */
export function expectProblem(res: LightMyRequestResponse, status: number, code: string): ProblemBody {
  assert.equal(res.statusCode, status, `expected ${status} ${code}, got ${res.statusCode}: ${res.body.slice(0, 500)}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json; charset=utf-8$/);
  assert.doesNotMatch(res.body, /\n\s+at |node:internal|node_modules|\.ts:\d+/, 'stack trace in the problem');
  assert.doesNotMatch(
    res.body,
    /\b(SELECT|INSERT INTO|UPDATE \w+ SET|syntax for type|relation "|violates|PGlite|postgres)\b/i,
    'internals in the problem',
  );
  const p = res.json() as ProblemBody;
  assert.equal(p.status, status);
  assert.equal(p.code, code);
  assert.equal(p.type, `urn:agent-ledger:problem:${code}`);
  assert.equal(typeof p.title, 'string');
  assert.ok(typeof p.detail === 'string' && p.detail.length > 0);
  return p;
}

/** A 422 whose errors[] names exactly these JSON pointers. */
export function expectFieldErrors(res: LightMyRequestResponse, fields: string[]): ProblemBody {
  const p = expectProblem(res, 422, 'unprocessable');
  assert.ok(Array.isArray(p.errors) && p.errors.length > 0, `errors[] missing: ${res.body}`);
  for (const e of p.errors) {
    assert.match(e.field, /^\//);
    assert.ok(typeof e.message === 'string' && e.message.length > 0);
  }
  assert.deepEqual([...new Set(p.errors.map((e) => e.field))].sort(), [...fields].sort(), res.body);
  return p;
}

/** A 401 as API.md describes it: problem, code unauthorized, WWW-Authenticate: Bearer. */
export function expectUnauthorized(res: LightMyRequestResponse): void {
  expectProblem(res, 401, 'unauthorized');
  assert.equal(res.headers['www-authenticate'], 'Bearer');
}

export async function query<R extends Record<string, unknown>>(
  t: TestService,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  return t.service.ctx.db.query<R>(sql, params);
}

/** Every leaf of a workspace's log, parsed, in log order. */
export async function leaves(
  t: TestService,
  tenantId: string,
): Promise<Array<Record<string, unknown> & { kind: string }>> {
  const rows = await query<{ leaf: string }>(t, 'SELECT leaf FROM log_entries WHERE tenant_id = $1 ORDER BY idx', [
    tenantId,
  ]);
  return rows.map((r) => JSON.parse(r.leaf));
}

/** The leaf behind an evidence id, fetched the way a user does (GET /api/v1/audit/evidence/{id}). */
export async function evidenceLeaf(
  t: TestService,
  token: string,
  evidenceId: number,
): Promise<Record<string, unknown>> {
  const res = await t.request({ method: 'GET', url: `/api/v1/audit/evidence/${evidenceId}`, token });
  assert.equal(res.statusCode, 200, res.body);
  const ev = res.json() as { evidence_id: number; leaf: string };
  assert.equal(ev.evidence_id, evidenceId);
  return JSON.parse(ev.leaf);
}

export interface Stored {
  invocations: number;
  content: number;
  agents: number;
  rogue: number;
  usage: number;
  entries: number;
  head: number;
}

/** How much of everything a workspace has stored: equal before and after means nothing was written. */
export async function stored(t: TestService, tenantId: string): Promise<Stored> {
  const [row] = await query<Record<keyof Stored, number>>(
    t,
    `SELECT (SELECT count(*)::int FROM invocations WHERE tenant_id = $1) AS invocations,
            (SELECT count(*)::int FROM invocation_content WHERE tenant_id = $1) AS content,
            (SELECT count(*)::int FROM agents WHERE tenant_id = $1) AS agents,
            (SELECT count(*)::int FROM rogue_events WHERE tenant_id = $1) AS rogue,
            (SELECT coalesce(sum(invocations), 0)::int FROM usage_daily WHERE tenant_id = $1) AS usage,
            (SELECT count(*)::int FROM log_entries WHERE tenant_id = $1) AS entries,
            (SELECT coalesce(max(size), 0)::int FROM log_heads WHERE tenant_id = $1) AS head`,
    [tenantId],
  );
  return row!;
}

/** Runs fn with the clock at `at` (or moved by `at` ms), then puts it back: other workspaces must not age. */
export async function atTime<T>(t: TestService, at: number | string, fn: () => Promise<T>): Promise<T> {
  const start = t.clock.now();
  if (typeof at === 'number') t.clock.advance(at);
  else t.clock.set(at);
  try {
    return await fn();
  } finally {
    t.clock.set(start);
  }
}

/** A short, readable name for a value in a test title. */
export function show(v: unknown): string {
  if (typeof v === 'string') {
    if (v.length <= 12) return JSON.stringify(v);
    const cps = [...v];
    const first = cps[0]!;
    if (cps.every((c) => c === first)) return `${cps.length} × ${JSON.stringify(first)}`;
    return `${cps.length}-code-point string`;
  }
  return JSON.stringify(v);
}

const META_COLUMNS = {
  invocations: ['agent_key', 'principal_id', 'outcome', 'correlation_id', 'tool_name', 'duration_ms', 'occurred_at'],
  rogue_events: ['agent_key', 'event_type', 'actor_agent_key', 'tool', 'user_id', 'severity', 'source'],
} as const;

/**
 * The metadata a v2 leaf's `meta` commits to, as an auditor with the database
 * recomputes it: the row's stored values and its meta_salt.
 */
export async function storedMeta(
  t: TestService,
  tenantId: string,
  table: 'invocations' | 'rogue_events',
  id: number,
): Promise<{ fields: Record<string, unknown>; commitment: string }> {
  const key = table === 'invocations' ? 'invocation_id' : 'rogue_event_id';
  const [row] = await query<Record<string, unknown> & { meta_salt: Uint8Array }>(
    t,
    `SELECT ${META_COLUMNS[table].join(', ')}, meta_salt FROM ${table} WHERE tenant_id = $1 AND ${key} = $2`,
    [tenantId, id],
  );
  assert.ok(row, `no ${table} row ${id}`);
  // A time is committed as its ISO 8601 text (occurred_at, set only for events that name their time).
  const fields = Object.fromEntries(
    META_COLUMNS[table].map((c) => [c, row[c] instanceof Date ? (row[c] as Date).toISOString() : row[c]]),
  );
  return { fields, commitment: metaCommitment(new Uint8Array(row.meta_salt), fields) };
}

/** A value's pseudonym in a workspace's log, recomputed from its stored salt. */
export async function pseudonymOf(t: TestService, tenantId: string, kind: string, value: string): Promise<string> {
  const [row] = await query<{ salt: Uint8Array }>(
    t,
    'SELECT salt FROM pseudonyms WHERE tenant_id = $1 AND kind = $2 AND value = $3',
    [tenantId, kind, value],
  );
  assert.ok(row, `no ${kind} pseudonym for ${JSON.stringify(value)}`);
  return commitment(new Uint8Array(row.salt), value);
}

/** pseudonym → value for every pseudonym of a kind in a workspace (what the service can open). */
export async function pseudonymNames(t: TestService, tenantId: string, kind = 'agent'): Promise<Map<string, string>> {
  const rows = await query<{ value: string; salt: Uint8Array }>(
    t,
    'SELECT value, salt FROM pseudonyms WHERE tenant_id = $1 AND kind = $2',
    [tenantId, kind],
  );
  return new Map(rows.map((r) => [commitment(new Uint8Array(r.salt), r.value), r.value]));
}
