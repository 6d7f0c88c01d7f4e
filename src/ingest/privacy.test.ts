// Issue 16, "personal data must not enter the permanent log": the values a
// hostile probe put in every metadata field (an e-mail address as principal,
// agent key and tool name, a card number as correlation id and outcome, an AWS
// key as rogue source...) are in no log leaf, free-form fields are stored
// redacted while identifiers stay as sent, ids are counted per workspace, and
// the log still verifies — entry by entry and through a compliance report.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createWorkspaceWithAdmin } from '../accounts/directory.ts';
import { checkReport, parseReport } from '../cli/verify-report.ts';
import { loadConfig } from '../config/config.ts';
import { verifyBundle } from '../ledger/verify-bundle.ts';
import { createService } from '../service/service.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { runCli } from '../testing/server-process.ts';
import { INVOCATION, newWorkspace, post, query, ROGUE } from '../testing/ingest-kit.ts';

const run = promisify(execFile);

/** Identifiers: stored as sent (an auditor must know who acted), never in a leaf. */
const IDENTIFIERS = {
  principal: 'dave.miller@example.net',
  agent: 'eve.agent@example.org',
  rogueAgent: 'mallory.agent@example.org',
  actor: 'trent.boss@example.org',
  user: 'peggy.user@example.net',
};
/** Free-form values: redacted in the rows, never in a leaf. */
const FREE_FORM = {
  card: '4111111111111111',
  aws: 'AKIAZ3MHPL4QXKT7RWEV',
  toolMail: 'ivan@example.com',
  typeMail: 'oscar@example.com',
  severityCard: '5555555555554444',
};

