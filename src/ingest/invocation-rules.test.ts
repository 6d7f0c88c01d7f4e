// POST /api/v1/admin/agents/events/invocation: every field rule of API.md at
// its accepted and its rejected edge, defaults, the response, malformed and
// oversize bodies, and first-sight agent registration under concurrency.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BODY_LIMIT } from '../http/app.ts';
import { commitment } from '../ledger/leaf.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import {
  EMOJI,
  emoji,
  evidenceLeaf,
  expectFieldErrors,
  expectProblem,
  INVOCATION,
  leaves,
  newWorkspace,
  pseudonymOf,
  post,
  postRaw,
  query,
  show,
  stored,
  storedMeta,
} from '../testing/ingest-kit.ts';

const CONTENT_FIELDS = ['prompt', 'response', 'context', 'tool_input', 'tool_output'] as const;
type ContentField = (typeof CONTENT_FIELDS)[number];
const isContent = (f: string): f is ContentField => (CONTENT_FIELDS as readonly string[]).includes(f);

/** String fields and their code-point ranges, to the letter of API.md. */
const STRINGS: Array<{ field: string; min: number; max: number }> = [
  { field: 'agent_key', min: 1, max: 512 },
  { field: 'outcome', min: 1, max: 64 },
  { field: 'principal_id', min: 1, max: 512 },
  { field: 'correlation_id', min: 0, max: 64 },
  { field: 'tool_name', min: 0, max: 256 },
  ...CONTENT_FIELDS.map((field) => ({ field, min: 0, max: 32_000 })),
];

const ENUMS: Array<{ field: string; values: string[]; near: string[] }> = [
  {
    field: 'mode',
    values: ['observed', 'enforced', 'shadow'],
    near: ['Observed', 'OBSERVED', '', 'observed ', 'blocking'],
  },
  { field: 'principal_kind', values: ['user', 'agent'], near: ['User', '', 'service', 'users'] },
];

const INTEGERS: Array<{ field: string; min: number }> = [
  { field: 'duration_ms', min: 0 },
  { field: 'parent_invocation_id', min: 1 },
];

interface Case {
  field: string;
  value: unknown;
}

const accepted: Case[] = [
  ...STRINGS.flatMap(({ field, min, max }) => [
    { field, value: min === 0 ? '' : EMOJI },
    { field, value: emoji(max) },
  ]),
  // 31,999 ASCII + 1 emoji: code points, not UTF-16 units or bytes, are counted.
  { field: 'prompt', value: `${'a'.repeat(31_999)}${EMOJI}` },
  ...ENUMS.flatMap(({ field, values }) => values.map((value) => ({ field, value }))),
  ...INTEGERS.flatMap(({ field, min }) => [
    { field, value: min },
    { field, value: min + 1 },
    { field, value: Number.MAX_SAFE_INTEGER },
  ]),
];

const WRONG_TYPES_FOR_STRINGS: unknown[] = [5, 0, true, false, null, [], ['a'], {}, { value: 'a' }];
const WRONG_TYPES_FOR_INTEGERS: unknown[] = ['5', '0', 1.5, 0.5, true, null, [], [1], {}];

const rejected: Case[] = [
  ...STRINGS.flatMap(({ field, min, max }) => [
    ...(min > 0 ? [{ field, value: '' }] : []),
    { field, value: emoji(max + 1) },
    { field, value: 'a'.repeat(max + 1) },
    ...WRONG_TYPES_FOR_STRINGS.map((value) => ({ field, value })),
  ]),
  ...ENUMS.flatMap(({ field, near }) => [...near, ...WRONG_TYPES_FOR_STRINGS].map((value) => ({ field, value }))),
  ...INTEGERS.flatMap(({ field, min }) => [
    { field, value: min - 1 },
    { field, value: -1_000 },
    ...WRONG_TYPES_FOR_INTEGERS.map((value) => ({ field, value })),
  ]),
  // tenant_id is read (fallback token) or ignored (other tokens), but must be a string.
  ...WRONG_TYPES_FOR_STRINGS.map((value) => ({ field: 'tenant_id', value })),
];

const AGENT = 'rules-bot';

const bodyOf = (c: Case) =>
  c.field === 'agent_key' ? { agent_key: c.value } : { agent_key: AGENT, [c.field]: c.value };

