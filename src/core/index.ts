// The core module's face: what other modules may use. Nothing else of core/ is imported from outside it.
// createMetrics is not here: the detector workers load this file (the token format), and prom-client
// has no business in them; the composition root imports core/metrics.ts itself (see ALLOWED_INTERNAL).

export { BEARER_TOKEN, bearerToken } from './bearer.ts';
export { commandError, commandOptions } from './command-line.ts';
export type { AppContext } from './context.ts';
export type { AccountPrincipal, AccountStatus, Principal, Role } from './identity.ts';
export { decodeCursor, encodeCursor, page } from './paging.ts';
export { Poller } from './poller.ts';
export type { PollerOptions } from './poller.ts';
export {
  HttpProblem,
  badRequest,
  conflict,
  forbidden,
  internalError,
  invalidJson,
  notFound,
  paymentRequired,
  rateLimited,
  serviceUnavailable,
  unauthorized,
  unknownToken,
  unprocessable,
  wrongTokenKind,
} from './problems.ts';
export type { FieldError } from './problems.ts';
export { TOKEN_PREFIXES, checksum, newToken, parseToken, safeEqual } from './token-format.ts';
export type { TokenPrefix } from './token-format.ts';
export { MAX_TEXT, clipText, toolResultText } from './tool-result.ts';
