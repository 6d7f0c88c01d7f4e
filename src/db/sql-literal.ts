import { createRequire } from 'node:module';

// node-postgres's own conversion of a parameter to its text (no types are published for this file).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(v: unknown): string | Buffer | null;
};

/** A character that an E'' literal or an array element must escape, or NUL (no literal can hold it). */
const SPECIAL = /[\\'"\0]/;

/**
 * A parameter value as an SQL literal, for a statement sent as text (the
 * simple query protocol): the same text node-postgres would send as the
 * parameter (prepareValue), in an E'' string whose every backslash and quote
 * is doubled — E'' reads the same whatever the server's
 * standard_conforming_strings, and '' is a quote whatever its backslash_quote.
 * Undefined for a value holding NUL: a query text ends at NUL, so such a value
 * must go as a parameter (where the server refuses it by name).
 *
 * Arrays, the log's write's parameters (dozens of elements each, on every
 * transaction's critical path), are written here in one pass: each element
 * gets node-postgres's array quoting and the literal's doubling at once, and
 * an element with nothing to escape (nearly all) is copied as it is. The text
 * is the one the two-step way (prepareValue, then doubling) writes; a test
 * holds the two equal.
 */
export function sqlLiteral(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    const body = arrayLiteral(value);
    return body === undefined ? undefined : `E'${body}'`;
  }
  const prepared = prepareValue(value);
  if (prepared === null) return 'NULL';
  const text = Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
  if (text.includes('\0')) return undefined;
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** node-postgres's array text (its arrayString) with the E'' literal's doubling applied; undefined when it holds NUL. */
function arrayLiteral(values: readonly unknown[]): string | undefined {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const item = values[i];
    if (item === null || item === undefined) {
      out += 'NULL';
    } else if (Array.isArray(item)) {
      const inner = arrayLiteral(item);
      if (inner === undefined) return undefined;
      out += inner;
    } else if (ArrayBuffer.isView(item)) {
      // node-postgres writes \\x and the hex digits; doubled, the backslashes are four.
      out += `\\\\\\\\x${Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('hex')}`;
    } else {
      // (Not null, not bytes: prepareValue gives a string.)
      const text = typeof item === 'string' ? item : (prepareValue(item) as string);
      if (!SPECIAL.test(text)) {
        out += `"${text}"`;
        continue;
      }
      if (text.includes('\0')) return undefined;
      // Array quoting: \ → \\, " → \"; then the literal's doubling: \ → \\, ' → ''.
      out += `"${text.replaceAll('\\', '\\\\\\\\').replaceAll('"', '\\\\"').replaceAll("'", "''")}"`;
    }
  }
  return `${out}}`;
}