interface InvocationRow extends Record<string, unknown> {
  agent_key: string;
  mode: string;
  outcome: string;
  duration_ms: number | null;
  principal_kind: string | null;
  principal_id: string;
  parent_invocation_id: number | null;
  correlation_id: string | null;
  tool_name: string | null;
  verdict: string;
  pii_count: number | null;
  log_index: number;
}

async function invocationRow(t: TestService, tenantId: string, id: number): Promise<InvocationRow | undefined> {
  const [row] = await query<InvocationRow>(t, 'SELECT * FROM invocations WHERE tenant_id = $1 AND invocation_id = $2', [
    tenantId,
    id,
  ]);
  return row;
}

interface ContentRow extends Record<string, unknown> {
  field: string;
  body: string;
  salt: Uint8Array;
  cps: number;
  /** tool_output only: whether the background scan has re-committed it. */
  rescanned: boolean;
}

async function contentRows(t: TestService, tenantId: string, id: number) {
  // A tool_output is sealed until its scan (sealed-output.ts): let the scan
  // store the text (privacy.test.ts checks the sealed state itself). The
  // service's own worker may hold the job: wait for it then.
  for (let i = 0; ; i++) {
    await t.service.jobs.drain();
    const [p] = await query<{ n: number }>(
      t,
      'SELECT count(*)::int AS n FROM invocation_content WHERE tenant_id = $1 AND invocation_id = $2 AND findings IS NULL',
      [tenantId, id],
    );
    if (p!.n === 0) break;
    if (i > 200) assert.fail('the tool_output scan did not finish');
    await new Promise((r) => setTimeout(r, 25));
  }
  const rows = await query<ContentRow>(
    t,
    `SELECT c.field, c.body, c.salt, char_length(c.body) AS cps, i.output_scanned_at IS NOT NULL AS rescanned
     FROM invocation_content c JOIN invocations i USING (tenant_id, invocation_id)
     WHERE c.tenant_id = $1 AND c.invocation_id = $2 ORDER BY c.field`,
    [tenantId, id],
  );
  return new Map(rows.map((r) => [r.field, r]));
}

/**
 * The stored text is the one a leaf commits to: the invocation's own leaf, or,
 * for a tool_output the background scan has since stored again (new salt), the
 * tool_output_scan leaf of this invocation.
 */
async function assertCommitted(
  t: TestService,
  tenantId: string,
  id: number,
  invocationLeaf: Record<string, unknown>,
  r: ContentRow,
) {
  let leaf = invocationLeaf;
  if (r.field === 'tool_output' && r.rescanned) {
    const scan = (await leaves(t, tenantId)).find((l) => l.kind === 'tool_output_scan' && l.invocation_id === id);
    assert.ok(scan, 'a rescanned tool_output has its tool_output_scan leaf');
    leaf = scan;
  }
  assert.equal(
    (leaf.content as Record<string, string>)[r.field],
    commitment(new Uint8Array(r.salt), r.body),
    `${r.field} commitment`,
  );
}

/** JSON with every character outside the BMP written as a \u escape pair: the largest spelling of a text. */
function escapedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u{10000}-\u{10FFFF}]/gu, (c) =>
    [c.charCodeAt(0), c.charCodeAt(1)].map((u) => `\\u${u.toString(16)}`).join(''),
  );
}

