import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { multiProcessSkip, type ServerProcess } from '../testing/server-process.ts';
import { call, signUp } from '../testing/judge-nodes.ts';
import { startTwoNodes, type TwoNodes } from '../testing/two-nodes.ts';

// Two `agent-ledger serve` processes on one PostgreSQL: a persona changed
// through one node decides the other node's very next event, with no wait.
// B keeps version 1 in memory (ingest/gate.ts); the write transaction finds
// the workspace's change epoch moved (the persona tables' triggers,
// migrations/0109) and decides again with fresh reads, whether or not B has
// heard the change's NOTIFY yet.

describe('a persona across two server processes', { skip: multiProcessSkip() }, () => {
  let nodes: TwoNodes | undefined;
  before(async () => (nodes = await startTwoNodes({ env: { SIGNUP_LIMIT_PER_IP: '1000' } })));
  after(() => nodes?.stop());

  test("a persona change on one node decides the other node's next event", async () => {
    const { db, smtp, a, b } = nodes!;
    const address = `admin@personas-${randomBytes(4).toString('hex')}.multi-node.example`;
    const { token } = await signUp(a, smtp, address);

    const created = await call(a, 'POST', '/api/v1/personas', { name: 'Support', allowed_tools: ['kb.*'] }, token);
    assert.equal(created.status, 201, created.text);
    const id = created.json().persona_id as string;
    assert.equal((await call(a, 'PUT', '/api/v1/agents/helpdesk/persona', { persona_id: id }, token)).status, 200);
    const invoke = async (node: ServerProcess, tool: string) => {
      const res = await call(
        node,
        'POST',
        '/api/v1/admin/agents/events/invocation',
        { agent_key: 'helpdesk', tool_name: tool },
        token,
      );
      assert.equal(res.status, 201, res.text);
      return res.json().verdict as string;
    };
    // B reads (and caches) version 1.
    assert.equal(await invoke(b, 'kb.search'), 'allow');
    assert.equal(await invoke(b, 'web.fetch'), 'deny');

    const put = await call(a, 'PUT', `/api/v1/personas/${id}`, { name: 'Support', allowed_tools: ['web.*'] }, token);
    assert.equal(put.json().version, 2);
    // Version 2 decides B's next event at once, before anything on A.
    assert.equal(await invoke(b, 'kb.search'), 'deny');
    assert.equal(await invoke(a, 'kb.search'), 'deny');
    assert.equal(await invoke(b, 'web.fetch'), 'allow');
    const [row] = await db.db.query<{ reasons: string[]; n: number }>(
      `SELECT reasons, (SELECT count(*)::int FROM rogue_events r WHERE r.agent_key = 'helpdesk') AS n
       FROM invocations WHERE agent_key = 'helpdesk' AND verdict = 'deny' ORDER BY created_at DESC LIMIT 1`,
    );
    assert.deepEqual(row!.reasons, ['tool_out_of_scope', `persona.${id}.v2.tool_out_of_scope`]);
    assert.equal(row!.n, 3);

    // An agent losing its persona on A is unlimited on B from B's next event.
    assert.equal((await call(a, 'PUT', '/api/v1/agents/helpdesk/persona', { persona_id: null }, token)).status, 200);
    assert.equal(await invoke(b, 'kb.search'), 'allow');
  });
});
