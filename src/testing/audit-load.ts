// Test and benchmark utility: sends many events to a service over real HTTP
// from N concurrent clients, remembering what was acknowledged, and helpers to
// check a workspace log against those acknowledgements. Tests and bench only.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../db/db.ts';
import { metaCommitment } from '../ingest/metadata.ts';
import { originOf } from '../ledger/checkpoints.ts';
import { formatVerifierKey, parseSignerKey, verifierKeyFor } from '../ledger/note.ts';
import type { BundleEntry } from '../ledger/verify-bundle.ts';

export type EventKind = 'invocation' | 'rogue';

export interface Ack {
  /** Position of the event in the generated sequence. */
  seq: number;
  kind: EventKind;
  status: number;
  body: Record<string, unknown>;
  /** Which base URL took it (with several nodes). */
  url: string;
}

export interface EventMix {
  /** Every rogueEvery-th event is a rogue event (default: none). */
  rogueEvery?: number;
  /** Every toolOutputEvery-th event that is an invocation carries a tool_output, scanned later by a background job (default: none). */
  toolOutputEvery?: number;
  /** Agents the events are spread over (default 3). */
  agents?: number;
  /** Tags correlation and user ids, so runs can be told apart. */
  run?: string;
}

/** Whether the seq-th event of a mix is an invocation with a tool_output. */
export function hasToolOutput(seq: number, opts: EventMix): boolean {
  return eventBody(seq, opts).payload.tool_output !== undefined;
}

/** The body of the seq-th event of a run: an invocation with content and PII, or every `rogueEvery`-th a rogue event. */
export function eventBody(
  seq: number,
  opts: EventMix = {},
): {
  kind: EventKind;
  path: string;
  payload: Record<string, unknown>;
} {
  const agents = opts.agents ?? 3;
  const run = opts.run ?? 'r';
  const agent = `agent-${seq % agents}`;
  if (opts.rogueEvery && seq % opts.rogueEvery === opts.rogueEvery - 1) {
    return {
      kind: 'rogue',
      path: '/api/v1/admin/agents/events/rogue',
      payload: {
        event_type: seq % 2 === 0 ? 'oos_tool' : 'prompt_injection',
        agent_key: agent,
        tool: 'shell.exec',
        // Unique per event, so each rogue leaf can be matched to its acknowledgement.
        user_id: `${run}-user-${seq}`,
        severity: 'high',
        source: 'audit-load',
      },
    };
  }
  return {
    kind: 'invocation',
    path: '/api/v1/admin/agents/events/invocation',
    payload: {
      agent_key: agent,
      mode: seq % 5 === 0 ? 'enforced' : 'observed',
      duration_ms: seq % 1000,
      correlation_id: `${run}-${seq}`,
      tool_name: 'crm.lookup',
      prompt: `Summarise ticket #${seq} for the customer jane.doe${seq}@example.com`,
      response: `Ticket ${seq}: the customer asked for a refund; call +1 415 555 ${String(1000 + (seq % 9000)).padStart(4, '0')}.`,
      context: `previous turns of conversation ${seq}`,
      tool_input: `{"email":"customer${seq}@example.org","query":"orders"}`,
      ...(opts.toolOutputEvery && seq % opts.toolOutputEvery === 0
        ? { tool_output: `3 orders for customer${seq}@example.org, card ending 4242, shipped to 1 Main St` }
        : {}),
    },
  };
}

/**
 * Posts `count` events, `clients` at a time, spread round-robin over the base
 * URLs. Never times a request out: an acknowledgement must not be lost to the
 * client giving up. Throws on a network error.
 */
export async function postEvents(
  urls: readonly string[],
  token: string,
  count: number,
  opts: EventMix & { clients?: number; start?: number } = {},
): Promise<Ack[]> {
  const clients = opts.clients ?? 16;
  const start = opts.start ?? 0;
  const acks: Ack[] = [];
  let next = start;
  const worker = async (client: number): Promise<void> => {
    const url = urls[client % urls.length]!;
    for (let seq = next++; seq < start + count; seq = next++) {
      const { kind, path, payload } = eventBody(seq, opts);
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const text = await res.text();
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { raw: text };
      }
      acks.push({ seq, kind, status: res.status, body, url });
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => worker(c)));
  return acks.sort((a, b) => a.seq - b.seq);
}

/** GETs JSON with a bearer token; throws unless 200. */
export async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Every entry of the caller's workspace log, read in pages of 1000. */
export async function fetchAllEntries(url: string, token: string, size: number): Promise<BundleEntry[]> {
  const all: BundleEntry[] = [];
  for (let start = 0; start < size; start += 1000) {
    const page = await getJson<{ entries: BundleEntry[] }>(
      `${url}/api/v1/audit/entries?start=${start}&end=${Math.min(start + 1000, size)}`,
      token,
    );
    all.push(...page.entries);
  }
  return all;
}

/**
 * The verifier key of a workspace log, derived from the signing key the service
 * keeps in its data directory (or the given signer key text): pinned, not
 * taken from the service's own API.
 */
export function pinnedVerifierKey(
  signer: { dataDir: string } | { signerKey: string },
  tenantId: string,
  ledgerOrigin = 'agent-ledger.local',
): string {
  const text =
    'signerKey' in signer ? signer.signerKey : readFileSync(join(signer.dataDir, 'ledger-signing.key'), 'utf8').trim();
  return formatVerifierKey(verifierKeyFor(parseSignerKey(text), originOf(ledgerOrigin, tenantId)));
}

/** Runs fn over items with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
    }),
  );
  return out;
}

/**
 * The user_id of the stored row behind each rogue leaf, sorted: v2 leaves
 * commit to an event's metadata instead of carrying it, so an event is matched
 * to its acknowledgement through its row (by log index), and the row through
 * the leaf's meta commitment.
 */
export async function rogueLeafUsers(
  db: Queryable,
  tenantId: string,
  entries: ReadonlyArray<{ index: number; leaf: string }>,
): Promise<string[]> {
  const rows = await db.query<Record<string, unknown> & { log_index: number; meta_salt: Uint8Array }>(
    'SELECT log_index, agent_key, event_type, actor_agent_key, tool, user_id, severity, source, meta_salt FROM rogue_events WHERE tenant_id = $1',
    [tenantId],
  );
  const byIndex = new Map(rows.map((r) => [r.log_index, r]));
  const users: string[] = [];
  for (const e of entries) {
    const leaf = JSON.parse(e.leaf) as Record<string, unknown>;
    if (leaf.kind !== 'rogue') continue;
    const row = byIndex.get(e.index);
    if (!row) throw new Error(`rogue leaf ${e.index} has no stored row`);
    const { log_index: _i, meta_salt, ...fields } = row;
    if (metaCommitment(new Uint8Array(meta_salt), fields) !== leaf.meta)
      throw new Error(`rogue leaf ${e.index} does not commit to its row`);
    users.push(String(row.user_id));
  }
  return users.sort();
}
