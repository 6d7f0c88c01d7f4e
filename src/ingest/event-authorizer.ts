import type { FastifyRequest } from 'fastify';
import { accountStatus } from '../accounts/index.ts';
import {
  type AccountStatus,
  forbidden,
  HttpProblem,
  paymentRequired,
  type Principal,
  unauthorized,
  unknownToken,
  wrongTokenKind,
} from '../core/index.ts';
import type { PlanCaps } from '../config/index.ts';
import type { Gate, GatePrincipal, TenantState } from './gate.ts';

// Who may record events in which workspace: one rule for every door events come in by (the single
// and batch endpoints, the gateways' hooks, attached outputs, OTLP), and the workspace's standing.

/** The workspace a request writes to, as authorized now; throws the whole request's 401/402/403. */
export interface Authorized {
  tenantId: string;
  state: TenantState;
  caps: PlanCaps;
  /** The API or ingress token writing (undefined: the fallback token, the OTLP receiver's own door). */
  tokenId?: string | undefined;
}

/** The roles of an API token that may record events. */
export const EVENT_WRITERS = ['admin', 'operator'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where a request names its workspace, for the operator's fallback token
 * (which has none of its own): `named` is what the request says, `missing`
 * what a request that names none (or several) is told.
 */
export interface NamedWorkspace {
  named(): unknown;
  missing: string;
}

/**
 * The workspace a principal records events in. An API token of a writer
 * role and an ingress token write to their own workspace: one named in the
 * request is ignored, even another one. The fallback token writes to the one
 * the request names, by id (its existence is the workspace check's). No other
 * token records events.
 */
export function eventTenant(p: Principal | undefined, where: NamedWorkspace): string {
  if (p === undefined) throw unauthorized();
  if (p.kind === 'account') {
    if (!(EVENT_WRITERS as readonly string[]).includes(p.role))
      throw forbidden(`The ${p.role} role cannot call this endpoint.`);
    return p.tenantId;
  }
  if (p.kind === 'ingress') return p.tenantId;
  if (p.kind !== 'fallback') throw wrongTokenKind();
  const named = where.named();
  if (typeof named !== 'string') throw forbidden(where.missing);
  if (!UUID.test(named)) throw forbidden('Unknown workspace.');
  return named.toLowerCase();
}

/** A workspace's standing for writing: it must exist (a 403 otherwise) and be active (a 402 otherwise). */
export function requireActive<W extends { plan: Parameters<typeof accountStatus>[0] }>(ws: W | null, now: Date): W {
  if (!ws) throw forbidden('Unknown workspace.');
  const status = accountStatus(ws.plan, now);
  if (status !== 'active') throw paymentRequired(status as Exclude<AccountStatus, 'active'>);
  return ws;
}

/** The authorization of events, over the gate's cached tokens, workspaces and plans. */
export class EventAuthorizer {
  readonly #gate: Gate;
  readonly #now: () => Date;
  /** What authenticating a request found for its token (IngestDeps.resolvedFor). */
  readonly #resolvedFor: WeakMap<object, GatePrincipal>;

  constructor(gate: Gate, now: () => Date, resolvedFor: WeakMap<object, GatePrincipal>) {
    this.#gate = gate;
    this.#now = now;
    this.#resolvedFor = resolvedFor;
  }

  /**
   * A request's authorization (`token`: its bearer token), decided from the cached gate (fresh: from the
   * database, after the write found the cache stale). A refusal is never
   * answered from the cache alone: the change that lifts it (a plan paid, a
   * role raised) may be committed on this or another node while its
   * notification is still on the way. Refusals are rare, so confirming one
   * with fresh reads costs nothing that matters.
   */
  request(
    req: FastifyRequest,
    token: string | undefined,
    where: NamedWorkspace,
  ): (fresh: boolean) => Promise<Authorized & { createdAt: Date }> {
    return async (fresh) => {
      if (fresh) return this.#decide(req, token, where, true);
      try {
        return await this.#decide(req, token, where, false);
      } catch (err) {
        // 402 and 403 come from cached state; a 401 was read from the database already.
        if (!(err instanceof HttpProblem) || (err.status !== 402 && err.status !== 403)) throw err;
        return this.#decide(req, token, where, true);
      }
    };
  }

  /**
   * The workspace a caller has authorized already (OTLP's export, through
   * IngestModule.recordBatch): read from the gate, it must exist.
   */
  workspace(tenantId: string): (fresh: boolean) => Promise<Authorized> {
    return async (fresh) => {
      const { state, ws } = await this.#read(tenantId, fresh);
      if (!ws) throw new Error(`unknown workspace ${tenantId}`);
      return { tenantId, state, caps: ws.caps };
    };
  }

  async #decide(
    req: FastifyRequest,
    token: string | undefined,
    where: NamedWorkspace,
    fresh: boolean,
  ): Promise<Authorized & { createdAt: Date }> {
    const resolved = await this.#principal(req, token, fresh);
    const p = resolved.principal;
    const tenantId = eventTenant(p, where);
    const { state, ws } = await this.#read(tenantId, fresh);
    // The principal was read under an older epoch: read it again under this one.
    if (resolved.epoch !== undefined && resolved.epoch !== state.epoch) return this.#decide(req, token, where, true);
    const active = requireActive(ws, this.#now());
    return {
      tenantId,
      state,
      caps: active.caps,
      createdAt: active.createdAt,
      tokenId: 'tokenId' in p ? p.tokenId : undefined,
    };
  }

  /** The request's principal: found moments ago by the authentication hook, under the same cache; afresh when a refusal is confirmed. */
  async #principal(req: FastifyRequest, token: string | undefined, fresh: boolean): Promise<GatePrincipal> {
    if (token === undefined) throw unauthorized();
    const resolved = (!fresh && this.#resolvedFor.get(req)) || (await this.#gate.principal(token));
    if (!resolved) throw unknownToken();
    return resolved;
  }

  async #read(tenantId: string, fresh: boolean) {
    if (fresh) this.#gate.invalidate(tenantId);
    const state = await this.#gate.tenant(tenantId);
    return { state, ws: await this.#gate.plan(state) };
  }
}
