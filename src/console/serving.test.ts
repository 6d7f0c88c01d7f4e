// The built console as the service serves it: CSP, caching, the SPA fallback.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import Fastify from 'fastify';
import { registerErrorHandling } from '../http/errors.ts';
import { eachStore } from '../testing/harness.ts';
import { ensureConsoleBuilt } from './build.ts';
import { consoleRoutes } from './routes.ts';

before(() => {
  ensureConsoleBuilt();
});

eachStore('console assets', (get) => {
  test('/console/ is the app shell with a strict CSP; any deeper path falls back to it', async () => {
    const t = get();
    assert.equal((await t.request({ method: 'GET', url: '/console' })).headers.location, '/console/');
    const root = await t.request({ method: 'GET', url: '/' });
    assert.equal(root.statusCode, 302, 'the service’s address in a browser opens the console');
    assert.equal(root.headers.location, '/console/');
    for (const url of ['/console/', '/console/invocations?verdict=deny', '/console/audit']) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /<div id="root"><\/div>/);
      assert.doesNotMatch(res.body, /<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(res.headers['cache-control'], 'no-cache');
    }
  });

  test('hashed assets are cached immutable and gzipped; a missing asset is a 404, never the HTML shell', async () => {
    const t = get();
    const html = (await t.request({ method: 'GET', url: '/console/' })).body;
    const js = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const res = await t.request({ method: 'GET', url: js, headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.match(String(res.headers['content-type']), /^text\/javascript/);
    const again = await t.request({ method: 'GET', url: js, headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.statusCode, 304);
    for (const url of ['/console/assets/nope-123.js', '/console/favicon-none.png', '/console/x/y.css']) {
      const missing = await t.request({ method: 'GET', url });
      assert.equal(missing.statusCode, 404, url);
      assert.match(String(missing.headers['content-type']), /^application\/problem\+json/, url);
      assert.equal(missing.json().code, 'not_found');
    }
  });
});

// Errors under /console are problem+json like the API's: a console that is
// not built is a 503 problem, whatever the path.
test('a console that is not built answers 503 problem+json', async () => {
  const app = Fastify();
  registerErrorHandling(app);
  await consoleRoutes(app, new Map());
  try {
    for (const url of ['/console/', '/console/audit', '/console/assets/a.js']) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 503, url);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, url);
      assert.match(res.json().detail, /console is not built/);
    }
  } finally {
    await app.close();
  }
});
