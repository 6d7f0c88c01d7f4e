// Test kit: Debian's rsyslog as a syslog collector, started as a child
// process with its own config in a temp directory: imtcp on a free loopback
// port (octet-counted framing, RFC 5424 parsing), plain TCP or TLS through
// rsyslog-gnutls with a CA and server certificate made here with openssl.
// Every message it parses is written as one JSON line of its fields, which
// the test reads back. Tests only; never imported by production code.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const RSYSLOGD = process.env['RSYSLOGD_PATH'] ?? '/usr/sbin/rsyslogd';

export function rsyslogAvailable(): boolean {
  return existsSync(RSYSLOGD);
}

/** One message as rsyslog parsed it. */
export interface Parsed {
  pri: string;
  version: string;
  timestamp: string;
  hostname: string;
  appname: string;
  procid: string;
  msgid: string;
  sd: string;
  msg: string;
}

export interface Rsyslog {
  port: number;
  /** Resolves with the messages once at least `n` were written (or rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<Parsed[]>;
  /** Everything written so far. */
  messages(): Promise<Parsed[]>;
  close(): Promise<void>;
}

export interface Pki {
  dir: string;
  caPem: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** A private CA and a server certificate for the name localhost only (not its address), signed by it. */
export async function makePki(dir: string, name = 'ca'): Promise<Pki> {
  const p = (f: string) => join(dir, `${name}-${f}`);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.pem'),
    '-days',
    '2',
    '-subj',
    `/CN=agent-ledger test ${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    p('server.key'),
    '-out',
    p('server.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  await writeFile(p('ext.cnf'), 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    p('server.csr'),
    '-CA',
    p('ca.pem'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-out',
    p('server.pem'),
    '-days',
    '2',
    '-extfile',
    p('ext.cnf'),
  ]);
  return {
    dir,
    caPem: await readFile(p('ca.pem'), 'utf8'),
    caFile: p('ca.pem'),
    certFile: p('server.pem'),
    keyFile: p('server.key'),
  };
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function listening(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`rsyslogd exited (${child.exitCode}): ${stderr()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
      s.connect(port, '127.0.0.1');
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`rsyslogd did not listen on ${port}: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * rsyslogd on a free port, once it accepts connections. A child that does not get there is killed
 * before this throws: a leaked rsyslogd would keep the test file's process alive for ever.
 */
async function spawnListening(
  dir: string,
  out: string,
  tls: Pki | undefined,
): Promise<{ child: ChildProcess; port: number; errText: () => string }> {
  const port = await freePort();
  const conf = [
    `global(workDirectory="${dir}" maxMessageSize="64k"${
      tls
        ? ` defaultNetstreamDriverCAFile="${tls.caFile}" defaultNetstreamDriverCertFile="${tls.certFile}" defaultNetstreamDriverKeyFile="${tls.keyFile}"`
        : ''
    })`,
    tls
      ? 'module(load="imtcp" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")'
      : 'module(load="imtcp")',
    `input(type="imtcp" address="127.0.0.1" port="${port}" ruleset="received")`,
    'template(name="fields" type="list" option.jsonf="on") {',
    '  property(outname="pri" name="pri" format="jsonf")',
    '  property(outname="version" name="protocol-version" format="jsonf")',
    '  property(outname="timestamp" name="timereported" dateFormat="rfc3339" format="jsonf")',
    '  property(outname="hostname" name="hostname" format="jsonf")',
    '  property(outname="appname" name="app-name" format="jsonf")',
    '  property(outname="procid" name="procid" format="jsonf")',
    '  property(outname="msgid" name="msgid" format="jsonf")',
    '  property(outname="sd" name="structured-data" format="jsonf")',
    '  property(outname="msg" name="msg" format="jsonf")',
    '}',
    'ruleset(name="received") {',
    `  action(type="omfile" file="${out}" template="fields")`,
    '}',
    '',
  ].join('\n');
  const confFile = join(dir, 'rsyslog.conf');
  await writeFile(confFile, conf);
  let errText = '';
  const child = spawn(RSYSLOGD, ['-n', '-f', confFile, '-i', join(dir, 'rsyslogd.pid')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (errText += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (errText += c.toString()));
  try {
    await listening(port, child, () => errText);
  } catch (err) {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    throw err;
  }
  return { child, port, errText: () => errText };
}

export async function startRsyslog(opts: { tls?: Pki } = {}): Promise<Rsyslog> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-ledger-rsyslog-'));
  const out = join(dir, 'received.jsonl');
  // The port is free when chosen but another test file may take it before rsyslogd binds it
  // (rsyslogd then runs without listening): start again on a new port.
  let started: { child: ChildProcess; port: number; errText: () => string } | undefined;
  for (let attempt = 1; !started; attempt++) {
    try {
      started = await spawnListening(dir, out, opts.tls);
    } catch (err) {
      if (attempt >= 3) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  const { child, port, errText } = started;

  const messages = async (): Promise<Parsed[]> => {
    let text: string;
    try {
      text = await readFile(out, 'utf8');
    } catch {
      return [];
    }
    return jsonObjects(text) as unknown as Parsed[];
  };
  return {
    port,
    messages,
    async waitFor(n, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = await messages();
        if (got.length >= n) return got;
        if (Date.now() > deadline) throw new Error(`rsyslog wrote ${got.length} of ${n} messages: ${errText()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Splits JSON objects that follow each other (option.jsonf writes them without a separator), string-aware. */
export function jsonObjects(text: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (c === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
  }
  return out;
}
