// One request to an OpenAI-compatible chat-completions endpoint (OpenAI, Azure
// OpenAI, vLLM, Ollama, LiteLLM all serve POST {base}/chat/completions). It classifies the outcome for the retry
// loop (ask-judge.ts) and never throws for anything the far end does.
// Bounded: a timeout covers connecting, waiting and reading the body, and the
// body is read up to MAX_RESPONSE_BYTES and then dropped, so a judge answering
// 50 MB costs us at most that much memory.

import { fetch, type Dispatcher, type Response } from 'undici';
import { BLOCKED_ADDRESS, outboundDispatcher } from '../outbound/index.ts';

export const MAX_RESPONSE_BYTES = 256 * 1024;

/** Without the operator's setting (tests, scripts): private networks allowed, link-local never. */
const DEFAULT_DISPATCHER = outboundDispatcher('allow');

export type ChatResult =
  | { kind: 'ok'; body: string }
  /** Worth another attempt: timeout, network error, 429, 5xx. retryAfterMs from a Retry-After header. */
  | { kind: 'retryable'; error: string; retryAfterMs?: number }
  /** Not worth another attempt: another HTTP status, a redirect, an oversized body, or our own abort. */
  | { kind: 'fatal'; error: string };

/**
 * {base_url}/chat/completions, keeping a query string (e.g. ?api-version=) and
 * without doubling a trailing slash. Throws for what fetch would refuse
 * anyway (not http(s), credentials in the URL), so no call is spent on it.
 */
export function completionsUrl(baseUrl: string): URL {
  const u = new URL(baseUrl);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('base_url is not http(s)');
  if (u.username || u.password) throw new Error('base_url carries credentials');
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/chat/completions`;
  return u;
}

/** Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const h = header.trim();
  if (/^\d+$/.test(h)) return Number(h) * 1000;
  if (!/^[A-Za-z]{3},/.test(h)) return undefined; // Date.parse reads '-1' as a year
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function readBounded(res: Response, max: number): Promise<string | null> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > max) {
    await res.body?.cancel();
    return null;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i;

/**
 * How the key is presented: `Authorization: Bearer` everywhere (OpenAI, vLLM
 * --api-key, Ollama, LiteLLM), except Azure OpenAI hosts, whose deployment
 * URLs (…/openai/deployments/NAME?api-version=…) and v1 API both take an
 * Azure key in the `api-key` header (Bearer there means an Entra ID token).
 * No key, no header.
 */
export function authHeaders(url: URL, apiKey: string | null): Record<string, string> {
  if (apiKey === null) return {};
  return AZURE_HOST.test(url.hostname) ? { 'api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
}

export interface ChatRequest {
  url: URL;
  apiKey: string | null;
  body: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  maxResponseBytes?: number;
  /** The connection pool with the address guard (outbound/address-guard.ts); the service's follows JUDGE_PRIVATE_NETWORKS. */
  dispatcher?: Dispatcher;
}

export async function postChatCompletion(req: ChatRequest): Promise<ChatResult> {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...authHeaders(req.url, req.apiKey),
  };
  try {
    // redirect 'manual': a redirect is an error, never followed (it could point
    // the case and the key elsewhere).
    const res = await fetch(req.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(req.body),
      signal,
      redirect: 'manual',
      dispatcher: req.dispatcher ?? DEFAULT_DISPATCHER,
    });
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel();
      const after = retryAfterMs(res.headers.get('retry-after'));
      return after === undefined
        ? { kind: 'retryable', error: `http_${res.status}` }
        : { kind: 'retryable', error: `http_${res.status}`, retryAfterMs: after };
    }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel();
      return { kind: 'fatal', error: `http_${res.status}` };
    }
    const body = await readBounded(res, req.maxResponseBytes ?? MAX_RESPONSE_BYTES);
    return body === null ? { kind: 'fatal', error: 'too_large' } : { kind: 'ok', body };
  } catch (err) {
    if (req.signal?.aborted) return { kind: 'fatal', error: 'aborted' };
    // An address the guard refuses stays refused: no retry, no further call.
    if ((err as { cause?: { code?: string } }).cause?.code === BLOCKED_ADDRESS)
      return { kind: 'fatal', error: 'blocked_address' };
    if (timeout.aborted) return { kind: 'retryable', error: 'timeout' };
    return { kind: 'retryable', error: 'network' };
  }
}
