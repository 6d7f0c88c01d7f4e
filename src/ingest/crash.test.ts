// kill -9 of `agent-ledger serve` while it takes events at full speed —
// singles with an Idempotency-Key, batches with event_ids, and replays of
// keys already answered — then a restart on the same store: every
// acknowledged event is there (its key replays the very answer it got, its
// invocation reads back) and `agent-ledger verify` passes on the whole log.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { originOf } from '../ledger/checkpoints.ts';
import { formatSignerKey, formatVerifierKey, generateSignerKey, verifierKeyFor } from '../ledger/note.ts';
import { startSmtpPeer } from '../mail/testing/smtp-peer.ts';
import { runCli, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';

const OP = 'crash_test_operator_token_0123456';
const INVOCATION = '/api/v1/admin/agents/events/invocation';
const BATCH = '/api/v1/admin/agents/events/batch';

async function call(
  node: ServerProcess,
  path: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${node.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, text: await res.text() };
}

for (const store of testStores()) {
  test(
    `kill -9 under load loses no acknowledged event, and the log verifies [${store}]`,
    { timeout: 240_000 },
    async () => {
      const testDb = store === 'postgres' ? await createTestDb('postgres') : undefined;
      await testDb?.db.close();
      const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-crash-'));
      const smtp = await startSmtpPeer();
      const signer = generateSignerKey('agent-ledger.local');
      const env = { LEDGER_SIGNING_KEY: formatSignerKey(signer), SMTP_URL: smtp.url, OPERATOR_TOKEN: OP };
      const start = () => startServerProcess({ databaseUrl: testDb?.url, dataDir, env, timeoutMs: 120_000 });
      let server: ServerProcess | undefined;
      try {
        server = await start();
        const email = `crash@crash-${randomBytes(3).toString('hex')}.io`;
        assert.equal(
          (
            await fetch(`${server!.url}/api/v1/accounts/signup`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email }),
            })
          ).status,
          200,
        );
        const mail = await smtp.waitFor((m) => m.to.includes(email), 15_000);
        const code = /\b(\d{6,})\b/.exec(mail.subject)![1];
        const verified = await fetch(`${server!.url}/api/v1/accounts/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, code }),
        });
        const { token, account } = (await verified.json()) as { token: string; account: { tenant_id: string } };

        // What the clients were told, by key: the answer to replay later.
        const acked = new Map<string, { path: string; body: unknown; answer: unknown }>();
        let seq = 0;
        let killed = false;
        const client = async (c: number) => {
          while (!killed) {
            const n = seq++;
            try {
              if (n % 5 === 4 && acked.size > 0) {
                // A retry of something already answered: the same answer again.
                const [key, a] = [...acked.entries()][n % acked.size]!;
                if (a.path !== INVOCATION) continue;
                const r = await call(server!, INVOCATION, token, a.body, { 'idempotency-key': key });
                if (r.status === 201) assert.deepEqual(JSON.parse(r.text), a.answer, 'a replay before the crash');
              } else if (n % 5 === 3) {
                const events = Array.from({ length: 20 }, (_, i) => ({
                  kind: 'invocation',
                  event_id: `b${n}-${i}`,
                  event: { agent_key: `crash-${c % 4}`, correlation_id: `b${n}-${i}`, prompt: `batch ${n} item ${i}` },
                }));
                const r = await call(server!, BATCH, token, { events });
                if (r.status === 207) {
                  for (const res of (JSON.parse(r.text) as { results: Array<Record<string, unknown>> }).results) {
                    if (res.status !== 201) continue;
                    const { index, event_id: _id, status: _s, ...answer } = res;
                    acked.set(`b${n}-${index as number}`, {
                      path: BATCH,
                      body: events[index as number]!.event,
                      answer,
                    });
                  }
                }
              } else {
                const body = { agent_key: `crash-${c % 4}`, correlation_id: `s${n}`, prompt: `single ${n}` };
                const r = await call(server!, INVOCATION, token, body, { 'idempotency-key': `s${n}` });
                if (r.status === 201) acked.set(`s${n}`, { path: INVOCATION, body, answer: JSON.parse(r.text) });
              }
            } catch {
              // The connection dropped with the process: not acknowledged.
            }
          }
        };
        const clients = Array.from({ length: 16 }, (_, c) => client(c));
        let exited = false;
        void server!.exited.then(() => (exited = true));
        const deadline = Date.now() + 120_000;
        while (acked.size < 120) {
          if (exited || Date.now() > deadline) {
            killed = true;
            assert.fail(
              `the server ${exited ? 'exited' : 'stalled'} before it was killed (${acked.size} acknowledged):\n${server!.stderr().slice(-3000)}`,
            );
          }
          await new Promise((r) => setTimeout(r, 20));
        }
        await server!.stop('SIGKILL');
        killed = true;
        await Promise.all(clients);

        server = await start();
        // Every acknowledged event is stored: its key replays the answer it got,
        // through the endpoint it came by (a batch item as a batch of one).
        for (const [key, a] of acked) {
          const r: { status: number; text: string } =
            a.path === INVOCATION
              ? await call(server!, INVOCATION, token, a.body, { 'idempotency-key': key })
              : await call(server!, BATCH, token, { events: [{ kind: 'invocation', event_id: key, event: a.body }] });
          const answer: unknown =
            a.path === INVOCATION
              ? JSON.parse(r.text)
              : (({ index: _i, event_id: _e, status: _s, ...rest }) => rest)(
                  (JSON.parse(r.text) as { results: Array<Record<string, unknown>> }).results[0]!,
                );
          assert.deepEqual(answer, a.answer, `${key} after the restart`);
        }
        const sample = [...acked.values()].slice(0, 20);
        for (const a of sample) {
          const id = (a.answer as { invocation_id: number }).invocation_id;
          assert.equal((await call(server!, `/api/v1/invocations/${id}`, token, undefined)).status, 200);
        }
        const key = formatVerifierKey(verifierKeyFor(signer, originOf('agent-ledger.local', account.tenant_id)));
        const verify = await runCli(
          ['verify', '--url', server!.url, '--key', key],
          { AGENT_LEDGER_TOKEN: token },
          120_000,
        );
        assert.equal(verify.code, 0, `${verify.stdout}\n${verify.stderr}`);
      } finally {
        await server?.stop();
        await smtp.close();
        await testDb?.dispose();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
}
