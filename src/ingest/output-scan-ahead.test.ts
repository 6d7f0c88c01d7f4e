import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pgErrorCode } from '../db/index.ts';
import type { Job } from '../jobs/index.ts';
import { LogWriter } from '../ledger/log-writer.ts';
import { countingDb } from '../testing/counting-db.ts';
import { outputScanBatchHandler } from './output-scan-many.ts';
import { eachStore } from '../testing/harness.ts';
import { planScans, readScanState, writePlannedScans } from './output-scan-ahead.ts';
import type { OutputScanDeps } from './output-scan.ts';
import type { ScanResult } from './prepare.ts';

// Scans decided before the log's lock (output-scan-ahead.ts) are written
// under it by one guarded statement, the log's own: everything of them, or —
// when what they were decided on moved in between — nothing, so that they
// are decided again.

/** A policy that flags whatever it is asked about, so a scan puts its invocation in the review queue. */
const deps = {
  policyInTx: async () => ({
    version: 7,
    decide: () => ({ verdict: 'flag_for_review' as const, reasons: ['scanned'], judge: false }),
  }),
  personaInTx: async () => undefined,
} as unknown as OutputScanDeps;

eachStore(
  'tool_output scans decided ahead of the lock',
  (get) => {
    /** An invocation whose tool_output waits for its scan, and that scan's job. */
    async function pending(email: string) {
      const t = get();
      const a = await t.signIn(email);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token: a.token,
        payload: { agent_key: 'mail-bot', tool_name: 'read_mail', tool_output: 'Nothing to see.' },
      });
      assert.equal(res.statusCode, 201, res.body);
      const tenantId = a.account.tenant_id;
      const id = Number(res.json().invocation_id);
      const jobs = await t.testDb.db.query<Job & Record<string, unknown>>(
        `SELECT tenant_id, job_id, kind, payload, attempts FROM jobs WHERE tenant_id = $1 AND kind = 'tool_output_scan'`,
        [tenantId],
      );
      assert.equal(jobs.length, 1);
      const state = await t.testDb.db.withTenant(tenantId, (tx) => readScanState(tx, deps, tenantId, [id]));
      const result = { findings: [], stored: 'Nothing to see (scanned).', storedFindings: [], pii_count: 0 };
      const plans = planScans(state, new Map([[id, { result, otherFindings: [] }]]));
      assert.equal(plans.length, 1);
      const counted = countingDb(t.testDb.db);
      const write = () =>
        new LogWriter(counted.db).submit(tenantId, (tx, log) =>
          writePlannedScans(tx, log, new Date(), tenantId, jobs, state, plans),
        );
      return { t, tenantId, id, write, statements: counted.statements };
    }

    async function stored(tenantId: string, id: number) {
      const db = get().testDb.db;
      const [row] = await db.query<{
        body: string;
        scanned: boolean;
        sealed: boolean;
        review: string | null;
        verdict: string | null;
      }>(
        `SELECT c.body, c.findings IS NOT NULL AS scanned, c.sealed IS NOT NULL AS sealed,
                i.review_status AS review, i.output_scan_verdict AS verdict
         FROM invocation_content c JOIN invocations i USING (tenant_id, invocation_id)
         WHERE c.tenant_id = $1 AND c.invocation_id = $2 AND c.field = 'tool_output'`,
        [tenantId, id],
      );
      const [counts] = await db.query<{ jobs: number; rollups: number; leaves: number; at: number | null }>(
        `SELECT (SELECT count(*)::int FROM jobs WHERE tenant_id = $1 AND kind = 'tool_output_scan') AS jobs,
                (SELECT count(*)::int FROM output_scans WHERE tenant_id = $1) AS rollups,
                (SELECT count(*)::int FROM log_entries WHERE tenant_id = $1 AND leaf LIKE '%tool_output_scan%') AS leaves,
                (SELECT max(log_index)::int FROM output_scans WHERE tenant_id = $1) AS at`,
        [tenantId],
      );
      return { ...row!, ...counts! };
    }

    test('written whole under the lock, in the log statement: the text redacted, the verdict, the review item, the roll-up row, the leaf, the job gone', async () => {
      const { tenantId, id, write, statements } = await pending('ops@ahead-written.io');
      await write();
      // Two round trips under the lock: the lock, then the log's statement carrying every row (and the commit);
      // besides, the tree's right edge, which a log writer new to the workspace reads once.
      assert.deepEqual(
        statements.filter((s) => !s.startsWith('SELECT n.level')),
        ['opening: INSERT INTO log_heads', 'WITH claimed AS'],
      );
      const s = await stored(tenantId, id);
      assert.equal(s.body, 'Nothing to see (scanned).');
      assert.equal(s.scanned, true);
      assert.equal(s.sealed, false, 'the sealed text and its key are gone');
      assert.equal(s.verdict, 'flag_for_review');
      assert.equal(s.review, 'pending');
      assert.equal(s.jobs, 0);
      assert.equal(s.rollups, 1);
      assert.equal(s.leaves, 1);
      const [leaf] = await get().testDb.db.query<{ idx: number }>(
        `SELECT idx::int FROM log_entries WHERE tenant_id = $1 AND leaf LIKE '%tool_output_scan%'`,
        [tenantId],
      );
      assert.equal(s.at, leaf!.idx, "the roll-up row names the scan's leaf");
    });

    for (const [what, move] of [
      [
        'a person reviewed the invocation',
        (tenantId: string, id: number) =>
          get().testDb.db.query(
            `UPDATE invocations SET review_status = 'approved' WHERE tenant_id = $1 AND invocation_id = $2`,
            [tenantId, id],
          ),
      ],
      [
        'the policy changed (the change epoch moved)',
        (tenantId: string) =>
          get().testDb.db.query(
            `INSERT INTO change_epochs (tenant_id, epoch) VALUES ($1, 1)
             ON CONFLICT (tenant_id) DO UPDATE SET epoch = change_epochs.epoch + 1`,
            [tenantId],
          ),
      ],
      [
        'another node scanned it',
        (tenantId: string, id: number) =>
          get().testDb.db.query(
            `UPDATE invocations SET output_scanned_at = now() WHERE tenant_id = $1 AND invocation_id = $2`,
            [tenantId, id],
          ),
      ],
    ] as const) {
      test(`${what} in between: nothing is written, and the job waits to be decided again`, async () => {
        const { tenantId, id, write } = await pending(`ops@ahead-${what.length}.io`);
        const before = await stored(tenantId, id);
        await move(tenantId, id);
        await assert.rejects(write(), (err: unknown) => pgErrorCode(err) === 'AL001');
        const s = await stored(tenantId, id);
        assert.equal(s.scanned, false);
        assert.equal(s.sealed, true, 'still sealed, waiting for its scan');
        assert.equal(s.body, before.body);
        assert.equal(s.verdict, null);
        assert.equal(s.jobs, 1, 'its job is still there');
        assert.equal(s.rollups, 0);
        assert.equal(s.leaves, 0);
      });
    }

    test('the job handler: when the state moved, the scans are decided again under the lock and written once', async () => {
      const { t, tenantId, id } = await pending('ops@ahead-handler.io');
      // The text as rows from before sealing hold it (in body), so that this handler opens it without the service's key.
      await t.testDb.db.query(
        `UPDATE invocation_content SET body = 'Call me.', sealed = NULL, sealed_key = NULL
         WHERE tenant_id = $1 AND invocation_id = $2 AND field = 'tool_output'`,
        [tenantId, id],
      );
      const jobs = await t.testDb.db.query<Job & Record<string, unknown>>(
        `SELECT tenant_id, job_id, kind, payload, attempts FROM jobs WHERE tenant_id = $1`,
        [tenantId],
      );
      const real = new LogWriter(t.testDb.db);
      let submits = 0;
      // A person approves the invocation after the scan was decided, before its write takes the lock.
      const writer = {
        submit: async (...args: Parameters<LogWriter['submit']>) => {
          if (submits++ === 0) {
            await t.testDb.db.query(
              `UPDATE invocations SET review_status = 'approved' WHERE tenant_id = $1 AND invocation_id = $2`,
              [tenantId, id],
            );
          }
          return real.submit(...args);
        },
      } as unknown as LogWriter;
      const scan = (_f: unknown, text: string): ScanResult => ({
        findings: [],
        stored: `${text} (scanned)`,
        storedFindings: [],
        pii_count: 0,
      });
      const handler = outputScanBatchHandler({
        ...deps,
        writer,
        scan,
        outputKek: new Uint8Array(32),
        now: () => new Date(),
        db: t.testDb.db,
      });
      const claim = async (tx: Parameters<Parameters<LogWriter['submit']>[1]>[0]) =>
        new Set(
          (
            await tx.query<{ job_id: string }>(
              'DELETE FROM jobs WHERE tenant_id = $1 AND job_id = ANY($2::bigint[]) RETURNING job_id',
              [tenantId, jobs.map((j) => j.job_id)],
            )
          ).map((r) => Number(r.job_id)),
        );
      await handler(jobs, claim, new AbortController().signal);
      assert.equal(submits, 2, 'refused by its guard, then decided again');
      const s = await stored(tenantId, id);
      assert.equal(s.body, 'Call me. (scanned)');
      assert.equal(s.verdict, 'flag_for_review');
      assert.equal(s.review, 'approved', "decided again on the person's review, not the stale row");
      assert.equal(s.jobs, 0);
      assert.equal(s.rollups, 1);
      assert.equal(s.leaves, 1);
    });
  },
  { manualJobs: true },
);
