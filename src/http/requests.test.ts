import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { test } from 'node:test';
import { eachStore, OPERATOR_TOKEN, type SignedIn } from '../testing/harness.ts';
import { assertFieldErrors, assertProblem } from '../testing/problems.ts';

// What a hostile probe sends: malformed URLs, oversized headers, garbage on
// the socket, bodies parsers disagree on, dates the database cannot hold.
// Every answer is a problem document with a code, and none echoes the input.

const JSON_HEADERS = { 'content-type': 'application/json' };

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends bytes as they are over a real socket (inject would never reach Node's parser). */
function rawRequest(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

function httpGet(port: number, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const asResponse = (a: RawAnswer) => ({ statusCode: a.status, headers: a.headers, body: a.body });

eachStore('hostile requests', (get) => {
  let alice: SignedIn;
  let port: number;

  test('setup: a workspace, and the service on a real socket', async () => {
    const t = get();
    alice = await t.signIn('alice@hostile.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    assert.ok(addr && typeof addr === 'object');
    port = addr.port;
  });

  test('a malformed percent-encoding in the URL → 400 invalid_url problem, the URL not echoed', async () => {
    const res = asResponse(await httpGet(port, '/api/v1/agents/%ZZsecret-marker'));
    const p = assertProblem(res, 400, 'invalid_url');
    assert.ok(!res.body.includes('secret-marker') && !res.body.includes('%ZZ'), res.body);
    assert.ok(!res.body.includes('FST_'), res.body);
    assert.ok(p.detail.length > 0);
  });

  test('a 20 KB Authorization header and a 70 KB URL → 431 headers_too_large problem', async () => {
    const header = asResponse(
      await httpGet(port, '/api/v1/accounts/me', { authorization: `Bearer ${'a'.repeat(20_000)}` }).catch(() =>
        rawRequest(
          port,
          `GET /api/v1/accounts/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
        ),
      ),
    );
    assertProblem(header, 431, 'headers_too_large');
    assert.ok(!header.body.includes('aaaa'));
    const url = asResponse(
      await rawRequest(port, `GET /api/v1/agents/${'b'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    assertProblem(url, 431, 'headers_too_large');
    assert.ok(!url.body.includes('bbbb'));
  });

  test('bytes that are not HTTP → 400 bad_request problem, not {"message":"Client Error"}', async () => {
    const res = asResponse(await rawRequest(port, 'GARBAGE-marker\r\n\r\n'));
    assertProblem(res, 400, 'bad_request');
    assert.ok(!res.body.includes('marker') && !res.body.includes('Client Error'), res.body);
  });

  test('a path segment longer than any accepted value (10,000 chars) → 414 uri_too_long problem, not echoed', async () => {
    const res = asResponse(
      await httpGet(port, `/api/v1/agents/${'c'.repeat(10_000)}`, { authorization: `Bearer ${alice.token}` }),
    );
    assertProblem(res, 414, 'uri_too_long');
    assert.ok(!res.body.includes('cccc') && !res.body.includes('FST_'), res.body);
  });

  test('path parameters take what bodies take: an agent_key of 512 code points (4-byte ones, 6,144 chars encoded) works in GET /agents/{key} and PUT …/scope', async () => {
    const t = get();
    for (const key of ['k'.repeat(512), '🦊'.repeat(512), `a/${'é'.repeat(510)}`]) {
      const rec = await t.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token: alice.token,
        payload: { agent_key: key, tool_name: 'search' },
      });
      assert.equal(rec.statusCode, 201, rec.body);
      const path = `/api/v1/agents/${encodeURIComponent(key)}`;
      const got = await httpGet(port, path, { authorization: `Bearer ${alice.token}` });
      assert.equal(got.status, 200, got.body);
      assert.equal((JSON.parse(got.body) as { agent_key: string }).agent_key, key);
      const scope = await t.request({
        method: 'PUT',
        url: `${path}/scope`,
        token: alice.token,
        payload: { allowed_tools: ['search'] },
      });
      assert.equal(scope.statusCode, 200, scope.body);
      assert.equal(scope.json().agent_key, key);
    }
    // One code point more is not an agent this API can have: 404, as for any unknown agent.
    const over = await t.request({
      method: 'GET',
      url: `/api/v1/agents/${encodeURIComponent('🦊'.repeat(513))}`,
      token: alice.token,
    });
    assertProblem(over, 404, 'not_found');
  });

  test('a year the database cannot hold (0000, or past 9999 after the offset) → 422 naming the field, on every date a client sends', async () => {
    const t = get();
    const bad = [
      '0000-01-01T00:00:00Z',
      '0000-12-31T23:59:59.999Z',
      '0001-01-01T00:00:00+01:00',
      '9999-12-31T23:59:59-01:00',
      '2026-02-30T00:00:00Z',
      '+010000-01-01T00:00:00Z',
    ];
    for (const d of bad) {
      const q = encodeURIComponent(d);
      for (const [url, field] of [
        [`/api/v1/invocations?since=${q}`, '/since'],
        [`/api/v1/invocations?until=${q}`, '/until'],
        [`/api/v1/rogue-events?since=${q}`, '/since'],
        [`/api/v1/rogue-events?until=${q}`, '/until'],
        [`/api/v1/reports/compliance?from=${q}&to=2026-07-01T00:00:00Z`, '/from'],
        [`/api/v1/reports/compliance?from=2026-05-01T00:00:00Z&to=${q}`, '/to'],
      ] as const) {
        const res = await t.request({ method: 'GET', url, token: alice.token });
        const p = assertFieldErrors(res, [field]);
        assert.match(p.errors![0]!.message, /0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z/);
        assert.ok(!res.body.includes(d), `echoes ${d}: ${res.body}`);
      }
      // Bodies too: one format for every date-time.
      const body = await t.request({
        method: 'PUT',
        url: `/api/v1/operator/workspaces/${alice.account.tenant_id}/subscription`,
        token: OPERATOR_TOKEN,
        payload: { trial_ends_at: d },
      });
      assertFieldErrors(body, ['/trial_ends_at']);
    }
    // The edges of the range are dates like any other.
    for (const [since, until] of [
      ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z'],
      ['0001-01-01T00:00:00-01:00', '9999-12-31T23:59:59+01:00'],
    ] as const) {
      const ok = await t.request({
        method: 'GET',
        url: `/api/v1/invocations?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
        token: alice.token,
      });
      assert.equal(ok.statusCode, 200, ok.body);
      const rogue = await t.request({
        method: 'GET',
        url: `/api/v1/rogue-events?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`,
        token: alice.token,
      });
      assert.equal(rogue.statusCode, 200, rogue.body);
    }
    for (const [from, to] of [
      ['0001-01-01T00:00:00Z', '0002-01-01T00:00:00Z'],
      ['9999-01-01T00:00:00Z', '9999-12-31T23:59:59Z'],
    ]) {
      const report = await t.request({
        method: 'GET',
        url: `/api/v1/reports/compliance?from=${from}&to=${to}`,
        token: alice.token,
      });
      assert.equal(report.statusCode, 200, report.body);
    }
  });

  test('duplicate keys in a body → 400 duplicate_key, at any depth, however the key is escaped; the event is not recorded', async () => {
    const t = get();
    const before = (await t.request({ method: 'GET', url: '/api/v1/invocations', token: alice.token })).json().items
      .length;
    const url = '/api/v1/admin/agents/events/invocation';
    for (const payload of [
      '{"agent_key":"dup","mode":"enforced","mode":"shadow"}',
      '{"agent_key":"dup","mode":"enforced","\\u006dode":"shadow"}',
      '{"agent_key":"dup", "agent_key" : "other"}',
    ]) {
      const res = await t.request({ method: 'POST', url, token: alice.token, headers: JSON_HEADERS, payload });
      const p = assertProblem(res, 400, 'duplicate_key');
      assert.match(p.detail, /RFC 7493/);
    }
    const nested = await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: alice.token,
      headers: JSON_HEADERS,
      payload:
        '{"default_verdict":"allow","rules":[{"id":"a","when":{"modes":["shadow"],"modes":["enforced"]},"verdict":"deny"}]}',
    });
    assertProblem(nested, 400, 'duplicate_key');
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/invocations', token: alice.token })).json().items.length,
      before,
    );
    // The same key in sibling objects, a key-like text inside a string, and escaped quotes are not duplicates.
    const fine = await t.request({
      method: 'PUT',
      url: '/api/v1/policy',
      token: alice.token,
      headers: JSON_HEADERS,
      payload:
        '{"default_verdict":"allow","rules":[{"id":"a","description":"\\"id\\":\\"b\\\\\\"","when":{"modes":["shadow"]},"verdict":"deny"},{"id":"b","when":{"modes":["enforced"]},"verdict":"allow"}]}',
    });
    assert.equal(fine.statusCode, 200, fine.body);
    assert.equal(fine.json().rules[0].description, '"id":"b\\"');
  });

  test('invalid UTF-8 bytes → 400 invalid_utf8 (never silently replaced by U+FFFD); valid multi-byte text is kept', async () => {
    const t = get();
    const url = '/api/v1/admin/agents/events/invocation';
    for (const bytes of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const payload = Buffer.concat([
        Buffer.from('{"agent_key":"utf8","prompt":"a'),
        Buffer.from(bytes),
        Buffer.from('b"}'),
      ]);
      const res = await t.request({ method: 'POST', url, token: alice.token, headers: JSON_HEADERS, payload });
      const p = assertProblem(res, 400, 'invalid_utf8');
      assert.match(p.detail, /UTF-8/);
    }
    const ok = await t.request({
      method: 'POST',
      url,
      token: alice.token,
      headers: JSON_HEADERS,
      payload: Buffer.from('{"agent_key":"utf8-ok","prompt":"Grüße 🦊"}'),
    });
    assert.equal(ok.statusCode, 201, ok.body);
    const inv = await t.request({
      method: 'GET',
      url: `/api/v1/invocations/${ok.json().invocation_id}`,
      token: alice.token,
    });
    assert.equal(inv.json().content.find((c: { field: string }) => c.field === 'prompt').text, 'Grüße 🦊');
  });

  test('__proto__ and constructor keys anywhere → 400 forbidden_key saying what is refused and why', async () => {
    const t = get();
    for (const payload of [
      '{"agent_key":"p","__proto__":{"x":1}}',
      '{"agent_key":"p","constructor":{"prototype":{}}}',
      '{"default_verdict":"allow","rules":[{"id":"a","when":{"__proto__":1},"verdict":"deny"}]}',
    ]) {
      const url = payload.includes('rules') ? '/api/v1/policy' : '/api/v1/admin/agents/events/invocation';
      const res = await t.request({
        method: url.endsWith('policy') ? 'PUT' : 'POST',
        url,
        token: alice.token,
        headers: JSON_HEADERS,
        payload,
      });
      const p = assertProblem(res, 400, 'forbidden_key');
      assert.match(p.detail, /__proto__ or constructor/);
      assert.match(p.detail, /prototype/);
    }
  });

  test('Authorization: "Bearer  <token>" (more than one space, RFC 6750 1*SP) is accepted', async () => {
    const t = get();
    for (const h of [`Bearer  ${alice.token}`, `bearer   ${alice.token}`]) {
      const res = await t.request({ method: 'GET', url: '/api/v1/accounts/me', headers: { authorization: h } });
      assert.equal(res.statusCode, 200, `${JSON.stringify(h.slice(0, 10))}: ${res.body}`);
    }
    assertProblem(
      await t.request({
        method: 'GET',
        url: '/api/v1/accounts/me',
        headers: { authorization: `Bearer${alice.token}` },
      }),
      401,
      'unauthorized',
    );
    assertProblem(
      await t.request({
        method: 'GET',
        url: '/api/v1/accounts/me',
        headers: { authorization: `Bearer ${alice.token} ` },
      }),
      401,
      'unauthorized',
    );
  });
});
