import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createAccounts } from '../accounts/accounts.ts';
import { consoleRoutes } from '../console/routes.ts';
import type { Config } from '../config/config.ts';
import type { Db, Queryable } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { openDb } from '../db/open.ts';
import { openPostgres } from '../db/postgres.ts';
import { buildApp } from '../http/app.ts';
import type { AppContext } from '../core/context.ts';
import { createMetrics } from '../core/metrics.ts';
import { registerRateLimits } from '../http/rate-limit.ts';
import { createIngest } from '../ingest/ingest.ts';
import { createScanPool } from '../ingest/scan-pool.ts';
import { outputScanHandler } from '../ingest/output-scan.ts';
import { JUDGE_JOB, OUTPUT_SCAN_JOB } from '../ingest/record.ts';
import { scanField } from '../detect/index.ts';
import { JobWorker } from '../jobs/jobs.ts';
import type { LogEntry } from '../ledger/append.ts';
import { createLedger } from '../ledger/ledger.ts';
import { createOtlp } from '../otlp/otlp.ts';
import { judgeHandler } from '../judges/judge-job.ts';
import { judgementsOf } from '../judges/judgement-view.ts';
import { runPanel } from '../judges/panel.ts';
import { callsUsed } from '../judges/quota.ts';
import { judgeRoutes } from '../judges/routes.ts';
import { createPersonas } from '../personas/personas.ts';
import { createPolicy, personaFactsInTx } from '../policy/policy.ts';
import { reportRoutes } from '../reports/routes.ts';
import { createReview } from '../review/review.ts';
import { resolveAsPanel } from '../review/review-store.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { WitnessSubmitter } from '../witness/submitter.ts';
import { RetentionSweeper, type RetentionDeps } from '../retention/retention.ts';
import { retentionRoutes } from '../retention/routes.ts';
import { LEAF_VERSION } from '../ledger/leaf.ts';
import { pseudonymInTx } from '../ledger/pseudonyms.ts';
import { deriveSecret, loadSigningKey } from './secrets.ts';

export interface ServiceOverrides {
  db?: Db;
  mailer?: Mailer;
  now?: () => Date;
  /** Do not poll for background jobs; the caller runs them with jobs.drain(). */
  manualJobs?: boolean;
}

