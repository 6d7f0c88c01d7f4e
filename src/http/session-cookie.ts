import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

// The console's session cookie and its CSRF defence (docs/console.md, "Session and CSRF").
//
// - The cookie is HttpOnly (no script reads it), SameSite=Strict (no other
//   site's page sends it) and Secure with the __Host- prefix (HTTPS only, this
//   host only, path /). Over plain http to a loopback address (a developer's
//   `npm start`) Secure is left out, since a browser would drop a Secure cookie
//   there, and the name loses the prefix, which requires Secure.
// - Every state-changing request authenticated by the cookie must carry
//   `x-csrf-token`: HMAC-SHA256 of the session token itself, handed to the
//   console in the sign-in answer and by GET /api/v1/console/session (a
//   same-origin read no other site can make). A custom header cannot be sent
//   cross-site without a CORS preflight, which this service never grants, and
//   the value is tied to the session. When an `Origin` header is present it
//   must be this service's own origin.

export const SECURE_COOKIE = '__Host-al_session';
export const PLAIN_COOKIE = 'al_session';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method);
}

/** What the Cookie header says about the console session. */
export type SessionCookie =
  | { kind: 'none' }
  | { kind: 'token'; token: string }
  /** Several session cookies with different values: one may have been planted. */
  | { kind: 'ambiguous' };

/**
 * The session token from the Cookie header. Off plain-http loopback only the
 * `__Host-` cookie counts: the browser guarantees that one was set by this
 * host over HTTPS with path /, while an unprefixed `al_session` can be planted
 * by a sibling subdomain or a plain-http answer (cookie tossing). When several
 * session cookies with different values arrive, none wins: the browser's order
 * is not an authority, and an attacker's cookie could come first. Long or odd
 * values are ignored before any lookup.
 */
export function sessionCookieOf(header: string | undefined, plainLoopback: boolean): SessionCookie {
  if (!header || header.length > 8192) return { kind: 'none' };
  let token: string | null = null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name !== SECURE_COOKIE && !(plainLoopback && name === PLAIN_COOKIE)) continue;
    const value = part.slice(eq + 1).trim();
    // A malformed value under a session name is still a session cookie
    // someone sent: it makes the header ambiguous like any other.
    if (token !== null && value !== token) return { kind: 'ambiguous' };
    token = value;
  }
  if (token === null) return { kind: 'none' };
  return /^[0-9A-Za-z_]{1,128}$/.test(token) ? { kind: 'token', token } : { kind: 'none' };
}

export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('agent-ledger console csrf v1').digest('base64url');
}

export function csrfMatches(sessionToken: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string' || given.length > 128) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const got = Buffer.from(given);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** True when the request came over plain http to a loopback host (no TLS to protect a Secure cookie). */
export function isPlainLoopback(req: FastifyRequest): boolean {
  if (req.protocol !== 'http') return false;
  const host = req.hostname.toLowerCase();
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
}

/** Whether an Origin header (when present) names this service. */
export function originAllowed(req: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (origin === `${req.protocol}://${req.host}`) return true;
  if (publicUrl) {
    try {
      return new URL(publicUrl).origin === origin;
    } catch {
      return false;
    }
  }
  return false;
}

export function sessionCookie(req: FastifyRequest, token: string, maxAgeSeconds: number): string {
  const plain = isPlainLoopback(req);
  const name = plain ? PLAIN_COOKIE : SECURE_COOKIE;
  return `${name}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${plain ? '' : '; Secure'}`;
}

/** Clears both cookie names (whichever the browser holds). */
export function clearedSessionCookies(): string[] {
  return [
    `${SECURE_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure`,
    `${PLAIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`,
  ];
}
