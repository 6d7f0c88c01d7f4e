// Delivery across real processes: `agent-ledger serve` as a child process.
//
// kill -9 with undelivered events: a webhook destination whose receiver is
// down, denies recorded, the service killed; the receiver comes up, the service
// restarts on the same store and delivers — killed again while it delivers to
// a slow receiver, and restarted. Every deny is delivered at least once by its
// id, first seen in log order, nothing else, each request signed (verified
// with the standardwebhooks package) and naming its entry in the log.
//
// Two nodes on one PostgreSQL: both deliver to the same destinations; no event
// is ever sent twice at the same time (nor two of one destination), and every
// event arrives; one node killed -9 mid-delivery, the other finishes its work.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { formatSignerKey, generateSignerKey } from '../ledger/note.ts';
import { type SmtpPeer, startSmtpPeer } from '../mail/testing/smtp-peer.ts';
import { freePort, multiProcessSkip, type ServerProcess, startServerProcess } from '../testing/server-process.ts';
import { createTestDb, testStores } from '../testing/test-db.ts';
import { eventIdOf } from './events.ts';

const INVOCATION = '/api/v1/admin/agents/events/invocation';
const DENY_SHELL = {
  default_verdict: 'allow',
  rules: [{ id: 'deny-shell', when: { tools: ['shell*'] }, verdict: 'deny' }],
};

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  id: string;
  index: number;
}

/** A webhook receiver on a port chosen in advance, so it can be down first and come up at the same URL. */
class Receiver {
  readonly hits: Hit[] = [];
  delayMs = 0;
  /** Requests in flight now, per path and per event id, and the most there ever were at once. */
  readonly inFlight = new Map<string, number>();
  maxPerPath = 0;
  maxPerEvent = 0;
  #server: Server | undefined;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async up(): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const event = JSON.parse(body) as { id: string; evidence: { index: number } };
        const path = req.url ?? '';
        const enter = (k: string) => {
          const n = (this.inFlight.get(k) ?? 0) + 1;
          this.inFlight.set(k, n);
          return n;
        };
        this.maxPerPath = Math.max(this.maxPerPath, enter(`path ${path}`));
        this.maxPerEvent = Math.max(this.maxPerEvent, enter(`event ${path} ${event.id}`));
        setTimeout(() => {
          this.inFlight.set(`path ${path}`, this.inFlight.get(`path ${path}`)! - 1);
          this.inFlight.set(`event ${path} ${event.id}`, this.inFlight.get(`event ${path} ${event.id}`)! - 1);
          this.hits.push({ path, headers: req.headers, body, id: event.id, index: event.evidence.index });
          res.writeHead(204).end();
        }, this.delayMs);
      });
    });
    await new Promise<void>((r) => this.#server!.listen(this.port, '127.0.0.1', r));
  }

  async down(): Promise<void> {
    const s = this.#server;
    this.#server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise((r) => s.close(() => r(undefined)));
  }

  of(path: string): Hit[] {
    return this.hits.filter((h) => h.path === path);
  }
}

