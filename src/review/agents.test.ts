import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';
import { all, DENY_SHELL, get, invoke, newTeam, REVIEW_PAYMENTS, rogue, setPolicy } from '../testing/review-kit.ts';
import { riskScore } from './risk.ts';

eachStore('read side: agents and rogue events', (getT) => {
  test('the agent view: first and last seen, counts by verdict, outcome and mode, rogue events by type, allowed tools, risk', async () => {
    const t = getT();
    const team = await newTeam(t, 'agents-view');
    const w = team.operator.token;
    await setPolicy(t, team.admin.token, [REVIEW_PAYMENTS, DENY_SHELL]);
    const scope = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/ops-bot/scope',
      token: team.admin.token,
      payload: { allowed_tools: ['shell.*', 'payments.*', 'search', 'crm.*'] },
    });
    assert.equal(scope.statusCode, 200, scope.body);

    const firstAt = t.clock.now().toISOString();
    await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'search' });
    await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'search', outcome: 'error' });
    await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'search', tool_input: 'mail to li.wei@example.com' });
    t.clock.advance(60_000);
    await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'shell.exec', mode: 'enforced', outcome: 'denied' });
    await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'shell.exec', mode: 'shadow' }); // a shadow deny: never a violation
    await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'payments.refund' });
    t.clock.advance(60_000);
    await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'files.delete' }); // out of scope: a deny and a rogue oos_tool event
    await rogue(t, w, { agent_key: 'ops-bot', event_type: 'data_exfiltration', severity: 'high' });
    t.clock.advance(60_000);
    await rogue(t, w, { agent_key: 'ops-bot', event_type: 'data_exfiltration' });
    const lastAt = t.clock.now().toISOString();
    await invoke(t, w, { agent_key: 'quiet-bot' });

    const res = await get(t, team.viewer.token, '/api/v1/agents/ops-bot');
    assert.equal(res.status, 200, res.raw);
    const v = res.body;
    assert.equal(v.agent_key, 'ops-bot');
    assert.equal(v.first_seen_at, firstAt);
    assert.equal(v.last_seen_at, lastAt);
    assert.equal(v.invocations, 7);
    assert.deepEqual(v.by_verdict, { allow: 3, flag_for_review: 1, deny: 3 });
    assert.deepEqual(v.by_outcome, { success: 5, error: 1, denied: 1 });
    assert.deepEqual(v.by_mode, { observed: 5, enforced: 1, shadow: 1 });
    assert.deepEqual(v.rogue_events, { total: 3, by_type: { data_exfiltration: 2, oos_tool: 1 } });
    assert.deepEqual(v.allowed_tools, ['shell.*', 'payments.*', 'search', 'crm.*']);
    const piiCount = v.pii_findings;
    assert.ok(piiCount >= 1, 'the e-mail address in tool_input was found');
    // denies: the enforced shell call and the out-of-scope call (the shadow one does not count).
    assert.deepEqual(v.risk, {
      score: riskScore({ denies: 2, flags: 1, rogue_events: 3, pii_findings: piiCount, clean_invocations: 2 }),
      denies: 2,
      flags: 1,
      rogue_events: 3,
      pii_findings: piiCount,
      clean_invocations: 2,
    });
    assert.ok(v.risk.score > 0);

    // Clean activity lowers the score; an incident raises it.
    const before = v.risk.score;
    for (let i = 0; i < 10; i++) await invoke(t, w, { agent_key: 'ops-bot', tool_name: 'search' });
    const calmer = (await get(t, team.admin.token, '/api/v1/agents/ops-bot')).body.risk;
    assert.equal(calmer.clean_invocations, 12);
    assert.ok(calmer.score < before, `${calmer.score} < ${before}`);
    await rogue(t, w, { agent_key: 'ops-bot', event_type: 'privilege_escalation' });
    assert.ok((await get(t, team.admin.token, '/api/v1/agents/ops-bot')).body.risk.score > calmer.score);

    // An agent with only clean activity, and no scope: unrestricted, risk 0.
    const quiet = (await get(t, team.auditor.token, '/api/v1/agents/quiet-bot')).body;
    assert.equal(quiet.allowed_tools, null);
    assert.equal(quiet.risk.score, 0);
    assert.deepEqual(quiet.by_verdict, { allow: 1, flag_for_review: 0, deny: 0 });
    assert.deepEqual(quiet.rogue_events, { total: 0, by_type: {} });
  });

  test('the counters behind the views agree with the rows, and follow deletions', async () => {
    const t = getT();
    const team = await newTeam(t, 'agents-count');
    await setPolicy(t, team.admin.token, [DENY_SHELL]);
    for (let i = 0; i < 12; i++) {
      await invoke(t, team.admin.token, {
        agent_key: `bot-${i % 3}`,
        tool_name: i % 4 === 0 ? 'shell.exec' : 'search',
        outcome: i % 5 === 0 ? 'error' : 'success',
        mode: i % 6 === 0 ? 'enforced' : 'observed',
      });
    }
    await rogue(t, team.admin.token, { agent_key: 'bot-1', event_type: 'x' });
    const db = t.testDb.db;
    const compare = async () =>
      db.withTenant(team.tenantId, async (tx) => {
        const counted = await tx.query(
          `SELECT agent_key, verdict, mode, outcome, count(*)::bigint AS n FROM invocations WHERE tenant_id = $1
           GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
          [team.tenantId],
        );
        const kept = await tx.query(
          `SELECT agent_key, verdict, mode, outcome, invocations AS n FROM agent_activity WHERE tenant_id = $1 AND invocations > 0
           ORDER BY 1, 2, 3, 4`,
          [team.tenantId],
        );
        assert.deepEqual(kept, counted);
        const rogueCounted = await tx.query(
          'SELECT agent_key, event_type, count(*)::bigint AS n FROM rogue_events WHERE tenant_id = $1 GROUP BY 1, 2 ORDER BY 1, 2',
          [team.tenantId],
        );
        const rogueKept = await tx.query(
          'SELECT agent_key, event_type, events AS n FROM agent_rogue_activity WHERE tenant_id = $1 AND events > 0 ORDER BY 1, 2',
          [team.tenantId],
        );
        assert.deepEqual(rogueKept, rogueCounted);
      });
    await compare();
    // Deleting rows (retention, erasure of a whole record) takes them off the counters.
    await db.withTenant(team.tenantId, async (tx) => {
      await tx.query("DELETE FROM invocations WHERE tenant_id = $1 AND agent_key = 'bot-0' AND verdict = 'deny'", [
        team.tenantId,
      ]);
      await tx.query('DELETE FROM rogue_events WHERE tenant_id = $1', [team.tenantId]);
    });
    await compare();
    const bot0 = (await get(t, team.admin.token, '/api/v1/agents/bot-0')).body;
    assert.equal(bot0.by_verdict.deny, 0);
    // Row-level security holds for the counters too: another workspace's scope sees none of them.
    const other = await t.signIn('admin@agents-count-other.review-tests.dev');
    const seen = await db.withTenant(other.account.tenant_id, (tx) => tx.query('SELECT * FROM agent_activity'));
    assert.deepEqual(seen, []);
  });

  test('the agents list: every agent seen (by invocation or rogue event), in key order, in pages', async () => {
    const t = getT();
    const team = await newTeam(t, 'agents-list');
    const keys = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
    for (const k of keys) await invoke(t, team.admin.token, { agent_key: k });
    await rogue(t, team.admin.token, { agent_key: 'ghost', event_type: 'impersonation' }); // never invoked
    await rogue(t, team.admin.token, { agent_key: 'alpha', event_type: 'impersonation' });
    // A scope alone does not make an agent seen; its view still answers.
    await t.request({
      method: 'PUT',
      url: '/api/v1/agents/planned/scope',
      token: team.admin.token,
      payload: { allowed_tools: ['search'] },
    });

    const expected = [...keys, 'ghost'].sort();
    for (const limit of [1, 2, 6, 50]) {
      const { items, pages } = await all(t, team.viewer.token, '/api/v1/agents', limit);
      assert.deepEqual(
        items.map((a: { agent_key: string }) => a.agent_key),
        expected,
        `limit ${limit}`,
      );
      assert.equal(pages, Math.ceil(expected.length / limit));
    }
    const list = (await get(t, team.admin.token, '/api/v1/agents')).body.items;
    const alpha = list.find((a: { agent_key: string }) => a.agent_key === 'alpha');
    assert.deepEqual(
      { ...alpha, first_seen_at: typeof alpha.first_seen_at },
      {
        agent_key: 'alpha',
        first_seen_at: 'string',
        last_seen_at: alpha.last_seen_at,
        invocations: 1,
        rogue_events: 1,
        risk_score: riskScore({ denies: 0, flags: 0, rogue_events: 1, pii_findings: 0, clean_invocations: 1 }),
      },
    );
    const ghost = list.find((a: { agent_key: string }) => a.agent_key === 'ghost');
    assert.equal(ghost.invocations, 0);
    assert.equal(ghost.rogue_events, 1);
    assert.equal(ghost.first_seen_at, t.clock.now().toISOString());

    const ghostView = (await get(t, team.admin.token, '/api/v1/agents/ghost')).body;
    assert.deepEqual(ghostView.rogue_events, { total: 1, by_type: { impersonation: 1 } });
    assert.equal(ghostView.invocations, 0);
    const planned = await get(t, team.admin.token, '/api/v1/agents/planned');
    assert.equal(planned.status, 200);
    assert.deepEqual(planned.body.allowed_tools, ['search']);
    assert.equal(planned.body.first_seen_at, null);
    assert.equal(planned.body.risk.score, 0);

    // Agent keys with spaces, slashes and non-ASCII characters round-trip through the path and the cursor.
    const odd = 'team/α bot?#%';
    await invoke(t, team.admin.token, { agent_key: odd });
    const oddView = await get(t, team.admin.token, `/api/v1/agents/${encodeURIComponent(odd)}`);
    assert.equal(oddView.status, 200, oddView.raw);
    assert.equal(oddView.body.agent_key, odd);
    const { items } = await all(t, team.admin.token, '/api/v1/agents', 1);
    assert.ok(items.some((a: { agent_key: string }) => a.agent_key === odd));

    // NUL in the path breaks the one input rule for strings: 422, never a 500.
    assertProblem(
      await t.request({ method: 'GET', url: '/api/v1/agents/a%00b', token: team.admin.token }),
      422,
      'unprocessable',
    );
    for (const key of ['nobody']) {
      assertProblem(
        await t.request({ method: 'GET', url: `/api/v1/agents/${key}`, token: team.admin.token }),
        404,
        'not_found',
      );
    }
    assertFieldErrors(
      await t.request({
        method: 'GET',
        url: `/api/v1/agents?cursor=${Buffer.from('[1]').toString('base64url')}`,
        token: team.admin.token,
      }),
      ['/cursor'],
    );
    // Another workspace sees none of these agents.
    const other = await t.signIn('admin@agents-list-other.review-tests.dev');
    assert.deepEqual((await get(t, other.token, '/api/v1/agents')).body.items, []);
    assertProblem(await t.request({ method: 'GET', url: '/api/v1/agents/alpha', token: other.token }), 404);
    assertProblem(await t.request({ method: 'GET', url: '/api/v1/agents/planned', token: other.token }), 404);
  });

  test('rogue events: newest first, filters, pages, and the evidence of each', async () => {
    const t = getT();
    const team = await newTeam(t, 'rogue-list');
    const start = t.clock.now().getTime();
    const sent: Array<{ agent_key: string; event_type: string; at: number }> = [];
    for (let i = 0; i < 9; i++) {
      if (i % 2 === 0) t.clock.advance(1000);
      const e = {
        agent_key: `r${i % 3}`,
        event_type: i % 4 === 0 ? 'oos_tool' : 'exfiltration',
        ...(i % 4 === 0 ? { tool: 'rm' } : {}),
      };
      await rogue(t, team.operator.token, {
        ...e,
        severity: 'high',
        source: 'edr',
        user_id: `u${i}`,
        actor_agent_key: 'boss',
      });
      sent.push({ agent_key: e.agent_key, event_type: e.event_type, at: t.clock.now().getTime() });
    }
    const { items } = await all(t, team.viewer.token, '/api/v1/rogue-events', 4);
    assert.equal(items.length, 9);
    const ids = items.map((e: { rogue_event_id: number }) => e.rogue_event_id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      'newest first (ids rise with time here)',
    );
    assert.deepEqual(
      items.map((e: { user_id: string }) => e.user_id),
      sent.map((_, i) => `u${i}`).reverse(),
    );
    const first = items[items.length - 1];
    assert.deepEqual(
      { ...first, rogue_event_id: typeof first.rogue_event_id, evidence_id: typeof first.evidence_id },
      {
        rogue_event_id: 'number',
        event_type: 'oos_tool',
        agent_key: 'r0',
        actor_agent_key: 'boss',
        tool: 'rm',
        user_id: 'u0',
        severity: 'high',
        source: 'edr',
        invocation_id: null,
        evidence_id: 'number',
        created_at: new Date(start + 1000).toISOString(),
      },
    );
    const leaf = JSON.parse(
      (await get(t, team.auditor.token, `/api/v1/audit/evidence/${first.evidence_id}`)).body.leaf,
    );
    assert.equal(leaf.kind, 'rogue');
    // Leaf format v2: the leaf commits to the row's metadata and carries none of it.
    assert.equal(leaf.v, 2);
    assert.match(leaf.meta, /^sha256:/);
    assert.equal('user_id' in leaf || 'agent_key' in leaf || 'event_type' in leaf, false);

    const filters: Array<[string, (s: (typeof sent)[number]) => boolean]> = [
      ['agent_key=r1', (s) => s.agent_key === 'r1'],
      ['event_type=oos_tool', (s) => s.event_type === 'oos_tool'],
      [`since=${new Date(start + 3000).toISOString()}`, (s) => s.at >= start + 3000],
      [`until=${new Date(start + 3000).toISOString()}`, (s) => s.at < start + 3000],
      [
        `agent_key=r0&event_type=exfiltration&since=${new Date(start).toISOString()}`,
        (s) => s.agent_key === 'r0' && s.event_type === 'exfiltration',
      ],
    ];
    for (const [query, keep] of filters) {
      const got = (await all(t, team.admin.token, `/api/v1/rogue-events?${query}`, 2)).items;
      assert.deepEqual(
        got.map((e: { user_id: string }) => e.user_id),
        sent
          .map((s, i) => ({ ...s, u: `u${i}` }))
          .filter(keep)
          .map((s) => s.u)
          .reverse(),
        query,
      );
    }
    for (const [query, field] of [
      ['event_type=', '/event_type'],
      ['since=soon', '/since'],
      ['limit=501', '/limit'],
      ['agent_key=%00', '/agent_key'],
    ] as const) {
      assertFieldErrors(
        await t.request({ method: 'GET', url: `/api/v1/rogue-events?${query}`, token: team.admin.token }),
        [field],
      );
    }
    const other = await t.signIn('admin@rogue-list-other.review-tests.dev');
    assert.deepEqual((await get(t, other.token, '/api/v1/rogue-events')).body.items, []);
  });
});
