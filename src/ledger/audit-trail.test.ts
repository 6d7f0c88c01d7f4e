// The audit trail end to end, on each store: a few hundred events written over
// real HTTP by concurrent clients, then every evidence id, every inclusion proof
// at the final size and a consistency proof between two checkpoints are checked
// with the public key alone, and `agent-ledger verify` (key pinned) passes.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  type Ack,
  fetchAllEntries,
  getJson,
  hasToolOutput,
  mapLimit,
  pinnedVerifierKey,
  postEvents,
  rogueLeafUsers,
} from '../testing/audit-load.ts';
import { eachStore, type SignedIn, type TestService } from '../testing/harness.ts';
import { runCli } from '../testing/server-process.ts';
import { parseCheckpoint } from './note.ts';
import type { ConsistencyProofJson, EvidenceJson, InclusionProofJson } from './verify-bundle.ts';
import { verifyBundle } from './verify-bundle.ts';

const EVENTS = 300;
const HALF = 150;
// Invocations, one in four with a tool_output (scanned by a background job that appends its own leaf), and rogue events.
const MIX = { rogueEvery: 7, toolOutputEvery: 4, run: 'a' };

function checkpointSize(note: string): number {
  return parseCheckpoint(note.slice(0, note.lastIndexOf('\n\n') + 1)).size;
}

async function checkpointText(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/audit/checkpoint`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return res.text();
}

eachStore('audit trail under load', (get) => {
  let t: TestService;
  let url: string;
  let admin: SignedIn;
  let key: string;
  let first: string;
  let acks: Ack[];

  test(`${EVENTS} events over HTTP from 16 clients: each acknowledged once, with a valid evidence id`, async () => {
    t = get();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await t.signIn('audit@trail-co.io');
    key = pinnedVerifierKey(t, admin.account.tenant_id);

    acks = await postEvents([url], admin.token, HALF, { clients: 16, ...MIX });
    first = await checkpointText(url, admin.token);
    acks.push(...(await postEvents([url], admin.token, EVENTS - HALF, { clients: 16, ...MIX, start: HALF })));
    await t.service.jobs.drain(); // the tool_output scans, each appending a leaf of its own
    assert.deepEqual(
      acks.filter((a) => a.status !== 201),
      [],
    );
    const invocations = acks.filter((a) => a.kind === 'invocation');
    assert.ok(invocations.length > 200 && acks.length - invocations.length > 30);
    const ids = invocations.map((a) => a.body.evidence_id as number);
    assert.equal(new Set(ids).size, ids.length, 'evidence ids are distinct');

    // Every evidence id: its entry, its checkpoint, its inclusion proof — all from the public key.
    const evidence = await mapLimit(invocations, 16, (a) =>
      getJson<EvidenceJson>(`${url}/api/v1/audit/evidence/${a.body.evidence_id}`, admin.token),
    );
    for (const [i, ev] of evidence.entries()) {
      const a = invocations[i]!;
      assert.equal(ev.evidence_id, a.body.evidence_id);
      assert.equal(JSON.parse(ev.leaf).invocation_id, a.body.invocation_id);
      const failures = verifyBundle({
        verifierKeys: [key],
        checkpoint: ev.checkpoint,
        entries: [{ index: ev.index, leaf: ev.leaf, leaf_hash: ev.leaf_hash }],
        inclusion: [{ index: ev.index, ...ev.inclusion }],
      });
      assert.deepEqual(failures, [], `evidence ${ev.evidence_id}`);
    }
  });

  test('every inclusion proof at the final size, the whole log, and consistency with the earlier checkpoint', async () => {
    const last = await checkpointText(url, admin.token);
    const size = checkpointSize(last);
    const firstSize = checkpointSize(first);
    assert.ok(firstSize >= HALF && size >= EVENTS + 2 && size > firstSize, `${firstSize} → ${size}`);

    const entries = await fetchAllEntries(url, admin.token, size);
    assert.equal(entries.length, size);
    const leaves = entries.map((e) => JSON.parse(e.leaf) as Record<string, unknown>);
    // One leaf per acknowledged event, no more.
    const invocationIds = leaves.filter((l) => l.kind === 'invocation').map((l) => l.invocation_id);
    assert.deepEqual(
      invocationIds.sort(),
      acks
        .filter((a) => a.kind === 'invocation')
        .map((a) => a.body.invocation_id)
        .sort(),
    );
    // And one tool_output_scan leaf per invocation that had a tool_output, appended later by the background job.
    assert.deepEqual(
      leaves
        .filter((l) => l.kind === 'tool_output_scan')
        .map((l) => l.invocation_id)
        .sort(),
      acks
        .filter((a) => hasToolOutput(a.seq, MIX))
        .map((a) => a.body.invocation_id)
        .sort(),
    );
    const rogueUsers = await rogueLeafUsers(t.service.ctx.db, admin.account.tenant_id, entries);
    assert.deepEqual(
      rogueUsers,
      acks
        .filter((a) => a.kind === 'rogue')
        .map((a) => `a-user-${a.seq}`)
        .sort(),
    );

    const inclusion = await mapLimit(entries, 16, (e) =>
      getJson<InclusionProofJson>(
        `${url}/api/v1/audit/proof/inclusion?index=${e.index}&tree_size=${size}`,
        admin.token,
      ),
    );
    const consistency = await getJson<ConsistencyProofJson>(
      `${url}/api/v1/audit/proof/consistency?first=${firstSize}&second=${size}`,
      admin.token,
    );
    // Each entry by its own proof (not the whole log), and the older checkpoint by the proof alone.
    assert.deepEqual(
      verifyBundle({
        verifierKeys: [key],
        checkpoint: last,
        entries,
        inclusion,
        previous: { checkpoint: first, consistency },
      }),
      [],
    );
    // The whole log recomputed, and the older root recomputed from its prefix.
    assert.deepEqual(
      verifyBundle({ verifierKeys: [key], checkpoint: last, entries, complete: true, previous: { checkpoint: first } }),
      [],
    );
  });

  test('agent-ledger verify with the key pinned passes, checking evidence and the earlier checkpoint', async () => {
    const ev = acks.find((a) => a.kind === 'invocation')!.body.evidence_id as number;
    const dir = mkdtempSync(join(tmpdir(), 'verify-'));
    try {
      writeFileSync(join(dir, 'first.cp'), first);
      const r = await runCli(
        ['verify', '--url', url, '--key', key, '--evidence', String(ev), '--since', join(dir, 'first.cp')],
        { AGENT_LEDGER_TOKEN: admin.token },
      );
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      const size = checkpointSize(await checkpointText(url, admin.token));
      assert.match(r.stdout, new RegExp(`checkpoint +size ${size}, root \\S+: signature valid`));
      assert.match(r.stdout, new RegExp(`entries +${size} read in 1 page\\(s\\)`));
      assert.match(r.stdout, /root +recomputed from \d+ leaves: matches the checkpoint/);
      assert.match(r.stdout, new RegExp(`evidence +${ev} \\(entry ${ev - 1}: .*\\): valid`));
      assert.match(r.stdout, /since +checkpoint of size \d+ .*: consistent/);
      assert.match(r.stdout, /OK: every check passed/);
      assert.doesNotMatch(r.stderr, /not pinned/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
