// The README's worked example as a user runs it: a webhook destination
// delivering a deny to examples/webhook-receiver.ts (a real process verifying
// each request with the standardwebhooks package), then `agent-ledger verify
// --entry` on the file it wrote. And what --entry must refuse: an event whose
// leaf hash, index, log or checkpoint does not match the verified log.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pinnedVerifierKey } from '../testing/audit-load.ts';
import { type SignedIn, startTestService, type TestService } from '../testing/harness.ts';
import { INVOCATION, post } from '../testing/ingest-kit.ts';
import { type CliResult, freePort, NODE, runCli } from '../testing/server-process.ts';

const RECEIVER = join(import.meta.dirname, '..', '..', 'examples', 'webhook-receiver.ts');
const show = (r: CliResult) => `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;

interface Delivered {
  id: string;
  type: string;
  evidence: { log_origin: string; index: number; leaf_hash: string; checkpoint?: string };
  [k: string]: unknown;
}

class ReceiverProcess {
  readonly dir = mkdtempSync(join(tmpdir(), 'received-'));
  out = '';
  #child: ChildProcess | undefined;
  url = '';

  async start(secret: string): Promise<this> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}/`;
    this.#child = spawn(NODE, [RECEIVER], {
      env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: String(port), RECEIVED_DIR: this.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child.stdout!.setEncoding('utf8').on('data', (d: string) => (this.out += d));
    this.#child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.out += d));
    await until('the receiver to listen', () => this.out.includes('listening on'));
    return this;
  }

  files(): string[] {
    return readdirSync(this.dir).map((f) => join(this.dir, f));
  }

  stop(): void {
    this.#child?.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('agent-ledger verify --entry: a delivered event proves itself', () => {
  let t: TestService;
  let url: string;
  let admin: SignedIn;
  let key: string;
  let dir: string;
  const receivers: ReceiverProcess[] = [];
  let native: Delivered;
  let nativeFile: string;
  let ocsfFile: string;

  const verify = (...args: string[]) =>
    runCli(['verify', '--url', url, '--key', key, ...args], { AGENT_LEDGER_TOKEN: admin.token });
  const write = (name: string, body: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
    return file;
  };
  const destination = async (format: 'native' | 'ocsf') => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/destinations',
      token: admin.token,
      payload: {
        name: `receiver-${format}`,
        kind: 'webhook',
        url: 'http://127.0.0.1:9/',
        events: ['invocation.denied'],
        format,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json() as { destination_id: string; secret: string };
    const r = await new ReceiverProcess().start(created.secret);
    receivers.push(r);
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/v1/destinations/${created.destination_id}`,
      token: admin.token,
      payload: { url: r.url },
    });
    assert.equal(patch.statusCode, 200, patch.body);
    return r;
  };

  before(async () => {
    t = await startTestService('pglite');
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await t.signIn('you@entry-proof.io');
    key = pinnedVerifierKey(t, admin.account.tenant_id);
    dir = mkdtempSync(join(tmpdir(), 'verify-entry-'));
  });
  after(async () => {
    for (const r of receivers) r.stop();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a deny reaches the receiver, signed; verify --entry proves it is in the log', async () => {
    const nativeReceiver = await destination('native');
    const ocsfReceiver = await destination('ocsf');
    const scope = await t.request({
      method: 'PUT',
      url: '/api/v1/agents/billing-bot/scope',
      token: admin.token,
      payload: { allowed_tools: ['crm.*'] },
    });
    assert.equal(scope.statusCode, 200, scope.body);
    for (const tool of ['crm.lookup', 'shell.exec', 'crm.update']) {
      const res = await post(t, INVOCATION, admin.token, {
        agent_key: 'billing-bot',
        mode: 'enforced',
        tool_name: tool,
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    await until('both receivers to take the deny', async () => {
      await t.service.deliveries.drain();
      return nativeReceiver.files().length === 1 && ocsfReceiver.files().length === 1;
    });
    assert.match(nativeReceiver.out, /verified invocation\.denied \(entry \d+\) → /);
    [nativeFile] = nativeReceiver.files() as [string];
    [ocsfFile] = ocsfReceiver.files() as [string];
    native = JSON.parse(readFileSync(nativeFile, 'utf8')) as Delivered;
    assert.equal(native.type, 'invocation.denied');
    const stored = await t.request({ url: `/api/v1/audit/entries/${native.evidence.index}`, token: admin.token });
    assert.equal((stored.json() as { leaf_hash: string }).leaf_hash, native.evidence.leaf_hash);

    const r = await verify('--entry', nativeFile, '--entry', ocsfFile);
    assert.equal(r.code, 0, show(r));
    const index = native.evidence.index;
    assert.match(
      r.stdout,
      new RegExp(`entry +\\S+ \\(invocation\\.denied ${native.id}\\): entry ${index}: in the verified log`),
    );
    assert.equal(r.stdout.match(/^entry /gm)?.length, 2, r.stdout);
    assert.match(r.stdout, /OK: every check passed/);
  });

  test('the receiver refuses a request whose signature does not verify', async () => {
    const body = readFileSync(nativeFile, 'utf8');
    const res = await fetch(receivers[0]!.url, {
      method: 'POST',
      body,
      headers: {
        'webhook-id': 'forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
    });
    assert.equal(res.status, 400);
    assert.equal(receivers[0]!.files().length, 1, 'nothing written');
  });

  test('its checkpoint, and a Splunk HEC envelope, are checked too', async () => {
    const note = (await t.request({ url: '/api/v1/audit/checkpoint', token: admin.token })).body;
    const withCheckpoint = write('cp.json', { ...native, evidence: { ...native.evidence, checkpoint: note } });
    const hec = write('hec.json', { time: 0, sourcetype: 'agent-ledger:native', event: native });
    const r = await verify('--entry', withCheckpoint, '--entry', hec);
    assert.equal(r.code, 0, show(r));
    assert.match(r.stdout, /its checkpoint signed and a prefix of the log/);

    const lines = note.split('\n');
    lines[2] = Buffer.alloc(32, 7).toString('base64'); // another root under the same signature
    const forged = write('forged-cp.json', {
      ...native,
      evidence: { ...native.evidence, checkpoint: lines.join('\n') },
    });
    const bad = await verify('--entry', forged);
    assert.equal(bad.code, 1, show(bad));
    assert.match(bad.stdout, /the event's checkpoint is not signed by a trusted key/);
  });

  test('an event that does not match the log fails with exit 1, naming why', async () => {
    const other = await t.request({ url: '/api/v1/audit/entries/0', token: admin.token });
    const cases: Array<[string, Delivered, RegExp]> = [
      [
        'another leaf hash',
        { ...native, evidence: { ...native.evidence, leaf_hash: (other.json() as { leaf_hash: string }).leaf_hash } },
        /the event does not belong to this log/,
      ],
      [
        'another index',
        { ...native, evidence: { ...native.evidence, index: 0 } },
        /the event does not belong to this log/,
      ],
      [
        'another log',
        { ...native, evidence: { ...native.evidence, log_origin: 'elsewhere.example/x' } },
        /names the log "elsewhere\.example\/x"/,
      ],
      [
        'beyond the log',
        { ...native, evidence: { ...native.evidence, index: 10_000 } },
        /not in the verified checkpoint of size \d+/,
      ],
    ];
    for (const [what, event, message] of cases) {
      const r = await verify('--entry', write(`${what}.json`, event));
      assert.equal(r.code, 1, `${what}: ${show(r)}`);
      assert.match(r.stdout, message, what);
      assert.match(r.stdout, /verification FAILED/, what);
    }
    const ocsf = JSON.parse(readFileSync(ocsfFile, 'utf8')) as { attestation_list: Array<{ uid: string }> };
    ocsf.attestation_list[0]!.uid = '0';
    const r = await verify('--entry', write('ocsf-moved.json', ocsf));
    assert.equal(r.code, 1, show(r));
  });

  test('a file that is not a delivered event: exit 2, nothing verified', async () => {
    for (const [body, message] of [
      ['not json', /is not JSON/],
      ['{"id":"x"}', /no evidence in it/],
      [
        JSON.stringify({ evidence: { log_origin: 'o', index: -1, leaf_hash: 'x' } }),
        /evidence\.index is not an entry index/,
      ],
    ] as const) {
      const r = await verify('--entry', write('bad.json', body));
      assert.equal(r.code, 2, show(r));
      assert.match(r.stderr, message);
    }
    const missing = await verify('--entry', join(dir, 'nope.json'));
    assert.equal(missing.code, 2, show(missing));
    assert.match(missing.stderr, /cannot be read: ENOENT/);
  });
});
