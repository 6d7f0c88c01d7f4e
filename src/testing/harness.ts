import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../config/config.ts';
import { type SmtpPeer, type SmtpPeerOptions, startSmtpPeer } from '../mail/testing/smtp-peer.ts';
import { createService, type Service } from '../service/service.ts';
import { createTestDb, type Store, type TestDb, testStores } from './test-db.ts';

export const OPERATOR_TOKEN = 'op_test_token_0123456789abcdef';
export const FALLBACK_TOKEN = 'fallback_test_token_0123456789';

/** A clock tests can move: trials end, codes expire, days roll over. */
export class TestClock {
  #t: number;
  constructor(start = Date.parse('2026-06-01T12:00:00.000Z')) {
    this.#t = start;
  }
  now = (): Date => new Date(this.#t);
  set(d: Date | string): void {
    this.#t = new Date(d).getTime();
  }
  advance(ms: number): void {
    this.#t += ms;
  }
}

export interface TestService {
  store: Store;
  testDb: TestDb;
  service: Service;
  app: FastifyInstance;
  smtp: SmtpPeer;
  clock: TestClock;
  dataDir: string;
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** POSTs a sign-up for the address and returns the code from the mail the SMTP peer received. */
  requestCode(email: string): Promise<string>;
  /** Signs up (or in) through the real flow: the code is read from the mail the SMTP peer received. */
  signIn(email: string): Promise<SignedIn>;
  close(): Promise<void>;
}

export interface SignedIn {
  token: string;
  token_id: string;
  account: { id: string; email: string; tenant_id: string; role: string; plan_tier: string };
}

export interface TestServiceOptions {
  env?: Record<string, string>;
  /** Use this clock instead of a fresh one (default: the real time is NOT used; the clock starts fixed). */
  clock?: TestClock;
  /** Options of the SMTP peer (e.g. recipients it refuses). */
  smtp?: SmtpPeerOptions;
  /** Background jobs run only when the test calls `t.service.jobs.drain()`. */
  manualJobs?: boolean;
  /** Delivery on a thread of its own, as a served PostgreSQL node runs it (PostgreSQL only; the thread keeps the real time). */
  deliveryThread?: boolean;
  /** With deliveryThread: how soon the thread restarts after dying, looks for destinations, stops without any. */
  deliveryThreadTiming?: { restartMs?: number; checkMs?: number; idleMs?: number };
}

export async function startTestService(store: Store, opts: TestServiceOptions = {}): Promise<TestService> {
  const testDb = await createTestDb(store);
  const smtp = await startSmtpPeer(opts.smtp);
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-ledger-test-'));
  const clock = opts.clock ?? new TestClock();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    OPERATOR_TOKEN,
    INGRESS_FALLBACK_TOKEN: FALLBACK_TOKEN,
    SIGNUP_LIMIT_PER_IP: '1000',
    SIGNUP_LIMIT_PER_EMAIL: '1000',
    INVITE_LIMIT_PER_WORKSPACE: '1000',
    INVITE_LIMIT_PER_EMAIL: '1000',
    ...(opts.deliveryThread && testDb.url ? { DATABASE_URL: testDb.url } : {}),
    ...opts.env,
  });
  const service = await createService(config, {
    db: testDb.db,
    now: clock.now,
    manualJobs: opts.manualJobs ?? false,
    ...(opts.deliveryThread ? { deliveryThread: true } : {}),
    ...(opts.deliveryThreadTiming ? { deliveryThreadTiming: opts.deliveryThreadTiming } : {}),
  });
  const ts: TestService = {
    store,
    testDb,
    service,
    app: service.app,
    smtp,
    clock,
    dataDir,
    request({ token, headers, ...rest }) {
      return service.app.inject({
        ...rest,
        headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    },
    async requestCode(email) {
      const seen = new Set(smtp.messages);
      const res = await ts.request({ method: 'POST', url: '/api/v1/accounts/signup', payload: { email } });
      if (res.statusCode !== 200) throw new Error(`signup ${email}: ${res.statusCode} ${res.body}`);
      const mail = await smtp.waitFor((m) => !seen.has(m) && m.to.includes(email.trim().toLowerCase()));
      const code = /\b(\d{6,})\b/.exec(mail.subject)?.[1];
      if (!code) throw new Error(`no code in mail to ${email}`);
      return code;
    },
    async signIn(email) {
      const code = await ts.requestCode(email);
      const v = await ts.request({ method: 'POST', url: '/api/v1/accounts/verify', payload: { email, code } });
      if (v.statusCode !== 200) throw new Error(`verify ${email}: ${v.statusCode} ${v.body}`);
      return v.json() as SignedIn;
    },
    async close() {
      await service.close();
      await smtp.close();
      await testDb.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return ts;
}

/**
 * Runs a suite once per store, with one service (and database) shared by the
 * tests of the suite. Tests get it through the returned accessor.
 */
export function eachStore(title: string, body: (get: () => TestService) => void, opts: TestServiceOptions = {}): void {
  for (const store of testStores()) {
    describe(`${title} [${store}]`, () => {
      let ts: TestService | undefined;
      before(async () => {
        ts = await startTestService(store, opts);
      });
      after(async () => {
        await ts?.close();
      });
      body(() => {
        if (!ts) throw new Error('test service not started');
        return ts;
      });
    });
  }
}
