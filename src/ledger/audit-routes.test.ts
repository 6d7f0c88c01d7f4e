import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore } from '../testing/harness.ts';
import { decodeBase64, encodeBase64 } from './bytes.ts';
import { leafHashOf } from './leaf.ts';
import { verifyConsistency, verifyInclusion } from './merkle.ts';
import { openCheckpoint, parseVerifierKey } from './note.ts';

function b64(s: string): Uint8Array {
  const b = decodeBase64(s);
  if (!b) throw new Error(`not base64: ${s}`);
  return b;
}

eachStore('audit trail endpoints', (get) => {
  test('account-side changes are leaves; checkpoint, entries and proofs verify with the public key alone', async () => {
    const t = get();
    const alice = await t.signIn('alice@auditco.io');
    const tok = { token: alice.token };
    const key = (await t.request({ method: 'GET', url: '/api/v1/audit/key', ...tok })).json();
    assert.equal(key.origin, `agent-ledger.local/${alice.account.tenant_id}`);
    const verifier = parseVerifierKey(key.verifier_key);
    assert.equal(verifier.name, key.origin);

    const cpRes = await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', ...tok });
    assert.equal(cpRes.statusCode, 200);
    assert.match(cpRes.headers['content-type'] as string, /^text\/plain/);
    const first = openCheckpoint(cpRes.body, [verifier]).checkpoint;
    assert.equal(first.origin, key.origin);
    assert.equal(first.size, 2); // workspace_created, token_issued

    const entries = (
      await t.request({ method: 'GET', url: `/api/v1/audit/entries?start=0&end=${first.size}`, ...tok })
    ).json();
    assert.deepEqual(
      entries.entries.map((e: { leaf: string }) => JSON.parse(e.leaf).kind),
      ['workspace_created', 'token_issued'],
    );
    for (const e of entries.entries) {
      assert.equal(e.leaf_hash, encodeBase64(leafHashOf(e.leaf)));
      const p = (
        await t.request({
          method: 'GET',
          url: `/api/v1/audit/proof/inclusion?index=${e.index}&tree_size=${first.size}`,
          ...tok,
        })
      ).json();
      assert.ok(verifyInclusion(e.index, first.size, leafHashOf(e.leaf), p.hashes.map(b64), first.root));
    }

    // Grow the log: a new token, then a consistency proof between the two checkpoints.
    const issued = await t.request({ method: 'POST', url: '/api/v1/accounts/tokens', payload: { name: 'ci' }, ...tok });
    assert.equal(issued.statusCode, 200);
    const second = openCheckpoint((await t.request({ method: 'GET', url: '/api/v1/audit/checkpoint', ...tok })).body, [
      verifier,
    ]).checkpoint;
    assert.equal(second.size, 3);
    const c = (
      await t.request({ method: 'GET', url: `/api/v1/audit/proof/consistency?first=2&second=3`, ...tok })
    ).json();
    assert.ok(verifyConsistency(2, 3, c.hashes.map(b64), first.root, second.root));

    const ev = (await t.request({ method: 'GET', url: '/api/v1/audit/evidence/3', ...tok })).json();
    assert.equal(ev.index, 2);
    assert.equal(JSON.parse(ev.leaf).kind, 'token_issued');
    const evCp = openCheckpoint(ev.checkpoint, [verifier]).checkpoint;
    assert.ok(verifyInclusion(2, ev.inclusion.tree_size, leafHashOf(ev.leaf), ev.inclusion.hashes.map(b64), evCp.root));

    const tooBig = await t.request({
      method: 'GET',
      url: '/api/v1/audit/proof/inclusion?index=0&tree_size=99',
      ...tok,
    });
    assert.equal(tooBig.statusCode, 422);
    const missing = await t.request({ method: 'GET', url: '/api/v1/audit/evidence/999', ...tok });
    assert.equal(missing.statusCode, 404);
  });
});
