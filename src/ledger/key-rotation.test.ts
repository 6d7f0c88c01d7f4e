import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../db/db.ts';
import { createService } from '../service/service.ts';
import { eachStore } from '../testing/harness.ts';
import { formatSignerKey, generateSignerKey, openCheckpoint, parseVerifierKey } from './note.ts';

eachStore('signing key rotation', (get) => {
  test('after a restart with a new key, old checkpoints still verify with the old key, which stays published', async () => {
    const t = get();
    const a = await t.signIn('sec@rotation-co.io');
    const oldKey = (await t.request({ method: 'GET', url: '/api/v1/audit/key', token: a.token })).json()
      .verifier_key as string;
    const oldNote = (await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', token: a.token })).body;

    // The operator rotates: the same database, a new LEDGER_SIGNING_KEY.
    const signer = formatSignerKey(generateSignerKey('agent-ledger.local'));
    const shared: Db = { ...t.testDb.db, close: async () => {} };
    const rotated = await createService(
      { ...t.service.ctx.config, ledgerSigningKey: signer },
      { db: shared, now: t.clock.now, manualJobs: true },
    );
    try {
      const req = (url: string) =>
        rotated.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${a.token}` } });
      const ev = await rotated.app.inject({
        method: 'POST',
        url: '/api/v1/admin/agents/events/invocation',
        headers: { authorization: `Bearer ${a.token}` },
        payload: { agent_key: 'after-rotation' },
      });
      assert.equal(ev.statusCode, 201);
      const keys = (await req('/api/v1/audit/key')).json();
      assert.notEqual(keys.verifier_key, oldKey);
      assert.ok(keys.previous_verifier_keys.includes(oldKey), JSON.stringify(keys));
      const newNote = (await req('/api/v1/audit/checkpoint')).body;
      const newer = openCheckpoint(newNote, [parseVerifierKey(keys.verifier_key)]).checkpoint;
      const older = openCheckpoint(oldNote, [parseVerifierKey(oldKey)]).checkpoint;
      assert.ok(newer.size > older.size);
      assert.throws(() => openCheckpoint(newNote, [parseVerifierKey(oldKey)]));
      // The old checkpoint is still served as stored, signed by the old key.
      const [stored] = await t.testDb.db.query<{ note: string }>(
        'SELECT note FROM checkpoints WHERE size = $1 AND tenant_id = $2',
        [older.size, a.account.tenant_id],
      );
      assert.equal(stored?.note, oldNote);
    } finally {
      await rotated.close();
    }
  });
});
