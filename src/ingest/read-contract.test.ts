import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';

// ingest's read contract (migration 0089): the views other modules read
// instead of ingest's tables. Their columns are what review and reports may
// rely on; they read with the caller's rights, so a workspace sees only its
// own rows through them, as through the tables.

const CONTRACT: Record<string, string[]> = {
  invocations: [
    'tenant_id',
    'invocation_id',
    'agent_key',
    'mode',
    'outcome',
    'duration_ms',
    'principal_kind',
    'principal_id',
    'parent_invocation_id',
    'correlation_id',
    'tool_name',
    'verdict',
    'reasons',
    'policy_version',
    'pii_count',
    'log_index',
    'review_status',
    'output_scan_verdict',
    'output_scan_reasons',
    'output_scanned_at',
    'created_at',
    'occurred_at',
  ],
  invocation_content: ['tenant_id', 'invocation_id', 'field', 'body', 'findings', 'erased_at', 'created_at'],
  rogue_events: [
    'tenant_id',
    'rogue_event_id',
    'event_type',
    'agent_key',
    'actor_agent_key',
    'tool',
    'user_id',
    'severity',
    'source',
    'invocation_id',
    'log_index',
    'created_at',
  ],
  agents: ['tenant_id', 'agent_key', 'first_seen_at'],
  output_scans: ['tenant_id', 'log_index', 'invocation_id'],
  agent_activity: [
    'tenant_id',
    'agent_key',
    'verdict',
    'mode',
    'outcome',
    'invocations',
    'pii_invocations',
    'pii_findings',
    'first_at',
    'last_at',
  ],
  agent_rogue_activity: ['tenant_id', 'agent_key', 'event_type', 'events', 'first_at', 'last_at'],
};

eachStore('ingest read contract (ingest_read views)', (get) => {
  test('each view has exactly the documented columns, in order', async () => {
    const t = get();
    const rows = await t.testDb.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'ingest_read' ORDER BY table_name, ordinal_position`,
    );
    const got: Record<string, string[]> = {};
    for (const r of rows) (got[r.table_name] ??= []).push(r.column_name);
    assert.deepEqual(
      got,
      Object.fromEntries(
        Object.keys(CONTRACT)
          .sort()
          .map((k) => [k, CONTRACT[k]]),
      ),
    );
  });

  test('an event recorded over HTTP is read through the views by its own workspace only; the views cannot be written', async () => {
    const t = get();
    const a = await t.signIn('admin@contract-a.example');
    const b = await t.signIn('admin@contract-b.example');
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/invocation',
      token: a.token,
      payload: { agent_key: 'contract-bot', tool_name: 'search', prompt: 'mail li.wei@example.com' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const id = res.json().invocation_id as number;
    const rogue = await t.request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/rogue',
      token: a.token,
      payload: { agent_key: 'contract-bot', event_type: 'data_exfiltration' },
    });
    assert.equal(rogue.statusCode, 201, rogue.body);

    const db = t.testDb.db;
    const tenantA = a.account.tenant_id;
    await db.withTenant(tenantA, async (tx) => {
      const [inv] = await tx.query<{ agent_key: string; tool_name: string; verdict: string }>(
        'SELECT agent_key, tool_name, verdict FROM ingest_read.invocations WHERE tenant_id = $1 AND invocation_id = $2',
        [tenantA, id],
      );
      assert.deepEqual({ ...inv }, { agent_key: 'contract-bot', tool_name: 'search', verdict: 'allow' });
      const content = await tx.query<{ field: string; body: string }>(
        'SELECT field, body FROM ingest_read.invocation_content WHERE tenant_id = $1 AND invocation_id = $2',
        [tenantA, id],
      );
      assert.deepEqual(
        content.map((c) => c.field),
        ['prompt'],
      );
      assert.ok(!content[0]!.body.includes('li.wei@example.com'), 'the stored text is the redacted one');
      const [act] = await tx.query<{ invocations: number }>(
        "SELECT invocations FROM ingest_read.agent_activity WHERE tenant_id = $1 AND agent_key = 'contract-bot'",
        [tenantA],
      );
      assert.equal(Number(act!.invocations), 1);
      const [rog] = await tx.query<{ events: number }>(
        "SELECT events FROM ingest_read.agent_rogue_activity WHERE tenant_id = $1 AND agent_key = 'contract-bot'",
        [tenantA],
      );
      assert.equal(Number(rog!.events), 1);
      const agents = await tx.query('SELECT agent_key FROM ingest_read.agents');
      assert.deepEqual(
        agents.map((r) => r.agent_key),
        ['contract-bot'],
      );
    });
    // Workspace B sees none of it, even without a tenant filter of its own.
    await db.withTenant(b.account.tenant_id, async (tx) => {
      for (const view of Object.keys(CONTRACT)) {
        const rows = await tx.query(`SELECT 1 FROM ingest_read.${view}`);
        assert.equal(rows.length, 0, `${view} leaks another workspace's rows`);
      }
      // The erasure selector reads with the caller's rights too: naming A's workspace selects nothing from B's.
      const selected = await tx.query(
        'SELECT invocation_id FROM ingest_read.selected_invocations($1, NULL, NULL, NULL, NULL)',
        [tenantA],
      );
      assert.deepEqual(selected, []);
    });
    // In A's own transaction, it selects by principal, agent and period; every null selects everything.
    await db.withTenant(tenantA, async (tx) => {
      const select = async (principal: string | null, agent: string | null, from: string | null, to: string | null) =>
        (
          await tx.query<{ invocation_id: string | number }>(
            'SELECT invocation_id FROM ingest_read.selected_invocations($1, $2, $3, $4, $5)',
            [tenantA, principal, agent, from, to],
          )
        ).map((r) => Number(r.invocation_id));
      const now = t.clock.now().toISOString();
      assert.deepEqual(await select(null, null, null, null), [id]);
      assert.deepEqual(await select('contract-bot', null, null, null), [id], 'the principal defaults to the agent');
      assert.deepEqual(await select(null, 'contract-bot', now, null), [id], 'from is inclusive');
      assert.deepEqual(await select(null, null, null, now), [], 'to is exclusive');
      assert.deepEqual(await select('someone-else', null, null, null), []);
      assert.deepEqual(await select(null, 'other-bot', null, null), []);
    });
    // Each refused write in a transaction of its own (the refusal aborts it).
    await assert.rejects(
      db.withTenant(b.account.tenant_id, (tx) => tx.query("UPDATE ingest_read.invocations SET verdict = 'deny'")),
      /permission denied/,
    );
    await assert.rejects(
      db.withTenant(tenantA, (tx) => tx.query('DELETE FROM ingest_read.invocations WHERE invocation_id = $1', [id])),
      /permission denied/,
    );
  });
});
