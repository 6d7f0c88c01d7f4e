// `agent-ledger verify --entry FILE`: an event as a destination delivered it
// (the native JSON, an OCSF record, or either wrapped in a Splunk HEC envelope)
// names its audit-trail entry: the log's origin, the entry's index, its leaf
// hash and, when one covered it, a signed checkpoint. This file reads that
// evidence and checks it against the log `verify` has already verified: the
// entry at that index must hash to that leaf hash (the recomputed root binds
// every leaf to the signed checkpoint), and the event's own checkpoint must be
// signed by a trusted key and be a prefix of the verified log.

import { readFileSync } from 'node:fs';
import {
  type BundleEntry,
  type Checkpoint,
  decodeBase64,
  encodeBase64,
  type Failure,
  leafHashOf,
  NoteError,
  openCheckpoint,
  parseVerifierKey,
  prefixRoots,
} from '../ledger/index.ts';

/** The evidence a delivered event carries. */
export interface DeliveredEvidence {
  /** Where it came from: the file name, or "-" for standard input. */
  source: string;
  id: string | undefined;
  type: string | undefined;
  origin: string;
  index: number;
  leafHash: Uint8Array;
  checkpoint: string | undefined;
}

/** The file cannot be read as a delivered event: nothing was verified. */
export class UnreadableEntry extends Error {}

export function readDeliveredEvent(path: string): DeliveredEvidence {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UnreadableEntry(
      `--entry ${path} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UnreadableEntry(`--entry ${path} is not JSON (give one delivered event)`);
  }
  const found = evidenceOf(json);
  if (typeof found === 'string') throw new UnreadableEntry(`--entry ${path}: ${found}`);
  return { source: path, ...found };
}

type Evidence = Omit<DeliveredEvidence, 'source'>;

function evidenceOf(json: unknown): Evidence | string {
  if (!isRecord(json)) return 'not a JSON object';
  // A Splunk HEC envelope holds the event under "event".
  if (isRecord(json['event']) && json['evidence'] === undefined && json['attestation_list'] === undefined) {
    return evidenceOf(json['event']);
  }
  if (isRecord(json['evidence'])) return nativeEvidence(json, json['evidence']);
  if (Array.isArray(json['attestation_list'])) return ocsfEvidence(json);
  return 'no evidence in it: a native event has "evidence", an OCSF record "attestation_list"';
}

function nativeEvidence(event: Record<string, unknown>, ev: Record<string, unknown>): Evidence | string {
  const { log_origin: origin, index, leaf_hash: leafHash, checkpoint } = ev;
  if (typeof origin !== 'string' || origin === '') return 'evidence.log_origin is missing';
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
    return 'evidence.index is not an entry index';
  }
  const hash = typeof leafHash === 'string' ? decodeHash(leafHash) : undefined;
  if (!hash) return 'evidence.leaf_hash is not a SHA-256 hash (base64 or hex)';
  if (checkpoint !== undefined && typeof checkpoint !== 'string') return 'evidence.checkpoint is not a signed note';
  return {
    id: typeof event['id'] === 'string' ? event['id'] : undefined,
    type: typeof event['type'] === 'string' ? event['type'] : undefined,
    origin,
    index,
    leafHash: hash,
    checkpoint,
  };
}

function ocsfEvidence(record: Record<string, unknown>): Evidence | string {
  const att = (record['attestation_list'] as unknown[]).find(isRecord);
  const fp = att && isRecord(att['fingerprint']) ? att['fingerprint'] : undefined;
  if (!att || !fp) return 'attestation_list holds no attestation with a fingerprint';
  const index = typeof att['uid'] === 'string' && /^(0|[1-9][0-9]*)$/.test(att['uid']) ? Number(att['uid']) : NaN;
  if (!Number.isSafeInteger(index)) return 'the attestation uid is not an entry index';
  const hash = typeof fp['value'] === 'string' ? decodeHash(fp['value']) : undefined;
  if (!hash) return 'the attestation fingerprint is not a SHA-256 hash';
  if (typeof att['chain_uid'] !== 'string' || att['chain_uid'] === '') return 'the attestation names no log';
  const metadata = isRecord(record['metadata']) ? record['metadata'] : {};
  return {
    id: typeof metadata['uid'] === 'string' ? metadata['uid'] : undefined,
    type: typeof metadata['event_code'] === 'string' ? metadata['event_code'] : undefined,
    origin: att['chain_uid'],
    index,
    leafHash: hash,
    checkpoint: undefined,
  };
}

function decodeHash(text: string): Uint8Array | undefined {
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? new Uint8Array(Buffer.from(text, 'hex')) : decodeBase64(text);
  return bytes?.length === 32 ? bytes : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the report prints for one delivered event that passed. */
export function describeEntry(e: DeliveredEvidence): string {
  const what = [e.type, e.id].filter(Boolean).join(' ');
  return `${e.source}${what ? ` (${what})` : ''}: entry ${e.index}`;
}

/**
 * Checks delivered events against a log whose leaves were all read and verified
 * against `verified` (so each entry's leaf is bound to its signed root).
 */
export function checkDeliveredEvents(
  events: readonly DeliveredEvidence[],
  verified: Checkpoint,
  entries: readonly BundleEntry[],
  keys: readonly string[],
): Failure[] {
  const failures: Failure[] = [];
  const byIndex = new Map(entries.map((e) => [e.index, e]));
  let rootAt: ((size: number) => Uint8Array) | undefined;
  for (const e of events) {
    const fail = (message: string) =>
      failures.push({ kind: 'evidence', index: e.index, message: `${e.source}: ${message}` });
    if (e.origin !== verified.origin) {
      fail(`the event names the log ${JSON.stringify(e.origin)}, not ${JSON.stringify(verified.origin)}`);
      continue;
    }
    if (e.index >= verified.size) {
      fail(`entry ${e.index} is not in the verified checkpoint of size ${verified.size}: verify against a later one`);
      continue;
    }
    const entry = byIndex.get(e.index);
    if (!entry) {
      fail(`entry ${e.index} was not read`);
      continue;
    }
    if (!equal(leafHashOf(entry.leaf), e.leafHash)) {
      fail(
        `entry ${e.index}'s leaf hashes to ${encodeBase64(leafHashOf(entry.leaf))}, ` +
          `the event says ${encodeBase64(e.leafHash)}: the event does not belong to this log`,
      );
      continue;
    }
    if (e.checkpoint === undefined) continue;
    let own: Checkpoint;
    try {
      own = openCheckpoint(
        e.checkpoint,
        keys.map((k) => parseVerifierKey(k)),
      ).checkpoint;
    } catch (err) {
      if (!(err instanceof NoteError)) throw err;
      fail(`the event's checkpoint is not signed by a trusted key: ${err.message}`);
      continue;
    }
    if (own.origin !== verified.origin || own.size <= e.index) {
      fail(`the event's checkpoint (${own.origin}, size ${own.size}) does not cover entry ${e.index}`);
    } else if (own.size > verified.size) {
      fail(`the event's checkpoint (size ${own.size}) is newer than the verified one (size ${verified.size})`);
    } else {
      rootAt ??= prefixRoots(sortedLeafHashes(entries, verified.size));
      if (!equal(rootAt(own.size), own.root)) {
        fail(`the event's checkpoint (size ${own.size}) is not a prefix of the verified log`);
      }
    }
  }
  return failures;
}

function sortedLeafHashes(entries: readonly BundleEntry[], size: number): Uint8Array[] {
  const sorted = [...entries].sort((a, b) => a.index - b.index).slice(0, size);
  return sorted.map((e) => leafHashOf(e.leaf));
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
