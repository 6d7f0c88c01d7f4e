import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactForStorage, scan } from '../index.ts';

const found = (text: string) =>
  scan(text)
    .findings.filter((f) => f.type === 'URL' || f.type === 'IP_ADDRESS')
    .map((f) => `${f.type} ${text.slice(f.start, f.end)}`);

test('a URL whose host is an IP address is one URL, redacted whole; a bare address stays an IP address', () => {
  assert.deepEqual(found('see http://127.0.0.1:8080/#/123 now'), ['URL http://127.0.0.1:8080/#/123']);
  assert.equal(redactForStorage('GET http://10.0.0.5/reset?user=ann ok'), 'GET <URL> ok');
  assert.deepEqual(found('ping 192.168.1.10 and http://example.com/a'), [
    'IP_ADDRESS 192.168.1.10',
    'URL http://example.com/a',
  ]);
});

test('a URL glued to the end of a sentence starts at its scheme', () => {
  assert.deepEqual(found('May 5th.https://t.co/YCUZfuyyHZ'), ['URL https://t.co/YCUZfuyyHZ']);
  assert.deepEqual(found('read it.http://example.org/x and reply'), ['URL http://example.org/x']);
});
