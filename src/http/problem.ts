// RFC 9457 problem details: the one shape of every error this service returns.

export type ProblemCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'plan_limit'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'personal_email_domain'
  | 'invalid_code'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'internal_error'
  | 'service_unavailable'
  // The request itself (URL, headers, body encoding), before any route runs.
  | 'invalid_url'
  | 'uri_too_long'
  | 'headers_too_large'
  | 'request_timeout'
  | 'method_not_allowed'
  | 'invalid_utf8'
  | 'duplicate_key'
  | 'forbidden_key'
  // Accounts.
  | 'domain_has_workspace';

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

export class HttpProblem extends Error {
  override name = 'HttpProblem';
  readonly status: number;
  readonly code: ProblemCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** Extension members of this problem type (RFC 9457 §3.2), e.g. `accepted_types`. */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    status: number,
    code: ProblemCode,
    detail: string,
    opts: { errors?: FieldError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(detail);
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

export const badRequest = (detail: string) => new HttpProblem(400, 'bad_request', detail);
export const unauthorized = (detail = 'A valid bearer token is required.') =>
  new HttpProblem(401, 'unauthorized', detail, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (detail: string) => new HttpProblem(403, 'forbidden', detail);
export const notFound = (detail = 'Not found.') => new HttpProblem(404, 'not_found', detail);
export const conflict = (detail: string) => new HttpProblem(409, 'conflict', detail);
export const unprocessable = (detail: string, errors: FieldError[]) =>
  new HttpProblem(422, 'unprocessable', detail, { errors });
export const rateLimited = (retryAfterSeconds: number, code: 'rate_limited' | 'quota_exceeded' = 'rate_limited', detail = 'Too many requests; retry later.') =>
  new HttpProblem(429, code, detail, { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
