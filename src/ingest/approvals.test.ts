// Hold for approval: a policy rule with "hold": true holds an enforced call for a
// person. The approval is written with the invocation; GET /api/v1/approvals
// (and ?wait= long polls), POST .../decision; expiry is a deny; every request,
// decision and expiry is a leaf of the workspace log, which verifies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitment } from '../ledger/leaf.ts';
import { eachStore, type TestService } from '../testing/harness.ts';
import { assertProblem } from '../testing/problems.ts';
import { assertLogVerifies, get, INVOKE, leaves, newTeam, quietJobs, setPolicy } from '../testing/review-kit.ts';

const HOLD_PAYMENTS = { id: 'hold-payments', when: { tools: ['payments.*'] }, verdict: 'allow', hold: true };
const decision = (id: string) => `/api/v1/approvals/${id}/decision`;

interface Held {
  invocation_id: number;
  verdict: string;
  evidence_id: number;
  approval?: { approval_id: string; status: string; expires_at: string };
}

async function call(t: TestService, token: string, payload: Record<string, unknown>): Promise<Held> {
  const res = await t.request({ method: 'POST', url: INVOKE, token, payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as Held;
}

const held = (t: TestService, token: string, extra: Record<string, unknown> = {}) =>
  call(t, token, { agent_key: 'payer', tool_name: 'payments.refund', mode: 'enforced', ...extra });

async function decide(t: TestService, token: string, id: string, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: decision(id), token, payload: body });
}

async function storedApproval(t: TestService, tenantId: string, id: string) {
  const [row] = await t.testDb.db.query<{ status: string; note: string | null; note_salt: Buffer | null }>(
    'SELECT status, note, note_salt FROM approvals WHERE tenant_id = $1 AND approval_id = $2',
    [tenantId, id],
  );
  return row;
}

async function reviewStatus(t: TestService, tenantId: string, invocationId: number) {
  const [row] = await t.testDb.db.query<{ review_status: string | null }>(
    'SELECT review_status FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
    [tenantId, invocationId],
  );
  return row!.review_status;
}