async function entries(
  t: TestService,
  token: string,
): Promise<Array<{ index: number; leaf: string; leaf_hash: string }>> {
  const cp = await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token });
  assert.equal(cp.statusCode, 200, cp.body);
  const size = Number(cp.body.split('\n')[1]);
  const out: Array<{ index: number; leaf: string; leaf_hash: string }> = [];
  for (let start = 0; start < size; start += 1000) {
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/audit/entries?start=${start}&end=${Math.min(size, start + 1000)}`,
      token,
    });
    assert.equal(res.statusCode, 200, res.body);
    out.push(...res.json().entries);
  }
  return out;
}

/** The hostile probe: every metadata field of both event kinds holds a personal value or a secret. */
async function probe(t: TestService, a: SignedIn) {
  const inv = await post(t, INVOCATION, a.token, {
    agent_key: IDENTIFIERS.agent,
    principal_kind: 'user',
    principal_id: IDENTIFIERS.principal,
    correlation_id: FREE_FORM.card,
    outcome: `card-${FREE_FORM.card}`,
    tool_name: FREE_FORM.toolMail,
    prompt: 'hello',
  });
  assert.equal(inv.statusCode, 201, inv.body);
  const rogue = await post(t, ROGUE, a.token, {
    event_type: `leak ${FREE_FORM.typeMail}`,
    agent_key: IDENTIFIERS.rogueAgent,
    actor_agent_key: IDENTIFIERS.actor,
    user_id: IDENTIFIERS.user,
    tool: `send ${FREE_FORM.toolMail}`,
    source: `src ${FREE_FORM.aws}`,
    severity: `high ${FREE_FORM.severityCard}`,
  });
  assert.equal(rogue.statusCode, 201, rogue.body);
  // A flagged invocation (payment data handed to a tool) and a reviewer's note naming a customer.
  const flagged = await post(t, INVOCATION, a.token, {
    agent_key: IDENTIFIERS.agent,
    tool_name: 'pay',
    tool_input: `charge ${FREE_FORM.severityCard}`,
  });
  assert.equal(flagged.json().verdict, 'flag_for_review', flagged.body);
  const review = await t.request({
    method: 'POST',
    url: `/api/v1/reviews/${flagged.json().invocation_id}`,
    token: a.token,
    payload: { decision: 'approve', note: NOTE },
  });
  assert.equal(review.statusCode, 201, review.body);
  return inv.json() as { invocation_id: number; evidence_id: number };
}

const NOTE = `customer ${FREE_FORM.toolMail} card ${FREE_FORM.card} ok`;

const RAW_OUTPUT = () => `SEALED-${randomBytes(6).toString('hex')} for ${FREE_FORM.toolMail} card ${FREE_FORM.card}`;

/** Every file under dir that holds needle (as UTF-8 bytes). */
function filesHolding(dir: string, needle: string): string[] {
  const want = Buffer.from(needle, 'utf8');
  const out: string[] = [];
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    if (readFileSync(path).includes(want)) out.push(path);
  }
  return out;
}

eachStore('privacy: personal data in the permanent log', (get) => {
  test('invocation and rogue event ids are counted per workspace: another workspace cannot measure our volume', async () => {
    const t = get();
    const a = await newWorkspace(t, 'ids-a');
    const b = await newWorkspace(t, 'ids-b');
    for (let i = 0; i < 9; i++)
      assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'a-bot' })).statusCode, 201);
    for (let i = 0; i < 3; i++)
      assert.equal((await post(t, ROGUE, a.token, { event_type: 'loop', agent_key: 'a-bot' })).statusCode, 201);
    const first = await post(t, INVOCATION, b.token, { agent_key: 'b-bot' });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().invocation_id, 1, "B's first invocation is its number 1, whatever A did");
    assert.equal((await post(t, INVOCATION, b.token, { agent_key: 'b-bot' })).json().invocation_id, 2);
    assert.equal((await post(t, ROGUE, b.token, { event_type: 'loop', agent_key: 'b-bot' })).statusCode, 201);
    const rogue = await t.request({ method: 'GET', url: '/api/v1/rogue-events', token: b.token });
    assert.deepEqual(
      rogue.json().items.map((e: { rogue_event_id: number }) => e.rogue_event_id),
      [1],
    );
    // A's own numbering went on undisturbed.
    assert.equal((await post(t, INVOCATION, a.token, { agent_key: 'a-bot' })).json().invocation_id, 10);
  });

  test('no metadata value is in a leaf; free-form fields are stored redacted, identifiers as sent; the log and a report verify', async () => {
    const t = get();
    const a = await newWorkspace(t, 'hostile');
    const tenant = a.account.tenant_id;
    const { invocation_id } = await probe(t, a);

    // The leaves, as viewers read them.
    const all = await entries(t, a.token);
    const text = all.map((e) => e.leaf).join('\n');
    for (const [what, value] of Object.entries({ ...IDENTIFIERS, ...FREE_FORM })) {
      assert.equal(text.includes(value), false, `${what} (${value}) is in a leaf`);
    }
    const kinds = all.map((e) => JSON.parse(e.leaf) as Record<string, unknown>);
    for (const l of kinds.filter((k) => ['invocation', 'rogue', 'agent_registered'].includes(k.kind as string))) {
      assert.equal(l.v, 2, `${l.kind} leaf has format v2`);
    }

    // The rows: identifiers as sent, free-form fields redacted like content.
    const [inv] = await query<Record<string, string>>(
      t,
      'SELECT agent_key, principal_id, correlation_id, outcome, tool_name FROM invocations WHERE tenant_id = $1 AND invocation_id = $2',
      [tenant, invocation_id],
    );
    assert.deepEqual(inv, {
      agent_key: IDENTIFIERS.agent,
      principal_id: IDENTIFIERS.principal,
      correlation_id: '<CREDIT_CARD>',
      outcome: 'card-<CREDIT_CARD>',
      tool_name: '<EMAIL_ADDRESS>',
    });
    const [rogue] = await query<Record<string, string>>(
      t,
      'SELECT event_type, agent_key, actor_agent_key, user_id, tool, source, severity FROM rogue_events WHERE tenant_id = $1',
      [tenant],
    );
    assert.deepEqual(rogue, {
      event_type: 'leak <EMAIL_ADDRESS>',
      agent_key: IDENTIFIERS.rogueAgent,
      actor_agent_key: IDENTIFIERS.actor,
      user_id: IDENTIFIERS.user,
      tool: 'send <EMAIL_ADDRESS>',
      source: 'src <AWS_ACCESS_KEY>',
      severity: 'high <CREDIT_CARD>',
    });

    // The review note: stored redacted, as the reviewer is shown.
    const notes = await query<{ note: string }>(t, 'SELECT note FROM reviews WHERE tenant_id = $1', [tenant]);
    assert.deepEqual(notes, [{ note: 'customer <EMAIL_ADDRESS> card <CREDIT_CARD> ok' }]);

    // The whole log verifies from the public key, and a compliance report of it recounts.
    const key = (await t.request({ method: 'GET', url: '/api/v1/audit/key', token: a.token })).json()
      .verifier_key as string;
    const checkpoint = (await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: a.token })).body;
    assert.deepEqual(verifyBundle({ verifierKeys: [key], checkpoint, entries: all, complete: true }), []);
    const from = new Date(t.clock.now().getTime() - 3_600_000).toISOString();
    const to = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/reports/compliance?from=${from}&to=${to}`,
      token: a.token,
    });
    assert.equal(res.statusCode, 200, res.body);
    const report = parseReport(res.body);
    assert.ok(typeof report !== 'string', String(report));
    assert.deepEqual(report.totals.invocations_by_agent, { [IDENTIFIERS.agent]: 2 });
    assert.deepEqual(report.totals.rogue_events_by_type, { 'leak <EMAIL_ADDRESS>': 1 });
    assert.deepEqual(checkReport(report, [key], all), []);
    // And the CLI an auditor runs: the whole log, then the saved report.
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const dir = mkdtempSync(join(tmpdir(), 'privacy-report-'));
    try {
      writeFileSync(join(dir, 'report.json'), res.body);
      const whole = await runCli(['verify', '--url', url, '--token', a.token, '--key', key]);
      assert.equal(whole.code, 0, whole.stdout + whole.stderr);
      const rep = await runCli([
        'verify',
        '--url',
        url,
        '--token',
        a.token,
        '--key',
        key,
        '--report',
        join(dir, 'report.json'),
      ]);
      assert.equal(rep.code, 0, rep.stdout + rep.stderr);
      assert.match(rep.stdout, /every figure recounted from the leaves/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // pg_dump of the whole database: no free-form value anywhere (review notes
    // included), no identifier in the log.
    if (t.testDb.url) {
      const { stdout } = await run('pg_dump', ['--no-owner', '--inserts', t.testDb.url], {
        maxBuffer: 256 * 1024 * 1024,
      });
      for (const [what, value] of Object.entries(FREE_FORM))
        assert.equal(stdout.includes(value), false, `${what} (${value}) in pg_dump`);
      const logLines = stdout.split('\n').filter((l) => l.startsWith('INSERT INTO public.log_entries'));
      assert.ok(logLines.length >= all.length);
      for (const [what, value] of Object.entries(IDENTIFIERS)) {
        assert.equal(
          logLines.some((l) => l.includes(value)),
          false,
          `${what} (${value}) in a dumped leaf`,
        );
        assert.ok(stdout.includes(value), `${what} is kept in its row`);
      }
    }
  });
});

