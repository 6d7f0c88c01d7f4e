// Console sessions over HTTP: the cookie, its CSRF defence, listing,
// revocation and expiry, on both stores.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';

eachStore('console sessions', (get) => {
  const email = 'dana@sessions-co.com';
  const host = 'console.test';
  async function signIn(e = email, headers: Record<string, string> = {}) {
    const t = get();
    const code = await t.requestCode(e);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/console/session',
      headers: { host, ...headers },
      payload: { email: e, code },
    });
    return res;
  }
  const cookieOf = (setCookie: string | string[] | undefined) => {
    const c = Array.isArray(setCookie) ? setCookie[0]! : setCookie!;
    return c.split(';')[0]!;
  };

  test('sign-in sets a Secure, HttpOnly, SameSite=Strict __Host- cookie holding a session token, never an API token', async () => {
    const res = await signIn();
    assert.equal(res.statusCode, 200, res.body);
    const set = String(res.headers['set-cookie']);
    assert.match(
      set,
      /^__Host-al_session=svc_session_[0-9A-Za-z]{36}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/,
    );
    const body = res.json();
    assert.equal(body.account.email, email);
    assert.equal(typeof body.csrf_token, 'string');
    assert.equal(JSON.stringify(body).includes('svc_'), false, 'the body holds no token');
    const stored = await get().testDb.db.query<{ token_hash: Uint8Array }>('SELECT token_hash FROM console_sessions');
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.token_hash.length, 32, 'only the SHA-256 of the token is stored');
  });

  test('over plain http to a loopback address the cookie drops Secure (and the __Host- prefix it requires)', async () => {
    const res = await signIn(email, { host: '127.0.0.1:8080' });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(
      String(res.headers['set-cookie']),
      /^al_session=svc_session_\w+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
  });

  test('a sign-in posted from another origin is refused (login CSRF)', async () => {
    const res = await signIn(email, { origin: 'https://evil.example' });
    assert.equal(res.statusCode, 403);
  });

  test('writes need the x-csrf-token of the session and this origin; reads need only the cookie', async () => {
    const t = get();
    const res = await signIn();
    const cookie = cookieOf(res.headers['set-cookie']);
    const csrf = res.json().csrf_token as string;
    const issue = (headers: Record<string, string>) =>
      t.request({
        method: 'POST',
        url: '/api/v1/accounts/tokens',
        headers: { host, cookie, ...headers },
        payload: { name: 'ci' },
      });
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', headers: { host, cookie } })).statusCode,
      200,
    );
    assert.equal((await issue({})).statusCode, 403, 'no CSRF header');
    assert.equal((await issue({ 'x-csrf-token': 'x'.repeat(43) })).statusCode, 403, 'a wrong CSRF token');
    const other = cookieOf((await signIn()).headers['set-cookie']);
    assert.notEqual(other, cookie);
    assert.equal(
      (
        await issue({
          'x-csrf-token': (
            await t.request({ method: 'GET', url: '/api/v1/console/session', headers: { host, cookie: other } })
          ).json().csrf_token,
        })
      ).statusCode,
      403,
      "another session's token",
    );
    assert.equal(
      (await issue({ 'x-csrf-token': csrf, origin: 'https://evil.example' })).statusCode,
      403,
      'a foreign origin',
    );
    const ok = await issue({ 'x-csrf-token': csrf, origin: `http://${host}` });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.match(ok.json().token, /^svc_live_/);
    // GET /console/session hands the same CSRF token to a reloaded console.
    const again = await t.request({ method: 'GET', url: '/api/v1/console/session', headers: { host, cookie } });
    assert.equal(again.json().csrf_token, csrf);
  });

  test('sessions are listed (current marked), revocable, and sign-out revokes and clears the cookie', async () => {
    const t = get();
    const res = await signIn();
    const cookie = cookieOf(res.headers['set-cookie']);
    const csrf = res.json().csrf_token as string;
    const list = await t.request({ method: 'GET', url: '/api/v1/console/sessions', headers: { host, cookie } });
    const sessions = list.json().sessions as Array<{ session_id: string; current: boolean; prefix: string }>;
    assert.ok(sessions.length >= 2);
    assert.equal(sessions.filter((s) => s.current).length, 1);
    assert.equal(sessions.find((s) => s.current)!.session_id, res.json().session_id);
    assert.equal(
      JSON.stringify(sessions).includes('svc_session_') && !sessions.every((s) => s.prefix.length === 16),
      false,
    );

    // Revoke another session by id.
    const victim = sessions.find((s) => !s.current)!.session_id;
    const del = await t.request({
      method: 'DELETE',
      url: `/api/v1/console/sessions/${victim}`,
      headers: { host, cookie, 'x-csrf-token': csrf },
    });
    assert.equal(del.statusCode, 204);
    const after = (
      await t.request({ method: 'GET', url: '/api/v1/console/sessions', headers: { host, cookie } })
    ).json().sessions;
    assert.equal(
      after.some((s: { session_id: string }) => s.session_id === victim),
      false,
    );

    const out = await t.request({
      method: 'DELETE',
      url: '/api/v1/console/session',
      headers: { host, cookie, 'x-csrf-token': csrf },
    });
    assert.equal(out.statusCode, 204);
    assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', headers: { host, cookie } })).statusCode,
      401,
    );
  });

  test('a session expires after 12 hours and lapses after 2 idle hours', async () => {
    const t = get();
    const cookie = cookieOf((await signIn()).headers['set-cookie']);
    const me = async () =>
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', headers: { host, cookie } })).statusCode;
    assert.equal(await me(), 200);
    t.clock.advance(119 * 60_000);
    assert.equal(await me(), 200, 'used within 2 hours');
    await new Promise((r) => setTimeout(r, 50)); // the last-used write runs after the answer
    t.clock.advance(119 * 60_000);
    assert.equal(await me(), 200, 'idle time counts from the last use');
    await new Promise((r) => setTimeout(r, 50));
    t.clock.advance(121 * 60_000);
    assert.equal(await me(), 401, 'idle for over 2 hours');
    const fresh = cookieOf((await signIn()).headers['set-cookie']);
    for (let i = 0; i < 7; i++) {
      t.clock.advance(100 * 60_000);
      const s = (await t.request({ method: 'GET', url: '/api/v1/accounts/me', headers: { host, cookie: fresh } }))
        .statusCode;
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(s, i < 7 && (i + 1) * 100 < 720 ? 200 : 401, `after ${(i + 1) * 100} minutes`);
    }
  });

  test('a bearer token wins over a cookie, and API tokens cannot be used as the cookie', async () => {
    const t = get();
    const signed = await t.signIn('erin@sessions-other.com');
    const bad = await t.request({
      method: 'GET',
      url: '/api/v1/accounts/me',
      headers: { host, cookie: `al_session=${signed.token}` },
    });
    assert.equal(bad.statusCode, 401);
    const cookie = cookieOf((await signIn()).headers['set-cookie']);
    const both = await t.request({
      method: 'GET',
      url: '/api/v1/accounts/me',
      token: signed.token,
      headers: { host, cookie },
    });
    assert.equal(both.json().account.email, 'erin@sessions-other.com');
  });

  // One resolver reads every kind of token (accounts/token-resolver.ts); each door takes only its kinds.
  test('a session token is no bearer token, and an ingress token is no cookie', async () => {
    const t = get();
    const cookie = cookieOf((await signIn()).headers['set-cookie']);
    const session = cookie.slice(cookie.indexOf('=') + 1);
    assert.match(session, /^svc_session_/);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/v1/accounts/me', headers: { host, cookie } })).statusCode,
      200,
      'the session works as the cookie',
    );
    const asBearer = await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: session, headers: { host } });
    assert.equal(asBearer.statusCode, 401, asBearer.body);
    assert.equal(asBearer.json().detail, 'The bearer token is unknown, revoked or expired.');
    const event = await t.request({
      method: 'POST',
      url: '/api/v1/admin/agents/events/invocation',
      token: session,
      payload: { agent_key: 'bot' },
    });
    assert.equal(event.statusCode, 401, event.body);

    const admin = await t.signIn('frank@sessions-third.com');
    const issued = await t.request({
      method: 'POST',
      url: '/api/v1/workspace/ingress-tokens',
      token: admin.token,
      payload: { name: 'collector' },
    });
    assert.equal(issued.statusCode, 201, issued.body);
    const ingress = issued.json().token as string;
    const asCookie = await t.request({
      method: 'GET',
      url: '/api/v1/accounts/me',
      headers: { host, cookie: `__Host-al_session=${ingress}` },
    });
    assert.equal(asCookie.statusCode, 401, asCookie.body);
    assert.match(asCookie.json().detail, /console session is unknown/, 'read as a cookie, and refused as one');
    // a token of a known kind whose checksum is wrong is refused like an unknown one
    const broken = admin.token.slice(0, -1) + (admin.token.endsWith('0') ? '1' : '0');
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: broken })).statusCode, 401);
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/accounts/me', token: admin.token })).statusCode, 200);
  });

  // Cookie tossing: a sibling subdomain or a plain-http answer can plant an
  // unprefixed cookie; only the __Host- one (this host, HTTPS, path /) counts
  // off loopback, and several different session cookies authenticate nobody.
  test('off loopback only the __Host- cookie counts, and several session cookies are refused', async () => {
    const t = get();
    const victim = cookieOf((await signIn('gina@tossing-victim.com')).headers['set-cookie']);
    const attacker = cookieOf((await signIn('hal@tossing-attacker.com')).headers['set-cookie']);
    const attackerToken = attacker.slice(attacker.indexOf('=') + 1);
    const me = (cookie: string, h = host) =>
      t.request({ method: 'GET', url: '/api/v1/accounts/me', headers: { host: h, cookie } });

    const planted = await me(`al_session=${attackerToken}`);
    assert.equal(planted.statusCode, 401, 'an unprefixed cookie is no session off loopback');
    assert.match(planted.json().detail, /bearer token/i);
    for (const cookie of [
      `al_session=${attackerToken}; ${victim}`,
      `${victim}; al_session=${attackerToken}`,
      `al_session=junk; ${victim}`,
    ]) {
      const res = await me(cookie);
      assert.equal(res.statusCode, 200, cookie);
      assert.equal(res.json().account.email, 'gina@tossing-victim.com', 'the planted cookie never wins');
    }
    for (const cookie of [
      `__Host-al_session=${attackerToken}; ${victim}`,
      `${victim}; __Host-al_session=${attackerToken}`,
      `${victim}; __Host-al_session=not-a-token!`,
    ]) {
      const res = await me(cookie);
      assert.equal(res.statusCode, 401, cookie);
      assert.match(res.json().detail, /Several console session cookies/);
    }
    assert.equal((await me(`${victim}; ${victim}`)).statusCode, 200, 'the same cookie twice is not ambiguous');

    // A write from an ambiguous header does not reach the workspace either.
    const csrf = (
      await t.request({ method: 'GET', url: '/api/v1/console/session', headers: { host, cookie: victim } })
    ).json().csrf_token as string;
    const write = await t.request({
      method: 'POST',
      url: '/api/v1/accounts/tokens',
      headers: { host, cookie: `${attacker}; ${victim}`, 'x-csrf-token': csrf },
      payload: { name: 'tossed' },
    });
    assert.equal(write.statusCode, 401, write.body);

    // Over plain http to loopback the unprefixed cookie is the session, and the same rule holds.
    const local = cookieOf((await signIn('gina@tossing-victim.com', { host: '127.0.0.1:8080' })).headers['set-cookie']);
    assert.match(local, /^al_session=/);
    assert.equal((await me(local, '127.0.0.1:8080')).statusCode, 200);
    assert.equal((await me(`${local}; al_session=${attackerToken}`, '127.0.0.1:8080')).statusCode, 401);
    assert.equal((await me(`__Host-al_session=${attackerToken}; ${local}`, 'localhost:8080')).statusCode, 401);
  });
});
