import type { AccountStatus } from './identity.ts';

// RFC 9457 problem details: the one shape of every error this service returns,
// and the one catalogue of its codes. A code fixes its HTTP status, so no
// caller can pair a code with another status; add a code here, nowhere else.

export const PROBLEM_CODES = {
  bad_request: 400,
  unauthorized: 401,
  invalid_code: 401,
  payment_required: 402,
  plan_limit: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  personal_email_domain: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
  // The request itself (URL, headers, body encoding), before any route runs.
  invalid_url: 400,
  uri_too_long: 414,
  headers_too_large: 431,
  request_timeout: 408,
  invalid_utf8: 400,
  duplicate_key: 400,
  forbidden_key: 400,
  // Accounts.
  domain_has_workspace: 409,
  mailbox_has_account: 409,
  // Events: Idempotency-Key (draft-ietf-httpapi-idempotency-key-header).
  idempotency_key_reused: 422,
  idempotency_key_in_flight: 409,
  // Read side: a record the deployment's records retention dropped (its leaf stays in the log).
  expired_by_retention: 410,
} as const satisfies Record<string, number>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface FieldError {
  field: string;
  message: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problemType(code: string): string {
  return `urn:agent-ledger:problem:${code}`;
}

export interface ProblemOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extension members of this problem type (RFC 9457 §3.2), e.g. `accepted_types`. */
  extra?: Record<string, unknown>;
  /**
   * Only for relaying a 4xx the HTTP framework raised itself (405, 406, …)
   * under a generic code; everything else takes its code's status.
   */
  status?: number;
}

/**
 * A 4xx problem is an answer, not a fault: its stack is never logged, and
 * capturing one (ten frames, through Fastify's async hooks) was a quarter of
 * the CPU of refusing an invalid event (docs/performance.md). Set to 0 just for the Error constructor, restored right after.
 */
let stackTraceLimit = Error.stackTraceLimit;
function withoutStack(detail: string): string {
  stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return detail;
}

/** A problem to answer with: thrown anywhere, rendered by http/errors.ts. */
export class HttpProblem extends Error {
  override name = 'HttpProblem';
  readonly status: number;
  readonly code: ProblemCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ProblemCode, detail: string, opts: ProblemOptions = {}) {
    const status = opts.status ?? PROBLEM_CODES[code];
    super(status < 500 ? withoutStack(detail) : detail);
    if (status < 500) Error.stackTraceLimit = stackTraceLimit;
    this.status = status;
    this.code = code;
    this.errors = opts.errors;
    this.headers = opts.headers ?? {};
    this.extra = opts.extra;
  }

  /** Keeps the underlying error for the logs; it never reaches the response. */
  withCause(cause: unknown): this {
    (this as { cause?: unknown }).cause = cause;
    return this;
  }

  body() {
    return {
      type: problemType(this.code),
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...this.extra,
    };
  }
}

export const badRequest = (detail: string) => new HttpProblem('bad_request', detail);
export const unauthorized = (detail = 'A valid bearer token is required.') =>
  new HttpProblem('unauthorized', detail, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (detail: string) => new HttpProblem('forbidden', detail);
export const notFound = (detail = 'Not found.') => new HttpProblem('not_found', detail);
export const conflict = (detail: string) => new HttpProblem('conflict', detail);
export const unprocessable = (detail: string, errors: FieldError[]) =>
  new HttpProblem('unprocessable', detail, { errors });
export const rateLimited = (
  retryAfterSeconds: number,
  code: 'rate_limited' | 'quota_exceeded' = 'rate_limited',
  detail = 'Too many requests; retry later.',
) => new HttpProblem(code, detail, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
// Problems raised in more than one place, worded once.
/** 401 for a bearer token that resolves to no principal (http/auth.ts, and the event endpoints' own gate). */
export const unknownToken = () => unauthorized('The bearer token is unknown, revoked or expired.');
/** 403 for a valid token of a kind the endpoint does not take. */
export const wrongTokenKind = () => forbidden('This token cannot call this endpoint.');
/** 400 for a body that is not JSON (the body parser, and Fastify's own parse errors). */
export const invalidJson = () => badRequest('The request body is not valid JSON.');
/** 500 whose answer says nothing of internals. */
export const internalError = () =>
  new HttpProblem('internal_error', 'The request could not be completed; nothing was recorded.');
export const serviceUnavailable = (detail: string, retryAfterSeconds?: number) =>
  new HttpProblem(
    'service_unavailable',
    detail,
    retryAfterSeconds === undefined ? {} : { headers: { 'retry-after': String(retryAfterSeconds) } },
  );

/** 402 for a workspace that may not write, saying why. */
export function paymentRequired(status: Exclude<AccountStatus, 'active'>): HttpProblem {
  const why: Record<Exclude<AccountStatus, 'active'>, string> = {
    trial_expired: 'The trial of this workspace has ended',
    sub_lapsed: 'The subscription of this workspace is past due',
    sub_canceled: 'The subscription of this workspace was canceled',
  };
  return new HttpProblem('payment_required', `${why[status]}; writes are disabled until it is renewed.`);
}
