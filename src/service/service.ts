import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createAccounts, type UsageSource } from '../accounts/index.ts';
import {
  anyActiveDestination,
  createDestinations,
  type DeliveryWorker,
  deliverySettings,
  type DestinationsModule,
  undeliveredFrom,
} from '../destinations/index.ts';
import { consoleRoutes } from '../console/index.ts';
import type { Config } from '../config/index.ts';
import type { AppContext } from '../core/index.ts';
import { createMetrics } from '../core/metrics.ts';
import { type Db, migrate, openDb, openPostgres } from '../db/index.ts';
import { redactForStorage, scanField } from '../detect/index.ts';
import { buildApp, createLogger, registerRateLimits } from '../http/index.ts';
import { createIngest, ingestPartitions, ingestUsage, INGRESS_TOKENS } from '../ingest/index.ts';
import { JobBell, JobWorker } from '../jobs/index.ts';
import { createJudges, judgeCallsThisMonth } from '../judges/index.ts';
import {
  CheckpointPruner,
  createLedger,
  type LedgerModule,
  LogArchive,
  LogPruner,
  LogPublisher,
  logReader,
  openPublishStore,
  originOf,
} from '../ledger/index.ts';
import { createMailer, type Mailer } from '../mail/index.ts';
import { createOtlp, otlpPartitions } from '../otlp/index.ts';
import { PartitionMaintainer } from '../partitions/index.ts';
import { createPersonas, personasUsed } from '../personas/index.ts';
import { createPolicy } from '../policy/index.ts';
import { reportRoutes, RollupWorker } from '../reports/index.ts';
import { contentDaysSql, type RetentionDeps, retentionRoutes, RetentionSweeper } from '../retention/index.ts';
import { createReview, invocationViews, resolveAsPanel, resolveAsReviewer, rogueViewsAt } from '../review/index.ts';
import { witnessesOf, WitnessSubmitter } from '../witness/index.ts';
import { DeliveryThread } from './delivery-host.ts';
import { DeliveryOnDemand } from './delivery-on-demand.ts';
import { deriveSecret, loadSigningKey } from './secrets.ts';

/**
 * Connections of the delivery thread's own pool: a pass holds up to three at once (the chunk read ahead, the
 * bookkeeping behind the send, the lease), for a few destinations at a time.
 */
const DELIVERY_POOL_SIZE = 4;

export interface ServiceOverrides {
  db?: Db;
  mailer?: Mailer;
  now?: () => Date;
  /** Do not poll for background jobs; the caller runs them with jobs.drain(). */
  manualJobs?: boolean;
  /**
   * Deliver on a thread of its own (needs config.databaseUrl). By default it does when the service opens its
   * PostgreSQL pool itself, with the real clock, running its background work.
   */
  deliveryThread?: boolean;
  /** Tests: how soon the delivery thread restarts after dying, looks for destinations, stops without any. */
  deliveryThreadTiming?: { restartMs?: number; checkMs?: number; idleMs?: number };
}

