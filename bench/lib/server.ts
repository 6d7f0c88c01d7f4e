// A real `agent-ledger serve` process for a benchmark, on a fresh database of
// the chosen store, with one signed-in workspace on the enterprise plan (so no
// daily cap gets in the way) and the verifier key of its log, pinned.
import { randomBytes } from 'node:crypto';
import { originOf } from '../../src/ledger/checkpoints.ts';
import { formatSignerKey, formatVerifierKey, generateSignerKey, verifierKeyFor } from '../../src/ledger/note.ts';
import { startSmtpPeer } from '../../src/mail/testing/smtp-peer.ts';
import { startServerProcess } from '../../src/testing/server-process.ts';
import { createTestDb, type TestDb } from '../../src/testing/test-db.ts';

export interface BenchServer {
  url: string;
  /** The server process, for its CPU time. */
  pid: number;
  token: string;
  tenantId: string;
  /** The verifier key of the workspace log, from the key the server was given. */
  verifierKey: string;
  /** Signs up one more workspace on the same server (enterprise plan): its owner's token and id. */
  addWorkspace(): Promise<{ token: string; tenantId: string }>;
  stop(): Promise<void>;
}

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
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function startBenchServer(
  store: 'pglite' | 'postgres',
  extraEnv: Record<string, string> = {},
): Promise<BenchServer> {
  const testDb: TestDb | undefined = store === 'postgres' ? await createTestDb('postgres') : undefined;
  if (testDb) await testDb.db.close(); // the server process opens its own pool
  const smtp = await startSmtpPeer();
  const signer = generateSignerKey('agent-ledger.local');
  const operator = randomBytes(24).toString('hex');
  const server = await startServerProcess({
    databaseUrl: testDb?.url,
    env: {
      LEDGER_SIGNING_KEY: formatSignerKey(signer),
      SMTP_URL: smtp.url,
      OPERATOR_TOKEN: operator,
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    timeoutMs: 60_000,
  });
  // A workspace of its own, signed up through the mail code and moved to the enterprise plan.
  async function workspace(): Promise<{ token: string; tenantId: string }> {
    const email = `bench@bench-${randomBytes(4).toString('hex')}.io`;
    await call(server.url, 'POST', '/api/v1/accounts/signup', undefined, { email });
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const code = /\b(\d{6,})\b/.exec(mail.subject)?.[1];
    const signedIn = (await call(server.url, 'POST', '/api/v1/accounts/verify', undefined, { email, code })) as {
      token: string;
      account: { tenant_id: string };
    };
    const tenantId = signedIn.account.tenant_id;
    await call(server.url, 'PUT', `/api/v1/operator/workspaces/${tenantId}/subscription`, operator, {
      plan_tier: 'enterprise',
      subscription_status: 'active',
    });
    return { token: signedIn.token, tenantId };
  }
  try {
    const { token, tenantId } = await workspace();
    return {
      url: server.url,
      pid: server.pid,
      token,
      tenantId,
      verifierKey: formatVerifierKey(verifierKeyFor(signer, originOf('agent-ledger.local', tenantId))),
      addWorkspace: workspace,
      async stop() {
        await server.stop();
        await smtp.close();
        await testDb?.dispose();
      },
    };
  } catch (err) {
    await server.stop();
    await smtp.close();
    await testDb?.dispose();
    throw err;
  }
}
