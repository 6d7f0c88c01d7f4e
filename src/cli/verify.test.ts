// `agent-ledger verify` and `agent-ledger keygen` as a user runs them: real
// processes against a service listening on 127.0.0.1 (one store is enough:
// the CLI only speaks HTTP; the stores are covered by src/ledger/audit-trail.test.ts).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../config/config.ts';
import { encodeBase64 } from '../ledger/bytes.ts';
import { leafHashOf } from '../ledger/leaf.ts';
import {
  formatVerifierKey,
  generateSignerKey,
  parseSignerKey,
  parseVerifierKey,
  verifierKeyFor,
} from '../ledger/note.ts';
import { loadSigningKey } from '../service/secrets.ts';
import { mapLimit, pinnedVerifierKey, postEvents } from '../testing/audit-load.ts';
import { type SignedIn, startTestService, type TestService } from '../testing/harness.ts';
import { type CliResult, runCli } from '../testing/server-process.ts';
import type { BundleFile } from './verify.ts';

const show = (r: CliResult) => `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;

describe('agent-ledger verify', () => {
  let t: TestService;
  let url: string;
  let admin: SignedIn;
  let key: string;
  let dir: string;
  const verify = (args: string[], env: Record<string, string> = { AGENT_LEDGER_TOKEN: admin.token }) =>
    runCli(['verify', ...args], env);

  before(async () => {
    t = await startTestService('pglite');
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await t.signIn('cli@verify-co.io');
    key = pinnedVerifierKey(t, admin.account.tenant_id);
    dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
    const acks = await postEvents([url], admin.token, 40, { clients: 4, rogueEvery: 5 });
    assert.ok(acks.every((a) => a.status === 201));
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('without a pinned key: passes, and warns that the key came from the service', async () => {
    const r = await verify(['--url', url, '--save-checkpoint', join(dir, 'cp1'), '--export', join(dir, 'bundle.json')]);
    assert.equal(r.code, 0, show(r));
    assert.match(r.stderr, /WARNING: the verifier key is not pinned/);
    assert.ok(r.stderr.includes(`--key '${key}'`), 'the warning shows the key to pin');
    assert.match(r.stdout, /key +\S+ \(NOT pinned\)/);
    assert.match(
      r.stdout,
      /entries +\d+ read in 1 page\(s\) of up to 1000: \d+ invocation, 8 rogue, 3 agent_registered/,
    );
    assert.ok(readFileSync(join(dir, 'cp1'), 'utf8').startsWith(`agent-ledger.local/${admin.account.tenant_id}\n`));
  });

  test('a key file pins; --since a saved checkpoint after the log grew; evidence ids checked', async () => {
    const acks = await postEvents([url], admin.token, 10, { clients: 2, start: 100 });
    const ids = acks.map((a) => String(a.body.evidence_id));
    writeFileSync(join(dir, 'keys'), `# the workspace log\n${key}\n`);
    const r = await verify([
      '--url',
      url,
      '--key-file',
      join(dir, 'keys'),
      '--since',
      join(dir, 'cp1'),
      '--evidence',
      ids[0]!,
      '--evidence',
      ids[9]!,
      '--evidence',
      '1',
    ]);
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /since +checkpoint of size \d+ .*: consistent/);
    assert.equal(r.stdout.match(/^evidence .*: valid$/gm)?.length, 3);
  });

  test('an exported bundle verifies offline, pinned or not; a changed one fails naming the entry', async () => {
    const path = join(dir, 'bundle.json');
    const ok = await runCli(['verify', '--bundle', path, '--key', key, '--since', join(dir, 'cp1'), '--evidence', '2']);
    assert.equal(ok.code, 0, show(ok));
    assert.match(ok.stdout, /^bundle +/m);
    const unpinned = await runCli(['verify', '--bundle', path]);
    assert.equal(unpinned.code, 0, show(unpinned));
    assert.match(unpinned.stderr, /not pinned; using the one given by the bundle itself/);

    const bundle = JSON.parse(readFileSync(path, 'utf8')) as BundleFile;
    const k = bundle.entries.findIndex(
      (e) => e.leaf.includes('"mode":"observed"') && JSON.parse(e.leaf).kind === 'invocation',
    );
    assert.ok(k >= 0);
    const changedLeaf = bundle.entries[k]!.leaf.replace('"mode":"observed"', '"mode":"shadow"');
    const changed = { ...bundle, entries: bundle.entries.map((e, i) => (i === k ? { ...e, leaf: changedLeaf } : e)) };
    writeFileSync(join(dir, 'changed.json'), JSON.stringify(changed));
    const r = await runCli(['verify', '--bundle', join(dir, 'changed.json'), '--key', key]);
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, new RegExp(`FAILED +entry ${k}: leaf_hash does not match leaf bytes`));
    assert.match(r.stdout, /verification FAILED: 2 problem\(s\); first named entry: \d+/);

    // With its leaf hash recomputed too, only the root gives it away (offline, nothing to bisect with).
    const forgedEntry = { ...changed.entries[k]!, leaf_hash: encodeBase64(leafHashOf(changedLeaf)) };
    writeFileSync(
      join(dir, 'forged.json'),
      JSON.stringify({ ...changed, entries: changed.entries.map((e, i) => (i === k ? forgedEntry : e)) }),
    );
    const forged = await runCli(['verify', '--bundle', join(dir, 'forged.json'), '--key', key]);
    assert.equal(forged.code, 1, show(forged));
    assert.match(forged.stdout, /FAILED +entries 0\.\.\d+ do not hash to the checkpoint root/);

    const dropped = structuredClone(bundle);
    dropped.entries.splice(5, 1);
    writeFileSync(join(dir, 'dropped.json'), JSON.stringify(dropped));
    const d = await runCli(['verify', '--bundle', join(dir, 'dropped.json'), '--key', key, '--evidence', '6']);
    assert.equal(d.code, 1, show(d));
    assert.match(d.stdout, /FAILED +missing entry 5/);
    assert.match(d.stdout, /FAILED +evidence 6 \(entry 5\): not in the bundle's log/);
  });

  test('the wrong pinned key, a checkpoint of another log, unknown evidence: exit 1', async () => {
    const other = formatVerifierKey(
      verifierKeyFor(generateSignerKey('agent-ledger.local'), `agent-ledger.local/${admin.account.tenant_id}`),
    );
    const wrong = await verify(['--url', url, '--key', other]);
    assert.equal(wrong.code, 1, show(wrong));
    assert.match(wrong.stdout, /FAILED +checkpoint is not signed by a known key/);

    // Another workspace's genuine checkpoint is no "earlier checkpoint" of this log.
    const bob = await t.signIn('bob@elsewhere-co.io');
    const theirs = await fetch(`${url}/api/v1/audit/checkpoint`, { headers: { authorization: `Bearer ${bob.token}` } });
    writeFileSync(join(dir, 'theirs'), await theirs.text());
    const mixed = await verify([
      '--url',
      url,
      '--key',
      key,
      '--key',
      pinnedVerifierKey(t, bob.account.tenant_id),
      '--since',
      join(dir, 'theirs'),
    ]);
    assert.equal(mixed.code, 1, show(mixed));
    assert.match(
      mixed.stdout,
      /FAILED +older checkpoint is for origin agent-ledger\.local\/\S+, not agent-ledger\.local\//,
    );

    const missing = await verify(['--url', url, '--key', key, '--evidence', '99999']);
    assert.equal(missing.code, 1, show(missing));
    assert.match(missing.stdout, /FAILED +evidence 99999 \(entry 99998\): the service has no such evidence/);
  });

  test('usage and connection errors: exit 2, nothing verified', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [[], {}, /give exactly one of --url and --bundle/],
      [['--url', url, '--bundle', 'x'], {}, /give exactly one of --url and --bundle/],
      [['--url', url], {}, /a token is needed with --url/],
      [['--url', 'ftp://example.com', '--token', 'x'], {}, /is not an http\(s\) URL/],
      [['--url', url, '--token', 'x', '--key', 'nonsense'], {}, /is not a note verifier key/],
      [['--url', url, '--token', 'x', '--evidence', '0'], {}, /is not an evidence id/],
      [['--url', url, '--token', 'x', '--frobnicate'], {}, /Unknown option '--frobnicate'/],
      [['--url', url, '--token', 'svc_live_nope'], {}, /the service refused the token \(HTTP 401\)/],
      [['--url', 'http://127.0.0.1:9', '--token', 'x'], {}, /cannot reach http:\/\/127\.0\.0\.1:9/],
      [['--bundle', join(dir, 'nope.json')], {}, /--bundle \S+ cannot be read: ENOENT/],
      [['--url', url, '--since', join(dir, 'nope')], { AGENT_LEDGER_TOKEN: admin.token }, /--since \S+ cannot be read/],
    ];
    writeFileSync(join(dir, 'not-a-bundle.json'), '{"hello": 1}');
    cases.push([['--bundle', join(dir, 'not-a-bundle.json')], {}, /is not an agent-ledger audit bundle/]);
    const results = await mapLimit(cases, 4, ([args, env]) => verify(args, env));
    for (const [i, [args, , message]] of cases.entries()) {
      const r = results[i]!;
      assert.equal(r.code, 2, `${args.join(' ')}\n${show(r)}`);
      assert.match(r.stderr, message, args.join(' '));
    }
  });
});

