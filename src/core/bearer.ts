// The one parse of an `Authorization: Bearer <token>` header: every endpoint
// of the service (http/auth.ts; the event endpoints, JSON and OTLP, too) and
// mcp-proxy's listening side read it here.
//
// The scheme is case-insensitive (RFC 9110 §11.1); the token itself is not.
// RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token — one space or more.
const TOKEN = '[\\x21-\\x7e]{1,512}';
const BEARER = new RegExp(`^[Bb][Ee][Aa][Rr][Ee][Rr] +(${TOKEN})$`);

/** What a bearer token may be: 1-512 visible ASCII characters (no space). */
export const BEARER_TOKEN = new RegExp(`^${TOKEN}$`);

/** The token of an `Authorization: Bearer <token>` header, or undefined when it is absent or not that form. */
export function bearerToken(header: string | undefined): string | undefined {
  return BEARER.exec(header ?? '')?.[1];
}
