import { unprocessable } from './problems.ts';

// List endpoints page with `limit` and an opaque cursor: base64url JSON of the
// last row's sort key (keyset paging, never OFFSET). The query parameters'
// schema is http/schemas.ts's PageQuery.

export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): unknown[] | null {
  if (cursor === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v)) return v;
  } catch {
    // fall through
  }
  throw unprocessable('The cursor is not one this service issued.', [{ field: '/cursor', message: 'is invalid' }]);
}

/** Cuts one extra row fetched to learn whether a next page exists. */
export function page<T>(rows: T[], limit: number, keyOf: (row: T) => unknown[]) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next_cursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
