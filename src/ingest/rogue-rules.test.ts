// POST /api/v1/admin/agents/events/rogue: every field rule of API.md at its
// accepted and its rejected edge, oos_tool's tool, the response, the stored
// row and its audit-trail leaf, unknown fields, malformed and oversize bodies.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BODY_LIMIT } from '../http/app.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import {
  EMOJI,
  emoji,
  evidenceLeaf,
  expectFieldErrors,
  expectProblem,
  newWorkspace,
  post,
  postRaw,
  pseudonymOf,
  query,
  ROGUE,
  show,
  stored,
  storedMeta,
} from '../testing/ingest-kit.ts';

const STRINGS: Array<{ field: string; min: number; max: number }> = [
  { field: 'event_type', min: 1, max: 40 },
  { field: 'agent_key', min: 1, max: 512 },
  { field: 'actor_agent_key', min: 1, max: 512 },
  { field: 'tool', min: 0, max: 256 },
  { field: 'user_id', min: 0, max: 512 },
  { field: 'severity', min: 0, max: 64 },
  { field: 'source', min: 0, max: 64 },
];
const COLUMNS = STRINGS.map((s) => s.field);
const WRONG_TYPES: unknown[] = [5, 0, true, false, null, [], ['a'], {}, { value: 'a' }];

interface Case {
  field: string;
  value: unknown;
}

const accepted: Case[] = STRINGS.flatMap(({ field, min, max }) => [
  { field, value: min === 0 ? '' : EMOJI },
  { field, value: emoji(max) },
]);

const rejected: Case[] = [
  ...STRINGS.flatMap(({ field, min, max }) => [
    ...(min > 0 ? [{ field, value: '' }] : []),
    { field, value: emoji(max + 1) },
    { field, value: 'a'.repeat(max + 1) },
    ...WRONG_TYPES.map((value) => ({ field, value })),
  ]),
  ...WRONG_TYPES.map((value) => ({ field: 'tenant_id', value })),
];

const BASE = { event_type: 'loop_detected', agent_key: 'rogue-bot' };
const bodyOf = (c: Case) => ({ ...BASE, [c.field]: c.value });

type RogueRow = Record<string, unknown> & { rogue_event_id: number; log_index: number; invocation_id: number | null };

/** The rows a workspace gained since `afterId`. */
async function newRows(t: TestService, tenantId: string, afterId: number): Promise<RogueRow[]> {
  return query<RogueRow>(
    t,
    'SELECT * FROM rogue_events WHERE tenant_id = $1 AND rogue_event_id > $2 ORDER BY rogue_event_id',
    [tenantId, afterId],
  );
}

async function lastId(t: TestService, tenantId: string): Promise<number> {
  const [row] = await query<{ id: number }>(
    t,
    'SELECT coalesce(max(rogue_event_id), 0)::int AS id FROM rogue_events WHERE tenant_id = $1',
    [tenantId],
  );
  return row!.id;
}

/** Posts a rogue event that must be accepted; returns its one new row and its leaf (fetched as evidence). */
async function record(t: TestService, a: SignedIn, body: unknown) {
  const since = await lastId(t, a.account.tenant_id);
  const res = await post(t, ROGUE, a.token, body);
  assert.equal(res.statusCode, 201, res.body.slice(0, 500));
  const rows = await newRows(t, a.account.tenant_id, since);
  assert.equal(rows.length, 1, 'exactly one stored rogue event');
  const row = rows[0]!;
  const leaf = await evidenceLeaf(t, a.token, row.log_index + 1);
  // Leaf format v2: the leaf commits to the stored row's metadata (meta) and
  // names the agent and the event type by their pseudonyms, nothing in clear.
  const meta = await storedMeta(t, a.account.tenant_id, 'rogue_events', row.rogue_event_id);
  assert.equal(leaf.meta, meta.commitment);
  assert.equal(leaf.agent, await pseudonymOf(t, a.account.tenant_id, 'agent', row.agent_key as string));
  assert.equal(leaf.type, await pseudonymOf(t, a.account.tenant_id, 'rogue_event_type', row.event_type as string));
  for (const k of COLUMNS) assert.equal(k in leaf, false, `${k} in the leaf`);
  return { res, row, leaf, meta: meta.fields };
}

