// Logs carry ids, not addresses: an error that quotes an e-mail address (a
// database constraint's detail, an SMTP answer) is written without it.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { registerErrorHandling } from './errors.ts';
import { loadConfig } from '../config/config.ts';
import { createLogger } from './logger.ts';

test('a logged error names no e-mail address, in its message, stack, cause or own fields', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger(loadConfig({ LOG_LEVEL: 'info', DATA_DIR: '/nonexistent' }), sink);
  const err = Object.assign(new Error('duplicate key: alice@acme-corp.com', { cause: new Error('to <bob@x.io>') }), {
    detail: 'Key (email)=(carol.d+tag@mail.example.org) already exists.',
    rejected: ['dave@y.io'],
  });
  log.error({ err, tenant_id: 't-1' }, 'unhandled error');
  const out = lines.join('');
  assert.match(out, /unhandled error/);
  assert.match(out, /t-1/);
  assert.match(out, /duplicate key: <address>/);
  for (const who of ['alice@', 'bob@', 'carol', 'dave@']) assert.ok(!out.includes(who), `${who} in ${out}`);
});

test("the request loggers Fastify makes from it scrub addresses too (an unhandled error's log)", async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger: FastifyBaseLogger = createLogger(loadConfig({ LOG_LEVEL: 'info', DATA_DIR: '/nonexistent' }), sink);
  const app = Fastify({ loggerInstance: logger });
  registerErrorHandling(app);
  app.get('/boom', async () => {
    throw Object.assign(new Error('insert failed'), { detail: 'Key (email)=(erin@acme-corp.com) already exists.' });
  });
  try {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(res.statusCode, 500);
    const out = lines.join('');
    assert.match(out, /insert failed/);
    assert.ok(!out.includes('erin@'), out);
  } finally {
    await app.close();
  }
});
