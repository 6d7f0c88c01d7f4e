// sqlLiteral writes arrays in one pass; the text must be exactly the two-step
// way's: node-postgres's parameter text (prepareValue), then every backslash
// and quote doubled. (query-then-commit.test.ts checks, against the server,
// that such literals read back as the parameters.)
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import fc from 'fast-check';
import { sqlLiteral } from './sql-literal.ts';

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(v: unknown): string | Buffer | null;
};

/** The two-step way, as sqlLiteral was first written. */
function twoStep(value: unknown): string | undefined {
  const prepared = prepareValue(value);
  if (prepared === null) return 'NULL';
  const text = Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
  if (text.includes('\0')) return undefined;
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

const element = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('\\', '"', "'", '\\"', "\\'", '{"a":"b\\"c"}', 'x,y', '{}', 'NULL', '', '\0', 'a\0b', '\\x41'),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
  fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b)),
  fc.uint8Array({ maxLength: 6 }),
);

test("arrays (nested, with quotes, backslashes, NUL, numbers, times, bytes, nulls) get the two-step way's text", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(element, fc.array(element, { maxLength: 3 })), { maxLength: 10 }), (a) => {
      assert.equal(sqlLiteral(a), twoStep(a));
    }),
    { numRuns: 3000 },
  );
});

test("single values get the two-step way's text", () => {
  fc.assert(
    fc.property(element, (v) => {
      assert.equal(sqlLiteral(v), twoStep(v));
    }),
    { numRuns: 1000 },
  );
});

test('a NUL anywhere in an array, however deep, leaves it no literal', () => {
  assert.equal(sqlLiteral(['a', ['b', 'c\0']]), undefined);
  assert.equal(sqlLiteral([['\0']]), undefined);
  assert.equal(sqlLiteral(['\\"\'']), `E'{"\\\\\\\\\\\\"''"}'`);
});
