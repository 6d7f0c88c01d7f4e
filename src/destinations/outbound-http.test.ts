import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { aTarget } from './testing/events.ts';
import { MAX_RESPONSE_BYTES, postToDestination } from './outbound-http.ts';

// What every kind that speaks HTTP relies on: a 2xx is ok, an answer is read
// only so far, a receiver that never answers times out, one that is not
// there is a network error, and a body (text or bytes) arrives as sent.

let server: Server;
let base: string;
const got: Buffer[] = [];
before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push(Buffer.concat(chunks));
      if (req.url === '/silent') return; // never answers
      if (req.url === '/huge') {
        res.writeHead(500, { 'retry-after': '7' });
        res.end('e'.repeat(4 * MAX_RESPONSE_BYTES));
        return;
      }
      res.writeHead(202).end('taken');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
const target = () => aTarget('webhook', base);
const signal = () => new AbortController().signal;

test('a body of bytes or text arrives as sent; a 2xx is ok with its status', async () => {
  const bytes = Buffer.from('{"a":"€"}\n{"b":2}', 'utf8');
  for (const body of [bytes, bytes.toString('utf8')]) {
    const out = await postToDestination(target(), { url: `${base}/ok`, headers: {}, body, signal: signal() });
    assert.deepEqual([out.ok, out.status], [true, 202]);
    assert.deepEqual(got.at(-1), bytes);
  }
});

test('an answer is read up to MAX_RESPONSE_BYTES; its status, Retry-After and start are in the outcome', async () => {
  const out = await postToDestination(target(), { url: `${base}/huge`, headers: {}, body: 'x', signal: signal() });
  assert.deepEqual([out.ok, out.status, out.retryAfterMs], [false, 500, 7_000]);
  assert.equal(out.error, `HTTP 500: ${'e'.repeat(200)}`);
});

test('a receiver that never answers times out; one that is not there is a network error', async () => {
  const slow = await postToDestination(target(), {
    url: `${base}/silent`,
    headers: {},
    body: 'x',
    signal: signal(),
    timeoutMs: 300,
  });
  assert.deepEqual([slow.ok, slow.error], [false, 'timeout after 300 ms']);
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const gone = await postToDestination(target(), {
    url: `http://127.0.0.1:${port}/`,
    headers: {},
    body: 'x',
    signal: signal(),
  });
  assert.deepEqual([gone.ok, gone.error], [false, 'network: connection refused']);
});
