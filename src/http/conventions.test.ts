import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from 'typebox';
import { eachStore, OPERATOR_TOKEN, type SignedIn } from '../testing/harness.ts';
import { assertFieldErrors, assertNoLeak, assertProblem } from '../testing/problems.ts';
import { BODY_LIMIT } from './app.ts';
import { validationProblem, validatorCompiler } from './validation.ts';
import { parseJsonBody } from './json-body.ts';
import { HttpProblem, internalError } from '../core/problems.ts';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Every account-side endpoint that takes a JSON body, with a valid body and the token it needs. */
function bodyEndpoints(alice: SignedIn) {
  return [
    { method: 'POST', url: '/api/v1/accounts/signup', token: undefined, valid: { email: 'x@conv.example' } },
    {
      method: 'POST',
      url: '/api/v1/accounts/verify',
      token: undefined,
      valid: { email: 'x@conv.example', code: '123456' },
    },
    { method: 'POST', url: '/api/v1/accounts/tokens', token: alice.token, valid: { name: 'n' } },
    {
      method: 'POST',
      url: '/api/v1/workspace/invites',
      token: alice.token,
      valid: { email: 'y@conv.example', role: 'viewer' },
    },
    {
      method: 'PATCH',
      url: `/api/v1/workspace/members/${alice.account.id}`,
      token: alice.token,
      valid: { role: 'admin' },
    },
    {
      method: 'PUT',
      url: `/api/v1/operator/workspaces/${alice.account.tenant_id}/subscription`,
      token: OPERATOR_TOKEN,
      valid: { plan_tier: 'team' },
    },
  ] as const;
}

