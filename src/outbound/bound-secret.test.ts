import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpProblem } from '../core/problems.ts';
import { destinationOf, keptSecret, sameDestination } from './bound-secret.ts';

const fields = { secret: '/api_key', url: '/base_url' };

test('the destination is the origin: scheme, host, port', () => {
  assert.equal(destinationOf('https://API.Example.com:443/v1?x=1'), 'https://api.example.com');
  assert.equal(destinationOf('http://example.com:80/'), 'http://example.com');
  assert.equal(destinationOf('http://[::1]:8080/a'), 'http://[::1]:8080');
  assert.throws(() => destinationOf('file:///etc/passwd'));
  assert.throws(() => destinationOf('not a url'));
  assert.ok(sameDestination('https://a.example/v1', 'https://a.example/other'));
  assert.ok(!sameDestination('https://a.example', 'http://a.example'));
  assert.ok(!sameDestination('https://a.example', 'https://a.example:444'));
  assert.ok(!sameDestination('https://a.example', 'https://b.a.example'));
  assert.ok(!sameDestination('junk', 'junk'));
});

test('a secret is kept only for its destination; a new one or null replaces it', () => {
  const stored = { url: 'https://a.example/v1', secret: 'sealed' };
  assert.equal(keptSecret(stored, 'https://a.example/v2', undefined, fields), 'sealed');
  assert.equal(keptSecret(stored, 'https://b.example/v1', 'new', fields), null, 'a new one: the caller seals it');
  assert.equal(keptSecret(stored, 'https://b.example/v1', null, fields), null);
  assert.equal(keptSecret(undefined, 'https://b.example/v1', undefined, fields), null);
  assert.equal(keptSecret({ url: stored.url, secret: null }, 'https://b.example', undefined, fields), null);
  assert.throws(
    () => keptSecret(stored, 'https://b.example/v1', undefined, fields),
    (err: unknown) =>
      err instanceof HttpProblem &&
      err.status === 422 &&
      err.errors?.[0]?.field === '/api_key' &&
      /b\.example/.test(err.errors[0].message),
  );
});
