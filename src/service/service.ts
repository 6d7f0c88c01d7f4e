import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createAccounts } from '../accounts/accounts.ts';
import { API_TOKENS } from '../accounts/api-tokens.ts';
import { CONSOLE_SESSIONS } from '../accounts/console-sessions.ts';
import type { UsageSource } from '../accounts/deps.ts';
import { type ConfiguredToken, tokenResolver } from '../accounts/token-resolver.ts';
import { consoleRoutes } from '../console/routes.ts';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { openDb } from '../db/open.ts';
import { openPostgres } from '../db/postgres.ts';
import { buildApp } from '../http/app.ts';
import type { AppContext } from '../core/context.ts';
import { createMetrics } from '../core/metrics.ts';
import { createLogger } from '../http/logger.ts';
import { registerRateLimits } from '../http/rate-limit.ts';
import { createIngest } from '../ingest/ingest.ts';
import { INGRESS_TOKENS } from '../ingest/ingress-tokens.ts';
import { createScanPool } from '../ingest/scan-pool.ts';
import { outputScanHandler, wakeOnPendingScan } from '../ingest/output-scan.ts';
import { ingestUsage } from '../ingest/usage.ts';
import { JUDGE_JOB, OUTPUT_SCAN_JOB } from '../ingest/record.ts';
import { scanField } from '../detect/index.ts';
import { JobWorker } from '../jobs/jobs.ts';
import { accountEntryAppender, entryAppender } from '../ledger/appenders.ts';
import { createLedger } from '../ledger/ledger.ts';
import { createOtlp } from '../otlp/otlp.ts';
import { judgeDispatcher } from '../judges/address-guard.ts';
import { judgeHandler } from '../judges/judge-job.ts';
import { judgementsOf } from '../judges/judgement-view.ts';
import { runPanel } from '../judges/panel.ts';
import { callsCapOf, judgeCallsThisMonth } from '../judges/quota.ts';
import { judgeRoutes } from '../judges/routes.ts';
import { personaFactsInTx } from '../personas/facts.ts';
import { createPersonas, personasUsed } from '../personas/personas.ts';
import { createPolicy } from '../policy/policy.ts';
import { reportRoutes } from '../reports/routes.ts';
import { resolveAsPanel } from '../review/review-store.ts';
import { createReview } from '../review/review.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { WitnessSubmitter } from '../witness/submitter.ts';
import { RetentionSweeper, type RetentionDeps } from '../retention/retention.ts';
import { retentionRoutes } from '../retention/routes.ts';
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
  const db = overrides.db ?? (await openDb({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pglite'), poolSize: config.databasePoolSize }));
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  const readDb = config.databaseReadUrl ? await openPostgres(config.databaseReadUrl, { max: config.databasePoolSize }) : db;
  const log = createLogger(config);
  const mailer =
    overrides.mailer ??
    createMailer({
      ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
      from: config.mailFrom,
      outboxDir: join(config.dataDir, 'outbox'),
      log,
    });
  const ctx: AppContext = { config, db, readDb, mailer, metrics: createMetrics(), now: overrides.now ?? (() => new Date()), redisUrl: config.redisUrl };

  // Each module below is made from what is above it; nothing is used before it exists.

  // The ledger, and the witnesses it asks for cosignatures (its CheckpointWitnessing port, set once both exist).
  const ledger = await createLedger(ctx, signingKey.key.seed);
  const witnesses = new WitnessSubmitter(db, ledger, config.witnesses, {
    retryMaxSeconds: config.witnessRetryMaxSeconds,
    onError: (err, where) => log.warn({ err, tenant_id: where.tenantId, witness: where.witness }, 'witness submission failed'),
  });
  ledger.useWitnessing(witnesses);
  const appendInTx = entryAppender(ledger, ctx.now);

  // What a workspace used, counted by the modules that own the data; accounts' plan views show it.
  const usage: UsageSource = { ...ingestUsage(db), personasUsed: personasUsed(readDb), judgeCallsThisMonth: judgeCallsThisMonth(readDb) };
  // Every token becomes a principal the same way (accounts/token-resolver.ts); its kinds are their tables' owners' data.
  const configuredTokens: ConfiguredToken[] = [
    { secret: config.operatorToken, principal: { kind: 'operator' } },
    { secret: config.ingressFallbackToken, principal: { kind: 'fallback' } },
  ];
  const resolveBearer = tokenResolver(db, ctx.now, [API_TOKENS, INGRESS_TOKENS], configuredTokens);
  const resolveSession = tokenResolver(db, ctx.now, [CONSOLE_SESSIONS]);

  const accounts = createAccounts(ctx, {
    pepper: deriveSecret(signingKey.key, 'signin-code-pepper'),
    appendAudit: accountEntryAppender(ledger, ctx.now),
    usage,
  });
  const policy = createPolicy({ ctx, appendInTx, personaInTx: personaFactsInTx });
  const personas = createPersonas({ ctx, appendInTx, workspacePlan: accounts.workspacePlan });

  // Seals tool_outputs until their scan; derived from the signing key, so every node has it and the database never does.
  const outputKek = deriveSecret(signingKey.key, 'tool-output-kek');
  // Opens the judges' sealed API keys; derived like outputKek, never stored.
  const judgeKek = deriveSecret(signingKey.key, 'judge-api-keys');
  const callsCap = callsCapOf(accounts.workspacePlan);
  const jobs = new JobWorker(
    db,
    {
      [OUTPUT_SCAN_JOB]: outputScanHandler({
        writer: ledger.writer,
        scan: scanField,
        outputKek,
        policyInTx: policy.policyInTx,
        personaInTx: personaFactsInTx,
        now: ctx.now,
      }),
      [JUDGE_JOB]: judgeHandler({
        db,
        writer: ledger.writer,
        kek: judgeKek,
        callsCap,
        runPanel,
        resolveAsPanel,
        timeoutMs: config.judgeTimeoutMs,
        maxAttempts: config.judgeMaxAttempts,
        dispatcher: judgeDispatcher(config.judgePrivateNetworks),
        now: ctx.now,
      }),
    },
    { leaseMs: config.jobLeaseMs, batch: config.jobBatch, onError: (err, job) => log.error({ err, job_id: job?.job_id, kind: job?.kind }, 'background job failed') },
  );
  const scanPool = createScanPool(config.detectWorkers);
  const ingest = createIngest({
    ctx,
    writer: ledger.writer,
    scanMany: scanPool?.scanMany,
    scan: scanField,
    outputKek,
    resolveToken: resolveBearer,
    loadPlan: accounts.workspacePlanRecord,
    loadPolicy: policy.loadPolicy,
    loadScope: policy.loadScope,
    appendInTx,
    pseudonym: ledger.pseudonym,
    afterInvocation: wakeOnPendingScan(jobs),
  });
  const otlp = createOtlp({ ctx, writer: ledger.writer, recordBatch: ingest.recordBatch, workspacePlan: accounts.workspacePlan });
  const review = createReview({ ctx, writer: ledger.writer, otelDetails: otlp.details, judgements: judgementsOf });
  const retentionDeps: RetentionDeps = { ctx, appendInTx: ledger.appendInTx, tenants: accounts.workspaceIds };
  const retention = new RetentionSweeper(retentionDeps);

  const app: FastifyInstance = await buildApp(ctx, {
    logger: log,
    auth: {
      resolve: resolveBearer,
      resolveForEvents: ingest.resolveForEvents,
      accountStatus: accounts.accountStatus,
      resolveSession,
      publicUrl: config.publicUrl,
    },
    routes: [
      (a) => registerRateLimits(a, config.redisUrl),
      accounts.routes,
      ingest.routes,
      otlp.routes,
      policy.routes,
      personas.routes,
      (a) => judgeRoutes(a, { ctx, appendInTx, kek: judgeKek, callsCap, enqueued: jobs.poke }),
      ledger.routes,
      (a) => reportRoutes(a, ctx, ledger),
      (a) => retentionRoutes(a, retentionDeps),
      review.routes,
      consoleRoutes,
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