eachStore('invocation endpoint: field rules', (get) => {
  let shared: Promise<SignedIn> | undefined;
  /** One workspace for the table rows (each row is one request; caps are far away). */
  const ws = () => {
    shared ??= newWorkspace(get(), 'inv-table');
    return shared;
  };

  for (const c of accepted) {
    test(`${c.field} = ${show(c.value)} is accepted and stored as sent`, async () => {
      const t = get();
      const a = await ws();
      const res = await post(t, INVOCATION, a.token, bodyOf(c));
      assert.equal(res.statusCode, 201, res.body.slice(0, 500));
      const { invocation_id: id, evidence_id } = res.json() as { invocation_id: number; evidence_id: number };
      const row = await invocationRow(t, a.account.tenant_id, id);
      assert.ok(row, 'no invocations row');
      const leaf = await evidenceLeaf(t, a.token, evidence_id);
      if (isContent(c.field)) {
        const content = await contentRows(t, a.account.tenant_id, id);
        const r = content.get(c.field);
        assert.ok(r, `no stored ${c.field}`);
        assert.equal(r.body, c.value);
        assert.equal(r.cps, [...(c.value as string)].length);
        assert.deepEqual([...content.keys()], [c.field]);
        assert.deepEqual(Object.keys(leaf.content as object), [c.field]);
        await assertCommitted(t, a.account.tenant_id, id, leaf, r);
      } else {
        // Stored as sent (no detector finds anything in these values), and
        // committed to by the leaf, never carried by it (leaf format v2).
        assert.equal(row[c.field], c.value);
        if (c.field === 'mode') assert.equal(leaf.mode, c.value);
        else if (c.field === 'principal_kind') assert.equal(leaf.principal_kind, c.value);
        else if (c.field === 'parent_invocation_id')
          assert.equal(c.field in leaf, false); // a link, in neither leaf nor meta
        else {
          assert.equal(c.field in leaf, false, `${c.field} in leaf`);
          const meta = await storedMeta(t, a.account.tenant_id, 'invocations', id);
          assert.equal(meta.fields[c.field], c.value);
          assert.equal(leaf.meta, meta.commitment);
        }
      }
    });
  }

  for (const c of rejected) {
    test(`${c.field} = ${show(c.value)} is refused: 422 naming /${c.field}, nothing stored`, async () => {
      const t = get();
      const a = await ws();
      const before = await stored(t, a.account.tenant_id);
      const res = await post(t, INVOCATION, a.token, bodyOf(c));
      expectFieldErrors(res, [`/${c.field}`]);
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
    });
  }

  test('agent_key is required: 422 naming /agent_key', async () => {
    const t = get();
    const a = await ws();
    const before = await stored(t, a.account.tenant_id);
    expectFieldErrors(await post(t, INVOCATION, a.token, {}), ['/agent_key']);
    expectFieldErrors(await post(t, INVOCATION, a.token, { prompt: 'hello', mode: 'enforced' }), ['/agent_key']);
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });

  test('every broken rule of a body is reported, each by its JSON pointer', async () => {
    const t = get();
    const a = await ws();
    const res = await post(t, INVOCATION, a.token, {
      agent_key: '',
      mode: 'loud',
      duration_ms: -1,
      parent_invocation_id: '7',
      tool_name: 'x'.repeat(257),
      prompt: emoji(32_001),
      principal_kind: null,
    });
    expectFieldErrors(res, [
      '/agent_key',
      '/mode',
      '/duration_ms',
      '/parent_invocation_id',
      '/tool_name',
      '/prompt',
      '/principal_kind',
    ]);
  });

  test('text with U+0000 or a lone surrogate in a stored field is refused with 422 naming it', async () => {
    const t = get();
    const a = await ws();
    const before = await stored(t, a.account.tenant_id);
    expectFieldErrors(await post(t, INVOCATION, a.token, { agent_key: AGENT, prompt: 'a\u0000b' }), ['/prompt']);
    expectFieldErrors(await postRaw(t, INVOCATION, a.token, `{"agent_key":"${AGENT}","tool_output":"x\\ud800y"}`), [
      '/tool_output',
    ]);
    expectFieldErrors(await postRaw(t, INVOCATION, a.token, '{"agent_key":"\\udfff"}'), ['/agent_key']);
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });
});

