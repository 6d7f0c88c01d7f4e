import { hash as digest } from 'node:crypto';
import { listenForChanges, readEpoch } from '../changes/index.ts';
import type { PlanCaps } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import type { Principal } from '../core/index.ts';
import type { WorkspacePlan } from '../accounts/index.ts';
import type { PersonaFacts, PolicyDocument } from '../policy/index.ts';

// What the event endpoints check on every request — the token's principal,
// the workspace's plan and status, its policy and its agents' scopes — kept
// in memory, so a request costs no database round trip before its write.
//
// Each workspace's entries hang off a state that holds the workspace's change
// epoch, read BEFORE any of them: every change to what is cached (a revoked
// token, a role, a plan, a policy, a scope; on any node) moves the epoch, in
// the same transaction as the change. The write transaction reads the epoch
// again (recordSet): if it moved, the request is decided again with fresh
// reads, so a change is in force for the very next event on every node.
// NOTIFY (on PostgreSQL) drops a workspace's state as soon as it changes, so
// that re-decision is rare.

/** What the verdict reads of an agent besides the policy: its scope and persona. */
export interface AgentScope {
  tools: string[] | null;
  persona: PersonaFacts | undefined;
}

export interface GateSources {
  db: Db;
  /** Resolves a token in the database (null: unknown, revoked, malformed). */
  resolveToken(token: string): Promise<Principal | null>;
  loadPlan(tenantId: string): Promise<WorkspaceRecord | null>;
  loadPolicy(tenantId: string): Promise<{ version: number; document: PolicyDocument }>;
  /** The agent's allowed tool globs (null: no scope) and its persona. */
  loadScope(tenantId: string, agentKey: string): Promise<AgentScope>;
}

/** A workspace's stored plan, its caps and when it was made. */
export interface WorkspaceRecord {
  plan: WorkspacePlan;
  caps: PlanCaps;
  createdAt: Date;
}

export interface TenantState {
  readonly tenantId: string;
  readonly epoch: number;
  plan?: Promise<WorkspaceRecord | null>;
  policy?: Promise<{ version: number; document: PolicyDocument }>;
  readonly scopes: Map<string, Promise<AgentScope>>;
}

/** A principal as cached, with the epoch of its workspace it was read under. */
export interface GatePrincipal {
  principal: Principal;
  /** Undefined for principals of no workspace (fallback, operator). */
  epoch: number | undefined;
}

/**
 * A token is read from the database again after this long even when nothing
 * changed: that read refreshes its last_used_at (kept within a minute).
 */
const TOKEN_TTL_MS = 30_000;
const MAX_TENANTS = 20_000;
const MAX_TOKENS = 50_000;
const MAX_SCOPES = 10_000;

export class Gate {
  readonly #src: GateSources;
  readonly #tenants = new Map<string, Promise<TenantState>>();
  readonly #tokens = new Map<string, { p: Principal & { tenantId: string }; epoch: number; at: number }>();
  #stop: (() => Promise<void>) | undefined;

  constructor(src: GateSources) {
    this.#src = src;
  }

  /** Subscribes to change notifications (PostgreSQL NOTIFY, PGlite in-process). */
  async start(): Promise<void> {
    this.#stop = await listenForChanges(this.#src.db, (tenantId) => this.invalidate(tenantId));
  }

  async close(): Promise<void> {
    await this.#stop?.();
  }

  /** Drops what is kept of a workspace (null: of every workspace). */
  invalidate(tenantId: string | null): void {
    if (tenantId === null) this.#tenants.clear();
    else this.#tenants.delete(tenantId);
  }

  /** Drops a workspace's state if it is still the one read at this epoch. */
  async invalidateIfAt(tenantId: string, epoch: number): Promise<void> {
    const st = this.#tenants.get(tenantId);
    if (st && (await st.catch(() => undefined))?.epoch === epoch) this.#tenants.delete(tenantId);
  }

  /** The workspace's current state (its epoch read on first use). */
  tenant(tenantId: string): Promise<TenantState> {
    let st = this.#tenants.get(tenantId);
    if (!st) {
      if (this.#tenants.size >= MAX_TENANTS) this.#tenants.clear();
      st = readEpoch(this.#src.db, tenantId).then((epoch) => ({ tenantId, epoch, scopes: new Map() }));
      st.catch(() => this.#tenants.delete(tenantId));
      this.#tenants.set(tenantId, st);
    }
    return st;
  }

  async principal(token: string): Promise<GatePrincipal | null> {
    const hash = digest('sha256', token, 'base64');
    const hit = this.#tokens.get(hash);
    if (hit && Date.now() - hit.at < TOKEN_TTL_MS) {
      const st = await this.tenant(hit.p.tenantId);
      if (st.epoch === hit.epoch) return { principal: hit.p, epoch: hit.epoch };
    }
    let p = await this.#src.resolveToken(token);
    if (!p || !('tenantId' in p)) {
      this.#tokens.delete(hash);
      return p ? { principal: p, epoch: undefined } : null;
    }
    // The entry must have been read after its epoch: when the state is new,
    // its epoch was read after this token, so the token is read once more.
    const known = this.#tenants.has(p.tenantId);
    const st = await this.tenant(p.tenantId);
    if (!known) {
      p = await this.#src.resolveToken(token);
      if (!p || !('tenantId' in p)) return p ? { principal: p, epoch: undefined } : null;
      if (p.tenantId !== st.tenantId) return { principal: p, epoch: undefined };
    }
    if (this.#tokens.size >= MAX_TOKENS) this.#tokens.clear();
    this.#tokens.set(hash, { p, epoch: st.epoch, at: Date.now() });
    return { principal: p, epoch: st.epoch };
  }

  plan(st: TenantState) {
    st.plan ??= this.#once(
      st,
      () => this.#src.loadPlan(st.tenantId),
      () => delete st.plan,
    );
    return st.plan;
  }

  policy(st: TenantState) {
    st.policy ??= this.#once(
      st,
      () => this.#src.loadPolicy(st.tenantId),
      () => delete st.policy,
    );
    return st.policy;
  }

  scope(st: TenantState, agentKey: string): Promise<AgentScope> {
    let s = st.scopes.get(agentKey);
    if (!s) {
      if (st.scopes.size >= MAX_SCOPES) st.scopes.clear();
      s = this.#once(
        st,
        () => this.#src.loadScope(st.tenantId, agentKey),
        () => st.scopes.delete(agentKey),
      );
      st.scopes.set(agentKey, s);
    }
    return s;
  }

  /** A load shared by concurrent requests; a failed one is forgotten, so the next request tries again. */
  #once<T>(_st: TenantState, load: () => Promise<T>, forget: () => void): Promise<T> {
    const p = load();
    p.catch(forget);
    return p;
  }
}
