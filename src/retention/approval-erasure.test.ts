// Approvals hold personal data in one place of their own: the note a person
// wrote when deciding a held call. An erasure for a data subject deletes the
// notes (and their salts) of its invocations' approvals with the rest of its
// content, retention deletes them by the decision's time; the decisions stay
// and the whole log still verifies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dumpTables } from '../testing/db-dump.ts';
import { eachStore, OPERATOR_TOKEN, type TestService } from '../testing/harness.ts';
import { assertLogVerifies, get, INVOKE, leaves, newTeam, quietJobs, setPolicy } from '../testing/review-kit.ts';
import { setSubscription } from '../testing/workspace.ts';

const SUBJECT = 'subject-greta-51c';
const HOLD = { id: 'hold-refunds', when: { tools: ['payments.*'] }, verdict: 'allow', hold: true, hold_seconds: 600 };

async function held(t: TestService, token: string, principal: string, marker: string) {
  const res = await t.request({
    method: 'POST',
    url: INVOKE,
    token,
    payload: {
      agent_key: 'refund-bot',
      principal_id: principal,
      tool_name: 'payments.refund',
      mode: 'enforced',
      tool_input: `{"customer": "${marker.toLowerCase()}@example.com", "amount": 40}`,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json() as { invocation_id: number; approval: { approval_id: string } };
  assert.ok(body.approval, 'held');
  return { invocationId: body.invocation_id, approvalId: body.approval.approval_id };
}

async function decide(t: TestService, token: string, id: string, decision: string, note: string) {
  const res = await t.request({
    method: 'POST',
    url: `/api/v1/approvals/${id}/decision`,
    token,
    payload: { decision, note },
  });
  assert.equal(res.statusCode, 200, res.body);
}

async function stored(t: TestService, tenantId: string, id: string) {
  const [row] = await t.testDb.db.withTenant(tenantId, (tx) =>
    tx.query<{ status: string; decided_by: string | null; note: string | null; salt: string | null; erased: boolean }>(
      `SELECT status, decided_by, note, encode(note_salt, 'hex') AS salt, note_erased_at IS NOT NULL AS erased
       FROM approvals WHERE tenant_id = $1 AND approval_id = $2`,
      [tenantId, id],
    ),
  );
  return row!;
}

eachStore('approval notes: erasure and retention', (getT) => {
  test("an erasure deletes the subject's approval notes and salts; the decisions, other subjects' notes and the log stay", async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'approval-erasure');
    await setPolicy(t, team.admin.token, [HOLD]);
    const greta = await held(t, team.admin.token, SUBJECT, 'GRETAMARK');
    const gretaDenied = await held(t, team.admin.token, SUBJECT, 'GRETAMARK2');
    const gretaPending = await held(t, team.admin.token, SUBJECT, 'GRETAMARK3');
    const other = await held(t, team.admin.token, 'subject-hugo', 'HUGOMARK');
    await decide(t, team.operator.token, greta.approvalId, 'approve', 'APPNOTEMARK Greta phoned, refund is fine');
    await decide(t, team.admin.token, gretaDenied.approvalId, 'deny', 'APPNOTEMARK2 not for Greta');
    await decide(t, team.admin.token, other.approvalId, 'approve', 'HUGONOTE refund ok');
    const salts = [
      (await stored(t, team.tenantId, greta.approvalId)).salt!,
      (await stored(t, team.tenantId, gretaDenied.approvalId)).salt!,
    ];
    const before = (await dumpTables(t.testDb.db)).text;
    for (const s of ['APPNOTEMARK', 'APPNOTEMARK2', ...salts]) assert.ok(before.includes(s), `stored: ${s}`);
    const decidedAt = (await get(t, team.admin.token, `/api/v1/approvals/${greta.approvalId}`)).body.decided_at;

    const res = await t.request({
      method: 'POST',
      url: '/api/v1/workspace/erasures',
      token: team.admin.token,
      payload: { principal_id: SUBJECT },
    });
    assert.equal(res.statusCode, 201, res.body);
    // The counts keep their shape (the leaf's): the approvals' review items' notes are the review notes.
    assert.deepEqual(res.json().counts, { invocations: 3, fields: 3, review_notes: 2 });

    const dump = (await dumpTables(t.testDb.db)).text;
    for (const gone of ['APPNOTEMARK', 'GRETAMARK', 'gretamark', ...salts])
      assert.ok(!dump.includes(gone), `the dump still holds ${gone.slice(0, 16)}`);
    assert.ok(dump.includes('HUGONOTE refund ok'), "another subject's note stays");

    // The decisions stay, told as erased notes; the API shows what is left.
    for (const [id, status] of [
      [greta.approvalId, 'approved'],
      [gretaDenied.approvalId, 'denied'],
    ] as const) {
      const row = await stored(t, team.tenantId, id);
      assert.deepEqual([row.status, row.note, row.salt, row.erased], [status, null, null, true]);
      const view = (await get(t, team.admin.token, `/api/v1/approvals/${id}`)).body;
      assert.equal(view.status, status);
      assert.equal(view.note, undefined);
      assert.equal(view.note_erased, true);
    }
    const approved = (await get(t, team.admin.token, `/api/v1/approvals/${greta.approvalId}`)).body;
    assert.equal(approved.decided_by, team.operator.account.id);
    assert.equal(approved.decided_at, decidedAt);
    // A pending approval had no note: nothing to erase, and it can still be decided.
    assert.equal((await stored(t, team.tenantId, gretaPending.approvalId)).erased, false);
    const hugo = (await get(t, team.admin.token, `/api/v1/approvals/${other.approvalId}`)).body;
    assert.deepEqual([hugo.note, hugo.note_erased], ['HUGONOTE refund ok', undefined]);

    // The log is untouched: every leaf, the approval_decided ones with their commitments, verifies.
    const kinds = (await leaves(t, team.admin.token)).map((l) => l.kind);
    assert.equal(kinds.filter((k) => k === 'approval_decided').length, 3);
    assert.equal(kinds.at(-1), 'erasure');
    await assertLogVerifies(t, team);
  });

  test('retention deletes approval notes decided before its cutoff, with the content', async () => {
    const t = getT();
    await quietJobs(t);
    const team = await newTeam(t, 'approval-retention');
    await setPolicy(t, team.admin.token, [HOLD]);
    // Writes go on past the trial: the workspace pays.
    await setSubscription(t, OPERATOR_TOKEN, team.tenantId, { plan_tier: 'team', subscription_status: 'active' });
    const old = await held(t, team.admin.token, 'subject-ida', 'IDAMARK');
    await decide(t, team.admin.token, old.approvalId, 'approve', 'OLDAPPNOTE fine');
    t.clock.advance(400 * 86_400_000); // the default retention: 400 days
    const fresh = await held(t, team.admin.token, 'subject-jon', 'JONMARK');
    await decide(t, team.admin.token, fresh.approvalId, 'deny', 'FRESHAPPNOTE no');
    t.clock.advance(86_400_000);
    await t.service.retention.sweepAll();
    const gone = await stored(t, team.tenantId, old.approvalId);
    assert.deepEqual([gone.status, gone.note, gone.salt, gone.erased], ['approved', null, null, true]);
    const kept = await stored(t, team.tenantId, fresh.approvalId);
    assert.deepEqual([kept.note, kept.erased], ['FRESHAPPNOTE no', false]);
    const dump = (await dumpTables(t.testDb.db)).text;
    assert.ok(!dump.includes('OLDAPPNOTE') && dump.includes('FRESHAPPNOTE'));
    await assertLogVerifies(t, team);
  });
});
