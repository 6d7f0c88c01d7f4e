// Test utility: runs `agent-ledger serve` as a real child process (the repo's
// Node 24, not whatever `node` is on PATH), for what one process cannot show:
// several nodes on one PostgreSQL, shared Redis state, start-up failures,
// signals. Every child is killed when the test process exits, whatever happens.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { pgliteTemplate } from './test-db.ts';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The Node 24 the project pins; the machine's `node` may be older. */
export const NODE = join(repoRoot, 'node_modules', '.bin', 'node');
export const MAIN = join(repoRoot, 'src', 'cli', 'main.ts');

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/** Why multi-process tests cannot run here, or false when they can. */
export function multiProcessSkip(): string | false {
  return process.env.TEST_DATABASE_URL
    ? false
    : 'several server processes need one shared PostgreSQL: set TEST_DATABASE_URL to run this test';
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why Redis tests cannot run here (no Redis answering at TEST_REDIS_URL), or false when they can. */
export async function redisSkip(): Promise<string | false> {
  const r = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG' ? false : `Redis at ${TEST_REDIS_URL} does not answer PING`;
  } catch {
    return `no Redis answering at ${TEST_REDIS_URL} (set TEST_REDIS_URL)`;
  } finally {
    r.disconnect();
  }
}

/** The environment a child starts from: only what a process needs to run, nothing of the test's own settings. */
function baseEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const v = process.env[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  /** What the process wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** Sends the signal (SIGTERM by default), waits for the exit (SIGKILL after 15 s) and returns it. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface ServerOptions {
  /** PostgreSQL URL (e.g. createTestDb('postgres').url); without it the embedded store runs in a temporary DATA_DIR. */
  databaseUrl?: string | undefined;
  /** More environment variables (override the defaults). */
  env?: Record<string, string>;
  /** How long to wait for /healthz. */
  timeoutMs?: number;
  /**
   * Embedded store only: let the server create its store itself (initdb and
   * every migration) instead of starting from a copy of the migrated test
   * template, which is several times faster.
   */
  freshStore?: boolean;
  /**
   * Serve from this data directory (a previous process's, to restart on its
   * embedded store) and leave it in place on stop; the caller removes it.
   */
  dataDir?: string;
}

function spawnMain(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(NODE, [MAIN, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

function collect(child: ChildProcess) {
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<Exit>((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  // 'exit' may come before the last of stdout and stderr is read; 'close' comes after both ended.
  const closed = new Promise<Exit>((ok) => child.once('close', (code, signal) => ok({ code, signal })));
  return { stdout: () => out, stderr: () => err, exited, closed };
}

/** Starts `agent-ledger serve` on a free port and resolves once /healthz answers. */
export async function startServerProcess(opts: ServerOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'agent-ledger-proc-'));
  const removeDataDir = () => {
    if (opts.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  if (!opts.databaseUrl && !opts.freshStore && !existsSync(join(dataDir, 'pglite')))
    cpSync(await pgliteTemplate(), join(dataDir, 'pglite'), { recursive: true });
  const env: Record<string, string> = {
    ...baseEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.env,
  };
  const child = spawnMain(['serve'], env);
  const io = collect(child);
  const url = `http://127.0.0.1:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      try {
        return await io.exited;
      } finally {
        clearTimeout(timer);
        removeDataDir();
      }
    }
    removeDataDir();
    return io.exited;
  };

  // Generous: the limit catches a service that never becomes healthy, not a slow start on a loaded machine.
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  let exit: Exit | undefined;
  void io.exited.then((e) => (exit = e));
  for (;;) {
    if (exit)
      throw new Error(`agent-ledger serve exited (${exit.code ?? exit.signal}) before it was healthy:\n${io.stderr()}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      throw new Error(`agent-ledger serve did not become healthy on ${url}:\n${io.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, port, pid: child.pid!, dataDir, stdout: io.stdout, stderr: io.stderr, exited: io.exited, stop };
}

export interface CliResult extends Exit {
  stdout: string;
  stderr: string;
}

/**
 * Runs `agent-ledger <args>` to completion with exactly this environment (plus PATH and HOME).
 * The limit only catches a CLI that hangs: on a machine at load 17, four CLIs starting at once
 * took over 30 s each to load the service's modules, so it is generous.
 */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<CliResult> {
  const child = spawnMain(args, { ...baseEnv(), ...env });
  const io = collect(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const exit = await io.closed;
    return { ...exit, stdout: io.stdout(), stderr: io.stderr() };
  } finally {
    clearTimeout(timer);
  }
}