async function call(node: ServerProcess, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${node.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

/** Signs up through the real flow (the code from the mail the SMTP peer got); the admin's token and workspace. */
async function signUp(node: ServerProcess, smtp: SmtpPeer): Promise<{ token: string; tenantId: string }> {
  const email = `dest@dest-${randomBytes(3).toString('hex')}.io`;
  assert.equal((await call(node, 'POST', '/api/v1/accounts/signup', undefined, { email })).status, 200);
  const mail = await smtp.waitFor((m) => m.to.includes(email), 15_000);
  const code = /\b(\d{6,})\b/.exec(mail.subject)![1];
  const v = await call(node, 'POST', '/api/v1/accounts/verify', undefined, { email, code });
  assert.equal(v.status, 200, v.text);
  const { token, account } = v.json() as { token: string; account: { tenant_id: string } };
  const policy = await call(node, 'PUT', '/api/v1/policy', token, DENY_SHELL);
  assert.equal(policy.status, 200, policy.text);
  return { token, tenantId: account.tenant_id };
}

async function deny(node: ServerProcess, token: string, n: number): Promise<void> {
  const r = await call(node, 'POST', INVOCATION, token, { agent_key: `crash-bot-${n % 3}`, tool_name: `shell.${n}` });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().verdict, 'deny');
}

/** The ids of the events the log makes for a destination of invocation.denied, in log order (from the log itself). */
async function expectedDenies(
  node: ServerProcess,
  token: string,
  from: number,
): Promise<{ id: string; index: number; hash: string }[]> {
  const { origin } = (await call(node, 'GET', '/api/v1/audit/key', token)).json() as { origin: string };
  const out: { id: string; index: number; hash: string }[] = [];
  for (let start = from; ; start += 1000) {
    const r = await call(node, 'GET', `/api/v1/audit/entries?start=${start}&end=${start + 1000}`, token);
    assert.equal(r.status, 200, r.text);
    const entries = (r.json() as { entries: { index: number; leaf: string; leaf_hash: string }[] }).entries;
    for (const e of entries) {
      const leaf = JSON.parse(e.leaf) as { kind: string; verdict?: string };
      if (leaf.kind === 'invocation' && leaf.verdict === 'deny')
        out.push({ id: eventIdOf(origin, e.index), index: e.index, hash: e.leaf_hash });
    }
    if (entries.length < 1000) return out;
  }
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number, node?: ServerProcess) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}${node ? `\n${node.stderr().slice(-2000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** At least once, first seen in log order, nothing invented, every request signed and naming its entry. */
function checkDelivered(hits: Hit[], expected: { id: string; index: number; hash: string }[], secret: string) {
  const known = new Map(expected.map((e) => [e.id, e]));
  const wh = new Webhook(secret);
  for (const h of hits) {
    const e = known.get(h.id);
    assert.ok(e, `an event the log does not make was delivered: ${h.id}`);
    const headers = Object.fromEntries(Object.entries(h.headers).map(([k, v]) => [k, String(v)]));
    const ev = wh.verify(h.body, headers) as { id: string; evidence: { index: number; leaf_hash: string } };
    assert.equal(headers['webhook-id'], e.id);
    assert.equal(ev.evidence.index, e.index);
    assert.equal(ev.evidence.leaf_hash, e.hash);
  }
  const firsts = [...new Set(hits.map((h) => h.id))];
  assert.deepEqual(
    firsts,
    expected.map((e) => e.id),
    'every event, first seen in log order',
  );
}

const BASE_ENV = {
  DESTINATION_POLL_MS: '50',
  DESTINATION_RETRY_BASE_MS: '10',
  DESTINATION_LEASE_MS: '3000',
  SIGNUP_LIMIT_PER_IP: '1000',
};

for (const store of testStores()) {
  test(
    `kill -9 with undelivered events, then kill -9 mid-delivery: every event delivered, in log order, none invented [${store}]`,
    { timeout: 240_000 },
    async () => {
      const testDb = store === 'postgres' ? await createTestDb('postgres') : undefined;
      await testDb?.db.close();
      const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-dest-crash-'));
      const smtp = await startSmtpPeer();
      const receiver = new Receiver(await freePort());
      const env = {
        ...BASE_ENV,
        LEDGER_SIGNING_KEY: formatSignerKey(generateSignerKey('agent-ledger.local')),
        SMTP_URL: smtp.url,
      };
      const start = () => startServerProcess({ databaseUrl: testDb?.url, dataDir, env, timeoutMs: 120_000 });
      let server: ServerProcess | undefined;
      try {
        server = await start();
        const { token } = await signUp(server, smtp);
        const created = await call(server, 'POST', '/api/v1/destinations', token, {
          name: 'siem',
          kind: 'webhook',
          url: receiver.url(),
          events: ['invocation.denied'],
        });
        assert.equal(created.status, 201, created.text);
        const {
          destination_id: id,
          secret,
          next_index: from,
        } = created.json() as {
          destination_id: string;
          secret: string;
          next_index: number;
        };
        // The receiver is down: the first deny is tried and fails (connection refused), the rest wait behind it.
        for (let i = 0; i < 12; i++) await deny(server, token, i);
        await until(
          'a failed attempt',
          async () => {
            const d = await call(server!, 'GET', `/api/v1/destinations/${id}`, token);
            return d.json().last_error !== null;
          },
          30_000,
          server,
        );
        for (let i = 12; i < 20; i++) await deny(server, token, i);
        await server.stop('SIGKILL');
        assert.equal(receiver.hits.length, 0);

        // The receiver comes up, slow; the service restarts, delivers a part, and is killed again mid-delivery.
        receiver.delayMs = 150;
        await receiver.up();
        server = await start();
        await until('some delivered', () => receiver.hits.length >= 5, 60_000, server);
        await server.stop('SIGKILL');
        const beforeSecondKill = receiver.hits.length;
        assert.ok(
          beforeSecondKill < 20,
          `all delivered before the kill (${beforeSecondKill}): nothing was interrupted`,
        );

        receiver.delayMs = 0;
        server = await start();
        const expected = await expectedDenies(server, token, from);
        assert.equal(expected.length, 20);
        await until('every deny delivered', () => new Set(receiver.hits.map((h) => h.id)).size >= 20, 60_000, server);
        // Nothing more comes after (no event is invented later either).
        await new Promise((r) => setTimeout(r, 500));
        checkDelivered(receiver.hits, expected, secret);
        const after = (await call(server, 'GET', `/api/v1/destinations/${id}`, token)).json();
        assert.equal(after.state, 'active');
        assert.equal(after.last_error, null);
        assert.ok((after.next_index as number) > expected.at(-1)!.index, 'the cursor is past the last deny');
        const log = await call(server, 'GET', `/api/v1/destinations/${id}/deliveries?limit=500`, token);
        const delivered = (log.json().deliveries as { event_id: string; status: string }[]).filter(
          (d) => d.status === 'delivered',
        );
        assert.deepEqual(new Set(delivered.map((d) => d.event_id)), new Set(expected.map((e) => e.id)));
      } finally {
        await server?.stop('SIGKILL');
        await receiver.down();
        await smtp.close();
        await testDb?.dispose();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
}

describe('two nodes on one PostgreSQL deliver together', { skip: multiProcessSkip() }, () => {
  test(
    'no event is sent twice at the same time, no destination gets two requests at once, every event arrives, in log order; one node killed, the other finishes',
    { timeout: 240_000 },
    async () => {
      const testDb = await createTestDb('postgres');
      await testDb.db.close();
      const smtp = await startSmtpPeer();
      const receiver = new Receiver(await freePort());
      receiver.delayMs = 20;
      await receiver.up();
      const env = {
        ...BASE_ENV,
        LEDGER_SIGNING_KEY: formatSignerKey(generateSignerKey('agent-ledger.local')),
        SMTP_URL: smtp.url,
      };
      let nodes: ServerProcess[] = [];
      try {
        nodes = await Promise.all(
          [0, 1].map(() => startServerProcess({ databaseUrl: testDb.url, env, timeoutMs: 120_000 })),
        );
        const [a, b] = nodes as [ServerProcess, ServerProcess];
        const { token } = await signUp(a, smtp);
        const dests: { path: string; secret: string; from: number }[] = [];
        for (const n of [1, 2, 3]) {
          const path = `/hook-${n}`;
          const r = await call(n % 2 ? a : b, 'POST', '/api/v1/destinations', token, {
            name: `siem-${n}`,
            kind: 'webhook',
            url: receiver.url(path),
            events: ['invocation.denied'],
          });
          assert.equal(r.status, 201, r.text);
          dests.push({ path, secret: r.json().secret as string, from: r.json().next_index as number });
        }
        // Events recorded through both nodes while both deliver.
        for (let i = 0; i < 30; i++) await deny(i % 2 ? a : b, token, i);
        const from = Math.max(...dests.map((d) => d.from));
        const expected = await expectedDenies(a, token, from);
        assert.equal(expected.length, 30);
        await until(
          'every deny at every destination',
          () => dests.every((d) => new Set(receiver.of(d.path).map((h) => h.id)).size >= 30),
          90_000,
        );
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(receiver.maxPerEvent, 1, 'an event was being sent twice at the same time to a destination');
        assert.equal(receiver.maxPerPath, 1, 'a destination got two requests at once');
        for (const d of dests) checkDelivered(receiver.of(d.path), expected, d.secret);

        // More events through node A, which is killed (-9) while they are being delivered: node B, a process
        // of its own, takes A's destinations over once A's leases run out, and delivers every one.
        receiver.delayMs = 100;
        for (let i = 30; i < 45; i++) await deny(a, token, i);
        await until('delivery of the new events under way', () => receiver.hits.length >= 3 * 30 + 5, 60_000);
        await a.stop('SIGKILL');
        assert.ok(
          receiver.hits.length < 3 * 45,
          'everything was delivered before the kill: nothing was left to take over',
        );
        const all = await expectedDenies(b, token, from);
        assert.equal(all.length, 45);
        await until(
          'every deny at every destination, node A dead',
          () => dests.every((d) => new Set(receiver.of(d.path).map((h) => h.id)).size >= 45),
          90_000,
          b,
        );
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(receiver.maxPerPath, 1, 'a destination got two requests at once');
        for (const d of dests) checkDelivered(receiver.of(d.path), all, d.secret);
      } finally {
        await Promise.all(nodes.map((n) => n.stop()));
        await receiver.down();
        await smtp.close();
        await testDb.dispose();
      }
    },
  );
});
