import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { BLOCKED_ADDRESS, outboundDispatcher, type PrivateNetworks } from '../outbound/index.ts';
import type { DeliveryOutcome, DestinationTarget } from './kind.ts';

// One HTTP request to a destination, for every kind that speaks HTTP
// (webhook, slack, splunk_hec). The address guard refuses link-local and
// metadata addresses always and private ones when the operator denies them;
// a redirect is an answer, never followed (it could carry the signed event
// and the token elsewhere); one timeout covers connecting, waiting and
// reading; the answer is read up to MAX_RESPONSE_BYTES and dropped beyond.
// Never throws for anything the far end does: the outcome says what happened.
// Sent with undici's request(), not fetch(): fetch copies a body twice on its
// way to the socket (its web stream), a cost a Splunk HEC POST of up to 1 MB
// pays on every batch.

export const SEND_TIMEOUT_MS = 15_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

const dispatchers = new Map<PrivateNetworks, Dispatcher>();

/** The guarded connection pool for a DESTINATION_PRIVATE_NETWORKS setting (one per setting, shared). */
export function destinationDispatcher(privateNetworks: PrivateNetworks): Dispatcher {
  let d = dispatchers.get(privateNetworks);
  if (!d) {
    d = outboundDispatcher(privateNetworks);
    dispatchers.set(privateNetworks, d);
  }
  return d;
}

/** Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const h = header.trim();
  if (/^\d+$/.test(h)) return Number(h) * 1000;
  if (!/^[A-Za-z]{3},/.test(h)) return undefined;
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A URL a kind that speaks HTTP can use, or the problem with it. */
export function httpUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http or https URL';
  if (u.username || u.password) return 'must not carry credentials (give them as token)';
  if (u.hash) return 'must not carry a fragment';
  return undefined;
}

async function drain(body: Dispatcher.ResponseData['body'], max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = max - total;
    if (chunk.byteLength >= room) {
      chunks.push(chunk.subarray(0, room));
      body.destroy();
      break;
    }
    total += chunk.byteLength;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface HttpDelivery {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
  signal: AbortSignal;
  timeoutMs?: number;
}

/**
 * POST one body to a destination. ok on 2xx; gone on 410; Retry-After read on
 * any answer that has one (429, 503, …); a redirect is a failure naming where
 * it pointed. `error` is short and safe to show an admin: a status, the start
 * of the receiver's answer, or what went wrong on the way.
 */
export async function postToDestination(target: DestinationTarget, req: HttpDelivery): Promise<DeliveryOutcome> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(req.timeoutMs ?? SEND_TIMEOUT_MS);
  const signal = AbortSignal.any([req.signal, timeout]);
  const latency = () => Math.round(performance.now() - started);
  try {
    const res = await request(req.url, {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      signal,
      dispatcher: destinationDispatcher(target.privateNetworks ?? 'allow'),
    });
    const text = await drain(res.body, MAX_RESPONSE_BYTES);
    const status = res.statusCode;
    if (status >= 200 && status <= 299) return { ok: true, status, latencyMs: latency() };
    const after = retryAfterMs(header(res.headers, 'retry-after'));
    const outcome: DeliveryOutcome = { ok: false, status, latencyMs: latency(), error: statusError(status, res, text) };
    if (after !== undefined) outcome.retryAfterMs = after;
    if (status === 410) outcome.gone = true;
    return outcome;
  } catch (err) {
    type Failure = { code?: string; message?: string; cause?: Failure };
    const e = err as Failure;
    // The address guard's refusal, thrown by the connection (or, through fetch-like wrappers, its cause).
    const blocked = e.code === BLOCKED_ADDRESS ? e : e.cause?.code === BLOCKED_ADDRESS ? e.cause : undefined;
    let error: string;
    if (blocked) error = `address refused: ${blocked.message ?? ''}`;
    else if (req.signal.aborted) error = 'aborted';
    else if (timeout.aborted) error = `timeout after ${req.timeoutMs ?? SEND_TIMEOUT_MS} ms`;
    else {
      const code = e.code ?? e.cause?.code;
      error = `network: ${(code && NETWORK_ERRORS[code]) ?? code ?? e.message}`;
    }
    return { ok: false, error: error.slice(0, 300), latencyMs: latency() };
  }
}

/** Words for the socket errors a destination's admin reads in its delivery log; other codes are shown as they are. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** One header of an answer (the first, when it came more than once). */
function header(headers: Dispatcher.ResponseData['headers'], name: string): string | null {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
}

function statusError(status: number, res: Pick<Dispatcher.ResponseData, 'headers'>, text: string): string {
  if (status >= 300 && status <= 399)
    return `HTTP ${status} redirect to ${header(res.headers, 'location') ?? '?'} (not followed)`.slice(0, 300);
  const said = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return said ? `HTTP ${status}: ${said}` : `HTTP ${status}`;
}