eachStore('rogue endpoint: field rules', (get) => {
  let shared: Promise<SignedIn> | undefined;
  const ws = () => {
    shared ??= newWorkspace(get(), 'rogue-table');
    return shared;
  };

  for (const c of accepted) {
    test(`${c.field} = ${show(c.value)} is accepted and stored as sent, in the row and the leaf`, async () => {
      const t = get();
      const a = await ws();
      const body = bodyOf(c) as Record<string, unknown>;
      const { res, row, leaf, meta } = await record(t, a, body);
      assert.deepEqual(res.json(), { accepted: true, event_type: body.event_type, tenant_id: a.account.tenant_id });
      assert.equal(row[c.field], c.value);
      assert.equal(meta[c.field], c.value);
      assert.equal(leaf.kind, 'rogue');
    });
  }

  for (const c of rejected) {
    test(`${c.field} = ${show(c.value)} is refused: 422 naming /${c.field}, nothing stored`, async () => {
      const t = get();
      const a = await ws();
      const before = await stored(t, a.account.tenant_id);
      expectFieldErrors(await post(t, ROGUE, a.token, bodyOf(c)), [`/${c.field}`]);
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
    });
  }

  test('event_type and agent_key are required: 422 naming each missing one', async () => {
    const t = get();
    const a = await ws();
    const before = await stored(t, a.account.tenant_id);
    expectFieldErrors(await post(t, ROGUE, a.token, {}), ['/event_type', '/agent_key']);
    expectFieldErrors(await post(t, ROGUE, a.token, { event_type: 'loop' }), ['/agent_key']);
    expectFieldErrors(await post(t, ROGUE, a.token, { agent_key: 'a', tool: 'rm' }), ['/event_type']);
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });

  test('text with U+0000 or a lone surrogate in a stored field is refused with 422 naming it', async () => {
    const t = get();
    const a = await ws();
    const before = await stored(t, a.account.tenant_id);
    expectFieldErrors(await post(t, ROGUE, a.token, { ...BASE, user_id: 'u\u0000' }), ['/user_id']);
    expectFieldErrors(await postRaw(t, ROGUE, a.token, '{"event_type":"x","agent_key":"a","severity":"\\ud83d"}'), [
      '/severity',
    ]);
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });
});

