import type { FastifyInstance } from 'fastify';
import type { UsageSource } from '../accounts/deps.ts';
import type { WorkspacePlan } from '../accounts/plans.ts';
import type { PlanCaps } from '../config/config.ts';
import type { Queryable } from '../db/db.ts';
import type { Principal } from '../core/identity.ts';
import type { AppContext } from '../core/context.ts';
import type { LogEntry } from '../ledger/append.ts';
import type { LogWriter } from '../ledger/log-writer.ts';
import type { PseudonymKind } from '../ledger/pseudonyms.ts';
import type { PersonaFacts, PolicyDocument } from '../policy/engine.ts';
import { eventRoutes, validateEvent } from './event-routes.ts';
import { Gate } from './gate.ts';
import { ingressTokenRoutes } from './ingress-token-routes.ts';
import { type Authorized, type EventInput, type EventResult, InFlightKeys, recordEvents } from './pipeline.ts';
import type { PreparedInvocation, Scanner } from './prepare.ts';
import type { ScanMany } from './scan-pool.ts';
import { KnownAgents, recordSet } from './record.ts';
import { sweepIdempotencyKeys } from './idempotency.ts';
import { ingestUsage } from './usage.ts';

/** What the verdict reads of an agent besides the policy: its scope and persona. */
export interface AgentScope {
  tools: string[] | null;
  persona: PersonaFacts | undefined;
}

export interface IngestSources {
  ctx: AppContext;
  writer: LogWriter;
  scan: Scanner;
  /** The detector worker pool (DETECT_WORKERS), for events with long texts; inline without it. */
  scanMany?: ScanMany | undefined;
  /** Resolves any bearer token (accounts/token-resolver.ts: API and ingress tokens, the operator and fallback tokens). */
  resolveToken(token: string): Promise<Principal | null>;
  loadPlan(tenantId: string): Promise<{ plan: WorkspacePlan; caps: PlanCaps } | null>;
  loadPolicy(tenantId: string): Promise<{ version: number; document: PolicyDocument }>;
  /** The agent's allowed tool globs (null: no scope, every tool allowed) and its persona as the verdict sees it. */
  loadScope(tenantId: string, agentKey: string): Promise<AgentScope>;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
  /** Key-encryption key of tool_outputs awaiting their scan (sealed-output.ts); never stored in the database. */
  outputKek: Uint8Array;
  /** A value's pseudonym in the workspace log, its salt committed before it is returned. */
  pseudonym(tenantId: string, kind: PseudonymKind, value: string): Promise<string>;
  /** Called after an invocation is acknowledged (background scans). */
  afterInvocation?: (tenantId: string, invocationId: number, prepared: PreparedInvocation) => void;
}

export interface IngestDeps extends IngestSources {
  knownAgents: KnownAgents;
  gate: Gate;
  inFlight: InFlightKeys;
  /** The set job every event goes through: one object, so requests queued together share its statements. */
  recordSet: ReturnType<typeof recordSet>;
}

export interface IngestModule {
  /** Resolves any token an event endpoint takes, from memory when it can (see gate.ts). */
  resolveForEvents(token: string): Promise<Principal | null>;
  /**
   * Records events of one workspace as the batch endpoint does (the OTLP
   * receiver's door): each slot is what the single endpoint would answer.
   * Events are checked against the schemas here.
   */
  recordBatch(tenantId: string, events: readonly EventInput[]): Promise<EventResult[]>;
  usage: Pick<UsageSource, 'invocationsToday' | 'agentsRegistered'>;
  routes(app: FastifyInstance): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createIngest(sources: IngestSources): IngestModule {
  const { ctx } = sources;
  const gate = new Gate({
    db: ctx.db,
    resolveToken: sources.resolveToken,
    loadPlan: sources.loadPlan,
    loadPolicy: sources.loadPolicy,
    loadScope: sources.loadScope,
  });
  const knownAgents = new KnownAgents();
  const deps: IngestDeps = { ...sources, knownAgents, gate, inFlight: new InFlightKeys(ctx.config.idempotencyWaitMs), recordSet: recordSet(knownAgents) };
  let sweeper: NodeJS.Timeout | undefined;
  return {
    async resolveForEvents(token) {
      return (await gate.principal(token))?.principal ?? null;
    },
    recordBatch(tenantId, events) {
      const authorize = async (fresh: boolean): Promise<Authorized> => {
        if (fresh) gate.invalidate(tenantId);
        const state = await gate.tenant(tenantId);
        const ws = await gate.plan(state);
        if (!ws) throw new Error(`unknown workspace ${tenantId}`);
        return { tenantId, state, caps: ws.caps };
      };
      return recordEvents(deps, authorize, events, { validate: validateEvent });
    },
    usage: ingestUsage(ctx.db),
    async routes(app) {
      await eventRoutes(app, deps);
      await ingressTokenRoutes(app, deps);
    },
    async start() {
      await gate.start();
      // Expired idempotency keys go every ten minutes (they are ignored once 24 hours old).
      sweeper = setInterval(() => void sweepIdempotencyKeys(ctx.db, ctx.now()).catch((err: unknown) => console.error('idempotency key sweep failed', err)), 600_000);
      sweeper.unref();
    },
    async close() {
      clearInterval(sweeper);
      await gate.close();
    },
  };
}
