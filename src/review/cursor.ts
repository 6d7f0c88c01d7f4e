import { decodeCursor, encodeCursor, unprocessable } from '../core/index.ts';

// Keyset paging on (created_at, id), newest first. The cursor carries the last
// row's created_at in whole microseconds (PostgreSQL's precision; a JS Date
// would round it to milliseconds and skip or repeat rows) and its id.

export interface TimeKey {
  /** created_at as microseconds since the Unix epoch. */
  us: number;
  id: number;
}

/** The SQL expression of a created_at column in microseconds, as an integer. */
export function microsOf(column: string): string {
  return `(extract(epoch FROM ${column}) * 1000000)::bigint`;
}

/** An ISO 8601 UTC text with all six fractional digits, which PostgreSQL reads exactly. */
export function isoMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const rest = us - ms * 1000;
  const iso = new Date(ms).toISOString(); // …T12:00:00.123Z
  return `${iso.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

export function encodeTimeKey(k: TimeKey): string {
  return encodeCursor([k.us, k.id]);
}

/** The key a cursor names, or null without one; 422 for a cursor this service did not issue. */
export function decodeTimeKey(cursor: string | undefined): TimeKey | null {
  const v = decodeCursor(cursor);
  if (v === null) return null;
  const [us, id] = v;
  if (
    v.length === 2 &&
    Number.isSafeInteger(us) &&
    Number.isSafeInteger(id) &&
    (us as number) >= 0 &&
    (id as number) >= 0
  ) {
    return { us: us as number, id: id as number };
  }
  throw unprocessable('The cursor is not one this service issued.', [{ field: '/cursor', message: 'is invalid' }]);
}

/** Cuts the extra row fetched to learn whether a next page exists, and makes the next cursor. */
export function timePage<T extends { created_us: number }>(rows: T[], limit: number, idOf: (row: T) => number) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    next_cursor:
      rows.length > limit && last !== undefined ? encodeTimeKey({ us: last.created_us, id: idOf(last) }) : null,
  };
}

/**
 * Builds a WHERE clause from conditions, numbering parameters as it goes:
 * `w.add('agent_key = ?', key)` appends `agent_key = $n`.
 */
export class Where {
  readonly params: unknown[];
  readonly #conds: string[] = [];

  constructor(params: unknown[] = []) {
    this.params = params;
  }

  add(cond: string, ...values: unknown[]): this {
    let i = 0;
    this.#conds.push(
      cond.replace(/\?/g, () => {
        this.params.push(values[i++]);
        return `$${this.params.length}`;
      }),
    );
    return this;
  }

  /** A parameter placeholder for a value used outside the conditions (LIMIT). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  sql(): string {
    return this.#conds.join(' AND ');
  }
}

/** since < until, when both are given (both are ISO date-times validated by the schema). */
export function checkRange(
  since: string | undefined,
  until: string | undefined,
  names: [string, string] = ['since', 'until'],
): void {
  if (since !== undefined && until !== undefined && Date.parse(since) >= Date.parse(until)) {
    throw unprocessable(`${names[0]} must be earlier than ${names[1]}.`, [
      { field: `/${names[1]}`, message: `must be later than ${names[0]}` },
    ]);
  }
}

/**
 * Text filters PostgreSQL cannot compare (U+0000, a lone surrogate) match
 * nothing that could be stored; refuse them with 422 instead of a database error.
 */
export function checkText(query: Record<string, unknown>, fields: readonly string[]): void {
  const bad = fields.filter((f) => {
    const v = query[f];
    return typeof v === 'string' && (!v.isWellFormed() || v.includes('\u0000'));
  });
  if (bad.length > 0) {
    throw unprocessable(
      'Text filters must be valid Unicode without NUL characters.',
      bad.map((f) => ({ field: `/${f}`, message: 'must be valid Unicode text without U+0000' })),
    );
  }
}

/** Whether a path parameter can name a stored row at all. */
export function storableText(s: string): boolean {
  return s.isWellFormed() && !s.includes('\u0000');
}
