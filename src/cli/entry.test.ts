import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../testing/server-process.ts';
import { pgliteTemplate } from '../testing/test-db.ts';

// How a user starts the service and the CLI, whatever Node their system has:
// `npm start` (and SIGTERM to npm), `node bin/agent-ledger.js` under the
// system's Node, `npm ci` and `npx agent-ledger` without engine warnings.

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** An executable on PATH outside this repository (npm scripts put node_modules/.bin first). */
function onSystemPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || resolve(dir).startsWith(repoRoot)) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

const systemNode = onSystemPath('node');
const systemNpm = onSystemPath('npm');
/** PATH without this repository's node_modules/.bin: what a user's shell has. */
const systemPath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((d) => d !== '' && !resolve(d).startsWith(repoRoot))
  .join(delimiter);

function run(cmd: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((ok, fail) => {
    const child = spawn(cmd, args, {
      cwd: repoRoot,
      env: { PATH: systemPath, HOME: process.env.HOME ?? tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', fail);
    child.once('exit', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      ok(true);
    });
    s.once('error', () => ok(false));
  });
}

async function until(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('starting it', { skip: systemNpm ? false : 'no npm on PATH' }, () => {
  test('SIGTERM to the `npm start` process stops the server gracefully: the port is freed, nothing is left running', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-npm-start-'));
    cpSync(await pgliteTemplate(), join(dataDir, 'pglite'), { recursive: true });
    const npm = spawn(systemNpm!, ['start'], {
      cwd: repoRoot,
      env: {
        PATH: systemPath,
        HOME: process.env.HOME ?? tmpdir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    npm.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const npmExit = new Promise<number | null>((ok) => npm.once('exit', (code) => ok(code)));
    let serverPid = 0;
    try {
      // Listening, and its first log line (which names its pid) read from the pipe.
      await until('the server to listen', async () => /"pid":\d+/.test(out) && (await portOpen(port)), 90_000);
      serverPid = Number(/"pid":(\d+)/.exec(out)?.[1]);
      assert.ok(serverPid > 0 && serverPid !== npm.pid, out);
      npm.kill('SIGTERM');
      await until('the port to be freed', async () => !(await portOpen(port)), 20_000);
      await npmExit;
      await until(
        'the server process to exit',
        async () => {
          try {
            process.kill(serverPid, 0);
            return false;
          } catch {
            return true;
          }
        },
        10_000,
      );
      assert.match(out, /"signal":"SIGTERM","msg":"shutting down"/);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
      if (serverPid > 0) {
        try {
          process.kill(serverPid, 'SIGKILL');
        } catch {
          // gone, as it should be
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe(
  'the CLI under the system Node',
  { skip: systemNode ? false : 'no node on PATH outside the repository' },
  () => {
    test('`node bin/agent-ledger.js` runs the CLI under any Node (an old one hands over to the pinned Node 24)', async () => {
      const version = execFileSync(systemNode!, ['--version'], { encoding: 'utf8' }).trim();
      const help = await run(systemNode!, ['bin/agent-ledger.js', '--help']);
      assert.equal(help.code, 0, `${version}: ${help.stderr}`);
      assert.match(help.stdout, /usage: agent-ledger/);
      // The usage names every verify option, --report included.
      assert.match(help.stdout, /verify .*\n.*--report FILE/);
      const key = await run(systemNode!, ['bin/agent-ledger.js', 'keygen', '--name', 'entry.test']);
      assert.equal(key.code, 0, key.stderr);
      assert.match(key.stdout, /^PRIVATE\+KEY\+entry\.test\+[0-9a-f]{8}\+/);
      const bad = await run(systemNode!, ['bin/agent-ledger.js', 'no-such-command']);
      assert.equal(bad.code, 2);
      assert.doesNotMatch(bad.stderr, /ERR_UNKNOWN_FILE_EXTENSION/);
    });

    test(
      '`npx agent-ledger` and `npm ci` print no EBADENGINE warnings on the system Node',
      { skip: systemNpm ? false : 'no npm on PATH' },
      async () => {
        const npx = await run(systemNpm!, ['exec', '--offline', '--', 'agent-ledger', '--help']);
        assert.equal(npx.code, 0, npx.stderr);
        assert.doesNotMatch(npx.stderr, /EBADENGINE/);
        assert.match(npx.stdout, /usage: agent-ledger/);
        // A dry run checks every package's engines as a real `npm ci` does, without touching node_modules.
        const ci = await run(systemNpm!, ['ci', '--dry-run', '--offline', '--no-audit', '--no-fund']);
        assert.doesNotMatch(ci.stderr + ci.stdout, /EBADENGINE/);
      },
    );
  },
);