eachStore('approvals: hold for a person', (getT) => {
  test('a hold rule holds enforced calls only: 201 flag_for_review with a pending approval; observed, shadow and denied calls are not held', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-modes');
    await setPolicy(t, team.admin.token, [
      { ...HOLD_PAYMENTS, hold_seconds: 120 },
      { id: 'deny-wire', when: { tools: ['payments.wire'] }, verdict: 'deny' },
    ]);
    const h = await held(t, team.admin.token);
    assert.equal(h.verdict, 'flag_for_review');
    assert.equal(h.approval?.status, 'pending');
    assert.match(h.approval!.approval_id, /^[0-9a-f-]{36}$/);
    assert.equal(h.approval!.expires_at, new Date(t.clock.now().getTime() + 120_000).toISOString());
    // In the review queue, like any flag.
    assert.equal(await reviewStatus(t, team.tenantId, h.invocation_id), 'pending');

    for (const mode of ['observed', 'shadow']) {
      const o = await held(t, team.admin.token, { mode });
      assert.equal(o.verdict, 'allow', mode);
      assert.equal(o.approval, undefined, mode);
    }
    const denied = await held(t, team.admin.token, { tool_name: 'payments.wire' });
    assert.equal(denied.verdict, 'deny');
    assert.equal(denied.approval, undefined);
    const other = await held(t, team.admin.token, { tool_name: 'search' });
    assert.equal(other.verdict, 'allow');
    assert.equal(other.approval, undefined);

    // The batch path holds the same way, each item with its own approval.
    const batch = await t.request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/batch',
      token: team.admin.token,
      payload: {
        events: [
          { kind: 'invocation', event: { agent_key: 'payer', tool_name: 'payments.refund', mode: 'enforced' } },
          { kind: 'invocation', event: { agent_key: 'payer', tool_name: 'payments.refund', mode: 'observed' } },
        ],
      },
    });
    assert.equal(batch.statusCode, 207, batch.body);
    const [b0, b1] = batch.json().results;
    assert.equal(b0.verdict, 'flag_for_review');
    assert.equal(b0.approval.status, 'pending');
    assert.equal(b1.approval, undefined);

    const pending = await get(t, team.viewer.token, '/api/v1/approvals?status=pending');
    assert.equal(pending.status, 200, pending.raw);
    assert.deepEqual(
      pending.body.items.map((a: { invocation_id: number }) => a.invocation_id),
      [b0.invocation_id, h.invocation_id],
    );
    const one = pending.body.items[1];
    assert.equal(one.agent_key, 'payer');
    assert.equal(one.tool_name, 'payments.refund');
    assert.equal(one.approval_id, h.approval!.approval_id);
    assert.equal(one.decided_at, undefined);

    // Rows and the request leaf commit with the invocation.
    const requested = (await leaves(t, team.admin.token)).filter((l) => l.kind === 'approval_requested');
    assert.deepEqual(
      requested.map((l) => [l.approval_id, l.invocation_id]),
      [
        [h.approval!.approval_id, h.invocation_id],
        [b0.approval.approval_id, b0.invocation_id],
      ],
    );
  });

  test('an enforced answer names its reasons (the rule ids, as the read side shows them): held, denied, allowed, single and batch; observed answers keep the contract', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-reasons');
    await setPolicy(t, team.admin.token, [
      HOLD_PAYMENTS,
      { id: 'watch-refunds', when: { tools: ['payments.refund'] }, verdict: 'flag_for_review' },
      { id: 'deny-wire', when: { tools: ['payments.wire'] }, verdict: 'deny' },
    ]);
    const h = await held(t, team.admin.token);
    assert.equal(h.verdict, 'flag_for_review');
    assert.equal(h.approval?.status, 'pending');
    assert.deepEqual((h as Held & { reasons?: string[] }).reasons, ['hold-payments', 'watch-refunds']);
    const stored = await get(t, team.admin.token, `/api/v1/invocations/${h.invocation_id}`);
    assert.deepEqual(stored.body.reasons, ['hold-payments', 'watch-refunds'], 'the same reasons the read side shows');
    const denied = (await held(t, team.admin.token, { tool_name: 'payments.wire' })) as Held & { reasons?: string[] };
    assert.equal(denied.verdict, 'deny');
    assert.deepEqual(denied.reasons, ['hold-payments', 'deny-wire']);
    const allowed = (await held(t, team.admin.token, { tool_name: 'search' })) as Held & { reasons?: string[] };
    assert.deepEqual([allowed.verdict, allowed.reasons], ['allow', ['default']]);
    const observed = (await held(t, team.admin.token, { mode: 'observed' })) as Held & { reasons?: string[] };
    assert.equal(observed.reasons, undefined, "observed: the shared contract's answer, unchanged");
    // An Idempotency-Key replay answers the same body, reasons included.
    const key = { 'idempotency-key': 'reasons-replay-1' };
    const payload = { agent_key: 'payer', tool_name: 'payments.refund', mode: 'enforced' };
    const first = await t.request({ method: 'POST', url: INVOKE, token: team.admin.token, payload, headers: key });
    const replay = await t.request({ method: 'POST', url: INVOKE, token: team.admin.token, payload, headers: key });
    assert.equal(replay.statusCode, 201, replay.body);
    assert.deepEqual(replay.json(), first.json());
    assert.deepEqual(replay.json().reasons, ['hold-payments', 'watch-refunds']);
    const batch = await t.request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/batch',
      token: team.admin.token,
      payload: {
        events: [
          { kind: 'invocation', event: { agent_key: 'payer', tool_name: 'payments.refund', mode: 'enforced' } },
          { kind: 'invocation', event: { agent_key: 'payer', tool_name: 'payments.wire', mode: 'observed' } },
        ],
      },
    });
    assert.equal(batch.statusCode, 207, batch.body);
    const [b0, b1] = batch.json().results;
    assert.deepEqual([b0.verdict, b0.reasons], ['flag_for_review', ['hold-payments', 'watch-refunds']]);
    assert.equal(b0.approval.status, 'pending');
    assert.deepEqual([b1.verdict, b1.reasons], ['deny', undefined]);
  });

  test('hold_seconds is bounded (1 to 86,400) in policies and persona overrides: 422 otherwise', async () => {
    const t = getT();
    const team = await newTeam(t, 'hold-bounds');
    for (const hold_seconds of [0, 86_401, 1.5]) {
      const res = await t.request({
        method: 'PUT',
        url: '/api/v1/policy',
        token: team.admin.token,
        payload: { default_verdict: 'allow', rules: [{ ...HOLD_PAYMENTS, hold_seconds }] },
      });
      assertProblem(res, 422);
      const persona = await t.request({
        method: 'POST',
        url: '/api/v1/personas',
        token: team.admin.token,
        payload: { name: `p${hold_seconds}`, overrides: [{ ...HOLD_PAYMENTS, hold_seconds }] },
      });
      assertProblem(persona, 422);
    }
    const ok = await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: team.admin.token,
      payload: { default_verdict: 'allow', rules: [{ ...HOLD_PAYMENTS, hold_seconds: 86_400 }] },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().rules[0].hold_seconds, 86_400);
  });

  test('approve: 200, stored, leaves; the review item approved; a second decision 409; the whole log verifies', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-approve');
    await setPolicy(t, team.admin.token, [HOLD_PAYMENTS]);
    const h = await held(t, team.admin.token);
    const id = h.approval!.approval_id;
    const note = 'ok, refund for jane@example.com';
    const res = await decide(t, team.operator.token, id, { decision: 'approve', note });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.status, 'approved');
    assert.equal(body.decided_by, team.operator.account.id);
    assert.equal(body.decided_at, t.clock.now().toISOString());
    assert.doesNotMatch(body.note, /jane@example\.com/);
    assert.match(body.note, /^ok, refund for /);

    const read = await get(t, team.admin.token, `/api/v1/approvals/${id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.status, 'approved');
    assert.equal(read.body.note, body.note);
    // Viewers read it without the note.
    const viewed = await get(t, team.viewer.token, `/api/v1/approvals/${id}`);
    assert.equal(viewed.body.status, 'approved');
    assert.equal(viewed.body.note, undefined);
    assert.equal(await reviewStatus(t, team.tenantId, h.invocation_id), 'approved');
    assert.equal((await get(t, team.admin.token, '/api/v1/approvals')).body.items.length, 0);
    assert.equal((await get(t, team.admin.token, '/api/v1/approvals?status=approved')).body.items.length, 1);

    // The decision's leaf commits to the stored note; the review item's leaf goes with it.
    const row = await storedApproval(t, team.tenantId, id);
    const ev = await get(t, team.auditor.token, `/api/v1/audit/evidence/${body.decision_evidence_id}`);
    assert.deepEqual(JSON.parse(ev.body.leaf), {
      v: 2,
      kind: 'approval_decided',
      approval_id: id,
      invocation_id: h.invocation_id,
      decision: 'approve',
      note: commitment(new Uint8Array(row!.note_salt!), row!.note!),
      by_account_id: team.operator.account.id,
      tenant_id: team.tenantId,
      time: t.clock.now().toISOString(),
    });
    assert.doesNotMatch(ev.raw, /jane@example/);
    const kinds = (await leaves(t, team.admin.token)).map((l) => l.kind);
    assert.deepEqual(
      kinds.filter((k) => String(k).startsWith('approval') || k === 'review'),
      ['approval_requested', 'approval_decided', 'review'],
    );

    for (const again of ['approve', 'deny']) {
      const r = await decide(t, team.admin.token, id, { decision: again });
      assertProblem(r, 409);
    }
    assert.equal((await storedApproval(t, team.tenantId, id))!.status, 'approved');
    await assertLogVerifies(t, team);
  });

  test('deny: the approval denied, its review item rejected', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-deny');
    await setPolicy(t, team.admin.token, [HOLD_PAYMENTS]);
    const h = await held(t, team.admin.token);
    const res = await decide(t, team.admin.token, h.approval!.approval_id, { decision: 'deny', note: 'no' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'denied');
    assert.equal(res.json().note, 'no');
    assert.equal(await reviewStatus(t, team.tenantId, h.invocation_id), 'rejected');
    assert.equal((await get(t, team.admin.token, '/api/v1/approvals?status=denied')).body.items.length, 1);
  });

  test('expiry is a deny: the expiry job expires it when the hold runs out; a decision after expiry is 409', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-expire');
    await setPolicy(t, team.admin.token, [{ ...HOLD_PAYMENTS, hold_seconds: 1 }]);
    const h = await held(t, team.admin.token);
    const id = h.approval!.approval_id;
    // Not due yet: the job leaves it pending.
    await t.service.jobs.drain();
    assert.equal((await storedApproval(t, team.tenantId, id))!.status, 'pending');
    // The job is due after a second on the database's clock; the service's clock moves past expires_at too.
    await new Promise((r) => setTimeout(r, 1_100));
    t.clock.advance(1_000);
    await t.service.jobs.drain();
    assert.equal((await storedApproval(t, team.tenantId, id))!.status, 'expired');
    const read = await get(t, team.admin.token, `/api/v1/approvals/${id}`);
    assert.equal(read.body.status, 'expired');
    assert.equal(read.body.decided_by, null);
    assert.equal(read.body.decided_at, t.clock.now().toISOString());
    assert.equal(await reviewStatus(t, team.tenantId, h.invocation_id), 'rejected');
    const r = await decide(t, team.admin.token, id, { decision: 'approve' });
    assertProblem(r, 409);
    assert.match(r.json().detail, /expired/);
    const ev = await get(t, team.auditor.token, `/api/v1/audit/evidence/${read.body.decision_evidence_id}`);
    assert.deepEqual(JSON.parse(ev.body.leaf), {
      v: 2,
      kind: 'approval_expired',
      approval_id: id,
      invocation_id: h.invocation_id,
      tenant_id: team.tenantId,
      time: t.clock.now().toISOString(),
    });
    await assertLogVerifies(t, team);
  });

  test('a decision after expires_at is 409 even before the expiry job ran: the approval is expired then and there', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-late');
    await setPolicy(t, team.admin.token, [{ ...HOLD_PAYMENTS, hold_seconds: 60 }]);
    const h = await held(t, team.admin.token);
    t.clock.advance(60_000);
    const r = await decide(t, team.operator.token, h.approval!.approval_id, { decision: 'approve' });
    assertProblem(r, 409);
    assert.equal((await storedApproval(t, team.tenantId, h.approval!.approval_id))!.status, 'expired');
    assert.equal(await reviewStatus(t, team.tenantId, h.invocation_id), 'rejected');
    // A poll past its time sees it expired as well (another approval, never decided).
    const h2 = await held(t, team.admin.token);
    t.clock.advance(60_000);
    const read = await get(t, team.admin.token, `/api/v1/approvals/${h2.approval!.approval_id}?wait=5`);
    assert.equal(read.body.status, 'expired');
  });

  test('the long poll answers as soon as the approval is decided, and when its wait is over', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-poll');
    await setPolicy(t, team.admin.token, [HOLD_PAYMENTS]);
    const h = await held(t, team.admin.token);
    const id = h.approval!.approval_id;

    let start = Date.now();
    const idle = await get(t, team.admin.token, `/api/v1/approvals/${id}?wait=1`);
    const idleMs = Date.now() - start;
    assert.equal(idle.body.status, 'pending');
    assert.ok(idleMs >= 950 && idleMs < 3_000, `waited ${idleMs} ms`);

    start = Date.now();
    const polling = get(t, team.admin.token, `/api/v1/approvals/${id}?wait=30`);
    await new Promise((r) => setTimeout(r, 300));
    const decidedAt = Date.now();
    assert.equal((await decide(t, team.operator.token, id, { decision: 'approve' })).statusCode, 200);
    const answered = await polling;
    const lagMs = Date.now() - decidedAt;
    assert.equal(answered.status, 200);
    assert.equal(answered.body.status, 'approved');
    assert.ok(lagMs < 1_000, `answered ${lagMs} ms after the decision`);
    assert.ok(Date.now() - start < 5_000);
  });

  test('who reads: the recording ingress token its own, other tokens and workspaces 404; viewers and auditors cannot decide', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'hold-access');
    const other = await newTeam(t, 'hold-access-other');
    await setPolicy(t, team.admin.token, [HOLD_PAYMENTS]);
    const issue = async (name: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/ingress-tokens',
        token: team.admin.token,
        payload: { name },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().token as string;
    };
    const mine = await issue('gate');
    const theirs = await issue('other gate');
    const h = await held(t, mine);
    const byApi = await held(t, team.admin.token);
    const id = h.approval!.approval_id;

    const own = await get(t, mine, `/api/v1/approvals/${id}`);
    assert.equal(own.status, 200, own.raw);
    assert.equal(own.body.invocation_id, h.invocation_id);
    assert.deepEqual(
      (await get(t, mine, '/api/v1/approvals')).body.items.map((a: { approval_id: string }) => a.approval_id),
      [id],
    );
    assertProblem(await t.request({ method: 'GET', url: `/api/v1/approvals/${id}`, token: theirs }), 404);
    assert.deepEqual((await get(t, theirs, '/api/v1/approvals')).body.items, []);
    assertProblem(
      await t.request({ method: 'GET', url: `/api/v1/approvals/${byApi.approval!.approval_id}`, token: mine }),
      404,
    );
    // Every role of the workspace reads all of them.
    for (const who of [team.admin, team.operator, team.viewer, team.auditor])
      assert.equal((await get(t, who.token, '/api/v1/approvals')).body.items.length, 2);
    // Another workspace: 404 and an empty list, for reads and decisions alike.
    assertProblem(await t.request({ method: 'GET', url: `/api/v1/approvals/${id}`, token: other.admin.token }), 404);
    assert.deepEqual((await get(t, other.admin.token, '/api/v1/approvals')).body.items, []);
    assertProblem(await decide(t, other.admin.token, id, { decision: 'approve' }), 404);
    // Only admins and operators decide; an ingress token cannot either.
    for (const who of [team.viewer.token, team.auditor.token, mine])
      assertProblem(await decide(t, who, id, { decision: 'approve' }), 403);
    assertProblem(await t.request({ method: 'GET', url: '/api/v1/approvals' }), 401);
    assertProblem(await decide(t, team.admin.token, id, { decision: 'maybe' }), 422);
    assertProblem(
      await t.request({ method: 'GET', url: `/api/v1/approvals/${id}?wait=61`, token: team.admin.token }),
      422,
    );
    assert.equal((await storedApproval(t, team.tenantId, id))!.status, 'pending');
  });
});
