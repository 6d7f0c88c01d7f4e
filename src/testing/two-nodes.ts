// Test kit for tests across two `agent-ledger serve` processes on one
// PostgreSQL database: a database of its own, an SMTP peer the nodes send
// sign-in codes to, and the two nodes started at once with the same signing
// key (every node needs it: sign-in codes are keyed by a secret derived from
// it; docs/operations.md, "Keys").
import { formatSignerKey, generateSignerKey } from '../ledger/index.ts';
import { type SmtpPeer, startSmtpPeer } from '../mail/testing/smtp-peer.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { createTestDb, type TestDb } from './test-db.ts';

export interface TwoNodes {
  db: TestDb;
  smtp: SmtpPeer;
  a: ServerProcess;
  b: ServerProcess;
  /** Stops both nodes, then drops the database and closes the SMTP peer. */
  stop(): Promise<void>;
}

export interface TwoNodesOptions {
  /** Beside LEDGER_SIGNING_KEY and SMTP_URL, which every node gets. */
  env?: Record<string, string>;
  /** A database without the migrations applied: the nodes, started at once, migrate it. */
  empty?: boolean;
  /** How long a node may take to answer /healthz (a busy machine: minutes). */
  timeoutMs?: number;
}

/** Starts two nodes on one fresh PostgreSQL database; whatever started is stopped again if one fails to. */
export async function startTwoNodes(opts: TwoNodesOptions = {}): Promise<TwoNodes> {
  const db = await createTestDb('postgres', { empty: opts.empty ?? false });
  let smtp: SmtpPeer | undefined;
  const nodes: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await db.dispose();
    await smtp?.close();
  };
  try {
    smtp = await startSmtpPeer();
    const env = {
      LEDGER_SIGNING_KEY: formatSignerKey(generateSignerKey('agent-ledger.local')),
      SMTP_URL: smtp.url,
      ...opts.env,
    };
    const started = await Promise.allSettled(
      [0, 1].map(() => startServerProcess({ databaseUrl: db.url, env, timeoutMs: opts.timeoutMs ?? 120_000 })),
    );
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (err) {
    await stop();
    throw err;
  }
  return { db, smtp, a: nodes[0]!, b: nodes[1]!, stop };
}
