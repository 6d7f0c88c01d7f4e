// Checkpoint pruning on each store: checkpoints signed every twenty minutes
// over twenty simulated days (the service's clock), then a pass keeps exactly
// the latest, the sizes a witness or the publisher refers to, the last of each
// hour of the last week and the last of each day before; a second pass deletes
// nothing; two days later the hours that aged past the week fold into days.
// A checkpoint saved before, a report and an evidence record made before all
// still verify (`agent-ledger verify --since` / `--report`, verifyBundle), and
// a pruned size is signed again to the same bytes. A busy workspace (one
// checkpoint a second for a day) keeps 24, pruned by two nodes at once.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fetchAllEntries, getJson, pinnedVerifierKey } from '../testing/audit-load.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { runCli } from '../testing/server-process.ts';
import { CheckpointPruner } from './checkpoint-pruning.ts';
import { parseCheckpoint } from './note.ts';
import type { ConsistencyProofJson, EvidenceJson } from './verify-bundle.ts';
import { verifyBundle } from './verify-bundle.ts';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const DAYS = 20;
const STEP = 20 * MIN;

function sizeOf(note: string): number {
  const split = note.indexOf('\n\n');
  return parseCheckpoint(note.slice(0, split + 1)).size;
}

/** What a pass must leave: the last of each hour from the cutoff day on, of each day before, and `keep`. */
function survivors(signed: Map<number, number>, now: number, keep: Iterable<number>): number[] {
  const cutoff = Math.floor((now - 7 * DAY) / DAY) * DAY;
  const last = new Map<string, number>();
  for (const [size, at] of signed) {
    const bucket = at < cutoff ? `d${Math.floor(at / DAY)}` : `h${Math.floor(at / HOUR)}`;
    last.set(bucket, Math.max(last.get(bucket) ?? 0, size));
  }
  const out = new Set([...last.values(), ...keep, Math.max(...signed.keys())]);
  return [...out].sort((a, b) => a - b);
}