eachStore(
  'privacy: a tool_output awaiting its scan is sealed',
  (get) => {
    test('stored encrypted with a key of its own until the scan, which stores the redacted text and deletes ciphertext and key', async () => {
      const t = get();
      const a = await newWorkspace(t, 'sealed');
      const raw = RAW_OUTPUT();
      const res = await post(t, INVOCATION, a.token, { agent_key: 'reader', tool_output: raw });
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().invocation_id as number;
      const row = async () =>
        (
          await query<{ body: string; sealed: Uint8Array | null; sealed_key: Uint8Array | null; findings: unknown }>(
            t,
            "SELECT body, sealed, sealed_key, findings FROM invocation_content WHERE tenant_id = $1 AND invocation_id = $2 AND field = 'tool_output'",
            [a.account.tenant_id, id],
          )
        )[0]!;
      const pending = await row();
      assert.equal(pending.body, '');
      assert.equal(pending.findings, null);
      assert.ok(pending.sealed && pending.sealed.length >= raw.length + 28, 'sealed: iv, ciphertext, tag');
      assert.ok(pending.sealed_key && pending.sealed_key.length === 8 + 12 + 32 + 16, 'the row key, wrapped');
      assert.equal(Buffer.from(pending.sealed).includes(Buffer.from(raw.slice(0, 19))), false);
      // The read side withholds it, as before.
      const view = await t.request({ method: 'GET', url: `/api/v1/invocations/${id}`, token: a.token });
      assert.equal(view.json().output_scan.status, 'pending');
      assert.equal(view.body.includes(raw.slice(0, 19)), false);
      if (t.testDb.url) {
        const { stdout } = await run('pg_dump', ['--no-owner', '--inserts', t.testDb.url], {
          maxBuffer: 256 * 1024 * 1024,
        });
        assert.equal(stdout.includes(raw.slice(0, 19)), false, 'the pending tool_output in pg_dump');
        assert.equal(stdout.includes(FREE_FORM.card), false, 'the card number in pg_dump');
      }

      await t.service.jobs.drain();
      const done = await row();
      assert.equal(done.body, `${raw.slice(0, 19)} for <EMAIL_ADDRESS> card <CREDIT_CARD>`);
      assert.equal(done.sealed, null);
      assert.equal(done.sealed_key, null, 'the row key is destroyed');
      if (t.testDb.url) {
        const { stdout } = await run('pg_dump', ['--no-owner', '--inserts', t.testDb.url], {
          maxBuffer: 256 * 1024 * 1024,
        });
        assert.equal(stdout.includes(FREE_FORM.card), false, 'the card number in pg_dump after the scan');
      }
    });
  },
  { manualJobs: true },
);

