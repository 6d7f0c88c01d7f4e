import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge } from 'prom-client';
import type { PlanCaps } from '../config/index.ts';
import type { JobKind } from '../jobs/index.ts';
import type { Principal } from '../core/index.ts';
import { eventRoutes, validateEvent } from './event-routes.ts';
import { EventAuthorizer, type NamedWorkspace } from './event-authorizer.ts';
import { Gate, type GatePrincipal } from './gate.ts';
import { ingressTokenRoutes } from './ingress-token-routes.ts';
import { outputScanHandler, wakeOnPendingScan } from './output-scan.ts';
import { outputScanBatchHandler } from './output-scan-many.ts';
import { attachOutputSet } from './attach-outputs.ts';
import { type EventInput, type EventResult, recordEvents } from './pipeline.ts';
import { InFlightKeys } from './in-flight-keys.ts';
import type { IngestDeps, IngestSources } from './deps.ts';
import { createScanPool, OFFLOAD_CHARS } from './scan-pool.ts';
import { ScanScheduler } from './scan-scheduler.ts';
import { Admission } from './admission.ts';
import { OUTPUT_SCAN_JOB } from './escalation.ts';
import { KnownAgents } from './known-agents.ts';
import { recordSet } from './record.ts';
import { approvalRoutes } from './approval-routes.ts';
import { ApprovalWatch } from './approval-watch.ts';
import { APPROVAL_EXPIRY_JOB, expireIfDue } from './approvals.ts';

// Published for what is made before this module: the token kind of ingress tokens (the one token resolver,
// accounts/token-resolver.ts) and the usage counted from ingest's tables (accounts' plan views). Both need
// nothing but the database.
export { INGRESS_TOKENS } from './ingress-tokens.ts';
export { ingestUsage } from './usage.ts';

export interface IngestModule {
  /**
   * Resolves any token an event endpoint takes, from memory when it can (see
   * gate.ts), and keeps what it found for `req`'s route (IngestDeps.resolvedFor).
   */
  resolveForEvents(token: string, req?: object): Promise<Principal | null>;
  /**
   * The workspace a request records events in, authorized as the event
   * endpoints authorize theirs (the OTLP receiver's; event-authorizer.ts).
   */
  authorizeEvents(
    req: FastifyRequest,
    token: string | undefined,
    where: NamedWorkspace,
  ): Promise<{ tenantId: string; caps: PlanCaps; createdAt: Date }>;
  /**
   * Records events of one workspace as the batch endpoint does (the OTLP
   * receiver's door): each slot is what the single endpoint would answer.
   * Events are checked against the schemas here.
   */
  recordBatch(tenantId: string, events: readonly EventInput[]): Promise<EventResult[]>;
  /** The background jobs ingest enqueues and runs, by kind: the tool_output scan, an approval's expiry. */
  jobs: Record<string, JobKind>;
  /** The long polls of GET /api/v1/approvals/{id}?wait= parked on this node. */
  approvalsWaiting(): number;
  routes(app: FastifyInstance): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createIngest(sources: IngestSources): IngestModule {
  const { ctx } = sources;
  const { deps, scanPool } = ingestDeps(sources);
  const { gate, authorizer } = deps;
  const watch = new ApprovalWatch();
  return {
    approvalsWaiting: () => watch.waiting(),
    async authorizeEvents(req, token, where) {
      const { tenantId, caps, createdAt } = await authorizer.request(req, token, where)(false);
      return { tenantId, caps, createdAt };
    },
    async resolveForEvents(token, req) {
      const resolved = await gate.principal(token);
      if (resolved && req) deps.resolvedFor.set(req, resolved);
      return resolved?.principal ?? null;
    },
    recordBatch(tenantId, events) {
      return recordEvents(deps, authorizer.workspace(tenantId), events, { validate: validateEvent });
    },
    jobs: ingestJobs(sources),
    async routes(app) {
      await eventRoutes(app, deps, watch);
      await ingressTokenRoutes(app, deps);
      await approvalRoutes(app, { ...deps, watch });
    },
    async start() {
      await gate.start();
      await watch.start(ctx.db);
    },
    async close() {
      await watch.close();
      await gate.close();
      await scanPool?.close();
    },
  };
}

/** What every ingest function is given: the sources, and the gate, scanner, admission and write engine made here. */
function ingestDeps(sources: IngestSources): { deps: IngestDeps; scanPool: ReturnType<typeof createScanPool> } {
  const { ctx } = sources;
  const gate = new Gate({
    db: ctx.db,
    resolveToken: sources.resolveToken,
    loadPlan: sources.loadPlan,
    loadPolicy: sources.loadPolicy,
    loadScope: sources.loadScope,
  });
  const knownAgents = new KnownAgents();
  const scanPool = createScanPool(ctx.config.detectWorkers);
  const scanner = new ScanScheduler({
    scan: sources.scan,
    workers: scanPool ?? undefined,
    sliceMs: ctx.config.scanSliceMs,
    offloadChars: OFFLOAD_CHARS,
  });
  new Gauge({
    name: 'agent_ledger_scans_waiting',
    help: "Events waiting in the scan scheduler's per-workspace queues for the detectors (a backlog served in turn)",
    registers: [ctx.metrics.registry],
    collect() {
      this.set(scanner.queued());
    },
  });
  const resolvedFor = new WeakMap<object, GatePrincipal>();
  const deps: IngestDeps = {
    ...sources,
    scanner,
    admission: new Admission({ maxBytes: ctx.config.ingestWorkspaceBytes, waitMs: ctx.config.ingestWorkspaceWaitMs }),
    afterInvocation: wakeOnPendingScan({ poke: sources.jobsEnqueued }),
    knownAgents,
    gate,
    inFlight: new InFlightKeys(ctx.config.idempotencyWaitMs),
    recordSet: recordSet(knownAgents),
    attachSet: attachOutputSet({
      now: ctx.now,
      ...(sources.contentDaysSql ? { contentDaysSql: sources.contentDaysSql } : {}),
    }),
    resolvedFor,
    authorizer: new EventAuthorizer(gate, ctx.now, resolvedFor),
  };
  return { deps, scanPool };
}

/** Ingest's background jobs: a tool output's scan, and a hold that ran out. */
function ingestJobs(sources: IngestSources): IngestModule['jobs'] {
  const { ctx } = sources;
  const scanDeps = {
    writer: sources.writer,
    scan: sources.scan,
    outputKek: sources.outputKek,
    policyInTx: sources.policyInTx,
    personaInTx: sources.personaInTx,
    now: ctx.now,
  };
  return {
    // Several of a workspace's due scans go in one log transaction; one that fails runs again alone.
    [OUTPUT_SCAN_JOB]: { one: outputScanHandler(scanDeps), many: outputScanBatchHandler({ ...scanDeps, db: ctx.db }) },
    // A hold that ran out is a deny, whether or not anyone is polling: due at expires_at.
    [APPROVAL_EXPIRY_JOB]: async (job, claim) => {
      const approvalId = String(job.payload.approval_id);
      await sources.writer.submit(
        job.tenant_id,
        async (tx, log) => {
          if (!(await claim(tx))) return;
          await expireIfDue(tx, log, job.tenant_id, approvalId, ctx.now());
        },
        { background: true },
      );
    },
  };
}
