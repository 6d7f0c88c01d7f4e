import { createRequire } from 'node:module';

// node-postgres's own conversion of a parameter to its text (no types are published for this file).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(v: unknown): string | Buffer | null };

/**
 * A parameter value as an SQL literal, for a statement sent as text (the
 * simple query protocol): the same text node-postgres would send as the
 * parameter (prepareValue), in an E'' string whose every backslash and quote
 * is doubled — E'' reads the same whatever the server's
 * standard_conforming_strings, and '' is a quote whatever its backslash_quote.
 * Undefined for a value holding NUL: a query text ends at NUL, so such a value
 * must go as a parameter (where the server refuses it by name).
 */
export function sqlLiteral(value: unknown): string | undefined {
  const prepared = prepareValue(value);
  if (prepared === null) return 'NULL';
  const text = Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : prepared;
  if (text.includes('\0')) return undefined;
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}
