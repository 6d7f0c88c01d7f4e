import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { mapLimit } from '../testing/audit-load.ts';
import { freePort, multiProcessSkip, runCli, startServerProcess } from '../testing/server-process.ts';
import { createTestDb, pgliteTemplate } from '../testing/test-db.ts';

describe('agent-ledger serve: configuration errors stop the start', () => {
  let dir: string | undefined;
  const dataDir = () => (dir ??= mkdtempSync(join(tmpdir(), 'agent-ledger-badenv-')));
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[Record<string, string>, string]> = [
    // Every variable's rules are unit-tested in src/config/config.test.ts; these prove the process side.
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'ftp://x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ PLAN_CAPS: 'bad json' }, 'PLAN_CAPS'],
    [{ OPERATOR_TOKEN: 'too-short' }, 'OPERATOR_TOKEN'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL'],
  ];

  test('exit code ≠ 0 and exactly one stderr line naming the variable, for each bad value', async () => {
    // Three at a time: nine services loading at once on a loaded machine took over a minute each.
    const results = await mapLimit(cases, 3, ([env]) =>
      runCli(['serve'], { DATA_DIR: dataDir(), LOG_LEVEL: 'warn', PORT: '0', ...env }),
    );
    for (const [i, r] of results.entries()) {
      const [env, variable] = cases[i]!;
      const what = JSON.stringify(env);
      assert.notEqual(r.code, 0, `${what} started`);
      assert.notEqual(r.code, null, `${what} did not exit by itself`);
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, `${what}: ${r.stderr}`);
      assert.ok(lines[0]!.includes(variable), `${what}: ${lines[0]}`);
      assert.equal(r.stdout, '');
    }
  });

  // Known bug in src/service/service.ts (outside this suite's remit): the
  // signing key is loaded after the database is opened and migrated, and the
  // database is not closed when that fails, so the process never exits.
  test('a bad LEDGER_SIGNING_KEY: exit code ≠ 0 and one line naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-ledger-badkey-'));
    cpSync(await pgliteTemplate(), join(dir, 'pglite'), { recursive: true });
    const r = await runCli(
      ['serve'],
      { DATA_DIR: dir, LOG_LEVEL: 'warn', PORT: '0', LEDGER_SIGNING_KEY: '/nonexistent/agent-ledger.key' },
      30_000,
    ).finally(() => rmSync(dir, { recursive: true, force: true }));
    assert.notEqual(r.code, null, 'did not exit by itself');
    assert.notEqual(r.code, 0);
    assert.deepEqual(r.stderr.trim().split('\n').length, 1);
    assert.match(r.stderr, /LEDGER_SIGNING_KEY/);
  });
});

describe('agent-ledger serve: graceful shutdown', () => {
  test('SIGTERM while a request is in flight: the request completes, new ones are refused, exit code 0', async () => {
    const db = process.env.TEST_DATABASE_URL ? await createTestDb('postgres') : undefined;
    const server = await startServerProcess({ databaseUrl: db?.url });
    try {
      const body = JSON.stringify({ email: 'slow@graceful.example' });
      const sock = connect(server.port, '127.0.0.1');
      await new Promise<void>((ok, fail) => sock.once('connect', ok).once('error', fail));
      let answer = '';
      sock.setEncoding('utf8').on('data', (d: string) => (answer += d));
      const closed = new Promise<void>((ok) => sock.once('close', () => ok()));
      // Headers and half the body: the request is in flight.
      sock.write(
        `POST /api/v1/accounts/signup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((r) => setTimeout(r, 300));
      process.kill(server.pid, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      // Still running: it waits for the request.
      let exitedEarly = false;
      void server.exited.then(() => (exitedEarly = true));
      await new Promise((r) => setImmediate(r));
      assert.equal(exitedEarly, false, 'the process exited with a request in flight');
      // A new connection is not served any more.
      const fresh = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 'refused',
      );
      assert.ok(fresh === 'refused' || fresh === 503, `new request got ${fresh}`);

      sock.write(body.slice(10));
      const exit = await server.exited;
      await closed;
      assert.match(answer, /^HTTP\/1\.1 200 /);
      assert.match(answer, /\{"status":"verification_sent"\}/);
      // Answered while closing: the keep-alive connection is told to close (the onSend hook).
      assert.match(answer, /\r\nconnection: close\r\n/i);
      assert.equal(exit.code, 0, server.stderr());
      assert.equal(exit.signal, null);
    } finally {
      await server.stop('SIGKILL');
      await db?.dispose();
    }
  });

  test('SIGINT stops an idle server at once with exit code 0', async () => {
    const server = await startServerProcess();
    const started = Date.now();
    const exit = await server.stop('SIGINT');
    assert.equal(exit.code, 0, server.stderr());
    assert.ok(Date.now() - started < 10_000);
  });

  // Known bug in src/cli/serve.ts (outside this suite's remit): when listen()
  // fails the service is never closed, so its open handles keep the process
  // alive after the error is printed. Fix: close the service when listen throws.
  test('a taken port stops the start with exit code ≠ 0', async () => {
    const port = await freePort();
    const taken = createServer().listen(port, '127.0.0.1');
    await once(taken, 'listening');
    const db = process.env.TEST_DATABASE_URL ? await createTestDb('postgres') : undefined;
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-taken-'));
    if (!db) cpSync(await pgliteTemplate(), join(dataDir, 'pglite'), { recursive: true });
    try {
      const r = await runCli(
        ['serve'],
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          ...(db?.url ? { DATABASE_URL: db.url } : {}),
        },
        30_000,
      );
      assert.notEqual(r.code, 0);
      assert.notEqual(r.code, null);
      assert.match(r.stderr, /EADDRINUSE|in use/i);
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
      await db?.dispose();
    }
  });
});

describe('agent-ledger serve on PostgreSQL: readiness follows the database', { skip: multiProcessSkip() }, () => {
  test('/readyz is 200, then 503 once the database is dropped; /healthz stays 200', async () => {
    const db = await createTestDb('postgres');
    const server = await startServerProcess({ databaseUrl: db.url });
    try {
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
      // Drop the database under the running server (terminating its connections).
      const name = new URL(db.url!).pathname.slice(1);
      await db.db.close();
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
      const res = await fetch(`${server.url}/readyz`);
      assert.equal(res.status, 503);
      assert.match(String(res.headers.get('content-type')), /^application\/problem\+json/);
      const p = (await res.json()) as { code: string; detail: string };
      assert.equal(p.code, 'service_unavailable');
      assert.doesNotMatch(JSON.stringify(p), /does not exist|agent_ledger_test|postgres/i);
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      const me = await fetch(`${server.url}/api/v1/accounts/me`, {
        headers: { authorization: `Bearer svc_live_${'A'.repeat(36)}` },
      });
      assert.ok([401, 500].includes(me.status));
      const exit = await server.stop();
      assert.equal(exit.code, 0, server.stderr());
    } finally {
      await server.stop('SIGKILL');
      await db.dispose();
    }
  });

  test('an unreachable database stops the start with exit code ≠ 0', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-nodb-'));
    try {
      const r = await runCli(['serve'], {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/x`,
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'warn',
      });
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
