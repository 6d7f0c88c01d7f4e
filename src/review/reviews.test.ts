import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commitment } from '../ledger/leaf.ts';
import { eachStore, OPERATOR_TOKEN } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';
import { setSubscription } from '../testing/workspace.ts';
import { all, get, invoke, leaves, newTeam, quietJobs, REVIEW_PAYMENTS, setPolicy } from '../testing/review-kit.ts';

const decide = (id: number) => `/api/v1/reviews/${id}`;

eachStore(
  'read side: the review queue',
  (getT) => {
    test('a flagged invocation is pending until a decision; the decision is stored, committed in a review leaf, and final', async () => {
      const t = getT();
      await quietJobs(t);
      const team = await newTeam(t, 'rev-basic');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      const flagged = await invoke(t, team.admin.token, { agent_key: 'payer', tool_name: 'payments.refund' });
      const allowed = await invoke(t, team.admin.token, { agent_key: 'payer', tool_name: 'search' });
      assert.equal(flagged.verdict, 'flag_for_review');

      const queue = await get(t, team.viewer.token, '/api/v1/reviews');
      assert.equal(queue.status, 200);
      assert.deepEqual(
        queue.body.items.map((i: { invocation_id: number }) => i.invocation_id),
        [flagged.invocation_id],
      );
      assert.equal(queue.body.items[0].review_status, 'pending');
      assert.equal(queue.body.items[0].review, null);
      assert.equal(queue.body.items[0].evidence_id, flagged.evidence_id);

      // Not in the queue: never flagged.
      assertProblem(
        await t.request({
          method: 'POST',
          url: decide(allowed.invocation_id),
          token: team.admin.token,
          payload: { decision: 'approve' },
        }),
        409,
        'conflict',
      );

      t.clock.advance(60_000);
      const sentNote = 'Refund matches ticket #7; customer is jane@example.com';
      // Stored (and committed to) redacted, like content.
      const note = 'Refund matches ticket #7; customer is <EMAIL_ADDRESS>';
      const res = await t.request({
        method: 'POST',
        url: decide(flagged.invocation_id),
        token: team.operator.token,
        payload: { decision: 'approve', note: sentNote },
      });
      assert.equal(res.statusCode, 201, res.body);
      const done = res.json();
      assert.deepEqual(
        { ...done, evidence_id: typeof done.evidence_id },
        {
          invocation_id: flagged.invocation_id,
          review_status: 'approved',
          decision: 'approve',
          note,
          decided_by: team.operator.account.id,
          decided_at: t.clock.now().toISOString(),
          evidence_id: 'number',
        },
      );

      // Stored rows.
      const [row] = await t.testDb.db.query<{
        decision: string;
        note: string;
        note_salt: Uint8Array;
        decided_by: string;
        decided_at: Date;
        log_index: number;
      }>(
        'SELECT decision, note, note_salt, decided_by, decided_at, log_index FROM reviews WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, flagged.invocation_id],
      );
      assert.equal(row!.decision, 'approve');
      assert.equal(row!.note, note);
      assert.equal(row!.decided_by, team.operator.account.id);
      assert.equal(row!.decided_at.toISOString(), t.clock.now().toISOString());
      assert.equal(row!.log_index + 1, done.evidence_id);
      const [inv] = await t.testDb.db.query<{ review_status: string }>(
        'SELECT review_status FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, flagged.invocation_id],
      );
      assert.equal(inv!.review_status, 'approved');

      // The leaf: kind, invocation, decision, who, and a salted commitment to the note — never the note.
      const ev = await get(t, team.auditor.token, `/api/v1/audit/evidence/${done.evidence_id}`);
      assert.equal(ev.status, 200, ev.raw);
      const leaf = JSON.parse(ev.body.leaf);
      assert.deepEqual(leaf, {
        v: 2,
        kind: 'review',
        invocation_id: flagged.invocation_id,
        decision: 'approve',
        note: commitment(new Uint8Array(row!.note_salt), note),
        by_account_id: team.operator.account.id,
        tenant_id: team.tenantId,
        time: t.clock.now().toISOString(),
      });
      assert.doesNotMatch(ev.raw, /jane@example|ticket #7/);
      assert.equal((await leaves(t, team.admin.token)).filter((l) => l.kind === 'review').length, 1);

      // Final: a second decision, either way, by anyone, is 409 and changes nothing.
      for (const [who, decision] of [
        [team.admin, 'reject'],
        [team.operator, 'approve'],
      ] as const) {
        const again = await t.request({
          method: 'POST',
          url: decide(flagged.invocation_id),
          token: who.token,
          payload: { decision },
        });
        const p = assertProblem(again, 409, 'conflict');
        assert.match(p.detail, /approved/);
      }
      assert.equal((await leaves(t, team.admin.token)).filter((l) => l.kind === 'review').length, 1);

      // The queue is empty; the decision is listed under approved.
      assert.deepEqual((await get(t, team.admin.token, '/api/v1/reviews?status=pending')).body.items, []);
      const approved = (await get(t, team.auditor.token, '/api/v1/reviews?status=approved')).body.items;
      assert.equal(approved.length, 1);
      assert.deepEqual(approved[0].review, {
        decision: 'approve',
        note,
        note_erased: false,
        decided_by: team.operator.account.id,
        decided_by_panel: false,
        decided_at: t.clock.now().toISOString(),
        evidence_id: done.evidence_id,
      });
      // Viewers see the decision without its note.
      const forViewer = (await get(t, team.viewer.token, '/api/v1/reviews?status=approved')).body.items[0];
      assert.equal(forViewer.review.note, undefined);
      assert.equal(forViewer.review.decision, 'approve');
      assert.deepEqual((await get(t, team.admin.token, '/api/v1/reviews?status=rejected')).body.items, []);
    });

    test('rejecting, an empty or missing note, notes up to 2,000 characters, and the queue in pages', async () => {
      const t = getT();
      const team = await newTeam(t, 'rev-notes');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      const ids: number[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await invoke(t, team.admin.token, { agent_key: `p${i}`, tool_name: 'payments.x' })).invocation_id);
      const { items } = await all(t, team.viewer.token, '/api/v1/reviews?status=pending', 2);
      assert.deepEqual(
        items.map((i: { invocation_id: number }) => i.invocation_id),
        [...ids].reverse(),
      );

      const emoji = '😀'.repeat(2000); // 2,000 code points, 4,000 UTF-16 units
      const cases: Array<[number, Record<string, unknown>, string]> = [
        [ids[0]!, { decision: 'reject', note: emoji }, emoji],
        [ids[1]!, { decision: 'reject' }, ''],
        [ids[2]!, { decision: 'approve', note: '' }, ''],
      ];
      for (const [id, payload, note] of cases) {
        const res = await t.request({ method: 'POST', url: decide(id), token: team.admin.token, payload });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().note, note);
        assert.equal(res.json().review_status, payload.decision === 'approve' ? 'approved' : 'rejected');
      }
      const rejected = (await get(t, team.admin.token, '/api/v1/reviews?status=rejected')).body.items;
      assert.deepEqual(
        rejected.map((i: { invocation_id: number }) => i.invocation_id),
        [ids[1], ids[0]],
      );
      assert.equal(rejected[1].review.note, emoji);
      assert.equal((await get(t, team.admin.token, '/api/v1/reviews')).body.items.length, 2, 'the default is pending');

      // Invalid bodies: 422 (or 400 for a body that is not an object), nothing decided.
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ decision: 'reject', note: `${emoji}x` }, '/note'],
        [{ decision: 'maybe' }, '/decision'],
        [{ note: 'no decision' }, '/decision'],
        [{ decision: 'approve', note: 5 }, '/note'],
        [{ decision: 'approve', note: null }, '/note'],
        [{ decision: 'approve', note: 'nul \u0000 here' }, '/note'],
      ];
      for (const [payload, field] of bad) {
        assertFieldErrors(await t.request({ method: 'POST', url: decide(ids[3]!), token: team.admin.token, payload }), [
          field,
        ]);
      }
      assertProblem(
        await t.request({
          method: 'POST',
          url: decide(ids[3]!),
          token: team.admin.token,
          headers: { 'content-type': 'application/json' },
          payload: '["approve"]',
        }),
        400,
        'bad_request',
      );
      assertFieldErrors(
        await t.request({ method: 'GET', url: '/api/v1/reviews?status=done', token: team.admin.token }),
        ['/status'],
      );
      const [row] = await t.testDb.db.query<{ review_status: string }>(
        'SELECT review_status FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, ids[3]],
      );
      assert.equal(row!.review_status, 'pending');
    });

    test("404 for unknown or another workspace's invocations; 403 for viewers and auditors; 402 when the account is not active", async () => {
      const t = getT();
      const team = await newTeam(t, 'rev-gate');
      const other = await t.signIn('admin@rev-gate-other.review-tests.dev');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      await setPolicy(t, other.token, [REVIEW_PAYMENTS]);
      const mine = await invoke(t, team.admin.token, { agent_key: 'p', tool_name: 'payments.x' });
      // Ids are per workspace: theirs gets an id this workspace does not have.
      for (let i = 0; i < 2; i++) await invoke(t, other.token, { agent_key: 'p' });
      const theirs = await invoke(t, other.token, { agent_key: 'p', tool_name: 'payments.x' });
      assert.ok(theirs.invocation_id > mine.invocation_id);

      assertProblem(
        await t.request({
          method: 'POST',
          url: decide(theirs.invocation_id),
          token: team.admin.token,
          payload: { decision: 'approve' },
        }),
        404,
        'not_found',
      );
      assertProblem(
        await t.request({
          method: 'POST',
          url: decide(99_999_999),
          token: team.admin.token,
          payload: { decision: 'approve' },
        }),
        404,
        'not_found',
      );
      for (const id of ['0', 'x', '-3']) {
        assertProblem(
          await t.request({
            method: 'POST',
            url: `/api/v1/reviews/${id}`,
            token: team.admin.token,
            payload: { decision: 'approve' },
          }),
          404,
        );
      }
      for (const who of [team.viewer, team.auditor]) {
        assertProblem(
          await t.request({
            method: 'POST',
            url: decide(mine.invocation_id),
            token: who.token,
            payload: { decision: 'approve' },
          }),
          403,
          'forbidden',
        );
      }
      assertProblem(
        await t.request({ method: 'POST', url: decide(mine.invocation_id), payload: { decision: 'approve' } }),
        401,
        'unauthorized',
      );
      // The other workspace's item is still pending in its own queue, untouched.
      assert.equal((await get(t, other.token, '/api/v1/reviews')).body.items[0].invocation_id, theirs.invocation_id);

      await setSubscription(t, OPERATOR_TOKEN, team.tenantId, { subscription_status: 'past_due' });
      assertProblem(
        await t.request({
          method: 'POST',
          url: decide(mine.invocation_id),
          token: team.operator.token,
          payload: { decision: 'approve' },
        }),
        402,
        'payment_required',
      );
      // Reads keep working for a lapsed workspace.
      assert.equal((await get(t, team.viewer.token, '/api/v1/reviews')).body.items.length, 1);
      await setSubscription(t, OPERATOR_TOKEN, team.tenantId, { subscription_status: 'active' });
      const ok = await t.request({
        method: 'POST',
        url: decide(mine.invocation_id),
        token: team.operator.token,
        payload: { decision: 'approve' },
      });
      assert.equal(ok.statusCode, 201, ok.body);
      const count = await t.testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM reviews WHERE tenant_id = $1',
        [team.tenantId],
      );
      assert.equal(count[0]!.n, 1);
    });

    test('flagged by the tool_output scan: pending after the scan; shadow mode never enters the queue', async () => {
      const t = getT();
      await quietJobs(t);
      const team = await newTeam(t, 'rev-scan');
      await setPolicy(t, team.admin.token, [
        REVIEW_PAYMENTS,
        {
          id: 'pii-in-output',
          when: { finding_categories: ['pii'], fields: ['tool_output'] },
          verdict: 'flag_for_review',
        },
      ]);
      const r = await invoke(t, team.admin.token, {
        agent_key: 'fetcher',
        tool_name: 'crm.read',
        tool_output: 'found ana.lopez@example.net',
      });
      assert.equal(r.verdict, 'allow');
      const shadow = await invoke(t, team.admin.token, {
        agent_key: 'fetcher',
        tool_name: 'payments.x',
        mode: 'shadow',
      });
      assert.equal(shadow.verdict, 'flag_for_review');
      assert.deepEqual((await get(t, team.admin.token, '/api/v1/reviews')).body.items, []);
      assertProblem(
        await t.request({
          method: 'POST',
          url: decide(r.invocation_id),
          token: team.admin.token,
          payload: { decision: 'approve' },
        }),
        409,
      );

      await t.service.jobs.drain();
      const queue = (await get(t, team.admin.token, '/api/v1/reviews')).body.items;
      assert.deepEqual(
        queue.map((i: { invocation_id: number }) => i.invocation_id),
        [r.invocation_id],
      );
      assert.equal(queue[0].verdict, 'allow');
      assert.equal(queue[0].output_scan_verdict, 'flag_for_review');
      const res = await t.request({
        method: 'POST',
        url: decide(r.invocation_id),
        token: team.admin.token,
        payload: { decision: 'reject', note: 'leaked an address' },
      });
      assert.equal(res.statusCode, 201, res.body);
      assertProblem(
        await t.request({
          method: 'POST',
          url: decide(shadow.invocation_id),
          token: team.admin.token,
          payload: { decision: 'reject' },
        }),
        409,
      );
      const rec = (await get(t, team.admin.token, `/api/v1/invocations/${r.invocation_id}`)).body;
      assert.equal(rec.review_status, 'rejected');
      assert.equal(rec.review.note, 'leaked an address');
    });

    test('two reviewers deciding at once: one decision wins, the other gets 409', async () => {
      const t = getT();
      const team = await newTeam(t, 'rev-race');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      for (let round = 0; round < 3; round++) {
        const r = await invoke(t, team.admin.token, { agent_key: 'p', tool_name: 'payments.x' });
        const results = await Promise.all([
          t.request({
            method: 'POST',
            url: decide(r.invocation_id),
            token: team.admin.token,
            payload: { decision: 'approve' },
          }),
          t.request({
            method: 'POST',
            url: decide(r.invocation_id),
            token: team.operator.token,
            payload: { decision: 'reject' },
          }),
        ]);
        assert.deepEqual(results.map((x) => x.statusCode).sort(), [201, 409]);
        const winner = results.find((x) => x.statusCode === 201)!.json();
        const [row] = await t.testDb.db.query<{ review_status: string }>(
          'SELECT review_status FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
          [team.tenantId, r.invocation_id],
        );
        assert.equal(row!.review_status, winner.review_status);
      }
      const reviewLeaves = (await leaves(t, team.admin.token)).filter((l) => l.kind === 'review');
      assert.equal(reviewLeaves.length, 3);
    });
  },
  { manualJobs: true },
);
