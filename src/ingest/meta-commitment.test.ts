// metaCommitment writes the canonical JSON of a record's set fields straight
// from the record (metadata.ts): every commitment must stay byte for byte what
// the leaf encoder makes of those fields copied into an object of their own,
// or stored rows would stop matching their leaves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { commitment, encodeLeaf, newSalt } from '../ledger/leaf.ts';
import { metaCommitment } from './metadata.ts';

/** What metaCommitment is defined as: the set fields, encoded as a leaf. */
function oracle(salt: Uint8Array, fields: Record<string, unknown>): string {
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  return commitment(salt, encodeLeaf(set));
}

/** The answer or the kind of error. */
function outcome(f: () => string): string {
  try {
    return f();
  } catch (err) {
    return `throws ${(err as Error).name}`;
  }
}

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    '',
    'a"b',
    'a\\b',
    '\u0000',
    '\u001f',
    '\u2028',
    '\ud800',
    'x\udfff',
    '\ud83d\ude00',
    'é',
    '__proto__',
  ),
);
const value = fc.oneof(
  text,
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-7, null, undefined, true, false),
  fc.constant({ nested: 1 }),
  fc.constant([1, 'a']),
);

test('metaCommitment is the leaf encoding of the set fields, in any key order, for any values (or fails as it does)', () => {
  const salt = newSalt();
  fc.assert(
    fc.property(fc.array(fc.tuple(text, value), { maxLength: 8 }), (pairs) => {
      const fields: Record<string, unknown> = {};
      for (const [k, v] of pairs)
        Object.defineProperty(fields, k, { value: v, enumerable: true, writable: true, configurable: true });
      assert.equal(
        outcome(() => metaCommitment(salt, fields)),
        outcome(() => oracle(salt, fields)),
        JSON.stringify(pairs),
      );
    }),
    { numRuns: 3000 },
  );
});

test('the ingest records: sorted and unsorted names, numbers and unset fields', () => {
  const salt = newSalt();
  const records: Record<string, unknown>[] = [
    {
      agent_key: 'agent-7',
      correlation_id: undefined,
      duration_ms: 1234,
      outcome: 'success',
      principal_id: 'user-42',
      tool_name: 'search',
    },
    { tool_name: 'search', principal_id: 'user-42', agent_key: 'agent-7', duration_ms: -0, outcome: null },
    {
      actor_agent_key: null,
      agent_key: 'a',
      event_type: 'probe',
      severity: 'high',
      source: 'x',
      tool: undefined,
      user_id: 'u',
    },
    {},
    Object.assign(Object.create(null) as Record<string, unknown>, { b: '1', a: '2' }),
  ];
  for (const r of records) assert.equal(metaCommitment(salt, r), oracle(salt, r), JSON.stringify(r));
  // The text committed to, for one: members sorted, unset ones left out.
  assert.equal(
    metaCommitment(salt, records[1]!),
    commitment(salt, '{"agent_key":"agent-7","duration_ms":0,"principal_id":"user-42","tool_name":"search"}'),
  );
});
