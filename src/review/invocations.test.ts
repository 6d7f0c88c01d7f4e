import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';
import { all, DENY_SHELL, get, invoke, newTeam, quietJobs, REVIEW_PAYMENTS, setPolicy } from '../testing/review-kit.ts';

const LIST = '/api/v1/invocations';

eachStore(
  'read side: invocations',
  (getT) => {
    test('lists newest first with each filter; keyset pages neither skip nor repeat rows, even at equal timestamps', async () => {
      const t = getT();
      const team = await newTeam(t, 'inv-list');
      const token = team.admin.token;
      await setPolicy(t, token, [REVIEW_PAYMENTS, DENY_SHELL]);
      // 13 invocations: several share a timestamp (the clock stands still), others a second apart.
      const plan = [
        { agent_key: 'alpha', tool_name: 'search', correlation_id: 'run-a' },
        { agent_key: 'alpha', tool_name: 'payments.refund', correlation_id: 'run-a' },
        { agent_key: 'beta', tool_name: 'shell.exec', mode: 'enforced' },
        { agent_key: 'beta', tool_name: 'search', mode: 'shadow' },
        { agent_key: 'alpha', tool_name: 'shell.rm', correlation_id: 'run-b' },
        { agent_key: 'gamma' },
        { agent_key: 'beta', tool_name: 'payments.charge', mode: 'shadow' },
        { agent_key: 'alpha', correlation_id: 'run-a' },
        { agent_key: 'gamma', tool_name: 'payments.refund', mode: 'enforced' },
        { agent_key: 'beta' },
        { agent_key: 'alpha', mode: 'enforced', correlation_id: 'run-b' },
        { agent_key: 'gamma', tool_name: 'shell.exec' },
        { agent_key: 'beta', correlation_id: 'run-a' },
      ];
      const start = t.clock.now().getTime();
      const made: Array<{
        id: number;
        at: number;
        agent_key: string;
        mode: string;
        verdict: string;
        correlation_id?: string;
      }> = [];
      for (const [i, p] of plan.entries()) {
        if (i % 3 === 0) t.clock.advance(1000);
        const r = await invoke(t, token, p);
        made.push({
          id: r.invocation_id,
          at: t.clock.now().getTime(),
          agent_key: p.agent_key,
          mode: p.mode ?? 'observed',
          verdict: r.verdict,
          ...(p.correlation_id ? { correlation_id: p.correlation_id } : {}),
        });
      }
      const newestFirst = [...made].sort((a, b) => b.at - a.at || b.id - a.id);
      const ids = (xs: Array<{ id: number }>) => xs.map((x) => x.id);

      // Every page size gives the same sequence.
      for (const limit of [1, 2, 5, 13, 50]) {
        const { items, pages } = await all(t, token, LIST, limit);
        assert.deepEqual(
          items.map((x) => x.invocation_id),
          ids(newestFirst),
          `limit ${limit}`,
        );
        // One extra row is read per page, so a full last page ends the list without an empty page after it.
        assert.equal(pages, Math.ceil(made.length / limit), `limit ${limit}`);
      }
      const first = await get(t, token, `${LIST}?limit=13`);
      assert.equal(first.body.next_cursor, null, 'no cursor when the page holds the last row');

      const cases: Array<[string, (m: (typeof made)[number]) => boolean]> = [
        ['agent_key=alpha', (m) => m.agent_key === 'alpha'],
        ['verdict=deny', (m) => m.verdict === 'deny'],
        ['verdict=flag_for_review', (m) => m.verdict === 'flag_for_review'],
        ['verdict=allow', (m) => m.verdict === 'allow'],
        ['mode=shadow', (m) => m.mode === 'shadow'],
        ['mode=enforced', (m) => m.mode === 'enforced'],
        ['correlation_id=run-a', (m) => m.correlation_id === 'run-a'],
        ['correlation_id=nope', () => false],
        ['agent_key=beta&mode=shadow', (m) => m.agent_key === 'beta' && m.mode === 'shadow'],
        [`since=${new Date(start + 2000).toISOString()}`, (m) => m.at >= start + 2000],
        [`until=${new Date(start + 3000).toISOString()}`, (m) => m.at < start + 3000],
        [
          `since=${new Date(start + 2000).toISOString()}&until=${new Date(start + 4000).toISOString()}`,
          (m) => m.at >= start + 2000 && m.at < start + 4000,
        ],
        [
          `agent_key=gamma&verdict=deny&since=${new Date(start).toISOString()}`,
          (m) => m.agent_key === 'gamma' && m.verdict === 'deny',
        ],
      ];
      for (const [query, keep] of cases) {
        const { items } = await all(t, token, `${LIST}?${query}`, 2);
        assert.deepEqual(
          items.map((x) => x.invocation_id),
          ids(newestFirst.filter(keep)),
          query,
        );
      }
      // The shadow-mode deny and flag still carry their verdicts; only the review queue ignores them.
      const shadowFlag = made.find((m) => m.mode === 'shadow' && m.verdict === 'flag_for_review');
      assert.ok(shadowFlag, 'a shadow-mode invocation was flagged');

      // Items carry the metadata and evidence, never content.
      const one = (await get(t, token, `${LIST}?correlation_id=run-b&limit=1`)).body.items[0];
      const [row] = await t.testDb.db.query<{ log_index: number; reasons: string[] }>(
        'SELECT log_index, reasons FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, one.invocation_id],
      );
      assert.equal(one.evidence_id, row!.log_index + 1);
      assert.deepEqual(one.reasons, row!.reasons);
      assert.equal(one.correlation_id, 'run-b');
      assert.equal(one.content, undefined);
      assert.match(one.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // A JSON event names no time of its own: it happened when it was recorded.
      assert.equal(one.occurred_at, one.created_at);
      const [kept] = await t.testDb.db.query<{ occurred_at: Date | null }>(
        'SELECT occurred_at FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, one.invocation_id],
      );
      assert.equal(kept!.occurred_at, null, 'nothing stored beside created_at (and nothing in its leaf meta)');
      const occurred = (query: string) => all(t, token, `${LIST}?${query}`, 5);
      assert.deepEqual(
        (await occurred(`occurred_from=${new Date(start + 2000).toISOString()}`)).items.map((x) => x.invocation_id),
        ids(newestFirst.filter((m) => m.at >= start + 2000)),
      );
      assert.deepEqual(
        (await occurred(`occurred_to=${new Date(start + 3000).toISOString()}&agent_key=beta`)).items.map(
          (x) => x.invocation_id,
        ),
        ids(newestFirst.filter((m) => m.at < start + 3000 && m.agent_key === 'beta')),
      );
    });

    test('bad filters, limits and cursors are 422 with the field', async () => {
      const t = getT();
      const team = await newTeam(t, 'inv-bad');
      const token = team.viewer.token;
      const bad: Array<[string, string]> = [
        ['limit=0', '/limit'],
        ['limit=501', '/limit'],
        ['limit=1.5', '/limit'],
        ['limit=ten', '/limit'],
        ['verdict=maybe', '/verdict'],
        ['mode=live', '/mode'],
        ['since=yesterday', '/since'],
        ['until=2026-06-01', '/until'],
        ['since=2026-06-02T00:00:00Z&until=2026-06-01T00:00:00Z', '/until'],
        ['since=2026-06-01T00:00:00Z&until=2026-06-01T00:00:00Z', '/until'],
        ['occurred_from=yesterday', '/occurred_from'],
        ['occurred_from=2026-06-02T00:00:00Z&occurred_to=2026-06-01T00:00:00Z', '/occurred_to'],
        ['cursor=%%%', '/cursor'],
        [`cursor=${Buffer.from('["x", 1]').toString('base64url')}`, '/cursor'],
        [`cursor=${Buffer.from('[1.5, 1]').toString('base64url')}`, '/cursor'],
        [`cursor=${Buffer.from('{"a":1}').toString('base64url')}`, '/cursor'],
        ['agent_key=a%00b', '/agent_key'],
        [`correlation_id=${'x'.repeat(65)}`, '/correlation_id'],
        ['agent_key=', '/agent_key'],
      ];
      for (const [query, field] of bad) {
        const res = await t.request({ method: 'GET', url: `${LIST}?${query}`, token });
        assertFieldErrors(res, [field]);
      }
      // Accepted: offsets other than Z, microseconds, the largest page.
      for (const query of ['since=2026-06-01T14:00:00.123456%2B02:00', 'limit=500', 'until=2030-01-01T00:00:00Z']) {
        const res = await t.request({ method: 'GET', url: `${LIST}?${query}`, token });
        assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      }
    });

    test('the record: metadata, redacted content with finding offsets, verdict and reasons, review state, evidence, output scan', async () => {
      const t = getT();
      await quietJobs(t);
      const team = await newTeam(t, 'inv-record');
      const token = team.admin.token;
      await setPolicy(t, token, [REVIEW_PAYMENTS]);
      const r = await invoke(t, token, {
        agent_key: 'billing-bot',
        tool_name: 'payments.refund',
        mode: 'enforced',
        outcome: 'error',
        duration_ms: 42,
        principal_kind: 'user',
        principal_id: 'u-7',
        correlation_id: 'run-42',
        prompt: 'Refund the order of jane.doe@example.com please',
        tool_input: '{"email":"jane.doe@example.com","amount":12}',
        tool_output: 'charged card 4111 1111 1111 1111',
      });
      assert.equal(r.verdict, 'flag_for_review');
      const url = `${LIST}/${r.invocation_id}`;

      const before = await get(t, token, url);
      assert.equal(before.status, 200, before.raw);
      const rec = before.body;
      assert.equal(rec.invocation_id, r.invocation_id);
      assert.equal(rec.agent_key, 'billing-bot');
      assert.equal(rec.mode, 'enforced');
      assert.equal(rec.outcome, 'error');
      assert.equal(rec.duration_ms, 42);
      assert.equal(rec.principal_kind, 'user');
      assert.equal(rec.principal_id, 'u-7');
      assert.equal(rec.correlation_id, 'run-42');
      assert.equal(rec.parent_invocation_id, null);
      assert.equal(rec.tool_name, 'payments.refund');
      assert.equal(rec.verdict, 'flag_for_review');
      assert.deepEqual(rec.reasons, ['review-payments']);
      assert.equal(rec.policy_version, 1);
      assert.equal(rec.pii_count, r.pii_count ?? null);
      assert.equal(rec.review_status, 'pending');
      assert.equal(rec.review, null);
      assert.equal(rec.evidence_id, r.evidence_id);
      assert.equal(rec.created_at, t.clock.now().toISOString());
      // The tool_output awaits its scan: stored as sent, so withheld.
      assert.deepEqual(rec.output_scan, { status: 'pending', verdict: null, reasons: null, scanned_at: null });
      const out = rec.content.find((c: { field: string }) => c.field === 'tool_output');
      assert.deepEqual(out, { field: 'tool_output', text: null, findings: null, scan_pending: true, erased: false });
      assert.doesNotMatch(before.raw, /4111/);
      assert.doesNotMatch(before.raw, /jane\.doe/);

      // Stored text is the redacted text, and each finding's offsets point at its placeholder in it.
      const fields = rec.content.map((c: { field: string }) => c.field);
      assert.deepEqual(fields, ['prompt', 'tool_input', 'tool_output']);
      for (const c of rec.content.filter((x: { field: string }) => x.field !== 'tool_output')) {
        assert.ok(c.findings.length > 0, `${c.field} has findings`);
        assert.equal(c.scan_pending, false);
        for (const f of c.findings) {
          if (f.category === 'injection') continue;
          assert.equal(c.text.slice(f.start, f.end), `<${f.type}>`, `${c.field}: ${JSON.stringify(f)}`);
        }
        const [stored] = await t.testDb.db.query<{ body: string }>(
          'SELECT body FROM invocation_content WHERE tenant_id = $1 AND invocation_id = $2 AND field = $3',
          [team.tenantId, r.invocation_id, c.field],
        );
        assert.equal(c.text, stored!.body);
      }
      const emailCounts = rec.finding_counts.find((c: { field: string }) => c.field === 'tool_input').counts;
      assert.ok(emailCounts.EMAIL_ADDRESS >= 1, JSON.stringify(rec.finding_counts));
      assert.deepEqual(rec.finding_counts.find((c: { field: string }) => c.field === 'tool_output').counts, {});

      // evidence_id is the invocation's audit entry.
      const ev = await get(t, token, `/api/v1/audit/evidence/${rec.evidence_id}`);
      assert.equal(ev.status, 200, ev.raw);
      const leaf = JSON.parse(ev.body.leaf);
      assert.equal(leaf.kind, 'invocation');
      assert.equal(leaf.invocation_id, r.invocation_id);
      const [row] = await t.testDb.db.query<{ log_index: number }>(
        'SELECT log_index FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
        [team.tenantId, r.invocation_id],
      );
      assert.equal(rec.evidence_id, row!.log_index + 1);

      // After the background scan: the redacted tool_output, its findings and the scan verdict.
      await t.service.jobs.drain();
      const after = (await get(t, token, url)).body;
      assert.equal(after.output_scan.status, 'done');
      assert.equal(after.output_scan.verdict, after.output_scan_verdict);
      assert.ok(Array.isArray(after.output_scan.reasons));
      assert.equal(after.output_scan.scanned_at, t.clock.now().toISOString());
      const scanned = after.content.find((c: { field: string }) => c.field === 'tool_output');
      assert.equal(scanned.scan_pending, false);
      assert.match(scanned.text, /<CREDIT_CARD>/);
      const card = scanned.findings.find((f: { type: string }) => f.type === 'CREDIT_CARD');
      assert.equal(scanned.text.slice(card.start, card.end), '<CREDIT_CARD>');
      assert.equal(
        after.finding_counts.find((c: { field: string }) => c.field === 'tool_output').counts.CREDIT_CARD,
        1,
      );
    });

    test('viewers get the record without stored content; operators and auditors with it', async () => {
      const t = getT();
      const team = await newTeam(t, 'inv-roles');
      await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS]);
      const r = await invoke(t, team.operator.token, {
        agent_key: 'mailer',
        tool_name: 'payments.refund',
        prompt: 'write to max.mustermann@example.org about SECRET-MARKER-77',
        tool_input: 'to: max.mustermann@example.org',
      });
      const decided = await t.request({
        method: 'POST',
        url: `/api/v1/reviews/${r.invocation_id}`,
        token: team.operator.token,
        payload: { decision: 'reject', note: 'NOTE-MARKER-55 about max' },
      });
      assert.equal(decided.statusCode, 201, decided.body);
      const url = `${LIST}/${r.invocation_id}`;

      const v = await get(t, team.viewer.token, url);
      assert.equal(v.status, 200);
      assert.equal(v.body.content, undefined);
      assert.equal(v.body.review.note, undefined);
      assert.equal(v.body.review.decision, 'reject');
      assert.doesNotMatch(v.raw, /MARKER|<EMAIL_ADDRESS>|"start"|"text"/);
      // Types and counts stay visible.
      assert.ok(v.body.finding_counts.find((c: { field: string }) => c.field === 'prompt').counts.EMAIL_ADDRESS >= 1);
      assert.equal(v.body.verdict, 'flag_for_review');
      assert.equal(v.body.review_status, 'rejected');

      for (const who of [team.admin, team.operator, team.auditor]) {
        const res = await get(t, who.token, url);
        assert.equal(res.status, 200);
        assert.match(res.body.content.find((c: { field: string }) => c.field === 'prompt').text, /SECRET-MARKER-77/);
        assert.equal(res.body.review.note, 'NOTE-MARKER-55 about max');
      }
    });

    test('the trace: parent, children and the other invocations of the correlation_id, oldest first', async () => {
      const t = getT();
      const team = await newTeam(t, 'inv-trace');
      const other = await newTeam(t, 'inv-trace-other');
      const token = team.auditor.token;
      const w = team.admin.token;
      const root = await invoke(t, w, { agent_key: 'planner', correlation_id: 'trace-1' });
      t.clock.advance(10);
      const c1 = await invoke(t, w, {
        agent_key: 'worker',
        parent_invocation_id: root.invocation_id,
        correlation_id: 'trace-1',
      });
      t.clock.advance(10);
      const c2 = await invoke(t, w, {
        agent_key: 'worker',
        parent_invocation_id: root.invocation_id,
        correlation_id: 'trace-1',
      });
      t.clock.advance(10);
      const g = await invoke(t, w, {
        agent_key: 'tool',
        parent_invocation_id: c1.invocation_id,
        correlation_id: 'trace-1',
      });
      await invoke(t, w, { agent_key: 'planner', correlation_id: 'trace-2' });
      // Ids are per workspace. Another workspace's invocation naming our g's
      // id as parent (that workspace has no such id), and ours naming an id
      // only a third workspace has: neither links across.
      const foreign = await invoke(t, other.admin.token, {
        agent_key: 'spy',
        parent_invocation_id: g.invocation_id,
        correlation_id: 'trace-1',
      });
      const third = await t.signIn('admin@inv-trace-third.review-tests.dev');
      let last = foreign;
      for (let i = 0; i < 9; i++) last = await invoke(t, third.token, { agent_key: 'spy', correlation_id: 'trace-1' });
      const orphan = await invoke(t, w, { agent_key: 'worker', parent_invocation_id: last.invocation_id });
      assert.ok(last.invocation_id > orphan.invocation_id, 'the parent id exists only in the third workspace');
      assert.ok(foreign.invocation_id < g.invocation_id, "g's id does not exist in the other workspace");

      const ids = (xs: Array<{ invocation_id: number }>) => xs.map((x) => x.invocation_id);
      const rootRec = (await get(t, token, `${LIST}/${root.invocation_id}`)).body;
      assert.equal(rootRec.trace.parent, null);
      assert.deepEqual(ids(rootRec.trace.children), [c1.invocation_id, c2.invocation_id]);
      assert.deepEqual(ids(rootRec.trace.siblings), [c1.invocation_id, c2.invocation_id, g.invocation_id]);
      assert.equal(rootRec.trace.children_truncated, false);
      assert.equal(rootRec.trace.siblings_truncated, false);
      assert.equal(rootRec.trace.children[0].agent_key, 'worker');
      assert.equal(rootRec.trace.children[0].evidence_id, c1.evidence_id);

      const c1Rec = (await get(t, token, `${LIST}/${c1.invocation_id}`)).body;
      assert.equal(c1Rec.trace.parent.invocation_id, root.invocation_id);
      assert.equal(c1Rec.trace.parent.agent_key, 'planner');
      assert.deepEqual(ids(c1Rec.trace.children), [g.invocation_id]);
      assert.deepEqual(ids(c1Rec.trace.siblings), [root.invocation_id, c2.invocation_id, g.invocation_id]);

      const gRec = (await get(t, token, `${LIST}/${g.invocation_id}`)).body;
      assert.deepEqual(gRec.trace.children, []);
      const orphanRec = (await get(t, token, `${LIST}/${orphan.invocation_id}`)).body;
      assert.equal(orphanRec.parent_invocation_id, last.invocation_id);
      assert.equal(orphanRec.trace.parent, null);
      assert.deepEqual(orphanRec.trace.siblings, []);
      const foreignRec = (await get(t, other.admin.token, `${LIST}/${foreign.invocation_id}`)).body;
      assert.equal(foreignRec.trace.parent, null);
      assert.ok(foreignRec.trace.siblings.every((s: { agent_key: string }) => s.agent_key === 'spy'));
      assert.doesNotMatch(JSON.stringify(foreignRec), /planner|worker/);

      // The whole run, as one list.
      const run = (await get(t, token, `${LIST}?correlation_id=trace-1`)).body;
      assert.deepEqual(ids(run.items), [g.invocation_id, c2.invocation_id, c1.invocation_id, root.invocation_id]);
    });

    test('a trace lists at most 100 children and says so', async () => {
      const t = getT();
      const team = await newTeam(t, 'inv-wide');
      const root = await invoke(t, team.admin.token, { agent_key: 'fan', correlation_id: 'wide' });
      await t.testDb.db.withTenant(team.tenantId, (tx) =>
        tx.query(
          `INSERT INTO invocations (tenant_id, invocation_id, agent_key, mode, outcome, principal_id, parent_invocation_id, correlation_id,
             verdict, reasons, policy_version, log_index, created_at)
           SELECT $1, $2::bigint + g, 'fan', 'observed', 'success', 'fan', $2, 'wide', 'allow', '["default"]', 0, 0,
             $3::timestamptz + g * interval '1 millisecond'
           FROM generate_series(1, 101) g`,
          [team.tenantId, root.invocation_id, t.clock.now()],
        ),
      );
      const rec = (await get(t, team.admin.token, `${LIST}/${root.invocation_id}`)).body;
      assert.equal(rec.trace.children.length, 100);
      assert.equal(rec.trace.children_truncated, true);
      assert.equal(rec.trace.siblings.length, 100);
      assert.equal(rec.trace.siblings_truncated, true);
      const times = rec.trace.children.map((c: { created_at: string }) => Date.parse(c.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
      );
    });

    test("another workspace's invocation is 404 and never listed; unknown and malformed ids are 404", async () => {
      const t = getT();
      const a = await newTeam(t, 'inv-iso-a');
      const b = await t.signIn('admin@inv-iso-b.review-tests.dev');
      const mine = await invoke(t, a.admin.token, { agent_key: 'iso-agent', prompt: 'ISO-MARKER' });
      const res = await t.request({ method: 'GET', url: `${LIST}/${mine.invocation_id}`, token: b.token });
      assertProblem(res, 404, 'not_found');
      const list = await get(t, b.token, `${LIST}?agent_key=iso-agent`);
      assert.deepEqual(list.body.items, []);
      assert.doesNotMatch((await get(t, b.token, LIST)).raw, /iso-agent|ISO-MARKER/);
      for (const id of ['999999999', '0', '-1', 'abc', '1.5', '9007199254740993']) {
        assertProblem(await t.request({ method: 'GET', url: `${LIST}/${id}`, token: a.admin.token }), 404, 'not_found');
      }
    });
  },
  { manualJobs: true },
);