eachStore('HTTP conventions', (get) => {
  let alice: SignedIn;

  test('setup', async () => {
    alice = await get().signIn('alice@conv.example');
  });

  test('malformed JSON and bodies that are not a JSON object → 400 bad_request, on every endpoint', async () => {
    const t = get();
    for (const e of bodyEndpoints(alice)) {
      for (const payload of ['{', '{"a":1,}', "{'a':1}", 'nul', '[]', '[{}]', '"text"', '42', 'true', 'null', '']) {
        const res = await t.request({
          method: e.method,
          url: e.url,
          headers: JSON_HEADERS,
          payload,
          ...(e.token ? { token: e.token } : {}),
        });
        assertProblem(res, 400, 'bad_request');
        // The body was read whole: the connection carries the client's next request.
        assert.notEqual(res.headers.connection, 'close', `${e.url} ${payload}`);
      }
    }
  });

  test('a body with __proto__ or constructor.prototype is refused (400), never merged', async () => {
    const t = get();
    for (const payload of [
      '{"__proto__":{"admin":true},"email":"p@conv.example"}',
      '{"constructor":{"prototype":{"admin":true}},"email":"p@conv.example"}',
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/v1/accounts/signup', headers: JSON_HEADERS, payload });
      assertProblem(res, 400, 'forbidden_key');
    }
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  });

  test('valid bodies pass on every endpoint (the 400s above are not an artefact of the route)', async () => {
    const t = get();
    for (const e of bodyEndpoints(alice)) {
      const res = await t.request({
        method: e.method,
        url: e.url,
        payload: e.valid,
        ...(e.token ? { token: e.token } : {}),
      });
      assert.ok([200, 201, 401].includes(res.statusCode), `${e.url}: ${res.statusCode} ${res.body}`);
      if (res.statusCode === 401) assert.equal(res.json().code, 'invalid_code');
    }
  });

  test('rule breaks → 422 unprocessable with errors[] of JSON pointers, one per broken field', async () => {
    const t = get();
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/operator/workspaces/${alice.account.tenant_id}/subscription`,
      token: OPERATOR_TOKEN,
      payload: { plan_tier: 5, subscription_status: 'x', trial_ends_at: true },
    });
    const p = assertFieldErrors(res, ['/plan_tier', '/subscription_status', '/trial_ends_at']);
    assert.match(p.detail, /3 rules/);
    // One message per field, saying what is allowed.
    assert.deepEqual(p.errors, [
      { field: '/plan_tier', message: 'must be one of "free", "team", "enterprise"' },
      {
        field: '/subscription_status',
        message: 'must be one of "trialing", "active", "past_due", "unpaid", "canceled"',
      },
      { field: '/trial_ends_at', message: 'must be string or null' },
    ]);
    const date = await t.request({
      method: 'PUT',
      url: `/api/v1/operator/workspaces/${alice.account.tenant_id}/subscription`,
      token: OPERATOR_TOKEN,
      payload: { trial_ends_at: 'soon' },
    });
    assert.deepEqual(assertFieldErrors(date, ['/trial_ends_at']).errors, [
      {
        field: '/trial_ends_at',
        message:
          'must be an RFC 3339 date-time with an offset, from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z or be null',
      },
    ]);
    const missing = await t.request({
      method: 'POST',
      url: '/api/v1/workspace/invites',
      token: alice.token,
      payload: { email: 'bad' },
    });
    assert.deepEqual(
      assertFieldErrors(missing, ['/email', '/role']).errors?.sort((a, b) => a.field.localeCompare(b.field)),
      [
        { field: '/email', message: 'must match format "email"' },
        { field: '/role', message: 'is required' },
      ],
    );
  });

  test('types are strict: no coercion of numbers, booleans or arrays into strings', async () => {
    const t = get();
    for (const name of [5, 1.5, true, false, ['n'], { n: 1 }]) {
      assertFieldErrors(
        await t.request({ method: 'POST', url: '/api/v1/accounts/tokens', token: alice.token, payload: { name } }),
        ['/name'],
      );
    }
    for (const code of [123456, 1.5, true, null]) {
      assertFieldErrors(
        await t.request({ method: 'POST', url: '/api/v1/accounts/verify', payload: { email: 'x@conv.example', code } }),
        ['/code'],
      );
    }
  });

  test(`bodies over the limit (${BODY_LIMIT} bytes) → 413, before any work`, async () => {
    const t = get();
    const big = JSON.stringify({ email: 'big@conv.example', pad: 'x'.repeat(BODY_LIMIT) });
    assertProblem(
      await t.request({ method: 'POST', url: '/api/v1/accounts/signup', headers: JSON_HEADERS, payload: big }),
      413,
      'payload_too_large',
    );
    assertProblem(
      await t.request({
        method: 'POST',
        url: '/api/v1/accounts/tokens',
        token: alice.token,
        headers: JSON_HEADERS,
        payload: big,
      }),
      413,
      'payload_too_large',
    );
    // Just under the limit is parsed (and the unknown field ignored).
    const under = JSON.stringify({ name: 'under', pad: 'x'.repeat(BODY_LIMIT - 100) });
    assert.equal(
      (
        await t.request({
          method: 'POST',
          url: '/api/v1/accounts/tokens',
          token: alice.token,
          headers: JSON_HEADERS,
          payload: under,
        })
      ).statusCode,
      200,
    );
    // Without a token, the size does not matter: 401 first.
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/accounts/tokens',
      headers: JSON_HEADERS,
      payload: big,
    });
    assertProblem(res, 401, 'unauthorized');
  });

  test('one rule for media types: anything but application/json (text/plain even holding JSON, none at all) → 415 naming the accepted type', async () => {
    const t = get();
    // A browser may send text/plain across origins without asking: it must never be taken for JSON.
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/api/v1/accounts/tokens', { 'content-type': 'text/plain' }, '{"name":"csrf"}'],
      ['/api/v1/accounts/tokens', { 'content-type': 'text/plain' }, 'email=a@b.example'],
      ['/api/v1/accounts/signup', { 'content-type': 'text/plain; charset=utf-8' }, '{"email":"a@b.example"}'],
      ['/api/v1/accounts/signup', { 'content-type': 'application/x-www-form-urlencoded' }, 'email=a%40b.example'],
      ['/api/v1/accounts/signup', { 'content-type': 'application/xml' }, '<email/>'],
      [
        '/api/v1/accounts/signup',
        { 'content-type': 'application/json; charset=iso-8859-1' },
        '{"email":"a@b.example"}',
      ],
      ['/api/v1/accounts/signup', {}, '{"email":"a@b.example"}'],
    ];
    for (const [url, headers, payload] of cases) {
      const res = await t.request({ method: 'POST', url, token: alice.token, headers, payload });
      const p = assertProblem(res, 415, 'unsupported_media_type');
      assert.match(p.detail, /application\/json/);
      assert.deepEqual((p as unknown as { accepted_types: string[] }).accepted_types, ['application/json']);
      assert.ok(
        !res.body.includes('text/plain') && !res.body.includes('xml') && !res.body.includes('8859'),
        `echoes the media type: ${res.body}`,
      );
    }
    // application/json with or without charset=utf-8 is the accepted type.
    for (const ct of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/accounts/tokens',
        token: alice.token,
        headers: { 'content-type': ct },
        payload: '{"name":"ok"}',
      });
      assert.equal(res.statusCode, 200, `${ct}: ${res.body}`);
    }
  });

  test('unknown routes and methods → 404 problem', async () => {
    const t = get();
    for (const [method, url] of [
      ['POST', '/'],
      ['GET', '/index.html'],
      ['GET', '/api/v1/nope'],
      ['GET', '/api/v2/accounts/me'],
      ['DELETE', '/api/v1/accounts/me'],
      ['POST', '/api/v1/accounts/me'],
      ['PUT', '/api/v1/accounts/tokens'],
      ['GET', '/api/v1/accounts/signup'],
    ] as const) {
      const res = await t.request({ method, url, token: alice.token });
      const p = assertProblem(res, 404, 'not_found');
      assert.equal(p.title, 'Not Found');
    }
  });

  test('successful JSON answers are application/json; charset=utf-8 and carry a request id', async () => {
    const t = get();
    const res = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: alice.token });
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const given = await t.request({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-abc.123' } });
    assert.equal(given.headers['x-request-id'], 'trace-abc.123');
    const refused = await t.request({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    assert.match(String(refused.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const other = await t.request({ method: 'GET', url: '/healthz' });
    assert.notEqual(other.headers['x-request-id'], res.headers['x-request-id']);
  });

  test('a failure inside the service → 500 internal_error with no SQL, stack or table name', async () => {
    const t = get();
    const db = t.service.ctx.db;
    await db.exec(
      'ALTER TABLE api_tokens RENAME TO api_tokens_away; ALTER TABLE signin_codes RENAME TO signin_codes_away',
    );
    try {
      for (const req of [
        { method: 'GET', url: '/api/v1/accounts/me', token: alice.token },
        { method: 'POST', url: '/api/v1/accounts/signup', payload: { email: 'fail@conv.example' } },
        { method: 'POST', url: '/api/v1/accounts/verify', payload: { email: 'fail@conv.example', code: '123456' } },
      ] as const) {
        const res = await t.request(req);
        const p = assertProblem(res, 500, 'internal_error');
        assert.doesNotMatch(res.body, /api_tokens|signin_codes|does not exist|42P01/);
        assert.equal(Object.keys(p).sort().join(), 'code,detail,status,title,type');
      }
    } finally {
      await db.exec(
        'ALTER TABLE api_tokens_away RENAME TO api_tokens; ALTER TABLE signin_codes_away RENAME TO signin_codes',
      );
    }
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: alice.token })).statusCode, 200);
  });

  test('no error answer echoes the token that was sent', async () => {
    const t = get();
    const secret = 'svc_live_' + 'Z'.repeat(36);
    for (const url of ['/api/v1/accounts/me', '/api/v1/operator/workspaces', '/api/v1/workspace/members']) {
      const res = await t.request({ method: 'GET', url, token: secret });
      assertProblem(res, 401, 'unauthorized');
      assert.ok(!res.body.includes('ZZZZ'));
    }
  });
});

describe('body validation (unit): strict types, code points, nullable only where declared', () => {
  const compile = (schema: object, httpPart = 'body') =>
    validatorCompiler({ schema, httpPart, method: 'POST', url: '/x' } as never) as unknown as ((
      v: unknown,
    ) => boolean) & { errors?: never };

  test('"5", 1.5, true and null are not integers in a body; "5" is one in a query string', () => {
    const body = compile(Type.Object({ n: Type.Integer() }));
    assert.equal(body({ n: 5 }), true);
    for (const n of ['5', 1.5, true, null, [5]]) assert.equal(body({ n }), false, JSON.stringify(n));
    const query = compile(Type.Object({ n: Type.Integer() }), 'querystring');
    const q: Record<string, unknown> = { n: '5' };
    assert.equal(query(q), true);
    assert.equal(q.n, 5);
  });

  test('lengths count code points', () => {
    const v = compile(Type.Object({ s: Type.String({ maxLength: 3 }) }));
    assert.equal(v({ s: '😀😀😀' }), true);
    assert.equal(v({ s: '😀😀😀😀' }), false);
  });

  test('null passes only a nullable field', () => {
    const v = compile(Type.Object({ a: Type.Union([Type.String(), Type.Null()]), b: Type.Optional(Type.String()) }));
    assert.equal(v({ a: null }), true);
    assert.equal(v({ a: 'x', b: null }), false);
  });

  test('validation errors map to 422 with pointers (missing fields named), 400 for a non-object body, 404 for a bad path', () => {
    const v = compile(
      Type.Object({ a: Type.String(), 'we/ird~': Type.Integer(), nested: Type.Object({ n: Type.Integer() }) }),
    );
    assert.equal(v({ nested: { n: 'x' } }), false);
    const p = validationProblem((v as unknown as { errors: never }).errors, 'body');
    assert.equal(p.status, 422);
    assert.deepEqual(p.errors?.map((e) => e.field).sort(), ['/a', '/nested/n', '/we~1ird~0']);
    assert.equal(p.errors?.find((e) => e.field === '/a')?.message, 'is required');
    assertNoLeak(JSON.stringify(p.body()));
    assert.equal(v([]), false);
    assert.equal(validationProblem((v as unknown as { errors: never }).errors, 'body').status, 400);
    assert.equal(validationProblem((v as unknown as { errors: never }).errors, 'params').status, 404);
  });

  test('4xx problems and malformed bodies carry no stack (never logged); 5xx keep one; the process-wide limit is left as it was', () => {
    const before = Error.stackTraceLimit;
    try {
      for (const limit of [10, 3, 50]) {
        Error.stackTraceLimit = limit;
        const refused = new HttpProblem('unprocessable', 'no');
        assert.equal(refused.stack, 'HttpProblem: no');
        assert.equal(Error.stackTraceLimit, limit);
        assert.throws(
          () => parseJsonBody(Buffer.from('{"a":')),
          (e: unknown) =>
            e instanceof HttpProblem &&
            e.status === 400 &&
            e.stack === 'HttpProblem: The request body is not valid JSON.',
        );
        assert.equal(Error.stackTraceLimit, limit);
        assert.deepEqual(parseJsonBody(Buffer.from('{"a":1}')), { a: 1 });
        assert.equal(Error.stackTraceLimit, limit);
        const failed = internalError();
        assert.equal(failed.status, 500);
        assert.match(failed.stack ?? '', /\n\s+at /, 'a 5xx is logged with where it was raised');
        assert.equal(Error.stackTraceLimit, limit);
      }
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});