export interface Service {
  app: FastifyInstance;
  ctx: AppContext;
  jobs: JobWorker;
  /** Submits new checkpoints to the configured witnesses (WITNESS_URLS). */
  witnesses: WitnessSubmitter;
  /** Deletes stored content past each workspace's retention (hourly; tests call sweepAll()). */
  retention: RetentionSweeper;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/**
 * The composition root: opens the store, applies migrations, wires the modules
 * and builds the HTTP app. The CLI calls it to serve; tests call it with their
 * own database, mailer and clock.
 */
export async function createService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  // The key first: a bad LEDGER_SIGNING_KEY must stop the start before anything is opened.
  const signingKey = loadSigningKey(config);
  const db = overrides.db ?? (await openDb({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') }));
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  const readDb = config.databaseReadUrl ? await openPostgres(config.databaseReadUrl) : db;
  const metrics = createMetrics();
  const log = { info: (obj: object, msg: string) => app.log.info(obj, msg) };
  const mailer =
    overrides.mailer ??
    createMailer({
      ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
      from: config.mailFrom,
      outboxDir: join(config.dataDir, 'outbox'),
      log,
    });
  const ctx: AppContext = { config, db, readDb, mailer, metrics, now: overrides.now ?? (() => new Date()), redisUrl: config.redisUrl };

  const ledger = await createLedger(ctx, signingKey.key.seed);
  const witnesses = new WitnessSubmitter(db, ledger, config.witnesses, {
    retryMaxSeconds: config.witnessRetryMaxSeconds,
    onError: (err, where) => app.log.warn({ err, tenant_id: where.tenantId, witness: where.witness }, 'witness submission failed'),
  });
  ledger.useWitnessing({
    cosignatures: (tenantId, size) => witnesses.cosignatures(tenantId, size),
    signed: async (tx, tenantId) => {
      await witnesses.queue(tx, tenantId);
      witnesses.poke();
    },
    submitNow: (tenantId, cp) => witnesses.submitNow(tenantId, cp),
  });
  const appendInTx = async (tx: Queryable, tenantId: string, entry: LogEntry) => {
    await ledger.appendInTx(tx, tenantId, [entry], ctx.now());
  };
  // Account-side leaves name members by e-mail address: the log gets the
  // address's pseudonym (leaf format v2, ledger/pseudonyms.ts), the accounts
  // tables keep the address.
  const appendAccountAudit = async (tx: Queryable, tenantId: string, entry: LogEntry) => {
    const email = entry.email;
    const leaf = typeof email === 'string' ? { ...entry, v: LEAF_VERSION, email: await pseudonymInTx(tx, tenantId, 'email', email) } : entry;
    await appendInTx(tx, tenantId, leaf);
  };
  const accounts = createAccounts(ctx, {
    pepper: deriveSecret(signingKey.key, 'signin-code-pepper'),
    appendAudit: appendAccountAudit,
    usage: {
      invocationsToday: (tenantId, now) => ingest.usage.invocationsToday(tenantId, now),
      agentsRegistered: (tenantId) => ingest.usage.agentsRegistered(tenantId),
      personasUsed: (tenantId) => personas.personasUsed(tenantId),
      judgeCallsThisMonth: (tenantId, now) => readDb.withTenant(tenantId, (tx) => callsUsed(tx, tenantId, now)),
    },
  });
  const policy = createPolicy({ ctx, appendInTx });
  const personas = createPersonas({
    ctx,
    appendInTx,
    workspacePlan: (tenantId) => accounts.workspacePlan(tenantId),
    invalidate: (tenantId) => policy.invalidate(tenantId),
  });
  // Seals tool_outputs until their scan; derived from the signing key, so every node has it and the database never does.
  const outputKek = deriveSecret(signingKey.key, 'tool-output-kek');
  const scanPool = createScanPool(config.detectWorkers);
  const ingest = createIngest({
    ctx,
    writer: ledger.writer,
    scanMany: scanPool?.scanMany,
    scan: scanField,
    outputKek,
    resolveAccountToken: (token) => accounts.resolve(token),
    loadPlan: (tenantId) => accounts.workspacePlanRecord(tenantId),
    loadPolicy: (tenantId) => policy.loadPolicy(tenantId),
    loadScope: (tenantId, agentKey) => policy.loadScope(tenantId, agentKey),
    appendInTx,
    pseudonym: (tenantId, kind, value) => ledger.pseudonyms.of(tenantId, kind, value),
    afterInvocation: (_tenantId, _id, prepared) => {
      if (prepared.content.some((c) => c.findings === null)) jobs.poke();
    },
  });
  const otlp = createOtlp({
    ctx,
    writer: ledger.writer,
    recordBatch: (tenantId, events) => ingest.recordBatch(tenantId, events),
    workspacePlan: (tenantId) => accounts.workspacePlan(tenantId),
  });
  // Opens the judges' sealed API keys; derived like outputKek, never stored.
  const judgeKek = deriveSecret(signingKey.key, 'judge-api-keys');
  const callsCap = async (tenantId: string) => (await accounts.workspacePlan(tenantId))?.caps.multi_judge_calls_per_month ?? 0;
  const jobs = new JobWorker(
    db,
    {
      [OUTPUT_SCAN_JOB]: outputScanHandler({
        writer: ledger.writer,
        scan: scanField,
        outputKek,
        policyFor: (tenantId) => policy.policyFor(tenantId),
        personaInTx: personaFactsInTx,
        now: ctx.now,
      }),
      [JUDGE_JOB]: judgeHandler({
        db,
        writer: ledger.writer,
        kek: judgeKek,
        callsCap,
        runPanel,
        resolveAsPanel: async (tx, log, input) => resolveAsPanel(tx, log, input),
        timeoutMs: config.judgeTimeoutMs,
        maxAttempts: config.judgeMaxAttempts,
        now: ctx.now,
      }),
    },
    { leaseMs: config.jobLeaseMs, batch: config.jobBatch, onError: (err, job) => app.log.error({ err, job_id: job?.job_id, kind: job?.kind }, 'background job failed') },
  );

  const retentionDeps: RetentionDeps = {
    ctx,
    appendInTx: (tx, tenantId, entries, time) => ledger.appendInTx(tx, tenantId, entries, time),
    tenants: () => accounts.workspaceIds(),
  };
  const retention = new RetentionSweeper(retentionDeps);

  const app: FastifyInstance = await buildApp(ctx, {
    auth: {
      resolve: async (token) => (await accounts.resolve(token)) ?? ingest.resolve(token),
      resolveForEvents: (token) => ingest.resolveForEvents(token),
      accountStatus: (tenantId) => accounts.accountStatus(tenantId),
      resolveSession: (token) => accounts.resolveSession(token),
      publicUrl: config.publicUrl,
    },
    routes: [(a) => registerRateLimits(a, config.redisUrl), (a) => accounts.routes(a),
      (a) => ingest.routes(a),
      (a) => otlp.routes(a),
      (a) => policy.routes(a),
      (a) => personas.routes(a),
      (a) => judgeRoutes(a, { ctx, appendInTx, kek: judgeKek, callsCap, enqueued: () => jobs.poke() }),
      (a) => ledger.routes(a),
      (a) => reportRoutes(a, ctx, ledger),
      (a) => retentionRoutes(a, retentionDeps),
      (a) => createReview({ ctx, writer: ledger.writer, otelDetails: otlp.details, judgements: judgementsOf }).routes(a),
      (a) => consoleRoutes(a),
    ],
  });
  await app.ready();
  await ingest.start();
  if (!overrides.manualJobs) {
    jobs.start();
    witnesses.start();
    retention.start();
  }

  let closed = false;
  return {
    app,
    ctx,
    jobs,
    witnesses,
    retention,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await ingest.close();
      await scanPool?.close();
      await jobs.stop();
      await retention.stop();
      await ledger.close();
      await witnesses.stop();
      await mailer.close();
      if (readDb !== db) await readDb.close();
      await db.close();
    },
  };
}
