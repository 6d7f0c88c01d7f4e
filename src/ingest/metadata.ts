import { canonicalJson, commitment, encodeLeaf, sortedKeys } from '../ledger/index.ts';

/** The stored form of a text: PII and secrets replaced by typed placeholders (detect's redactForStorage). */
export type Redactor = (text: string) => string;

// Metadata values repeat (an outcome, a tool name, a severity): redacting a
// short text costs 5-12 µs (a 20-character id, a UUID, depending on the
// machine's load; a third less than scanField, which also runs the injection
// detector), so results are remembered per redactor, a bounded map cleared
// when full (values are at most 512 chars).
const MEMO_LIMIT = 10_000;
const memos = new WeakMap<Redactor, Map<string, string>>();

/** The stored form of a free-form metadata value: PII and secrets replaced by typed placeholders. */
export function redactMeta(redact: Redactor, value: string): string;
export function redactMeta(redact: Redactor, value: string | undefined): string | undefined;
export function redactMeta(redact: Redactor, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return value;
  let memo = memos.get(redact);
  if (!memo) memos.set(redact, (memo = new Map()));
  const hit = memo.get(value);
  if (hit !== undefined) return hit;
  const stored = redact(value);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(value, stored);
  return stored;
}

/**
 * commitment(salt, RFC 8785 JSON of the fields that are set): what a leaf
 * holds for an event's metadata. Anyone with the row (its values and
 * meta_salt) can recompute it; nobody with the log alone can read it.
 */
export function metaCommitment(salt: Uint8Array, fields: Readonly<Record<string, unknown>>): string {
  return commitment(salt, metaText(fields) ?? encodeLeaf(setFields(fields)));
}

function setFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
}

/**
 * The canonical JSON of the fields that are set, written straight from
 * `fields` when each is a string or a number with a JSON form (every event's
 * metadata); undefined otherwise, and then encodeLeaf says what is wrong.
 * Copying the set fields into an object of their own first (entries, filter,
 * fromEntries) cost more than the rest of the text.
 */
function metaText(fields: Readonly<Record<string, unknown>>): string | undefined {
  if (Object.getPrototypeOf(fields) !== Object.prototype) return undefined;
  // The callers' records are written in canonical order: sorting them costs a comparison a key.
  const keys = sortedKeys(fields);
  let out = '{';
  for (const key of keys) {
    const v = fields[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' && typeof v !== 'number') return undefined;
    const name = quotedName(key);
    const value = canonicalJson(v);
    if (name === undefined || value === undefined) return undefined;
    out += `${out.length > 1 ? ',' : ''}${name}:${value}`;
  }
  return `${out}}`;
}

/** Member names as JSON strings: the few names of the metadata records, quoted once. */
const quotedNames = new Map<string, string | undefined>();
function quotedName(key: string): string | undefined {
  let quoted = quotedNames.get(key);
  if (quoted === undefined && !quotedNames.has(key)) {
    quoted = canonicalJson(key);
    if (quotedNames.size >= 1_000) quotedNames.clear();
    quotedNames.set(key, quoted);
  }
  return quoted;
}
