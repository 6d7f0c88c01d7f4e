// Erasure for a data subject and retention, on each store: after them a dump
// of the database holds none of the erased content (texts, salts, review
// notes), the read side shows the fields as erased, and everything made before
// — the whole log, an evidence id, a saved checkpoint, a compliance report over
// the period — still verifies with `agent-ledger verify`.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pinnedVerifierKey } from '../testing/audit-load.ts';
import { dumpTables } from '../testing/db-dump.ts';
import { eachStore, OPERATOR_TOKEN, type SignedIn, type TestService } from '../testing/harness.ts';
import { runCli } from '../testing/server-process.ts';
import { addMember, auditLeaves, setSubscription } from '../testing/workspace.ts';

const SUBJECT = 'subject-alice-7f3';
const PERIOD = 'from=2026-05-31T00:00:00Z&to=2026-06-02T00:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'erasure-'));
after(() => rmSync(dir, { recursive: true, force: true }));

eachStore(
  'erasure and retention',
  (get) => {
    let t: TestService;
    let url: string;
    let admin: SignedIn;
    let key: string;
    const alice: number[] = [];
    const aliceEvidence: number[] = [];
    let bob: number;
    let salts: string[];
    let reportBefore: { totals: unknown; reviews: unknown };

    const invoke = async (principal: string, marker: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        token: admin.token,
        payload: {
          agent_key: 'travel-bot',
          principal_id: principal,
          tool_name: 'search',
          prompt: `${marker} plan a trip, mail me at ${marker.toLowerCase()}@example.com`,
          tool_input: `{"q": "${marker} hotels"}`,
          tool_output: `${marker} found 3 hotels`,
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { invocation_id: number; evidence_id: number };
    };
    const verify = (...extra: string[]) =>
      runCli(['verify', '--url', url, '--token', admin.token, '--key', key, ...extra]);

    test('an erasure for a principal deletes its texts, salts and review notes, and answers counts', async () => {
      t = get();
      url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      admin = await t.signIn('dpo@erasure-co.io');
      key = pinnedVerifierKey(t, admin.account.tenant_id);
      const policy = await t.request({
        method: 'PUT',
        url: '/api/v1/policy',
        token: admin.token,
        payload: {
          default_verdict: 'allow',
          rules: [{ id: 'watch-alice', when: { principal_ids: ['subject-alice*'] }, verdict: 'flag_for_review' }],
        },
      });
      assert.equal(policy.statusCode, 200, policy.body);
      for (let i = 0; i < 3; i++) {
        const r = await invoke(SUBJECT, `ALICEMARK${i}`);
        alice.push(r.invocation_id);
        aliceEvidence.push(r.evidence_id);
      }
      bob = (await invoke('subject-bob', 'BOBMARK')).invocation_id;
      await t.service.jobs.drain(); // the tool_output scans
      const review = await t.request({
        method: 'POST',
        url: `/api/v1/reviews/${alice[0]}`,
        token: admin.token,
        payload: { decision: 'approve', note: 'NOTEMARK: Alice called, trip approved' },
      });
      assert.equal(review.statusCode, 201, review.body);
      // One more, its tool_output still sealed awaiting its scan when the erasure comes.
      const pending = await invoke(SUBJECT, 'ALICEMARK3');
      alice.push(pending.invocation_id);
      aliceEvidence.push(pending.evidence_id);
      salts = await t.testDb.db.withTenant(admin.account.tenant_id, async (tx) =>
        (
          await tx.query<{ s: string }>(
            `SELECT encode(salt, 'hex') AS s FROM invocation_content WHERE invocation_id = ANY($1::bigint[])`,
            [alice],
          )
        ).map((r) => r.s),
      );
      assert.equal(salts.length, 12);
      const metaSalts = await t.testDb.db.withTenant(admin.account.tenant_id, async (tx) =>
        (
          await tx.query<{ s: string }>(
            `SELECT encode(meta_salt, 'hex') AS s FROM invocations WHERE invocation_id = ANY($1::bigint[]) AND tenant_id = $2`,
            [alice, admin.account.tenant_id],
          )
        ).map((r) => r.s),
      );
      assert.equal(metaSalts.length, 4);
      salts.push(...metaSalts);
      const before = await t.request({
        method: 'GET',
        url: `/api/v1/reports/compliance?${PERIOD}`,
        token: admin.token,
      });
      assert.equal(before.statusCode, 200);
      reportBefore = before.json();
      writeFileSync(join(dir, `${t.store}-before.json`), before.body);
      assert.equal((await verify('--save-checkpoint', join(dir, `${t.store}-cp.txt`))).code, 0);
      assert.match(
        (await dumpTables(t.testDb.db)).text,
        /ALICEMARK1 found 3 hotels/,
        'the dump sees stored content before',
      );

      const viewer = await addMember(t, admin, 'viewer@erasure-co.io', 'viewer');
      assert.equal(
        (
          await t.request({
            method: 'POST',
            url: '/api/v1/workspace/erasures',
            token: viewer.token,
            payload: { principal_id: SUBJECT },
          })
        ).statusCode,
        403,
      );
      assert.equal(
        (await t.request({ method: 'POST', url: '/api/v1/workspace/erasures', token: admin.token, payload: {} }))
          .statusCode,
        422,
      );

      const res = await t.request({
        method: 'POST',
        url: '/api/v1/workspace/erasures',
        token: admin.token,
        payload: { principal_id: SUBJECT },
      });
      assert.equal(res.statusCode, 201, res.body);
      const record = res.json();
      assert.deepEqual(record.counts, { invocations: 4, fields: 12, review_notes: 1 });
      const sealed = await t.testDb.db.withTenant(admin.account.tenant_id, (tx) =>
        tx.query(
          `SELECT 1 FROM invocation_content WHERE sealed IS NOT NULL OR sealed_key IS NOT NULL OR (erased_at IS NOT NULL AND (body IS NOT NULL OR salt IS NOT NULL))`,
        ),
      );
      assert.deepEqual(sealed, [], 'the sealed output and its wrapped key are gone (crypto-shredded)');
      await t.service.jobs.drain(); // its scan finds nothing left to scan
      const late = (
        await t.request({ method: 'GET', url: `/api/v1/invocations/${pending.invocation_id}`, token: admin.token })
      ).json();
      assert.ok(late.content.every((c: { erased: boolean }) => c.erased));
      assert.deepEqual(record.selects, ['principal_id']);
      assert.equal(record.period, null);

      const dump = (await dumpTables(t.testDb.db)).text;
      for (const gone of ['ALICEMARK', 'alicemark', 'NOTEMARK', ...salts])
        assert.ok(!dump.includes(gone), `dump still holds ${gone.slice(0, 16)}`);
      assert.match(dump, /BOBMARK found 3 hotels/, 'other subjects keep their content');

      // The erasure leaf: who asked, a commitment, counts; never the subject.
      const leaves = await auditLeaves(t, admin.token);
      const leaf = leaves.at(-1)!;
      assert.equal(leaf.kind, 'erasure');
      assert.equal(leaf.by_account_id, admin.account.id);
      assert.match(String(leaf.selector), /^sha256:/);
      assert.deepEqual(leaf.counts, record.counts);
      assert.equal(record.evidence_id, leaves.length);
      assert.ok(!JSON.stringify(leaf).includes('alice'));

      const listed = await t.request({ method: 'GET', url: '/api/v1/workspace/erasures', token: admin.token });
      assert.deepEqual(
        listed.json().items.map((e: { erasure_id: string }) => e.erasure_id),
        [record.erasure_id],
      );
      assert.equal(
        (await t.request({ method: 'GET', url: '/api/v1/workspace/erasures', token: viewer.token })).statusCode,
        403,
      );
    });

    test('the read side shows erased content as erased; finding counts stay', async () => {
      const inv = (
        await t.request({ method: 'GET', url: `/api/v1/invocations/${alice[0]}`, token: admin.token })
      ).json();
      assert.deepEqual(
        inv.content.map((c: { field: string; text: unknown; erased: boolean }) => [c.field, c.text, c.erased]),
        [
          ['prompt', null, true],
          ['tool_input', null, true],
          ['tool_output', null, true],
        ],
      );
      assert.deepEqual(inv.finding_counts.find((c: { field: string }) => c.field === 'prompt').counts, {
        EMAIL_ADDRESS: 1,
      });
      assert.equal(inv.review.note, null);
      assert.equal(inv.review.note_erased, true);
      const other = (await t.request({ method: 'GET', url: `/api/v1/invocations/${bob}`, token: admin.token })).json();
      assert.ok(other.content.every((c: { erased: boolean; text: string }) => !c.erased && c.text.includes('BOBMARK')));
    });

    test('the whole log, evidence ids, the saved checkpoint and the report made before all still verify', async () => {
      const all = await verify(
        ...aliceEvidence.flatMap((id) => ['--evidence', String(id)]),
        '--since',
        join(dir, `${t.store}-cp.txt`),
      );
      assert.equal(all.code, 0, all.stdout + all.stderr);
      const old = await verify('--report', join(dir, `${t.store}-before.json`));
      assert.equal(old.code, 0, old.stdout + old.stderr);
      // A report over the same period made now counts the same, and verifies too.
      const now = await t.request({ method: 'GET', url: `/api/v1/reports/compliance?${PERIOD}`, token: admin.token });
      const r = now.json();
      assert.deepEqual([r.totals, r.reviews], [reportBefore.totals, reportBefore.reviews]);
      writeFileSync(join(dir, `${t.store}-after.json`), now.body);
      const again = await verify('--report', join(dir, `${t.store}-after.json`));
      assert.equal(again.code, 0, again.stdout + again.stderr);
    });

    test('retention: at least 183 days (default 400); the sweep deletes content past it and nothing newer', async () => {
      const get1 = await t.request({ method: 'GET', url: '/api/v1/workspace/retention', token: admin.token });
      assert.deepEqual(get1.json(), { content_days: 400, minimum_days: 183, default_days: 400 });
      const short = await t.request({
        method: 'PUT',
        url: '/api/v1/workspace/retention',
        token: admin.token,
        payload: { content_days: 182 },
      });
      assert.equal(short.statusCode, 422);
      const put = await t.request({
        method: 'PUT',
        url: '/api/v1/workspace/retention',
        token: admin.token,
        payload: { content_days: 200 },
      });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal((await auditLeaves(t, admin.token)).at(-1)!.kind, 'retention_change');

      // Writes go on past the trial: the workspace pays.
      await setSubscription(t, OPERATOR_TOKEN, admin.account.tenant_id, {
        plan_tier: 'team',
        subscription_status: 'active',
      });
      const review = await t.request({
        method: 'POST',
        url: `/api/v1/reviews/${alice[1]}`,
        token: admin.token,
        payload: { decision: 'reject', note: 'OLDNOTE kept a while' },
      });
      assert.equal(review.statusCode, 201, review.body);
      // Nothing is old enough yet.
      assert.deepEqual(await t.service.retention.sweepAll(), { fields: 0, reviewNotes: 0 });
      t.clock.advance(199 * 86_400_000);
      await invoke('subject-carol', 'FRESHMARK');
      await t.service.jobs.drain();
      t.clock.advance(2 * 86_400_000); // the first content is 201 days old, FRESHMARK 2 days
      const swept = await t.service.retention.sweepAll();
      assert.deepEqual(swept, { fields: 3, reviewNotes: 1 }, 'bob’s three fields and the old review note');
      const dump = (await dumpTables(t.testDb.db)).text;
      assert.ok(!dump.includes('BOBMARK') && !dump.includes('OLDNOTE'));
      assert.match(dump, /FRESHMARK found 3 hotels/);
      assert.deepEqual(await t.service.retention.sweepAll(), { fields: 0, reviewNotes: 0 }, 'idempotent');
      const all = await verify(...aliceEvidence.flatMap((id) => ['--evidence', String(id)]));
      assert.equal(all.code, 0, all.stdout + all.stderr);
    });
  },
  { manualJobs: true },
);