eachStore('invocation endpoint: defaults, response, bodies', (get) => {
  test('defaults: mode observed, outcome success, principal_id = agent_key; in the row and in the leaf', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-defaults');
    const res = await post(t, INVOCATION, a.token, { agent_key: 'defaults-bot', principal_kind: 'user' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as { invocation_id: number; evidence_id: number };
    const row = await invocationRow(t, a.account.tenant_id, body.invocation_id);
    assert.ok(row);
    assert.equal(row.mode, 'observed');
    assert.equal(row.outcome, 'success');
    assert.equal(row.principal_id, 'defaults-bot');
    assert.equal(row.principal_kind, 'user');
    for (const col of ['duration_ms', 'parent_invocation_id', 'correlation_id', 'tool_name', 'pii_count'] as const) {
      assert.equal(row[col], null, col);
    }
    const leaf = await evidenceLeaf(t, a.token, body.evidence_id);
    assert.equal(leaf.v, 2);
    assert.equal(leaf.kind, 'invocation');
    assert.equal(leaf.invocation_id, body.invocation_id);
    assert.equal(leaf.mode, 'observed');
    assert.equal(leaf.agent, await pseudonymOf(t, a.account.tenant_id, 'agent', 'defaults-bot'));
    assert.equal(leaf.tenant_id, a.account.tenant_id);
    const meta = await storedMeta(t, a.account.tenant_id, 'invocations', body.invocation_id);
    assert.equal(leaf.meta, meta.commitment);
    assert.equal(meta.fields.outcome, 'success');
    assert.equal(meta.fields.principal_id, 'defaults-bot');
    for (const k of [
      'agent_key',
      'outcome',
      'principal_id',
      'duration_ms',
      'parent_invocation_id',
      'correlation_id',
      'tool_name',
      'pii_count',
    ]) {
      assert.equal(k in leaf, false, `${k} in leaf`);
    }
  });

  test('explicit values replace the defaults and are stored as sent, in the row and in the leaf', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-explicit');
    const sent = {
      agent_key: 'explicit-bot',
      mode: 'shadow',
      outcome: 'throttled',
      duration_ms: 1234,
      principal_kind: 'agent',
      principal_id: 'orchestrator-7',
      parent_invocation_id: 42,
      correlation_id: 'corr-1',
      tool_name: 'search.web',
      prompt: 'p',
      response: 'r',
      context: 'c',
      tool_input: 'ti',
      tool_output: 'to',
    };
    const res = await post(t, INVOCATION, a.token, sent);
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as { invocation_id: number; evidence_id: number; verdict: string };
    const row = await invocationRow(t, a.account.tenant_id, body.invocation_id);
    assert.ok(row);
    const leaf = await evidenceLeaf(t, a.token, body.evidence_id);
    const meta = await storedMeta(t, a.account.tenant_id, 'invocations', body.invocation_id);
    assert.equal(leaf.meta, meta.commitment);
    for (const k of [
      'agent_key',
      'mode',
      'outcome',
      'duration_ms',
      'principal_kind',
      'principal_id',
      'parent_invocation_id',
      'correlation_id',
      'tool_name',
    ] as const) {
      assert.equal(row[k], sent[k], `row.${k}`);
      if (k === 'mode' || k === 'principal_kind') assert.equal(leaf[k], sent[k], `leaf.${k}`);
      else if (k === 'parent_invocation_id') assert.equal(k in leaf, false);
      else {
        assert.equal(meta.fields[k], sent[k], `meta.${k}`);
        assert.equal(k in leaf, false, `leaf.${k}`);
      }
    }
    assert.equal(row.verdict, body.verdict);
    assert.equal(leaf.verdict, body.verdict);
    const content = await contentRows(t, a.account.tenant_id, body.invocation_id);
    assert.deepEqual([...content.keys()].sort(), [...CONTENT_FIELDS].sort());
    assert.deepEqual(Object.keys(leaf.content as object).sort(), [...CONTENT_FIELDS].sort());
    for (const f of CONTENT_FIELDS) {
      const r = content.get(f)!;
      assert.equal(r.body, sent[f]);
      await assertCommitted(t, a.account.tenant_id, body.invocation_id, leaf, r);
    }
    // The leaf commits to the texts; it never carries them.
    assert.equal(JSON.stringify(leaf).includes('"ti"'), false);
  });

  test('the response: 201 JSON {invocation_id, tenant_id, verdict, evidence_id}; no pii_count when tool_input holds no PII', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-response');
    const res = await post(t, INVOCATION, a.token, {
      agent_key: 'response-bot',
      tool_name: 'weather',
      tool_input: 'sort the list in ascending order',
      tool_output: 'done',
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
    const body = res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['evidence_id', 'invocation_id', 'tenant_id', 'verdict']);
    assert.ok(Number.isSafeInteger(body.invocation_id) && (body.invocation_id as number) >= 1);
    assert.ok(Number.isSafeInteger(body.evidence_id) && (body.evidence_id as number) >= 1);
    assert.equal(body.tenant_id, a.account.tenant_id);
    assert.ok(['allow', 'flag_for_review', 'deny'].includes(body.verdict as string));
    const row = await invocationRow(t, a.account.tenant_id, body.invocation_id as number);
    assert.ok(row);
    assert.equal(row.pii_count, null);
    assert.equal(row.verdict, body.verdict);
    // evidence_id names this invocation's own leaf.
    const leaf = await evidenceLeaf(t, a.token, body.evidence_id as number);
    assert.equal(leaf.invocation_id, body.invocation_id);
    assert.equal(row.log_index + 1, body.evidence_id);
  });

  test('a metadata-only request (agent_key alone) is valid: no stored texts, a leaf with no commitments', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-metadata');
    const res = await post(t, INVOCATION, a.token, { agent_key: 'meta-bot' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as { invocation_id: number; evidence_id: number };
    assert.equal((await contentRows(t, a.account.tenant_id, body.invocation_id)).size, 0);
    const leaf = await evidenceLeaf(t, a.token, body.evidence_id);
    assert.deepEqual(leaf.content, {});
  });

  test('unknown fields are ignored: not stored, not in the leaf, never a reason to refuse', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-unknown');
    const res = await post(t, INVOCATION, a.token, {
      agent_key: 'unknown-bot',
      verdict: 'deny',
      invocation_id: 77,
      evidence_id: 77,
      pii_count: 9,
      Prompt: 'capitalised, so unknown',
      note: 'has a NUL \u0000 but is not a field',
      nested: { deep: [1, 'two', null] },
      list: [1, 2, 3],
      flag: true,
      nothing: null,
    });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json() as Record<string, unknown>;
    assert.equal('pii_count' in body, false);
    assert.notEqual(body.invocation_id, 77);
    const leaf = await evidenceLeaf(t, a.token, body.evidence_id as number);
    assert.deepEqual(Object.keys(leaf).sort(), [
      'agent',
      'content',
      'findings',
      'invocation_id',
      'kind',
      'meta',
      'mode',
      'policy_version',
      'reasons',
      'tenant_id',
      'time',
      'v',
      'verdict',
    ]);
    assert.deepEqual(leaf.content, {});
    const row = await invocationRow(t, a.account.tenant_id, body.invocation_id as number);
    assert.ok(row);
    assert.equal(row.pii_count, null);
    assert.equal(row.verdict, body.verdict);
    assert.equal((await contentRows(t, a.account.tenant_id, body.invocation_id as number)).size, 0);
  });

  const notObjects: Array<[string, string]> = [
    ['truncated JSON', '{"agent_key": "a"'],
    ['unquoted keys', '{agent_key: "a"}'],
    ['trailing comma', '{"agent_key": "a",}'],
    ['an empty body', ''],
    ['an array', '[]'],
    ['an array of an object', '[{"agent_key": "a"}]'],
    ['a string', '"agent_key"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ];
  for (const [what, raw] of notObjects) {
    test(`${what} is 400 bad_request; nothing stored`, async () => {
      const t = get();
      const a = await newWorkspace(t, 'inv-400');
      const before = await stored(t, a.account.tenant_id);
      expectProblem(await postRaw(t, INVOCATION, a.token, raw), 400, 'bad_request');
      assert.deepEqual(await stored(t, a.account.tenant_id), before);
    });
  }

  test('the largest valid body (every field at its limit, every emoji JSON-escaped) is accepted', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-largest');
    const body = {
      agent_key: emoji(512),
      mode: 'enforced',
      outcome: emoji(64),
      duration_ms: Number.MAX_SAFE_INTEGER,
      principal_kind: 'agent',
      principal_id: emoji(512),
      parent_invocation_id: Number.MAX_SAFE_INTEGER,
      correlation_id: emoji(64),
      tenant_id: a.account.tenant_id,
      tool_name: emoji(256),
      ...Object.fromEntries(CONTENT_FIELDS.map((f) => [f, emoji(32_000)])),
    };
    const raw = escapedJson(body);
    assert.ok(raw.length > 1_900_000 && raw.length < BODY_LIMIT, `body is ${raw.length} bytes`);
    const res = await postRaw(t, INVOCATION, a.token, raw);
    assert.equal(res.statusCode, 201, res.body.slice(0, 500));
    const { invocation_id } = res.json() as { invocation_id: number };
    const content = await contentRows(t, a.account.tenant_id, invocation_id);
    assert.equal(content.size, 5);
    for (const r of content.values()) assert.equal(r.cps, 32_000);
  });

  test('a body over the limit is 413 payload_too_large; nothing stored', async () => {
    const t = get();
    const a = await newWorkspace(t, 'inv-413');
    const before = await stored(t, a.account.tenant_id);
    const raw = JSON.stringify({ agent_key: 'big-bot', prompt: 'a'.repeat(BODY_LIMIT) });
    expectProblem(await postRaw(t, INVOCATION, a.token, raw), 413, 'payload_too_large');
    assert.deepEqual(await stored(t, a.account.tenant_id), before);
  });
});

eachStore('invocation endpoint: agents on first sight', (get) => {
  const registrations = async (t: TestService, tenantId: string, agentKey: string) => {
    const agent = await pseudonymOf(t, tenantId, 'agent', agentKey);
    return (await leaves(t, tenantId)).filter((l) => l.kind === 'agent_registered' && l.agent === agent);
  };
  const agentRows = async (t: TestService, tenantId: string, agentKey: string) =>
    query<{ first_seen_at: Date }>(t, 'SELECT first_seen_at FROM agents WHERE tenant_id = $1 AND agent_key = $2', [
      tenantId,
      agentKey,
    ]);

  test('the first event of an agent registers it (a row and an agent_registered leaf before its invocation); later ones do not', async () => {
    const t = get();
    const a = await newWorkspace(t, 'first-sight');
    const first = await post(t, INVOCATION, a.token, { agent_key: 'new-bot' });
    assert.equal(first.statusCode, 201, first.body);
    const second = await post(t, INVOCATION, a.token, { agent_key: 'new-bot', outcome: 'error' });
    assert.equal(second.statusCode, 201, second.body);
    assert.equal((await agentRows(t, a.account.tenant_id, 'new-bot')).length, 1);
    const all = await leaves(t, a.account.tenant_id);
    const agent = await pseudonymOf(t, a.account.tenant_id, 'agent', 'new-bot');
    assert.equal(JSON.stringify(all).includes('new-bot'), false, 'the agent key is not in the log');
    const reg = all.findIndex((l) => l.kind === 'agent_registered' && l.agent === agent);
    const inv = all.findIndex((l) => l.kind === 'invocation' && l.agent === agent);
    assert.ok(reg >= 0 && reg < inv, 'the registration leaf precedes the first invocation');
    assert.equal((await registrations(t, a.account.tenant_id, 'new-bot')).length, 1);
    const me = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: a.token });
    assert.equal(me.json().quotas.agents_registered, 1);
  });

  test('50 concurrent first-sight events of one agent_key register it exactly once', async () => {
    const t = get();
    const a = await newWorkspace(t, 'race');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(t, INVOCATION, a.token, { agent_key: 'racer', correlation_id: `c-${i}` }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.statusCode),
      Array(50).fill(201),
    );
    assert.equal(new Set(results.map((r) => r.json().invocation_id)).size, 50);
    assert.equal((await agentRows(t, a.account.tenant_id, 'racer')).length, 1);
    assert.equal((await registrations(t, a.account.tenant_id, 'racer')).length, 1);
    const s = await stored(t, a.account.tenant_id);
    assert.equal(s.invocations, 50);
    assert.equal(s.usage, 50);
    assert.equal(s.entries, s.head);
  });

  test('the same agent_key in two workspaces is registered once in each', async () => {
    const t = get();
    const a = await newWorkspace(t, 'same-key-a');
    const b = await newWorkspace(t, 'same-key-b');
    for (const w of [a, b, a, b])
      assert.equal((await post(t, INVOCATION, w.token, { agent_key: 'shared-name' })).statusCode, 201);
    for (const w of [a, b]) {
      assert.equal((await agentRows(t, w.account.tenant_id, 'shared-name')).length, 1);
      assert.equal((await registrations(t, w.account.tenant_id, 'shared-name')).length, 1);
    }
    // Each workspace has its own salt: the logs do not show it is the same agent.
    assert.notEqual(
      await pseudonymOf(t, a.account.tenant_id, 'agent', 'shared-name'),
      await pseudonymOf(t, b.account.tenant_id, 'agent', 'shared-name'),
    );
  });
});
