// Test kit for the gate's tests (stdio and Streamable HTTP alike): a tool
// result's text, waiting for something to show, the invocations an agent has,
// and a held call's approval: the policy that holds send_* calls, the pending
// approval, its decision.
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestService } from '../../testing/harness.ts';

/** The text of a tool result, its parts joined by line breaks. */
export const textOf = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');

/** Calls `f` every 100 ms until it answers something other than undefined; throws after `ms`. */
export async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type Inv = Record<string, unknown> & { invocation_id: number };

/** The invocations of `agent` the list shows (newest first). */
export async function invocations(t: TestService, token: string, agent: string): Promise<Inv[]> {
  const res = await t.request({ method: 'GET', url: `/api/v1/invocations?agent_key=${agent}`, token });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { items: Inv[] }).items;
}

/** A policy that allows everything but holds every send_* call for a person, for `holdSeconds`. */
export async function holdSends(t: TestService, token: string, holdSeconds: number): Promise<void> {
  const res = await t.request({
    method: 'PUT',
    url: '/api/v1/policy',
    token,
    payload: {
      default_verdict: 'allow',
      rules: [
        { id: 'hold-mail', when: { tools: ['send_*'] }, verdict: 'allow', hold: true, hold_seconds: holdSeconds },
      ],
    },
  });
  assert.equal(res.statusCode, 200, res.body);
}

export interface PendingApproval {
  approval_id: string;
  invocation_id: number;
  tool_name: string | null;
}

/** The first pending approval, once there is one. */
export function pendingApproval(t: TestService, token: string): Promise<PendingApproval> {
  return until('a pending approval', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/approvals?status=pending', token });
    return (res.json() as { items: PendingApproval[] }).items[0];
  });
}

/** Decides an approval (200, or the assertion fails). */
export async function decideApproval(
  t: TestService,
  token: string,
  approvalId: string,
  decision: 'approve' | 'deny',
  note: string,
): Promise<void> {
  const res = await t.request({
    method: 'POST',
    url: `/api/v1/approvals/${approvalId}/decision`,
    token,
    payload: { decision, note },
  });
  assert.equal(res.statusCode, 200, res.body);
}