export interface Service {
  app: FastifyInstance;
  ctx: AppContext;
  jobs: JobWorker;
  /** Submits new checkpoints to the configured witnesses (WITNESS_URLS). */
  witnesses: WitnessSubmitter;
  /**
   * Delivers the audit trail's events to each workspace's destinations (tests call drain()): on a thread of
   * its own when the service opened a PostgreSQL pool itself (delivery-thread.ts), else in the service's thread.
   */
  deliveries: Pick<DeliveryWorker, 'start' | 'stop' | 'drain'>;
  /** The delivery thread when delivery runs on one, started only while a destination exists (tests). */
  deliveryThread: DeliveryThread | undefined;
  /** The destinations module: a second delivery worker for tests of several nodes (newWorker). */
  destinations: DestinationsModule;
  /** Deletes stored content past each workspace's retention (hourly; tests call sweepAll()). */
  retention: RetentionSweeper;
  /** Folds new invocations and rogue events into the daily roll-ups reports and the overview read. */
  rollups: RollupWorker;
  /** Writes each workspace's log as tlog-tiles to LOG_PUBLISH_URL; undefined when it is unset. */
  publisher: LogPublisher | undefined;
  /** The audit trail: appends, checkpoints signed at the service's clock (tests sign through it). */
  ledger: LedgerModule;
  /** Deletes checkpoints nothing needs (every ten minutes; tests call prune()). */
  checkpointPruner: CheckpointPruner;
  partitions: PartitionMaintainer;
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
  // And the witnesses' keys, for the same reason.
  const witnessKeys = witnessesOf(config.witnesses);
  const db =
    overrides.db ??
    (await openDb({
      databaseUrl: config.databaseUrl,
      dataDir: join(config.dataDir, 'pglite'),
      poolSize: config.databasePoolSize,
    }));
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  const readDb = config.databaseReadUrl
    ? await openPostgres(config.databaseReadUrl, { max: config.databasePoolSize })
    : db;
  const log = createLogger(config);
  const mailer =
    overrides.mailer ??
    createMailer({
      ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
      from: config.mailFrom,
      outboxDir: join(config.dataDir, 'outbox'),
      log,
    });
  const ctx: AppContext = {
    config,
    db,
    readDb,
    mailer,
    metrics: createMetrics(),
    now: overrides.now ?? (() => new Date()),
    redisUrl: config.redisUrl,
  };

  // Each module below is made from what is above it; nothing is used before it exists.

  // LOG_PUBLISH_URL's store: the publisher writes the logs' tiles to it, and, with LOG_KEEP_IN_DB_ENTRIES, entries
  // dropped from the database are read back from it (the archive, which every reader of entries and nodes asks).
  const publishStore = config.logPublishUrl
    ? openPublishStore(config.logPublishUrl, { s3Endpoint: config.logPublishS3Endpoint })
    : undefined;
  const logOrigin = (tenantId: string) => originOf(config.ledgerOrigin, tenantId);
  const archive = new LogArchive(publishStore, logOrigin);
  // The witnesses the ledger asks for cosignatures (its CheckpointWitnessing port); they read the logs with nothing but the database.
  const witnesses = new WitnessSubmitter(db, logReader(db, archive), witnessKeys, {
    retryMaxSeconds: config.witnessRetryMaxSeconds,
    onError: (err, where) =>
      log.warn({ err, tenant_id: where.tenantId, witness: where.witness }, 'witness submission failed'),
  });
  // The log published to static storage (LOG_PUBLISH_URL), told of each new checkpoint by the ledger.
  // It lists the workspaces only when started, below, once accounts exist.
  let workspaceIds: () => Promise<string[]> = async () => [];
  const publisher = publishStore
    ? new LogPublisher(
        db,
        publishStore,
        {
          origin: logOrigin,
          note: async (tenantId, cp) => cp.note + (await witnesses.cosignatures(tenantId, cp.size)).join(''),
          tenants: () => workspaceIds(),
        },
        {
          leaseMs: config.logPublishLeaseMs,
          onError: (err, tenantId) => log.warn({ err, tenant_id: tenantId }, 'log publication failed'),
          archive,
          // After each publication, what is published beyond the newest N entries leaves the database;
          // delivery reads entries from the database, so what a destination has yet to deliver stays.
          ...(config.logKeepInDbEntries !== undefined
            ? {
                pruner: new LogPruner({
                  db,
                  store: publishStore,
                  origin: logOrigin,
                  keep: config.logKeepInDbEntries,
                  readsFrom: undeliveredFrom,
                }),
              }
            : {}),
        },
      )
    : undefined;
  const ledger = await createLedger(ctx, signingKey.key.seed, witnesses, publisher, archive);
  const appendInTx = ledger.appendEntryInTx;
  // A witness that stops cosigning says so in the workspace's log (witness_failed), for destinations to deliver.
  witnesses.recordFailuresWith(appendInTx);