test('PGlite on disk: the raw tool_output never reaches a file of the data directory, before or after its scan', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sealed-output-'));
  const fallback = randomBytes(16).toString('hex');
  const config = loadConfig({ DATA_DIR: dir, INGRESS_FALLBACK_TOKEN: fallback, LOG_LEVEL: 'silent' });
  const raw = RAW_OUTPUT();
  const marker = raw.slice(0, 19);
  try {
    let svc = await createService(config, { manualJobs: true });
    let tenantId: string;
    let id: number;
    try {
      const admin = await svc.ctx.db.transaction((tx) =>
        createWorkspaceWithAdmin(tx, config, 'admin@sealed-disk.dev', 'sealed-disk.dev', new Date()),
      );
      tenantId = admin.tenant_id;
      const res = await svc.app.inject({
        method: 'POST',
        url: INVOCATION,
        headers: { authorization: `Bearer ${fallback}` },
        payload: { tenant_id: tenantId, agent_key: 'reader', tool_output: raw },
      });
      assert.equal(res.statusCode, 201, res.body);
      id = res.json().invocation_id;
    } finally {
      await svc.close();
    }
    assert.deepEqual(filesHolding(dir, marker), [], 'the pending tool_output in clear on disk');

    // A restart opens it (the key-encryption key comes from the signing key in DATA_DIR), scans and shreds it.
    svc = await createService(config, { manualJobs: true });
    try {
      await svc.jobs.drain();
      const [row] = await svc.ctx.db.query<{ body: string; sealed_key: Uint8Array | null }>(
        "SELECT body, sealed_key FROM invocation_content WHERE tenant_id = $1 AND invocation_id = $2 AND field = 'tool_output'",
        [tenantId, id],
      );
      assert.equal(row!.body, `${marker} for <EMAIL_ADDRESS> card <CREDIT_CARD>`);
      assert.equal(row!.sealed_key, null);
    } finally {
      await svc.close();
    }
    assert.deepEqual(
      filesHolding(dir, `${marker} for ${FREE_FORM.toolMail}`),
      [],
      'the raw tool_output on disk after the scan',
    );
    assert.ok(filesHolding(dir, `${marker} for <EMAIL_ADDRESS>`).length > 0, 'the search finds what is on disk');
    assert.deepEqual(filesHolding(dir, FREE_FORM.card), [], 'the card number on disk');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
