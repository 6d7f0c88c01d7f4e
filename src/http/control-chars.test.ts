// One input rule for control characters, over the endpoint list, on both
// stores: U+0000 and unpaired surrogates are a 422 naming the field
// everywhere (body, query, path), never a 500; one-line values (names, keys,
// URLs, globs, addresses) refuse every control character; client content
// (event fields, agent keys, descriptions) keeps tabs and line breaks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn } from '../testing/harness.ts';

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** The URL, `X` replaced by the value under test (percent-encoded) when the value goes in the path or query. */
  url: string;
  /** The body, with the value under test in it; undefined for GET. */
  body?: (v: string) => unknown;
  /** The JSON pointer the 422 names. */
  field: string;
  /** Client content: keeps tabs, line breaks and escapes. */
  content?: boolean;
  /** Authenticated as the admin (default) or anonymous. */
  anonymous?: boolean;
}

const judges = (name: string, base_url = 'https://judge.example/v1', model = 'm') => ({
  judges: [{ name, base_url, model }],
  quorum: 'majority',
  auto_resolve: false,
});
const policy = (id: string, description: string, tool: string) => ({
  default_verdict: 'allow',
  rules: [{ id, description, when: { tools: [tool] }, verdict: 'deny' }],
});

const CASES: Case[] = [
  {
    name: 'API token name',
    method: 'POST',
    url: '/api/v1/accounts/tokens',
    body: (v) => ({ name: v }),
    field: '/name',
  },
  {
    name: 'ingress token name',
    method: 'POST',
    url: '/api/v1/workspace/ingress-tokens',
    body: (v) => ({ name: v }),
    field: '/name',
  },
  {
    name: 'erasure agent_key',
    method: 'POST',
    url: '/api/v1/workspace/erasures',
    body: (v) => ({ agent_key: v }),
    field: '/agent_key',
    content: true,
  },
  {
    name: 'erasure principal_id',
    method: 'POST',
    url: '/api/v1/workspace/erasures',
    body: (v) => ({ principal_id: v }),
    field: '/principal_id',
    content: true,
  },
  { name: 'persona name', method: 'POST', url: '/api/v1/personas', body: (v) => ({ name: v }), field: '/name' },
  {
    name: 'persona description',
    method: 'POST',
    url: '/api/v1/personas',
    body: (v) => ({ name: `p${Math.random().toString(36).slice(2, 8)}`, description: v }),
    field: '/description',
    content: true,
  },
  {
    name: 'persona tool glob',
    method: 'POST',
    url: '/api/v1/personas',
    body: (v) => ({ name: 'globs', allowed_tools: [v] }),
    field: '/allowed_tools/0',
  },
  {
    name: 'judge name',
    method: 'PUT',
    url: '/api/v1/workspace/judges',
    body: (v) => judges(v),
    field: '/judges/0/name',
  },
  {
    name: 'judge model',
    method: 'PUT',
    url: '/api/v1/workspace/judges',
    body: (v) => judges('j', undefined, v),
    field: '/judges/0/model',
  },
  {
    name: 'judge base_url',
    method: 'PUT',
    url: '/api/v1/workspace/judges',
    body: (v) => judges('j', `https://judge.example/${v}`),
    field: '/judges/0/base_url',
  },
  {
    name: 'scope glob',
    method: 'PUT',
    url: '/api/v1/agents/bot/scope',
    body: (v) => ({ allowed_tools: [v] }),
    field: '/allowed_tools/0',
  },
  {
    name: 'agent key in the path (scope)',
    method: 'PUT',
    url: '/api/v1/agents/X/scope',
    body: () => ({ allowed_tools: ['a'] }),
    field: '/agent_key',
    content: true,
  },
  { name: 'agent key in the path (read)', method: 'GET', url: '/api/v1/agents/X', field: '/agent_key', content: true },
  {
    name: 'policy rule description',
    method: 'PUT',
    url: '/api/v1/policy',
    body: (v) => policy('r1', v, 'shell'),
    field: '/rules/0/description',
    content: true,
  },
  {
    name: 'policy rule tool',
    method: 'PUT',
    url: '/api/v1/policy',
    body: (v) => policy('r1', 'd', v),
    field: '/rules/0/when/tools/0',
  },
  {
    name: 'invitation address',
    method: 'POST',
    url: '/api/v1/workspace/invites',
    body: (v) => ({ email: `a${v}@control-chars.io`, role: 'viewer' }),
    field: '/email',
  },
  {
    name: 'sign-up address (anonymous)',
    method: 'POST',
    url: '/api/v1/accounts/signup',
    body: (v) => ({ email: `a${v}@control-chars.io` }),
    field: '/email',
    anonymous: true,
  },
  {
    name: 'query filter',
    method: 'GET',
    url: '/api/v1/invocations?agent_key=X',
    field: '/agent_key',
    content: true,
  },
  {
    name: 'event agent_key',
    method: 'POST',
    url: '/api/v1/admin/agents/events/invocation',
    body: (v) => ({ agent_key: `bot${v}` }),
    field: '/agent_key',
    content: true,
  },
  {
    name: 'event prompt',
    method: 'POST',
    url: '/api/v1/admin/agents/events/invocation',
    body: (v) => ({ agent_key: 'bot', prompt: v }),
    field: '/prompt',
    content: true,
  },
];

