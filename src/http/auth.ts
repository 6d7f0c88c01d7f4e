import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type AccountPrincipal,
  type AccountStatus,
  bearerToken,
  forbidden,
  paymentRequired,
  type Principal,
  type Role,
  unauthorized,
  unknownToken,
  wrongTokenKind,
} from '../core/index.ts';
import {
  CSRF_HEADER,
  csrfMatches,
  csrfTokenFor,
  isPlainLoopback,
  isSafeMethod,
  originAllowed,
  type SessionCookie,
  sessionCookieOf,
} from './session-cookie.ts';

/**
 * What a route accepts:
 * - `account`: API tokens (`svc_live_`), optionally limited to `roles`;
 * - `ingest`: API tokens of an allowed role, scoped ingress tokens, the fallback token;
 * - `operator`: the operator token only;
 * - `optional`: public, but a bearer token given must be valid (the route decides by `principal`);
 * - `none`: public.
 * `write: true` routes need an active account (402 otherwise).
 */
export interface RouteAuth {
  auth: 'none' | 'optional' | 'account' | 'ingest' | 'operator';
  roles?: readonly Role[];
  write?: boolean;
}

export interface AuthServices {
  /** Resolves a bearer token to a principal, or null when it is unknown, revoked or malformed. */
  resolve(token: string): Promise<Principal | null>;
  /** The same for the event endpoints (`ingest` routes), from memory when it can; `req`: the request it authenticates. */
  resolveForEvents?(token: string, req: FastifyRequest): Promise<Principal | null>;
  /** The derived account status of a workspace (null when the workspace does not exist). */
  accountStatus(tenantId: string): Promise<AccountStatus | null>;
  /** Resolves a console session token (the cookie); without it, cookies authenticate nothing. */
  resolveSession?(token: string): Promise<Principal | null>;
  /** PUBLIC_URL, an origin accepted besides the request's own for cookie-authenticated writes. */
  publicUrl?: string | undefined;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds RouteAuth to Fastify's route config
  interface FastifyContextConfig extends Partial<RouteAuth> {}
  interface FastifyRequest {
    principal: Principal | null;
    /** The CSRF token of the console session that authenticated this request (cookie auth only). */
    consoleCsrf: string | null;
  }
}

/** Throws 402 unless the workspace may write. */
export async function requireActive(services: AuthServices, tenantId: string): Promise<void> {
  const status = await services.accountStatus(tenantId);
  if (status === null) throw forbidden('Unknown workspace.');
  if (status !== 'active') throw paymentRequired(status);
}

/**
 * Authenticates every request before its body is parsed: an unauthenticated
 * caller never costs a JSON parse, and 401/403/402 come before 422.
 */
export function registerAuth(app: FastifyInstance, services: AuthServices): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('consoleCsrf', null);
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const cfg = req.routeOptions.config;
    const mode = cfg.auth ?? 'none';
    if (mode === 'none') return;
    let principal: Principal | null;
    // A request with an Authorization header is judged by it alone; the
    // console's cookie counts only when there is none.
    // The event endpoints (JSON and OTLP alike) are for machines and take a
    // bearer token only: a console session never authenticates them, so no
    // page a signed-in browser opens can write events, and every event names
    // a token that can be revoked on its own.
    const cookie: SessionCookie =
      req.headers.authorization === undefined && services.resolveSession && mode !== 'ingest'
        ? sessionCookieOf(req.headers.cookie, isPlainLoopback(req))
        : { kind: 'none' };
    if (
      mode === 'ingest' &&
      req.headers.authorization === undefined &&
      sessionCookieOf(req.headers.cookie, true).kind !== 'none'
    ) {
      throw unauthorized(
        'The event endpoints take a bearer token (an API or ingress token); a console session does not authenticate them.',
      );
    }
    if (cookie.kind === 'ambiguous') {
      if (mode === 'optional') return;
      throw unauthorized(
        'Several console session cookies were sent; none is trusted. Clear the cookies of this site and sign in again.',
      );
    }
    if (cookie.kind === 'token') {
      const session = cookie.token;
      principal = await services.resolveSession!(session);
      if (!principal && mode === 'optional') return; // a stale cookie on a public route: anonymous
      if (!principal) throw unauthorized('The console session is unknown, signed out or expired; sign in again.');
      if (
        !isSafeMethod(req.method) &&
        (!originAllowed(req, services.publicUrl) || !csrfMatches(session, req.headers[CSRF_HEADER]))
      ) {
        throw forbidden(
          'A console request that changes something must come from this origin with its x-csrf-token header.',
        );
      }
      req.consoleCsrf = csrfTokenFor(session);
    } else {
      if (mode === 'optional' && req.headers.authorization === undefined) return;
      const token = bearerToken(req.headers.authorization);
      if (token === undefined) throw unauthorized();
      principal = await (mode === 'ingest' && services.resolveForEvents
        ? services.resolveForEvents(token, req)
        : services.resolve(token));
      if (!principal) throw unknownToken();
    }
    if (mode === 'optional') {
      req.principal = principal;
      return;
    }
    const allowed =
      mode === 'operator'
        ? principal.kind === 'operator'
        : mode === 'account'
          ? principal.kind === 'account'
          : principal.kind === 'account' || principal.kind === 'ingress' || principal.kind === 'fallback';
    if (!allowed) {
      // A valid token of the wrong kind is a 401 for operator routes (the
      // operator API must not reveal itself) and a 403 elsewhere.
      if (mode === 'operator') throw unauthorized();
      throw wrongTokenKind();
    }
    if (principal.kind === 'account' && cfg.roles && !cfg.roles.includes(principal.role)) {
      throw forbidden(`The ${principal.role} role cannot call this endpoint.`);
    }
    req.principal = principal;
    if (cfg.write && (principal.kind === 'account' || principal.kind === 'ingress')) {
      await requireActive(services, principal.tenantId);
    }
  });
}

export function accountOf(req: FastifyRequest): AccountPrincipal {
  const p = req.principal;
  if (p?.kind !== 'account') throw unauthorized();
  return p;
}
