// Two `agent-ledger serve` processes on one PostgreSQL, signing with the same
// key (made by `agent-ledger keygen`), take thousands of events for one
// workspace at once from 64 clients. The log must come out gap-free with
// exactly one leaf per acknowledged event, both nodes must sign the same
// checkpoint, and `agent-ledger verify` with the key pinned must pass.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startSmtpPeer, type SmtpPeer } from '../mail/testing/smtp-peer.ts';
import { fetchAllEntries, pinnedVerifierKey, postEvents, rogueLeafUsers } from '../testing/audit-load.ts';
import {
  type CliResult,
  multiProcessSkip,
  runCli,
  type ServerProcess,
  startServerProcess,
} from '../testing/server-process.ts';
import { createTestDb, type TestDb } from '../testing/test-db.ts';
import { parseCheckpoint } from './note.ts';

const EVENTS = 3000;
const CLIENTS = 64;
const show = (r: CliResult) => `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;

async function call(url: string, method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

describe('two nodes, one log', { skip: multiProcessSkip() }, () => {
  let testDb: TestDb;
  let smtp: SmtpPeer;
  const nodes: ServerProcess[] = [];
  let signerKey: string;
  let operator: string;

  before(async () => {
    testDb = await createTestDb('postgres', { empty: true });
    smtp = await startSmtpPeer();
    const keygen = await runCli(['keygen']);
    assert.equal(keygen.code, 0, show(keygen));
    signerKey = keygen.stdout.trim();
    operator = randomBytes(24).toString('hex');
    const env = { LEDGER_SIGNING_KEY: signerKey, SMTP_URL: smtp.url, OPERATOR_TOKEN: operator };
    // One after the other: the first applies the migrations.
    for (let i = 0; i < 2; i++) nodes.push(await startServerProcess({ databaseUrl: testDb.url!, env }));
  });
  after(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await smtp?.close();
    await testDb?.dispose();
  });

  test(`${EVENTS} events from ${CLIENTS} clients over both nodes: one leaf each, no gaps, verify passes`, async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    // Sign in through the real flow on node A: the code arrives by SMTP.
    const email = 'ops@multinode-co.io';
    assert.equal((await call(a.url, 'POST', '/api/v1/accounts/signup', undefined, { email })).status, 200);
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const code = /\b(\d{6,})\b/.exec(mail.subject)?.[1];
    const signedIn = await call(a.url, 'POST', '/api/v1/accounts/verify', undefined, { email, code });
    assert.equal(signedIn.status, 200, signedIn.text);
    const { token, account } = signedIn.json() as { token: string; account: { tenant_id: string } };
    const tenant = account.tenant_id;
    // Through node B, the operator lifts the free plan's daily cap.
    const plan = await call(b.url, 'PUT', `/api/v1/operator/workspaces/${tenant}/subscription`, operator, {
      plan_tier: 'enterprise',
      subscription_status: 'active',
    });
    assert.equal(plan.status, 200, plan.text);

    const started = performance.now();
    const acks = await postEvents([a.url, b.url], token, EVENTS, {
      clients: CLIENTS,
      rogueEvery: 10,
      agents: 5,
      run: 'mn',
    });
    const seconds = (performance.now() - started) / 1000;
    const failed = acks.filter((x) => x.status !== 201);
    assert.deepEqual(failed.slice(0, 3), [], `${failed.length} events not acknowledged`);
    assert.ok(acks.some((x) => x.url === a.url) && acks.some((x) => x.url === b.url));
    console.log(
      `# ${EVENTS} events over 2 nodes from ${CLIENTS} clients in ${seconds.toFixed(1)} s (${Math.round(EVENTS / seconds)}/s)`,
    );

    // Both nodes sign the same head alike (deterministic Ed25519, one key).
    const cpA = await call(a.url, 'GET', '/api/v1/audit/checkpoint', token);
    const cpB = await call(b.url, 'GET', '/api/v1/audit/checkpoint', token);
    assert.equal(cpA.text, cpB.text);
    const size = parseCheckpoint(cpA.text.slice(0, cpA.text.lastIndexOf('\n\n') + 1)).size;

    const entries = await fetchAllEntries(b.url, token, size);
    assert.deepEqual(
      entries.map((e) => e.index),
      Array.from({ length: size }, (_, i) => i),
      'indexes 0..size-1, each once',
    );
    const leaves = entries.map((e) => JSON.parse(e.leaf) as Record<string, unknown>);
    const invocations = acks.filter((x) => x.kind === 'invocation');
    const rogues = acks.filter((x) => x.kind === 'rogue');
    // Exactly one leaf per acknowledged event: no duplicates, none missing, none extra.
    const leafInvocationIds = leaves.filter((l) => l.kind === 'invocation').map((l) => l.invocation_id as number);
    assert.equal(new Set(leafInvocationIds).size, leafInvocationIds.length, 'no invocation has two leaves');
    assert.deepEqual(
      [...leafInvocationIds].sort((x, y) => x - y),
      invocations.map((x) => x.body.invocation_id as number).sort((x, y) => x - y),
    );
    for (const x of invocations) {
      assert.equal(
        leaves[(x.body.evidence_id as number) - 1]?.invocation_id,
        x.body.invocation_id,
        `evidence ${x.body.evidence_id}`,
      );
    }
    assert.deepEqual(await rogueLeafUsers(testDb.db, tenant, entries), rogues.map((x) => `mn-user-${x.seq}`).sort());
    const other = leaves.filter((l) => l.kind !== 'invocation' && l.kind !== 'rogue').map((l) => l.kind);
    assert.deepEqual(other.sort(), [
      'agent_registered',
      'agent_registered',
      'agent_registered',
      'agent_registered',
      'agent_registered',
      'subscription_change',
      'token_issued',
      'workspace_created',
    ]);

    const key = pinnedVerifierKey({ signerKey }, tenant);
    const evidence = [invocations[0]!, invocations.at(-1)!].flatMap((x) => ['--evidence', String(x.body.evidence_id)]);
    const r = await runCli(['verify', '--url', a.url, '--key', key, ...evidence], { AGENT_LEDGER_TOKEN: token });
    assert.equal(r.code, 0, show(r));
    assert.match(r.stdout, new RegExp(`entries +${size} read in ${Math.ceil(size / 1000)} page\\(s\\)`));
  });
});