eachStore('rogue endpoint: oos_tool, response, bodies', (get) => {
  test('oos_tool without a tool is 400 bad_request (missing or empty); nothing stored', async () => {
    const t = get();
    const a = await newWorkspace(t, 'oos-400');
    const before = await stored(t, a.account.tenant_id);
    for (const body of [
      { event_type: 'oos_tool', agent_key: 'bot' },
      { event_type: 'oos_tool', agent_key: 'bot', tool: '' },
      { event_type: 'oos_tool', agent_key: 'bot', severity: 'high', source: 'gateway' },
    ]) {
      expectProblem(await post(t, ROGUE, a.token, body), 400, 'bad_request');
    }
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });

  test('oos_tool with its tool is recorded; another event_type needs no tool', async () => {
    const t = get();
    const a = await newWorkspace(t, 'oos-201');
    const oos = await record(t, a, { event_type: 'oos_tool', agent_key: 'bot', tool: 'shell.exec' });
    assert.deepEqual(oos.res.json(), { accepted: true, event_type: 'oos_tool', tenant_id: a.account.tenant_id });
    assert.equal(oos.row.tool, 'shell.exec');
    assert.equal(oos.meta.tool, 'shell.exec');
    const other = await record(t, a, { event_type: 'prompt_leak', agent_key: 'bot' });
    assert.equal(other.row.tool, null);
    assert.equal(other.meta.tool, null);
  });

  test('every field is stored as sent, and the event is an audit-trail entry committing to exactly them', async () => {
    const t = get();
    const a = await newWorkspace(t, 'rogue-all');
    const sent = {
      event_type: 'oos_tool',
      agent_key: 'rogue-bot',
      actor_agent_key: 'orchestrator',
      tool: 'fs.delete',
      user_id: 'user-42',
      severity: 'critical',
      source: 'gateway',
    };
    const { res, row, leaf, meta } = await record(t, a, sent);
    assert.equal(res.statusCode, 201);
    assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
    assert.deepEqual(res.json(), { accepted: true, event_type: 'oos_tool', tenant_id: a.account.tenant_id });
    for (const k of COLUMNS) assert.equal(row[k], sent[k as keyof typeof sent], k);
    assert.equal(row.invocation_id, null);
    assert.deepEqual(meta, sent);
    const { time, ...rest } = leaf;
    assert.match(String(time), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual(Object.keys(rest).sort(), ['agent', 'kind', 'meta', 'tenant_id', 'type', 'v']);
    assert.equal(rest.v, 2);
    assert.equal(rest.tenant_id, a.account.tenant_id);
  });

  test('optional fields left out are absent from the row and the leaf', async () => {
    const t = get();
    const a = await newWorkspace(t, 'rogue-min');
    const { row, meta } = await record(t, a, { event_type: 'loop', agent_key: 'min-bot' });
    for (const k of ['actor_agent_key', 'tool', 'user_id', 'severity', 'source']) {
      assert.equal(row[k], null, k);
      assert.equal(meta[k], null, k);
    }
  });

  test('unknown fields are ignored: never stored, never in the leaf, never a reason to refuse', async () => {
    const t = get();
    const a = await newWorkspace(t, 'rogue-unknown');
    const { res, row, leaf } = await record(t, a, {
      event_type: 'loop',
      agent_key: 'unknown-bot',
      // Set only by the service for the rogue events it records itself.
      invocation_id: 'not-a-number',
      accepted: false,
      Tool: 'capitalised, so unknown',
      note: 'a NUL \u0000 in an unknown field',
      nested: { a: [1, null] },
    });
    assert.deepEqual(res.json(), { accepted: true, event_type: 'loop', tenant_id: a.account.tenant_id });
    assert.equal(row.invocation_id, null);
    assert.equal(row.tool, null);
    assert.deepEqual(Object.keys(leaf).sort(), ['agent', 'kind', 'meta', 'tenant_id', 'time', 'type', 'v']);
    const again = await record(t, a, { event_type: 'loop', agent_key: 'unknown-bot', invocation_id: 42 });
    assert.equal(again.row.invocation_id, null);
    assert.equal('invocation_id' in again.leaf, false);
  });

  const notObjects: Array<[string, string]> = [
    ['truncated JSON', '{"event_type": "loop", "agent_key": "a"'],
    ['single quotes', "{'event_type': 'loop', 'agent_key': 'a'}"],
    ['an empty body', ''],
    ['an array', '[{"event_type": "loop", "agent_key": "a"}]'],
    ['a string', '"loop"'],
    ['a number', '1'],
    ['null', 'null'],
    ['false', 'false'],
  ];
  for (const [what, raw] of notObjects) {
    test(`${what} is 400 bad_request; nothing stored`, async () => {
      const t = get();
      const a = await newWorkspace(t, 'rogue-400');
      const before = await stored(t, a.account.tenant_id);
      expectProblem(await postRaw(t, ROGUE, a.token, raw), 400, 'bad_request');
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
    });
  }

  test('a body over the limit is 413 payload_too_large; nothing stored', async () => {
    const t = get();
    const a = await newWorkspace(t, 'rogue-413');
    const before = await stored(t, a.account.tenant_id);
    const raw = JSON.stringify({ ...BASE, padding: 'a'.repeat(BODY_LIMIT) });
    expectProblem(await postRaw(t, ROGUE, a.token, raw), 413, 'payload_too_large');
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });
});
