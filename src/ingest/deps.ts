import type { AppContext, Principal } from '../core/index.ts';
import type { Queryable } from '../db/index.ts';
import type { LogEntry, LogWriter, PseudonymKind, SetJob } from '../ledger/index.ts';
import type { Decision, Facts, PersonaFacts, PolicyDocument } from '../policy/index.ts';
import type { Admission } from './admission.ts';
import type { ResolveReview } from './approvals.ts';
import type { AttachItem, AttachResult } from './attach-outputs.ts';
import type { EventAuthorizer } from './event-authorizer.ts';
import type { AgentScope, Gate, GatePrincipal, WorkspaceRecord } from './gate.ts';
import type { InFlightKeys } from './in-flight-keys.ts';
import type { Redactor } from './metadata.ts';
import type { PreparedInvocation, Scanner } from './prepare.ts';
import type { KnownAgents } from './known-agents.ts';
import type { recordSet } from './record.ts';
import type { ScanScheduler } from './scan-scheduler.ts';

// What ingest's parts are given: the service's sources (createIngest's argument), and what createIngest
// makes of them once for every route. Apart from ingest.ts so that the routes it mounts name it
// without importing the file that imports them.

export interface IngestSources {
  ctx: AppContext;
  writer: LogWriter;
  scan: Scanner;
  /** The stored form of metadata values, which are redacted but not decided on (detect's redactForStorage). */
  redact: Redactor;
  /** Resolves any bearer token (accounts/token-resolver.ts: API and ingress tokens, the operator and fallback tokens). */
  resolveToken(token: string): Promise<Principal | null>;
  loadPlan(tenantId: string): Promise<WorkspaceRecord | null>;
  loadPolicy(tenantId: string): Promise<{ version: number; document: PolicyDocument }>;
  /** The agent's allowed tool globs (null: no scope, every tool allowed) and its persona as the verdict sees it. */
  loadScope(tenantId: string, agentKey: string): Promise<AgentScope>;
  /** The policy in force, read in the tool_output scan's transaction (policy module). */
  policyInTx(tx: Queryable, tenantId: string): Promise<{ version: number; decide(facts: Facts): Decision }>;
  /** The agent's persona, read in the tool_output scan's transaction (personas module). */
  personaInTx(tx: Queryable, tenantId: string, agentKey: string): Promise<PersonaFacts | undefined>;
  appendInTx(tx: Queryable, tenantId: string, entry: LogEntry): Promise<void>;
  /** Key-encryption key of tool_outputs awaiting their scan (sealed-output.ts); never stored in the database. */
  outputKek: Uint8Array;
  /** A value's pseudonym in the workspace log, its salt committed before it is returned. */
  pseudonym(tenantId: string, kind: PseudonymKind, value: string): Promise<string>;
  /** Jobs were enqueued on this node (the job worker's bell, jobs/jobs.ts JobBell). */
  jobsEnqueued(): void;
  /** Resolves a held invocation's review queue item with its approval's decision (review's resolveAsReviewer). */
  resolveReview?: ResolveReview;
  /**
   * The workspace's content retention in days, as an SQL expression of the
   * workspace's id (retention's contentDaysSql): a tool_output is not
   * attached to an invocation older than that, as the retention sweep would
   * not come back to it.
   */
  contentDaysSql?(tenant: string): string;
}

export interface IngestDeps extends IngestSources {
  /** Each workspace's share of the event endpoints on this node (admission.ts). */
  admission: Admission;
  /** Runs the detectors of every workspace's events in turn, on the event loop or the detector workers (scan-scheduler.ts). */
  scanner: ScanScheduler;
  /** Called after an invocation is acknowledged (background scans). */
  afterInvocation?: (tenantId: string, invocationId: number, prepared: PreparedInvocation) => void;
  knownAgents: KnownAgents;
  gate: Gate;
  inFlight: InFlightKeys;
  /** The set job every event goes through: one object, so requests queued together share its statements. */
  recordSet: ReturnType<typeof recordSet>;
  /** The set job attached tool results go through: concurrent ones share a transaction. */
  attachSet: SetJob<AttachItem, AttachResult>;
  /**
   * What authenticating a request (resolveForEvents) found for its token: its
   * route decides on it instead of resolving the same token again (a SHA-256
   * and a lookup a request).
   */
  resolvedFor: WeakMap<object, GatePrincipal>;
  /** Who may record events in which workspace, for every door events come in by. */
  authorizer: EventAuthorizer;
}