describe('agent-ledger keygen', () => {
  test('prints a signer key LEDGER_SIGNING_KEY accepts, its verifier key on stderr', async () => {
    const r = await runCli([
      'keygen',
      '--name',
      'ledger.example.com',
      '--tenant',
      '3f0c2d7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
    ]);
    assert.equal(r.code, 0, show(r));
    const secret = r.stdout.trim();
    assert.match(secret, /^PRIVATE\+KEY\+ledger\.example\.com\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/);
    const signer = parseSignerKey(secret);
    const verifier = /^verifier key: (\S+)$/m.exec(r.stderr)?.[1];
    assert.equal(verifier, formatVerifierKey(verifierKeyFor(signer, 'ledger.example.com')));
    const workspace = /^verifier key of ledger\.example\.com\/3f0c2d7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f: (\S+)$/m.exec(
      r.stderr,
    )?.[1];
    assert.equal(parseVerifierKey(workspace!).name, 'ledger.example.com/3f0c2d7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f');
    const loaded = loadSigningKey(
      loadConfig({ LEDGER_SIGNING_KEY: secret, LEDGER_ORIGIN: 'ledger.example.com', DATA_DIR: tmpdir() }),
    );
    assert.deepEqual(loaded.key.publicKey, signer.publicKey);
    // The base64 of the seed may itself hold '+': take everything after the key id.
    const seedPart = /^PRIVATE\+KEY\+[^+]+\+[0-9a-f]{8}\+(.+)$/.exec(secret)![1]!;
    assert.ok(!r.stderr.includes(seedPart), 'the private key is never on stderr');
  });

  test('--out writes the key with mode 0600 and never overwrites one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygen-'));
    try {
      const path = join(dir, 'ledger.key');
      const r = await runCli(['keygen', '--out', path], { LEDGER_ORIGIN: 'audit.internal' });
      assert.equal(r.code, 0, show(r));
      assert.equal(r.stdout, '');
      assert.equal(statSync(path).mode & 0o777, 0o600);
      const text = readFileSync(path, 'utf8');
      assert.match(text, /^PRIVATE\+KEY\+audit\.internal\+/);
      const loaded = loadSigningKey(loadConfig({ LEDGER_SIGNING_KEY: path, DATA_DIR: dir }));
      assert.equal(loaded.source, path);
      const again = await runCli(['keygen', '--out', path]);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /exists; not overwriting a key/);
      assert.equal(readFileSync(path, 'utf8'), text);
      const bad = await runCli(['keygen', '--name', 'has space']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /is not a key name/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
