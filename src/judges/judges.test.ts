import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';
import { addMember, auditLeaves } from '../testing/workspace.ts';

const KEY = 'sk-judge-secret-0123456789abcdef';
const PANEL = {
  judges: [
    { name: 'local-llama', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b', api_key: KEY },
    { name: 'vllm', base_url: 'https://vllm.internal.example/v1', model: 'qwen2.5-7b' },
  ],
  quorum: 'majority',
  auto_resolve: false,
};

eachStore('judge panel configuration', (get) => {
  test('admins set the panel; keys are stored encrypted and never returned; auditors read it; a judge_panel_change leaf names no judge', async () => {
    const t = get();
    const a = await t.signIn('admin@judges-co.io');
    const empty = await t.request({ method: 'GET', url: '/api/v1/workspace/judges', token: a.token });
    assert.deepEqual(empty.json(), { judges: [], quorum: 'majority', auto_resolve: false, updated_at: null });

    const put = await t.request({ method: 'PUT', url: '/api/v1/workspace/judges', token: a.token, payload: PANEL });
    assert.equal(put.statusCode, 200, put.body);
    const expected = [
      { name: 'local-llama', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b', api_key_set: true },
      { name: 'vllm', base_url: 'https://vllm.internal.example/v1', model: 'qwen2.5-7b', api_key_set: false },
    ];
    assert.deepEqual(put.json().judges, expected);
    assert.ok(!put.body.includes(KEY));

    const auditor = await addMember(t, a, 'auditor@judges-co.io', 'auditor');
    const read = await t.request({ method: 'GET', url: '/api/v1/workspace/judges', token: auditor.token });
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json().judges, expected);
    assert.ok(!read.body.includes(KEY));
    assert.equal(
      (await t.request({ method: 'PUT', url: '/api/v1/workspace/judges', token: auditor.token, payload: PANEL }))
        .statusCode,
      403,
    );
    const operator = await addMember(t, a, 'operator@judges-co.io', 'operator');
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/workspace/judges', token: operator.token })).statusCode,
      403,
    );

    // At rest: no key in clear anywhere in the row; the sealed value is iv + ciphertext + tag.
    const [row] = await t.testDb.db.query<{ text: string; judges: Array<{ api_key_sealed: string | null }> }>(
      'SELECT judges::text AS text, judges FROM judge_panels WHERE tenant_id = $1',
      [a.account.tenant_id],
    );
    assert.ok(!row!.text.includes(KEY));
    assert.equal(Buffer.from(row!.judges[0]!.api_key_sealed!, 'base64').length, 12 + KEY.length + 16);

    // A PUT without the key keeps the stored one (same name); a renamed judge has none.
    const keep = await t.request({
      method: 'PUT',
      url: '/api/v1/workspace/judges',
      token: a.token,
      payload: {
        ...PANEL,
        quorum: 'unanimous_to_deny',
        judges: [
          { name: 'local-llama', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.1:70b' },
          { name: 'other', base_url: 'http://127.0.0.1:8000/v1', model: 'm' },
        ],
      },
    });
    assert.deepEqual(
      keep.json().judges.map((j: { name: string; api_key_set: boolean }) => [j.name, j.api_key_set]),
      [
        ['local-llama', true],
        ['other', false],
      ],
    );
    const [after] = await t.testDb.db.query<{ judges: Array<{ api_key_sealed: string | null }> }>(
      'SELECT judges FROM judge_panels WHERE tenant_id = $1',
      [a.account.tenant_id],
    );
    assert.equal(after!.judges[0]!.api_key_sealed, row!.judges[0]!.api_key_sealed);

    const leaves = (await auditLeaves(t, a.token)).filter((l) => l.kind === 'judge_panel_change');
    assert.deepEqual(
      leaves.map((l) => [l.judges, l.quorum, l.auto_resolve]),
      [
        [2, 'majority', false],
        [2, 'unanimous_to_deny', false],
      ],
    );
    const log = JSON.stringify(leaves);
    for (const s of [KEY, 'local-llama', '11434', 'vllm']) assert.ok(!log.includes(s), s);

    const other = await t.signIn('admin@judges-elsewhere.io');
    assert.deepEqual(
      (await t.request({ method: 'GET', url: '/api/v1/workspace/judges', token: other.token })).json().judges,
      [],
    );
  });

  test('a panel has 1-5 judges with unique names, http(s) URLs and a known quorum', async () => {
    const t = get();
    const a = await t.signIn('admin@judges-bounds.io');
    const j = (name: string) => ({ name, base_url: 'http://127.0.0.1:1/v1', model: 'm' });
    const cases: object[] = [
      { judges: [], quorum: 'majority', auto_resolve: false },
      { judges: [1, 2, 3, 4, 5, 6].map((i) => j(`j${i}`)), quorum: 'majority', auto_resolve: false },
      { judges: [j('a'), j('a')], quorum: 'majority', auto_resolve: false },
      { judges: [{ ...j('a'), base_url: 'file:///etc/passwd' }], quorum: 'majority', auto_resolve: false },
      { judges: [j('a')], quorum: 'any', auto_resolve: false },
    ];
    for (const payload of cases) {
      const res = await t.request({ method: 'PUT', url: '/api/v1/workspace/judges', token: a.token, payload });
      assert.ok([400, 422].includes(res.statusCode), `${JSON.stringify(payload).slice(0, 100)} → ${res.statusCode}`);
    }
    assert.deepEqual(
      (await t.request({ method: 'GET', url: '/api/v1/workspace/judges', token: a.token })).json().judges,
      [],
    );
  });
});