  // What a workspace used, counted by the modules that own the data (each needs only the database); accounts' plan views show it.
  const usage: UsageSource = {
    ...ingestUsage(db),
    personasUsed: personasUsed(readDb),
    judgeCallsThisMonth: judgeCallsThisMonth(readDb),
  };
  const accounts = createAccounts(ctx, {
    pepper: deriveSecret(signingKey.key, 'signin-code-pepper'),
    appendAudit: ledger.appendAccountEntryInTx,
    usage,
    tokenKinds: [INGRESS_TOKENS],
  });
  workspaceIds = accounts.workspaceIds;
  // Personas build on policy's rule vocabulary; the verdict reads an agent's persona through them.
  const personas = createPersonas({ ctx, appendInTx, workspacePlan: accounts.workspacePlan });
  const policy = createPolicy({ ctx, appendInTx, personaInTx: personas.personaInTx });

  // Modules that enqueue background jobs ring this; the job worker, made below from their handlers, answers it.
  const jobBell = new JobBell();
  const ingest = createIngest({
    ctx,
    writer: ledger.writer,
    scan: scanField,
    redact: redactForStorage,
    // Seals tool_outputs until their scan; derived from the signing key, so every node has it and the database never does.
    outputKek: deriveSecret(signingKey.key, 'tool-output-kek'),
    resolveToken: accounts.resolveBearer,
    loadPlan: accounts.workspacePlanRecord,
    loadPolicy: policy.loadPolicy,
    loadScope: policy.loadScope,
    policyInTx: policy.policyInTx,
    personaInTx: personas.personaInTx,
    appendInTx,
    pseudonym: ledger.pseudonym,
    jobsEnqueued: jobBell.ring,
    // A held invocation's approval, decided by a person, resolves its review queue item too.
    resolveReview: resolveAsReviewer,
    contentDaysSql,
  });
  const otlp = createOtlp({
    ctx,
    writer: ledger.writer,
    recordBatch: ingest.recordBatch,
    authorizeEvents: ingest.authorizeEvents,
    redact: redactForStorage,
  });
  const judges = createJudges({
    ctx,
    writer: ledger.writer,
    appendInTx,
    // Opens the judges' sealed API keys; derived like outputKek, never stored.
    kek: deriveSecret(signingKey.key, 'judge-api-keys'),
    workspacePlan: accounts.workspacePlan,
    resolveAsPanel,
    jobsEnqueued: jobBell.ring,
  });
  const review = createReview({ ctx, writer: ledger.writer, otelDetails: otlp.details, judgements: judges.judgements });
  const jobs = new JobWorker(
    db,
    { ...ingest.jobs, ...judges.jobs },
    {
      bell: jobBell,
      leaseMs: config.jobLeaseMs,
      batch: config.jobBatch,
      onError: (err, job) => log.error({ err, job_id: job?.job_id, kind: job?.kind }, 'background job failed'),
    },
  );
  const deliveryFailed = (err: unknown, where?: { tenantId: string; destinationId: string }) =>
    log.warn({ err, tenant_id: where?.tenantId, destination_id: where?.destinationId }, 'delivery pass failed');
  // Set below when delivery runs on a thread started on demand: told of destinations made through this node.
  let onDemand: DeliveryOnDemand | undefined;
  const destinations = createDestinations({
    ctx,
    // Seals destinations' signing secrets and tokens; derived like the judges' kek, never stored.
    kek: deriveSecret(signingKey.key, 'destination-secrets'),
    appendInTx,
    origin: ledger.origin,
    views: { invocations: invocationViews, rogueAt: rogueViewsAt },
    adminEmails: accounts.adminEmails,
    onError: deliveryFailed,
    changed: () => onDemand?.wake(),
  });
  // PGlite has one connection, in this thread: delivery stays here. So it does for tests that bring their own
  // database or clock, or run the background work themselves, unless they ask for the thread.
  const threaded = overrides.deliveryThread ?? (!overrides.db && !overrides.now && !overrides.manualJobs);
  // The thread runs only while some workspace has a destination (delivery-on-demand.ts).
  const deliveryThread =
    threaded && config.databaseUrl
      ? new DeliveryThread({
          data: {
            databaseUrl: config.databaseUrl,
            poolSize: DELIVERY_POOL_SIZE,
            ledgerOrigin: config.ledgerOrigin,
            kek: deriveSecret(signingKey.key, 'destination-secrets'),
            settings: deliverySettings(config),
          },
          mailer,
          adminEmails: accounts.adminEmails,
          grew: ledger.grew,
          onError: deliveryFailed,
          ...overrides.deliveryThreadTiming,
        })
      : undefined;
  if (deliveryThread)
    onDemand = new DeliveryOnDemand({
      thread: deliveryThread,
      anyDestination: () => anyActiveDestination(db),
      onError: deliveryFailed,
      ...overrides.deliveryThreadTiming,
    });
  const deliveries = onDemand ?? destinations.worker;
  const retentionDeps: RetentionDeps = {
    ctx,
    appendInTx: ledger.appendInTx,
    tenants: accounts.workspaceIds,
    redactLegacySpanTexts: otlp.redactLegacyTexts,
  };
  const retention = new RetentionSweeper(retentionDeps);
  const checkpointPruner = new CheckpointPruner({
    db,
    now: ctx.now,
    tenants: accounts.workspaceIds,
    referenced: (tx, tenantId, sizes) => witnesses.referencedSizes(tx, tenantId, sizes),
    onError: (err, tenantId) => log.warn({ err, tenant_id: tenantId }, 'checkpoint pruning failed'),
  });
  const rollups = new RollupWorker({ ctx, tenants: accounts.workspaceIds });
  const partitions = new PartitionMaintainer({
    db,
    now: ctx.now,
    tables: [...ingestPartitions(config.recordsRetentionDays), ...otlpPartitions(config.recordsRetentionDays)],
    onError: (err, table) => log.warn({ err, table }, 'partition maintenance failed'),
  });
  // Today's partitions and the next ones exist before the first write.
  await partitions.maintain();

