import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '@agent-ledger/client/schema';

export type Schemas = components['schemas'];

/** A problem+json answer, kept whole so screens can show title, detail and the request id. */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly code: string;
  readonly requestId: string | null;
  readonly errors: Array<{ field: string; message: string }>;
  constructor(status: number, body: unknown, requestId: string | null) {
    const p = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const title = typeof p.title === 'string' ? p.title : `HTTP ${status}`;
    const detail = typeof p.detail === 'string' ? p.detail : '';
    super(detail || title);
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.code = typeof p.code === 'string' ? p.code : '';
    this.requestId = requestId;
    this.errors = Array.isArray(p.errors) ? (p.errors as Array<{ field: string; message: string }>) : [];
  }
}

// The CSRF token lives in memory only; a reload fetches it again from
// GET /api/v1/console/session (the cookie itself is HttpOnly).
let csrfToken: string | null = null;
export function setCsrfToken(t: string | null) {
  csrfToken = t;
}

let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(f: () => void) {
  onUnauthorized = f;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken)
      request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(csrf);

/** Unwraps an openapi-fetch result: the data, or an ApiError thrown. */
export async function call<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (!response.ok) {
    if (response.status === 401) onUnauthorized();
    throw new ApiError(response.status, error, response.headers.get('x-request-id'));
  }
  return data as T;
}

/** A raw fetch for non-JSON answers (checkpoint text, report files), with the same error handling. */
export async function fetchRaw(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.method && init.method !== 'GET' && csrfToken) headers.set('x-csrf-token', csrfToken);
  const res = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  if (!res.ok) {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      /* not JSON */
    }
    if (res.status === 401) onUnauthorized();
    throw new ApiError(res.status, body, res.headers.get('x-request-id'));
  }
  return res;
}
