// DESIGN §3: "Any PostgreSQL row changed, removed or reordered behind the
// service's back must make verification fail." Each case changes the rows of
// its own workspace's log directly in PostgreSQL, as a superuser (row-level
// security does not apply), then runs `agent-ledger verify` with the key pinned:
// it must exit 1 and name the entry index when there is one.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { pinnedVerifierKey, postEvents } from '../testing/audit-load.ts';
import { startTestService, type TestService } from '../testing/harness.ts';
import { type CliResult, runCli } from '../testing/server-process.ts';
import { leafHashOf } from './leaf.ts';
import { rootFromLeafHashes } from './merkle.ts';
import { parseCheckpoint } from './note.ts';

const skip = process.env.TEST_DATABASE_URL
  ? false
  : 'tampering goes behind the service to PostgreSQL rows: set TEST_DATABASE_URL to run these tests';

const show = (r: CliResult) => `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;

describe('tampering with PostgreSQL rows makes agent-ledger verify fail', { skip }, () => {
  let t: TestService;
  let url: string;
  let sql: pg.Client;
  let n = 0;

  before(async () => {
    t = await startTestService('postgres');
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    sql = new pg.Client({ connectionString: t.testDb.url });
    await sql.connect();
  });
  after(async () => {
    await sql?.end();
    await t?.close();
  });

  /** A workspace of its own with a signed log of ~35 entries that verifies; returns what tampering needs. */
  async function workspace() {
    const admin = await t.signIn(`owner@tamper-co-${n++}.io`);
    const tenant = admin.account.tenant_id;
    const acks = await postEvents([url], admin.token, 30, { clients: 4, rogueEvery: 6, run: tenant });
    assert.ok(acks.every((a) => a.status === 201));
    const res = await fetch(`${url}/api/v1/audit/checkpoint`, { headers: { authorization: `Bearer ${admin.token}` } });
    const note = await res.text();
    const size = parseCheckpoint(note.slice(0, note.lastIndexOf('\n\n') + 1)).size;
    const key = pinnedVerifierKey(t, tenant);
    const verify = (...more: string[]) =>
      runCli(['verify', '--url', url, '--key', key, ...more], { AGENT_LEDGER_TOKEN: admin.token });
    const before = await verify();
    assert.equal(before.code, 0, show(before));
    const leaf = async (idx: number) =>
      (
        await sql.query<{ leaf: string }>('SELECT leaf FROM log_entries WHERE tenant_id = $1 AND idx = $2', [
          tenant,
          idx,
        ])
      ).rows[0]!.leaf;
    return { tenant, size, note, verify, leaf, auth: { authorization: `Bearer ${admin.token}` } };
  }

  test('a stored field of one leaf changed', async () => {
    const w = await workspace();
    const k = 17;
    const original = await w.leaf(k);
    const changed = original.replace(/"meta":"sha256:(.)/, (_m, c) => `"meta":"sha256:${c === 'A' ? 'B' : 'A'}`);
    assert.notEqual(changed, original);
    await sql.query('UPDATE log_entries SET leaf = $3 WHERE tenant_id = $1 AND idx = $2', [w.tenant, k, changed]);
    const r = await w.verify();
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, new RegExp(`FAILED +entry ${k}: leaf_hash does not match leaf bytes`));
    assert.match(r.stdout, /FAILED +entries 0\.\.\d+ do not hash to the checkpoint root/);
  });

  test('one log_entries row deleted', async () => {
    const w = await workspace();
    await sql.query('DELETE FROM log_entries WHERE tenant_id = $1 AND idx = $2', [w.tenant, 9]);
    // The range still ends after its last entry: a client paging by `end` neither repeats nor skips.
    const page = (await (
      await fetch(`${url}/api/v1/audit/entries?start=0&end=${w.size}`, { headers: w.auth })
    ).json()) as {
      entries: unknown[];
      end: number;
    };
    assert.deepEqual([page.entries.length, page.end], [w.size - 1, w.size]);
    const r = await w.verify();
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, /FAILED +missing entry 9$/m);
  });

  test('two entries reordered (leaf texts swapped)', async () => {
    const w = await workspace();
    const [a, b] = [await w.leaf(12), await w.leaf(21)];
    await sql.query('BEGIN');
    await sql.query('UPDATE log_entries SET leaf = $3 WHERE tenant_id = $1 AND idx = $2', [w.tenant, 12, b]);
    await sql.query('UPDATE log_entries SET leaf = $3 WHERE tenant_id = $1 AND idx = $2', [w.tenant, 21, a]);
    await sql.query('COMMIT');
    const r = await w.verify();
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, /FAILED +entry 12: leaf_hash does not match leaf bytes/);
    assert.match(r.stdout, /FAILED +entry 21: leaf_hash does not match leaf bytes/);
  });

  test("an entry's stored leaf hash replaced", async () => {
    const w = await workspace();
    const { rowCount } = await sql.query(
      `UPDATE log_entries SET leaf_hash = (SELECT leaf_hash FROM log_entries WHERE tenant_id = $1 AND idx = 4)
       WHERE tenant_id = $1 AND idx = 5`,
      [w.tenant],
    );
    assert.equal(rowCount, 1);
    const r = await w.verify();
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, /FAILED +entry 5: leaf_hash does not match leaf bytes/);
  });

  test('a leaf rewritten together with its stored leaf hash: the root fails, and bisection names the entry', async () => {
    const w = await workspace();
    const k = 10;
    const changed = (await w.leaf(k)).replace(
      /"meta":"sha256:(.)/,
      (_m, c) => `"meta":"sha256:${c === 'A' ? 'B' : 'A'}`,
    );
    await sql.query('BEGIN');
    await sql.query('UPDATE log_entries SET leaf = $3 WHERE tenant_id = $1 AND idx = $2', [w.tenant, k, changed]);
    const { rowCount } = await sql.query('UPDATE log_entries SET leaf_hash = $3 WHERE tenant_id = $1 AND idx = $2', [
      w.tenant,
      k,
      Buffer.from(leafHashOf(changed)),
    ]);
    assert.equal(rowCount, 1);
    await sql.query('COMMIT');
    const r = await w.verify();
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, /FAILED +entries 0\.\.\d+ do not hash to the checkpoint root/);
    assert.match(r.stdout, new RegExp(`FAILED +entry ${k}: first entry not proven to belong to the signed log`));
    assert.doesNotMatch(r.stdout, /leaf_hash does not match/);
  });

  test("the latest stored checkpoint's note changed", async () => {
    const w = await workspace();
    const forged = w.note.replace(`\n${w.size}\n`, `\n${w.size - 1}\n`);
    assert.notEqual(forged, w.note);
    const { rowCount } = await sql.query('UPDATE checkpoints SET note = $3 WHERE tenant_id = $1 AND size = $2', [
      w.tenant,
      w.size,
      forged,
    ]);
    assert.equal(rowCount, 1);
    const r = await w.verify();
    assert.equal(r.code, 1, show(r));
    assert.match(r.stdout, /FAILED +checkpoint signature invalid/);
  });

  test('the log truncated and re-signed: only a checkpoint saved earlier (--since) can tell', async () => {
    const w = await workspace();
    const dir = mkdtempSync(join(tmpdir(), 'tamper-'));
    try {
      writeFileSync(join(dir, 'seen.cp'), w.note);
      // Roll the log back to `keep` entries everywhere: entries, nodes, head, checkpoints.
      const keep = w.size - 5;
      const kept = await sql.query<{ leaf: string }>(
        'SELECT leaf FROM log_entries WHERE tenant_id = $1 AND idx < $2 ORDER BY idx',
        [w.tenant, keep],
      );
      const root = rootFromLeafHashes(kept.rows.map((r) => leafHashOf(r.leaf)));
      await sql.query('BEGIN');
      await sql.query('DELETE FROM log_entries WHERE tenant_id = $1 AND idx >= $2', [w.tenant, keep]);
      await sql.query('DELETE FROM log_nodes WHERE tenant_id = $1 AND (idx + 1) * (1::bigint << level) > $2', [
        w.tenant,
        keep,
      ]);
      await sql.query('DELETE FROM checkpoints WHERE tenant_id = $1 AND size > $2', [w.tenant, keep]);
      await sql.query('UPDATE log_heads SET size = $2, root = $3 WHERE tenant_id = $1', [
        w.tenant,
        keep,
        Buffer.from(root),
      ]);
      await sql.query('COMMIT');
      // The service signs the rolled-back head as it would any: alone, the log looks intact.
      const alone = await w.verify();
      assert.equal(alone.code, 0, show(alone));
      assert.match(alone.stdout, new RegExp(`checkpoint +size ${keep},`));
      const since = await w.verify('--since', join(dir, 'seen.cp'));
      assert.equal(since.code, 1, show(since));
      assert.match(
        since.stdout,
        new RegExp(
          `FAILED +checkpoint of size ${keep} is not consistent with size ${w.size}: the older checkpoint is larger`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