  const app: FastifyInstance = await buildApp(ctx, {
    logger: log,
    auth: {
      resolve: accounts.resolveBearer,
      resolveForEvents: ingest.resolveForEvents,
      accountStatus: accounts.accountStatus,
      resolveSession: accounts.resolveSession,
      publicUrl: config.publicUrl,
    },
    routes: [
      (a) => registerRateLimits(a, config.redisUrl),
      accounts.routes,
      ingest.routes,
      otlp.routes,
      policy.routes,
      personas.routes,
      judges.routes,
      ledger.routes,
      (a) => reportRoutes(a, ctx, ledger),
      (a) => retentionRoutes(a, retentionDeps),
      review.routes,
      destinations.routes,
      consoleRoutes,
    ],
  });
  await app.ready();
  await ingest.start();
  if (!overrides.manualJobs) {
    jobs.start();
    witnesses.start();
    retention.start();
    checkpointPruner.start();
    partitions.start();
    rollups.start();
    await publisher?.start();
    deliveries.start();
  }

  let closed = false;
  return {
    app,
    ctx,
    jobs,
    witnesses,
    deliveries,
    deliveryThread,
    destinations,
    retention,
    rollups,
    publisher,
    ledger,
    checkpointPruner,
    partitions,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await ingest.close();
      await jobs.stop();
      await deliveries.stop();
      await retention.stop();
      await checkpointPruner.stop();
      await partitions.stop();
      await rollups.stop();
      await ledger.close();
      await witnesses.stop();
      // After the ledger, whose close signs the last checkpoints (queued for publication on the next start).
      await publisher?.stop();
      await mailer.close();
      if (readDb !== db) await readDb.close();
      await db.close();
    },
  };
}
