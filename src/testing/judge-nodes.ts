// Test utility for tests across `agent-ledger serve` processes: HTTP calls to
// a node and signing up through the real flow; for the judge panel, a
// workspace with a review policy and a panel of stand-in judges, and waiting
// for judgements to settle.
import assert from 'node:assert/strict';
import type { SmtpPeer } from '../mail/testing/smtp-peer.ts';
import type { ServerProcess } from './server-process.ts';

export async function call(node: ServerProcess, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked by assertions
  return { status: res.status, text, json: (): any => JSON.parse(text) };
}

/** Signs up an admin through the real flow (the code from the mail the SMTP peer got); returns its token and workspace. */
export async function signUp(
  node: ServerProcess,
  smtp: SmtpPeer,
  email: string,
): Promise<{ token: string; tenantId: string }> {
  assert.equal((await call(node, 'POST', '/api/v1/accounts/signup', { email })).status, 200);
  const mail = await smtp.waitFor((m) => m.to.includes(email), 30_000);
  const code = /\b(\d{6,})\b/.exec(mail.subject)![1]!;
  const v = await call(node, 'POST', '/api/v1/accounts/verify', { email, code });
  assert.equal(v.status, 200, v.text);
  return { token: v.json().token, tenantId: v.json().account.tenant_id };
}

/** A policy that flags every payments.* call, and a panel of stand-in models (judge name = model). */
export async function reviewWithPanel(
  node: ServerProcess,
  token: string,
  baseUrl: string,
  models: string[],
): Promise<void> {
  const policy = {
    default_verdict: 'allow',
    rules: [{ id: 'review-payments', when: { tools: ['payments.*'] }, verdict: 'flag_for_review' }],
  };
  assert.equal((await call(node, 'PUT', '/api/v1/policy', policy, token)).status, 200);
  const panel = {
    judges: models.map((m) => ({ name: m, base_url: baseUrl, model: m })),
    quorum: 'majority',
    auto_resolve: false,
  };
  const res = await call(node, 'PUT', '/api/v1/workspace/judges', panel, token);
  assert.equal(res.status, 200, res.text);
}

export async function flag(node: ServerProcess, token: string, n: number): Promise<number> {
  const res = await call(
    node,
    'POST',
    '/api/v1/admin/agents/events/invocation',
    { agent_key: 'pay-bot', tool_name: 'payments.refund', prompt: `refund ${n}` },
    token,
  );
  assert.equal(res.status, 201, res.text);
  assert.equal(res.json().verdict, 'flag_for_review');
  return res.json().invocation_id as number;
}

/** Polls the invocations until none has a pending (or no) judgement; returns the judgements. */
export async function settled(node: ServerProcess, token: string, ids: number[], timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await Promise.all(
      ids.map(async (id) => (await call(node, 'GET', `/api/v1/invocations/${id}`, undefined, token)).json().judgement),
    );
    if (all.every((j) => j !== null && j.status !== 'pending')) return all;
    if (Date.now() > deadline) assert.fail(`judgements still pending: ${JSON.stringify(all)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