const NEVER = ['\u0000', 'a\u0000b', '\ud800', 'x\udc00y'];
const NOT_ON_ONE_LINE = ['a\nb', 'a\tb', 'a\rb', '\u001b[31m', 'a\u007fb', 'a\u0085b', 'a\u0001b'];

eachStore('the control character rule', (get) => {
  let admin: SignedIn;
  const send = (c: Case, v: string) => {
    const t = get();
    const inUrl = c.url.includes('X');
    const url = inUrl ? c.url.replace('X', encodeURIComponent(v)) : c.url;
    return t.request({
      method: c.method,
      url,
      ...(c.anonymous ? {} : { token: admin.token }),
      ...(c.body ? { payload: c.body(inUrl ? 'ok' : v) as object } : {}),
    });
  };
  const expect422 = async (c: Case, v: string) => {
    const res = await send(c, v);
    assert.equal(res.statusCode, 422, `${c.name} ${JSON.stringify(v)}: ${res.statusCode} ${res.body}`);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    const p = res.json() as { code: string; errors: Array<{ field: string; message: string }> };
    assert.equal(p.code, 'unprocessable');
    assert.ok(
      p.errors.some((e) => e.field === c.field && /must not contain/.test(e.message)),
      `${c.name} ${JSON.stringify(v)}: ${res.body}`,
    );
  };

  test('setup', async () => {
    admin = await get().signIn('admin@control-chars.io');
  });

  for (const c of CASES) {
    test(`${c.name}: U+0000 and unpaired surrogates are a 422 naming ${c.field}`, async () => {
      // A URL cannot carry an unpaired surrogate (its UTF-8 would be invalid): only NUL goes there.
      for (const v of c.url.includes('X') ? NEVER.filter((x) => x.isWellFormed()) : NEVER) await expect422(c, v);
    });
    if (c.content) {
      test(`${c.name}: client content keeps line breaks, tabs and escapes`, async () => {
        for (const v of NOT_ON_ONE_LINE) {
          const res = await send(c, v);
          assert.ok(res.statusCode < 500, `${c.name}: ${res.statusCode} ${res.body}`);
          if (res.statusCode === 422)
            assert.doesNotMatch(res.body, /must not contain/, `${c.name} ${JSON.stringify(v)}`);
        }
      });
    } else {
      test(`${c.name}: a one-line value refuses every control character`, async () => {
        for (const v of NOT_ON_ONE_LINE) await expect422(c, v);
      });
    }
  }

  test('a path that names nothing is still 404; clean values still work', async () => {
    const t = get();
    for (const url of [
      '/api/v1/agents/a%ED%A0%80b',
      '/api/v1/invocations?agent_key=a%ED%A0%80b',
      '/api/v1/agents/%C0%80',
    ]) {
      const res = await t.request({ method: 'GET', url, token: admin.token });
      assert.ok(res.statusCode < 500, `${url}: ${res.statusCode} ${res.body}`); // invalid UTF-8 in a URL: refused or read as U+FFFD
    }
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/personas/not-a-uuid', token: admin.token })).statusCode,
      404,
    );
    const ok = await t.request({
      method: 'POST',
      url: '/api/v1/accounts/tokens',
      token: admin.token,
      payload: { name: 'ci — déploiement 🚀' },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    const described = await t.request({
      method: 'POST',
      url: '/api/v1/personas',
      token: admin.token,
      payload: { name: 'multi-line', description: 'Line one\nLine two\twith a tab' },
    });
    assert.equal(described.statusCode, 201, described.body);
    assert.equal(described.json().description, 'Line one\nLine two\twith a tab');
  });
});