eachStore('checkpoint pruning', (get) => {
  let t: TestService;
  let admin: SignedIn;
  let tenant: string;
  let url: string;
  let key: string;
  const dir = mkdtempSync(join(tmpdir(), 'cp-pruning-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  /** Every checkpoint signed: size → the clock's time. */
  const signed = new Map<number, number>();
  const referenced: number[] = [];
  let early: string;
  let report: string;
  let evidence: EvidenceJson;

  const stored = async () =>
    (
      await t.service.ctx.db.withTenant(tenant, (tx) =>
        tx.query<{ size: number }>('SELECT size FROM checkpoints WHERE tenant_id = $1 ORDER BY size', [tenant]),
      )
    ).map((r) => r.size);

  /** One entry appended and its checkpoint signed, at the clock's time. */
  async function grow(): Promise<string> {
    const { ledger, ctx } = t.service;
    const cp = await ctx.db.withTenant(tenant, async (tx) => {
      await ledger.appendInTx(
        tx,
        tenant,
        [{ kind: 'retention_change', content_days: 400, by_account_id: admin.account.id }],
        ctx.now(),
      );
      return ledger.signNow(tx, tenant);
    });
    signed.set(cp.size, t.clock.now().getTime());
    return cp.note;
  }

  async function growUntil(end: number, during: (at: number) => Promise<void> = async () => {}): Promise<void> {
    for (let at = t.clock.now().getTime() + STEP; at < end; at += STEP) {
      t.clock.set(new Date(at));
      await grow();
      await during(at);
    }
  }

  test(`checkpoints every 20 minutes for ${DAYS} days; a pass keeps the latest, the referenced, hourly for a week, daily before`, async () => {
    t = get();
    // The service's own pass (30 s after its start) would prune while the checkpoints are still being made.
    await t.service.checkpointPruner.stopPolling();
    t.clock.set(new Date(T0));
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await t.signIn('keeper@prune-co.io');
    tenant = admin.account.tenant_id;
    key = pinnedVerifierKey(t, tenant);
    // The scheduler signs the sign-in's entries a second later, at this clock time.
    await new Promise((r) => setTimeout(r, 1200));
    for (const row of await t.service.ctx.db.withTenant(tenant, (tx) =>
      tx.query<{ size: number }>('SELECT size FROM checkpoints WHERE tenant_id = $1', [tenant]),
    ))
      signed.set(row.size, T0);
    await grow();

    await growUntil(T0 + DAYS * DAY, async (at) => {
      const day = Math.floor((at - T0) / DAY);
      const minute = Math.round((at % HOUR) / MIN);
      if (minute !== 20 || new Date(at).getUTCHours() !== 10) return;
      const size = Math.max(...signed.keys());
      if (day === 2)
        early = (await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: admin.token })).body;
      if (day === 3) {
        const r = await t.request({
          method: 'GET',
          url: `/api/v1/reports/compliance?from=${new Date(T0).toISOString()}&to=${new Date(at).toISOString()}`,
          token: admin.token,
        });
        assert.equal(r.statusCode, 200, r.body);
        report = r.body;
      }
      if (day === 4) evidence = await getJson<EvidenceJson>(`${url}/api/v1/audit/evidence/3`, admin.token);
      // A witness's cosignature, a witness's last size and the published checkpoint: sizes other modules store.
      const db = t.service.ctx.db;
      if (day === 5) {
        await db.withTenant(tenant, (tx) =>
          tx.query(
            `INSERT INTO checkpoint_cosignatures (tenant_id, size, witness, line, cosigned_at) VALUES ($1, $2, 'w+0a0b0c0d', '— w x\n', now())`,
            [tenant, size],
          ),
        );
        referenced.push(size);
      }
      if (day === 6) {
        await db.withTenant(tenant, (tx) =>
          tx.query(`INSERT INTO witness_states (tenant_id, witness, size) VALUES ($1, 'w+0a0b0c0d', $2)`, [
            tenant,
            size,
          ]),
        );
        referenced.push(size);
      }
      if (day === 8) {
        await db.query(`INSERT INTO log_published (tenant_id, target, checkpoint_size) VALUES ($1, 'file:///x', $2)`, [
          tenant,
          size,
        ]);
        referenced.push(size);
      }
    });
    const before = await stored();
    assert.equal(before.length, signed.size);
    assert.ok(signed.size >= DAYS * 24 * 3);
    // The saved checkpoint, the report's and the evidence record's are each the 10:20 one: not the last of their hour.
    for (const note of [early, JSON.parse(report).evidence.checkpoint, evidence.checkpoint]) {
      assert.ok(signed.has(sizeOf(note)));
    }

    t.clock.set(new Date(T0 + DAYS * DAY + HOUR));
    const deleted = await t.service.checkpointPruner.prune(tenant);
    const expected = survivors(signed, t.clock.now().getTime(), referenced);
    assert.deepEqual(await stored(), expected);
    assert.equal(deleted, before.length - expected.length);
    // 13 days before the cutoff day, one each; 7 days of hours; the three referenced sizes.
    assert.equal(expected.length, 13 + 7 * 24 + 3);
    for (const size of referenced) assert.ok(expected.includes(size));
    for (const note of [early, JSON.parse(report).evidence.checkpoint, evidence.checkpoint]) {
      assert.ok(!expected.includes(sizeOf(note)), 'pruned');
    }

    assert.equal(await t.service.checkpointPruner.prune(tenant), 0, 'a second pass deletes nothing');
    assert.deepEqual(await stored(), expected);
  });

  test('two days on, the hours that left the week fold into days; a pass started by pruneAll skips a fresh workspace', async () => {
    await growUntil(T0 + (DAYS + 2) * DAY + HOUR);
    t.clock.set(new Date(T0 + (DAYS + 2) * DAY + 2 * HOUR));
    await t.service.checkpointPruner.prune(tenant);
    const expected = survivors(signed, t.clock.now().getTime(), referenced);
    assert.deepEqual(await stored(), expected);
    // 15 days, one each; the hours since (7 days and today's first, less the hour skipped between the two runs); the three referenced.
    assert.equal(expected.length, 15 + 7 * 24 + 3);
    // Pruned a moment ago: the periodic pass leaves it alone.
    assert.equal(await t.service.checkpointPruner.pruneAll(), 0);
  });

  test('after pruning: verify --since the saved checkpoint, the report and the evidence record all pass', async () => {
    const cp = join(dir, `${t.store}-early.cp`);
    writeFileSync(cp, early);
    const since = await runCli(['verify', '--url', url, '--key', key, '--since', cp], {
      AGENT_LEDGER_TOKEN: admin.token,
    });
    assert.equal(since.code, 0, since.stdout + since.stderr);
    assert.match(since.stdout, new RegExp(`since +checkpoint of size ${sizeOf(early)} .*: consistent`));

    const file = join(dir, `${t.store}-report.json`);
    writeFileSync(file, report);
    const r = await runCli(['verify', '--url', url, '--key', key, '--report', file], {
      AGENT_LEDGER_TOKEN: admin.token,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);

    // The evidence record handed out on day 4, against today's checkpoint: its own proof plus a consistency proof.
    const latest = (await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: admin.token })).body;
    const size = sizeOf(latest);
    const evSize = sizeOf(evidence.checkpoint);
    const consistency = await getJson<ConsistencyProofJson>(
      `${url}/api/v1/audit/proof/consistency?first=${evSize}&second=${size}`,
      admin.token,
    );
    const entries = await fetchAllEntries(url, admin.token, size);
    assert.deepEqual(
      verifyBundle({
        verifierKeys: [key],
        checkpoint: latest,
        entries,
        complete: true,
        evidence: [{ ...evidence, consistency }],
      }),
      [],
    );

    // A report asking for a pruned size gets it signed again: the same note.
    const reportNote = JSON.parse(report).evidence.checkpoint as string;
    const again = await t.service.ctx.db.withTenant(tenant, (tx) =>
      t.service.ledger.checkpointOfSize(tx, tenant, sizeOf(reportNote)),
    );
    assert.equal(again.note, reportNote);
  });

  test('a busy workspace: a checkpoint a second for a day keeps one per hour', async () => {
    const busy = await t.signIn('ops@busy-co.io');
    const id = busy.account.tenant_id;
    const db = t.service.ctx.db;
    // The sign-in's own checkpoints (the scheduler's, a second later, and one now); then a day of one a second
    // from tomorrow on (sizes past the log's: pruning reads nothing but sizes and times).
    await new Promise((r) => setTimeout(r, 1200));
    const first = await db.withTenant(id, (tx) => t.service.ledger.signNow(tx, id));
    const own = (
      await db.withTenant(id, (tx) =>
        tx.query<{ n: number }>('SELECT count(*)::int AS n FROM checkpoints WHERE tenant_id = $1', [id]),
      )
    )[0]!.n;
    const start = Math.ceil((t.clock.now().getTime() + DAY) / DAY) * DAY;
    await db.withTenant(id, (tx) =>
      tx.query(
        `INSERT INTO checkpoints (tenant_id, size, root, note, created_at)
         SELECT $1, 1000 + g, '\\x00', 'note', $2::timestamptz + g * interval '1 second' FROM generate_series(0, 86399) g`,
        [id, new Date(start)],
      ),
    );
    const count = async () =>
      (
        await db.withTenant(id, (tx) =>
          tx.query<{ n: number }>('SELECT count(*)::int AS n FROM checkpoints WHERE tenant_id = $1', [id]),
        )
      )[0]!.n;
    assert.equal(await count(), 86_400 + own);
    const other = await stored();
    t.clock.set(new Date(start + DAY + 15 * MIN));
    // Two nodes at once (a second pruner on the same database): one holds the workspace at a time, and
    // between them every row goes once.
    const node2 = new CheckpointPruner({
      db,
      now: t.clock.now,
      tenants: async () => [id],
      referenced: (tx, tenantId, sizes) => t.service.witnesses.referencedSizes(tx, tenantId, sizes),
    });
    const passes = await Promise.all([t.service.checkpointPruner.prune(id), node2.prune(id)]);
    assert.equal(
      passes.reduce<number>((sum, n) => sum + (n ?? 0), 0),
      86_400 - 24 + own - 1,
      `passes deleted ${passes.join(' and ')}`,
    );
    const rows = await db.withTenant(id, (tx) =>
      tx.query<{ size: number }>('SELECT size FROM checkpoints WHERE tenant_id = $1 ORDER BY size', [id]),
    );
    assert.deepEqual(
      rows.map((r) => r.size),
      [first.size, ...Array.from({ length: 24 }, (_, h) => 1000 + (h + 1) * 3600 - 1)],
    );
    // The other workspace's rows were not touched.
    assert.deepEqual(await stored(), other);
  });
});
