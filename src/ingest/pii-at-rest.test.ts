import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { Db } from '../db/db.ts';
import { createService } from '../service/service.ts';
import { dumpTables } from '../testing/db-dump.ts';
import { eachStore } from '../testing/harness.ts';

const run = promisify(execFile);
const INVOKE = '/api/v1/admin/agents/events/invocation';

// Known PII and secrets, sent in every text field of an invocation.
const SECRETS = {
  email: 'margaret.hamilton@apollo-guidance.com',
  card: '5555 5555 5555 4444',
  iban: 'DE89 3704 0044 0532 0130 00',
  phone: '+44 20 7946 0958',
  ssn: '536-90-4399',
  aws: 'AKIAIOSFODNN7EXAMPLE'.replace('EXAMPLE', 'QWERTYZ'),
};

const textWith = (label: string) =>
  `${label}: contact ${SECRETS.email} or call ${SECRETS.phone}. Card ${SECRETS.card}, IBAN ${SECRETS.iban}, SSN ${SECRETS.ssn}, key ${SECRETS.aws}.`;

eachStore(
  'no raw PII at rest',
  (get) => {
    test('after ingest and the background scan, no table holds the PII or secrets that were sent', async () => {
      const t = get();
      const a = await t.signIn('dpo@privacy-co.io');
      for (let i = 0; i < 3; i++) {
        const res = await t.request({
          method: 'POST',
          url: INVOKE,
          token: a.token,
          payload: {
            agent_key: 'support-bot',
            tool_name: 'crm.update',
            prompt: textWith('prompt'),
            response: textWith('response'),
            context: textWith('context'),
            tool_input: textWith('tool_input'),
            tool_output: textWith('tool_output'),
          },
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.ok(res.json().pii_count >= 5, res.body);
      }
      await t.service.jobs.drain();
      const { text } = await dumpTables(t.service.ctx.db);
      assert.ok(text.includes('<EMAIL_ADDRESS>'), 'the redacted text is stored');
      for (const [what, value] of Object.entries(SECRETS)) {
        assert.equal(text.includes(value), false, `${what} found in the database`);
        assert.equal(text.includes(value.replace(/\s/g, '')), false, `${what} (compact) found in the database`);
      }
      if (t.testDb.url) {
        const { stdout } = await run('pg_dump', ['--no-owner', '--inserts', t.testDb.url], {
          maxBuffer: 256 * 1024 * 1024,
        });
        for (const [what, value] of Object.entries(SECRETS))
          assert.equal(stdout.includes(value), false, `${what} in pg_dump`);
      }
    });

    test('a tool_output scan interrupted by a restart runs again after it, and leaves exactly one scan leaf', async () => {
      const t = get();
      const a = await t.signIn('ops@restart-co.io');
      const res = await t.request({
        method: 'POST',
        url: INVOKE,
        token: a.token,
        payload: { agent_key: 'r', tool_output: textWith('out') },
      });
      const id = res.json().invocation_id;
      // A worker took the job and died: its lease is held, nothing was written.
      await t.testDb.db.query(
        `UPDATE jobs SET attempts = attempts + 1, locked_until = now() + interval '1 hour' WHERE tenant_id = $2 AND payload->>'invocation_id' = $1`,
        [String(id), a.account.tenant_id],
      );
      await t.service.jobs.drain();
      const pending = await t.testDb.db.query(
        `SELECT 1 FROM jobs WHERE tenant_id = $2 AND payload->>'invocation_id' = $1`,
        [String(id), a.account.tenant_id],
      );
      assert.equal(pending.length, 1, 'a leased job is not taken by another worker before its lease ends');
      // The lease ends (the crashed worker never comes back); a restarted service picks the job up.
      await t.testDb.db.query(
        `UPDATE jobs SET locked_until = now() - interval '1 second' WHERE tenant_id = $2 AND payload->>'invocation_id' = $1`,
        [String(id), a.account.tenant_id],
      );
      const shared: Db = { ...t.testDb.db, close: async () => {} };
      const restarted = await createService(t.service.ctx.config, { db: shared, now: t.clock.now, manualJobs: true });
      try {
        await restarted.jobs.drain();
        await restarted.jobs.drain();
        await t.service.jobs.drain();
      } finally {
        await restarted.close();
      }
      const scans = await t.testDb.db.query<{ leaf: string }>(
        `SELECT leaf FROM log_entries WHERE tenant_id = $1 AND leaf LIKE '%"kind":"tool_output_scan"%'`,
        [a.account.tenant_id],
      );
      assert.equal(scans.filter((s) => JSON.parse(s.leaf).invocation_id === id).length, 1);
      const [c] = await t.testDb.db.query<{ body: string }>(
        `SELECT body FROM invocation_content WHERE tenant_id = $2 AND invocation_id = $1 AND field = 'tool_output'`,
        [id, a.account.tenant_id],
      );
      assert.equal(c!.body.includes(SECRETS.email), false);
    });
  },
  { manualJobs: true },
);
