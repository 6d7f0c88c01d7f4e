import type { DeliveryOutcome, DestinationTarget, KindSender, OutboundEvent } from '../kind.ts';
import { httpUrlProblem, postToDestination } from '../outbound-http.ts';
import { payloadOf } from './payload.ts';

// Splunk HTTP Event Collector, event endpoint: one POST carries a batch as
// concatenated HEC event objects (no array, no separator needed), so a SIEM
// keeps up with ingest at a request per several hundred events: a batch is
// up to HEC_MAX_BATCH events in POSTs of at most HEC_MAX_BODY bytes, sent one
// after the other (each request a round trip the engine waits for, on an
// event loop ingest keeps busy: fewer of them is what lets delivery keep
// up). A POST refused fails the batch, and the engine sends it again whole
// (the POSTs before it again too: same ids, at least once). HEC answers 200
// {"text":"Success","code":0} when it took them all; anything else (400 with
// "invalid-event-number", 403 bad token, 503 busy) means the batch is retried
// whole, which is safe: each event carries its id for deduplication.

export const HEC_PATH = '/services/collector/event';
export const HEC_MAX_BATCH = 1_000;
/** Bytes a POST carries at most: Splunk's HEC accepts far more by default (max_content_length), collectors in front of it often 1 MB. */
export const HEC_MAX_BODY = 1_000_000;

/** The endpoint a destination URL names: the HEC event endpoint itself, or the collector's base URL. */
export function hecEndpoint(url: string): string {
  const u = new URL(url);
  const path = u.pathname.replace(/\/+$/, '');
  if (path === '') u.pathname = HEC_PATH;
  else if (path.endsWith('/services/collector')) u.pathname = `${path}/event`;
  return u.toString();
}

export function hecUrlProblem(url: string): string | undefined {
  const p = httpUrlProblem(url);
  if (p) return p;
  const path = new URL(url).pathname.replace(/\/+$/, '');
  if (path === '' || path.endsWith('/services/collector') || path.endsWith(HEC_PATH)) return undefined;
  return `must be the HEC endpoint (https://host:8088${HEC_PATH}) or its base URL`;
}

/** One HEC event object: time in epoch seconds (ms precision) from when it happened. */
export function hecEvent(target: Pick<DestinationTarget, 'format'>, event: OutboundEvent): Record<string, unknown> {
  const at = Date.parse(event.occurred_at);
  const out: Record<string, unknown> = {};
  if (!Number.isNaN(at)) out['time'] = at / 1000;
  // The log origin's first segment is the service's host name: what a SIEM groups a source by.
  const host = event.evidence.log_origin.split('/')[0];
  if (host) out['host'] = host;
  out['source'] = 'agent-ledger';
  out['sourcetype'] = `agent-ledger:${target.format}`;
  out['event'] = payloadOf(target, event);
  return out;
}

/**
 * JSON.stringify(hecEvent(target, event)), the same text, with the payload
 * stringified once and what surrounds it made once per log origin (`heads`,
 * one batch's: a batch is one workspace's log).
 */
export function hecEventText(
  target: Pick<DestinationTarget, 'format'>,
  event: OutboundEvent,
  heads: Map<string, string> = new Map(),
): string {
  const origin = event.evidence.log_origin;
  let head = heads.get(origin);
  if (head === undefined) {
    const host = origin.split('/')[0];
    head = `${host ? `"host":${JSON.stringify(host)},` : ''}"source":"agent-ledger","sourcetype":${JSON.stringify(`agent-ledger:${target.format}`)},"event":`;
    heads.set(origin, head);
  }
  const at = Date.parse(event.occurred_at);
  const time = Number.isNaN(at) ? '' : `"time":${JSON.stringify(at / 1000)},`;
  return `{${time}${head}${JSON.stringify(payloadOf(target, event))}}`;
}

/**
 * A batch's HEC event texts as POST bodies of at most HEC_MAX_BODY bytes
 * (an event bigger than that alone), newline-separated, each written straight
 * into one buffer: no joined string that is encoded again. A text's byte
 * count is computed only near a body's end, where its worst case (3 bytes a
 * UTF-16 unit) might not fit.
 */
export function hecBodies(target: Pick<DestinationTarget, 'format'>, events: readonly OutboundEvent[]): Buffer[] {
  const heads = new Map<string, string>();
  const texts = events.map((e) => hecEventText(target, e, heads));
  let left = 0;
  for (const t of texts) left += t.length + 1;
  const out: Buffer[] = [];
  let body = Buffer.allocUnsafe(0);
  let at = 0;
  for (const t of texts) {
    left -= t.length + 1;
    const room = body.length - at - (at > 0 ? 1 : 0);
    const bytes = t.length * 3 <= room ? -1 : Buffer.byteLength(t);
    if (bytes >= 0 && bytes > room) {
      if (at > 0) out.push(body.subarray(0, at));
      if (bytes >= HEC_MAX_BODY) {
        out.push(Buffer.from(t, 'utf8'));
        body = Buffer.allocUnsafe(0);
        at = 0;
        continue;
      }
      body = Buffer.allocUnsafe(Math.min(HEC_MAX_BODY, bytes + 3 * left));
      at = 0;
    }
    if (at > 0) body[at++] = 0x0a;
    at += body.write(t, at, 'utf8');
  }
  if (at > 0) out.push(body.subarray(0, at));
  return out;
}

export const splunkHecSender: KindSender = {
  kind: 'splunk_hec',
  maxBatch: HEC_MAX_BATCH,
  validateUrl: hecUrlProblem,
  async send(
    target: DestinationTarget,
    events: readonly OutboundEvent[],
    signal: AbortSignal,
  ): Promise<DeliveryOutcome> {
    if (events.length === 0) return { ok: true, latencyMs: 0 };
    if (events.length > HEC_MAX_BATCH)
      return { ok: false, error: `at most ${HEC_MAX_BATCH} events a batch`, latencyMs: 0 };
    if (!target.token) return { ok: false, error: 'the destination has no HEC token', latencyMs: 0 };
    const problem = hecUrlProblem(target.url);
    if (problem) return { ok: false, error: `url ${problem}`, latencyMs: 0 };
    const url = hecEndpoint(target.url);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'agent-ledger',
      authorization: `Splunk ${target.token}`,
    };
    let latencyMs = 0;
    let last: DeliveryOutcome = { ok: true, latencyMs: 0 };
    for (const body of hecBodies(target, events)) {
      last = await postToDestination(target, { url, headers, body, signal });
      latencyMs += last.latencyMs;
      if (!last.ok) break;
    }
    return { ...last, latencyMs };
  },
};
