// Event metadata under leaf format v2 (issue 16). Identifiers (agent keys,
// principal ids, user ids) are stored as sent: an auditor must know who acted,
// and rows can be erased. Free-form fields (outcome, correlation id, tool
// names, severity, source, rogue event type) may hold anything a client put
// there — an e-mail, a card number, a key — so they go through the detectors
// and are stored redacted, like content. The log holds neither: a leaf
// commits to the stored metadata with a salt kept in the row.

import { commitment, encodeLeaf } from '../ledger/leaf.ts';
import type { Scanner } from './prepare.ts';

/** The stored form of a free-form metadata value: PII and secrets replaced by typed placeholders. */
export function redactMeta(scan: Scanner, value: string): string;
export function redactMeta(scan: Scanner, value: string | undefined): string | undefined;
export function redactMeta(scan: Scanner, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return value;
  return scan('context', value).stored;
}

/**
 * commitment(salt, RFC 8785 JSON of the fields that are set): what a leaf
 * holds for an event's metadata. Anyone with the row (its values and
 * meta_salt) can recompute it; nobody with the log alone can read it.
 */
export function metaCommitment(salt: Uint8Array, fields: Readonly<Record<string, unknown>>): string {
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  return commitment(salt, encodeLeaf(set));
}
