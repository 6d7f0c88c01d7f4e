// Array parameters in PostgreSQL's binary format. A set write sends its rows
// as one array per column (`unnest($2::bigint[], …)`): as text, every element
// is escaped by node-postgres and parsed back by the server's array_in and
// the element type's input function (a timestamp's text is the dearest), which
// was a third of the server's time on a batch's write. In binary, an element
// is its length and its bytes. node-postgres sends a Buffer parameter in
// binary, so an array becomes a Buffer here, and only where the statement's
// text casts that parameter to an array type this file knows (`$N::type[]`):
// that cast is what the server takes the parameter's type from, and
// array_recv refuses an element type other than it.

/** Element types by the names a cast may use, with their type oids. */
const ELEMENT_OID = {
  bigint: 20,
  int8: 20,
  int: 23,
  integer: 23,
  int4: 23,
  text: 25,
  timestamptz: 1184,
  date: 1082,
  bytea: 17,
} as const;

type ElementType = keyof typeof ELEMENT_OID;

/**
 * The element type of each array type encodeBinaryArray writes, by the array
 * type's oid: for a store that learns a parameter's type from the server
 * (PGlite's Describe) rather than from a cast in the text.
 */
export const ARRAY_OID_ELEMENT: ReadonlyMap<number, ElementType> = new Map([
  [1016, 'bigint'],
  [1007, 'int'],
  [1009, 'text'],
  [1185, 'timestamptz'],
  [1182, 'date'],
  [1001, 'bytea'],
]);

/** Microseconds and days between the Unix epoch and PostgreSQL's (2000-01-01). */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const MS_PER_DAY = 86_400_000;
const DATE_RE = /^(?!0000)\d{4}-\d{2}-\d{2}$/;
const ISO_MS_RE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,3})?(Z|[+-](0\d|1[0-5]):[0-5]\d)$/;
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

/** A mention of a parameter, with the array cast that follows it if it is one of ELEMENT_OID's. */
const MENTION_RE = /\$(\d+)(?!\d)(?:::(bigint|int8|integer|int4|int|text|timestamptz|date|bytea)\[\])?/g;

/**
 * The array parameters of a statement that can go in binary: parameter index
 * (0-based) to element type. Only a parameter every mention of which casts it
 * to the same known array type: one cast to two types, or also mentioned
 * without such a cast (`$3::text`, `= $3`), could take another type.
 */
export function binaryArrayParams(sql: string): ReadonlyMap<number, ElementType> {
  const found = new Map<number, ElementType | null>();
  for (const m of sql.matchAll(MENTION_RE)) {
    const index = Number(m[1]) - 1;
    const type = m[2] as ElementType | undefined;
    const seen = found.get(index);
    const same =
      type !== undefined && (seen === undefined || (seen !== null && ELEMENT_OID[seen] === ELEMENT_OID[type]));
    found.set(index, same ? type : null);
  }
  const out = new Map<number, ElementType>();
  for (const [i, t] of found) if (t !== null) out.set(i, t);
  return out;
}

/**
 * `values` as a one-dimensional array of `type` in the binary format
 * (array_recv), or undefined when an element is not what the format needs
 * (then it goes as text, and the server says what is wrong with it). Two
 * passes over the values: sizes and checks, then every element written into
 * one buffer (a buffer per element cost more than the text it replaces).
 */
