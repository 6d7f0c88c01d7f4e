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
    const sealed = row!.judges[0]!.api_key_sealed!;
    assert.match(sealed, /^d1\./, 'sealed bound to its origin');
    assert.equal(Buffer.from(sealed.slice(3), 'base64').length, 12 + KEY.length + 16);

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

  // A key given for one origin is never sent to another: the write that moves
  // a judge elsewhere without its key is refused, and nothing changes.
  test('a stored key stays bound to its origin: a PUT moving a judge elsewhere without a key is 422', async () => {
    const t = get();
    const a = await t.signIn('admin@judges-bound.io');
    const put = (judge: Record<string, unknown>, extra: Record<string, unknown>[] = []) =>
      t.request({
        method: 'PUT',
        url: '/api/v1/workspace/judges',
        token: a.token,
        payload: { judges: [judge, ...extra], quorum: 'majority', auto_resolve: false },
      });
    const sealedNow = async () =>
      (
        await t.testDb.db.query<{ judges: Array<{ base_url: string; api_key_sealed: string | null }> }>(
          'SELECT judges FROM judge_panels WHERE tenant_id = $1',
          [a.account.tenant_id],
        )
      )[0]!.judges[0]!;
    const base = { name: 'gpt', base_url: 'https://api.judge-vendor.example/v1', model: 'm' };
    assert.equal((await put({ ...base, api_key: KEY })).statusCode, 200);
    const original = await sealedNow();

    for (const base_url of [
      'https://attacker.example/v1',
      'http://api.judge-vendor.example/v1',
      'https://api.judge-vendor.example:8443/v1',
      'https://api.judge-vendor.example.attacker.example/v1',
      'https://evil@attacker.example/v1',
      'https://127.0.0.1/v1',
    ]) {
      const res = await put({ ...base, base_url }, [{ name: 'x', base_url: 'https://x.example/v1', model: 'm' }]);
      assert.equal(res.statusCode, 422, `${base_url}: ${res.body}`);
      const p = res.json() as { detail: string; errors: Array<{ field: string; message: string }> };
      assert.match(p.detail, /changes where the stored secret is sent/);
      assert.deepEqual(
        p.errors.map((e) => e.field),
        ['/judges/0/api_key'],
      );
      assert.match(p.errors[0]!.message, /given for https:\/\/api\.judge-vendor\.example and is not sent to/);
      assert.deepEqual(await sealedNow(), original, 'nothing changed');
    }
    // The same origin, spelled differently or with another path, keeps the key.
    for (const base_url of ['https://API.Judge-Vendor.example:443/v2', 'https://api.judge-vendor.example/v1']) {
      const res = await put({ ...base, base_url });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().judges[0].api_key_set, true);
      assert.equal((await sealedNow()).api_key_sealed, original.api_key_sealed);
    }
    // Another origin with the key given again, or with null (no key): accepted.
    const moved = await put({ ...base, base_url: 'https://other-vendor.example/v1', api_key: 'sk-other' });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.notEqual((await sealedNow()).api_key_sealed, original.api_key_sealed);
    const cleared = await put({ ...base, base_url: 'https://third.example/v1', api_key: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().judges[0].api_key_set, false);
    assert.equal((await sealedNow()).api_key_sealed, null);
    // A judge without a key moves freely.
    assert.equal((await put({ ...base, base_url: 'https://fourth.example/v1' })).statusCode, 200);
    // A URL no parser accepts is a 422 of its own.
    const bad = await put({ ...base, base_url: 'http://' });
    assert.equal(bad.statusCode, 422, bad.body);
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