export function encodeBinaryArray(type: ElementType, values: readonly unknown[]): Buffer | undefined {
  const oid = ELEMENT_OID[type];
  const width = oid === 20 || oid === 1184 ? 8 : oid === 25 || oid === 17 ? -1 : 4;
  let size = values.length === 0 ? 12 : 20;
  let hasNull = 0;
  // A time's microseconds since 2000, worked out once in the first pass (parsing the text is most of an element's cost).
  const micros = oid === 1184 ? new Float64Array(values.length) : undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    size += 4;
    if (v === null || v === undefined) hasNull = 1;
    else if (micros) {
      // Only a Date or an ISO time with its zone and at most milliseconds (toISOString's form): a zone-less
      // text is read in the session's zone, finer digits would be lost; those are left to the server.
      const us = (timeMs(v) - PG_EPOCH_MS) * 1000;
      if (!(Math.abs(us) <= Number.MAX_SAFE_INTEGER)) return undefined;
      micros[i] = us;
      size += 8;
    } else if (!fits(oid, v)) return undefined;
    else size += width >= 0 ? width : oid === 17 ? (v as Uint8Array).length : Buffer.byteLength(v as string, 'utf8');
  }
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(values.length === 0 ? 0 : 1, 0); // dimensions: none is the empty array
  out.writeInt32BE(hasNull, 4);
  out.writeUInt32BE(oid, 8);
  if (values.length === 0) return out;
  out.writeInt32BE(values.length, 12); // length of the one dimension
  out.writeInt32BE(1, 16); // its lower bound
  let at = 20;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      at = out.writeInt32BE(-1, at);
      continue;
    }
    switch (oid) {
      case 20:
        at = out.writeInt32BE(8, at);
        at = writeInt64(out, v as number, at);
        break;
      case 23:
        at = out.writeInt32BE(4, at);
        at = out.writeInt32BE(v as number, at);
        break;
      case 25: {
        const n = out.write(v as string, at + 4, 'utf8');
        out.writeInt32BE(n, at);
        at += 4 + n;
        break;
      }
      case 17: {
        const bytes = v as Uint8Array;
        at = out.writeInt32BE(bytes.length, at);
        out.set(bytes, at);
        at += bytes.length;
        break;
      }
      case 1184:
        at = out.writeInt32BE(8, at);
        at = writeInt64(out, micros![i]!, at);
        break;
      case 1082:
        at = out.writeInt32BE(4, at);
        at = out.writeInt32BE((Date.parse(`${v as string}T00:00:00Z`) - PG_EPOCH_MS) / MS_PER_DAY, at);
        break;
    }
  }
  return out;
}

/** Whether an element can be written as `oid` in binary. */
function fits(oid: number, v: unknown): boolean {
  switch (oid) {
    case 20:
      return typeof v === 'number' && Number.isSafeInteger(v);
    case 23:
      return typeof v === 'number' && Number.isInteger(v) && v >= INT4_MIN && v <= INT4_MAX;
    case 25:
      return typeof v === 'string';
    case 17:
      return v instanceof Uint8Array;
    case 1082:
      return typeof v === 'string' && isDay(v);
    default:
      return false;
  }
}

function timeMs(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v !== 'string') return NaN;
  const m = ISO_MS_RE.exec(v);
  return m && isDay(m[1]!) ? Date.parse(v) : NaN;
}

/** The day isDay judged last, and its verdict: a set write's times and days nearly all fall on one day. */
let lastDay = '';
let lastDayOk = false;

/** A YYYY-MM-DD that names a day of the calendar (Date.parse takes 2026-02-30 for 2 March). */
function isDay(v: string): boolean {
  if (v === lastDay) return lastDayOk;
  let ok = DATE_RE.test(v);
  if (ok) {
    const ms = Date.parse(`${v}T00:00:00Z`);
    ok = Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === v;
  }
  lastDay = v;
  lastDayOk = ok;
  return ok;
}

/**
 * A safe integer as a big-endian int64, without a BigInt: high and low 32 bits
 * (microseconds since 2000 reach past 2^53 only in the year 2285).
 */
function writeInt64(out: Buffer, v: number, at: number): number {
  const high = Math.floor(v / 2 ** 32);
  out.writeInt32BE(high, at);
  out.writeUInt32BE(v - high * 2 ** 32, at + 4);
  return at + 8;
}

/** Statements' binary array parameters, found once per text. */
export class BinaryArrayParams {
  readonly #byText = new Map<string, ReadonlyMap<number, ElementType>>();

  /** `params` with every array the text casts to a known array type as a binary Buffer. */
  encode(sql: string, params: readonly unknown[]): unknown[] {
    let types = this.#byText.get(sql);
    if (!types) {
      if (this.#byText.size >= 1024) this.#byText.clear();
      this.#byText.set(sql, (types = binaryArrayParams(sql)));
    }
    if (types.size === 0) return [...params];
    return params.map((p, i) => {
      const type = types.get(i);
      if (type === undefined || !Array.isArray(p)) return p;
      return encodeBinaryArray(type, p) ?? p;
    });
  }
}
