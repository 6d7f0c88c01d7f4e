import { HttpProblem } from '../core/index.ts';
import { type BoundName, EXPORT_BOUNDS, overBound } from './export-bounds.ts';

// Walkers that measure an export as its bytes stream in (after gzip), so an
// export over EXPORT_BOUNDS is refused at the first byte past a bound, before
// the body is even complete, and long before a decoder builds an object of it.
// Neither allocates per field: they keep counters and a small stack.

export interface BodyWalker {
  /** Measures the next bytes; throws the 413 (or a 400 for bytes that cannot be OTLP). */
  push(chunk: Buffer): void;
}

// ---- protobuf -------------------------------------------------------------

// The messages of an ExportTraceServiceRequest, and for each the fields that
// hold messages (opentelemetry-proto's field numbers, as in proto.ts; every
// other field is skipped as its wire type says, like a decoder skips it).
const REQUEST = 0;
const RESOURCE_SPANS = 1;
const RESOURCE = 2;
const SCOPE_SPANS = 3;
const SCOPE = 4;
const SPAN = 5;
const EVENT = 6;
const LINK = 7;
const STATUS = 8;
const KEY_VALUE = 9;
const ANY_VALUE = 10;
const ARRAY_VALUE = 11;
const KV_LIST = 12;

const CHILDREN: ReadonlyArray<Readonly<Record<number, number>>> = [
  /* REQUEST */ { 1: RESOURCE_SPANS },
  /* RESOURCE_SPANS */ { 1: RESOURCE, 2: SCOPE_SPANS },
  /* RESOURCE */ { 1: KEY_VALUE },
  /* SCOPE_SPANS */ { 1: SCOPE, 2: SPAN },
  /* SCOPE */ { 3: KEY_VALUE },
  /* SPAN */ { 9: KEY_VALUE, 11: EVENT, 13: LINK, 15: STATUS },
  /* EVENT */ { 3: KEY_VALUE },
  /* LINK */ { 4: KEY_VALUE },
  /* STATUS */ {},
  /* KEY_VALUE */ { 2: ANY_VALUE },
  /* ANY_VALUE */ { 5: ARRAY_VALUE, 6: KV_LIST },
  /* ARRAY_VALUE */ { 1: ANY_VALUE },
  /* KV_LIST */ { 1: KEY_VALUE },
];

type CountedBound = Extract<
  BoundName,
  'messages' | 'resources' | 'scopes' | 'spans' | 'events' | 'links' | 'values' | 'fields'
>;

const TAG = 0;
const VARINT = 1;
const LENGTH = 2;
const SKIP = 3;

function notOtlp(why: string): HttpProblem {
  return new HttpProblem('bad_request', `The body is not an OTLP ExportTraceServiceRequest: ${why}.`);
}

/** Counts the messages of a protobuf ExportTraceServiceRequest field by field. */
export class ProtobufWalker implements BodyWalker {
  #pos = 0;
  // The open messages: their type and the offset where each ends.
  readonly #types: number[] = [REQUEST];
  readonly #ends: number[] = [Infinity];
  #state = TAG;
  #acc = 0;
  #mul = 1;
  #bytes = 0;
  #field = 0;
  #skip = 0;
  #valueDepth = 0;
  readonly counts: Record<CountedBound, number> = {
    messages: 0,
    resources: 0,
    scopes: 0,
    spans: 0,
    events: 0,
    links: 0,
    values: 0,
    fields: 0,
  };

  push(chunk: Buffer): void {
    const n = chunk.length;
    const ends = this.#ends;
    // The hot state in locals (written back in finally): this loop runs per byte outside strings.
    let pos = this.#pos;
    let state = this.#state;
    let acc = this.#acc;
    let mul = this.#mul;
    let bytes = this.#bytes;
    let i = 0;
    try {
      while (i < n) {
        if (state === SKIP) {
          const k = Math.min(this.#skip, n - i);
          i += k;
          pos += k;
          this.#skip -= k;
          if (this.#skip === 0) state = TAG;
          continue;
        }
        if (state === TAG && bytes === 0 && ends[ends.length - 1] === pos) this.#closeEnded(pos);
        const b = chunk[i++]!;
        pos++;
        acc += (b & 0x7f) * mul;
        mul *= 128;
        if (++bytes > 10) throw notOtlp('a varint longer than 10 bytes');
        if (b & 0x80) continue;
        const value = acc;
        acc = 0;
        mul = 1;
        bytes = 0;
        if (pos > ends[ends.length - 1]!) throw notOtlp('a field runs past its message');
        if (state === TAG) state = this.#tag(value, pos);
        else if (state === VARINT) state = TAG;
        else state = this.#length(value, pos);
      }
    } finally {
      this.#pos = pos;
      this.#state = state;
      this.#acc = acc;
      this.#mul = mul;
      this.#bytes = bytes;
    }
  }

  /** Closes the messages that end where the next field would start. */
  #closeEnded(pos: number): void {
    const ends = this.#ends;
    while (ends[ends.length - 1] === pos) {
      ends.pop();
      if (this.#types.pop() === ANY_VALUE) this.#valueDepth--;
    }
  }

  /** The state after a tag. */
  #tag(tag: number, pos: number): number {
    if (++this.counts.fields > EXPORT_BOUNDS.fields) throw overBound('fields');
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (field === 0) throw notOtlp('field number 0');
    switch (wire) {
      case 0:
        return VARINT;
      case 1:
        return this.#skipBytes(8, pos);
      case 2:
        this.#field = field;
        return LENGTH;
      case 5:
        return this.#skipBytes(4, pos);
      default:
        throw notOtlp(`wire type ${wire}`);
    }
  }

  #skipBytes(len: number, pos: number): number {
    if (pos + len > this.#ends[this.#ends.length - 1]!) throw notOtlp('a field runs past its message');
    this.#skip = len;
    return len === 0 ? TAG : SKIP;
  }

  /** The state after the length of a length-delimited field. */
  #length(len: number, pos: number): number {
    const parent = this.#types[this.#types.length - 1]!;
    const child = CHILDREN[parent]![this.#field];
    if (child === undefined) return this.#skipBytes(len, pos); // a string, bytes or a field we do not read
    const end = pos + len;
    if (end > this.#ends[this.#ends.length - 1]!) throw notOtlp('a message runs past its parent');
    const c = this.counts;
    if (++c.messages > EXPORT_BOUNDS.messages) throw overBound('messages');
    switch (child) {
      case RESOURCE_SPANS:
        if (++c.resources > EXPORT_BOUNDS.resources) throw overBound('resources');
        break;
      case SCOPE_SPANS:
        if (++c.scopes > EXPORT_BOUNDS.scopes) throw overBound('scopes');
        break;
      case SPAN:
        if (++c.spans > EXPORT_BOUNDS.spans) throw overBound('spans');
        break;
      case EVENT:
        if (++c.events > EXPORT_BOUNDS.events) throw overBound('events');
        break;
      case LINK:
        if (++c.links > EXPORT_BOUNDS.links) throw overBound('links');
        break;
      case KEY_VALUE:
        if (++c.values > EXPORT_BOUNDS.values) throw overBound('values');
        break;
      case ANY_VALUE:
        if (parent === ARRAY_VALUE && ++c.values > EXPORT_BOUNDS.values) throw overBound('values');
        if (++this.#valueDepth > EXPORT_BOUNDS.valueDepth) throw overBound('valueDepth');
        break;
    }
    this.#types.push(child);
    this.#ends.push(end);
    return TAG;
  }
}

// ---- JSON -----------------------------------------------------------------

const OUT = 0;
const STRING = 1;
const ESCAPE = 2;

/**
 * Counts the structure of a JSON body: its nesting and its structural tokens
 * (`{`, `[`, `:`, `,`: at least one per value but the first of a container),
 * which bound what JSON.parse builds. Strings are stepped over; whether the
 * text is valid JSON is the parser's to say.
 */
export class JsonWalker implements BodyWalker {
  #state = OUT;
  #depth = 0;
  tokens = 0;

  push(chunk: Buffer): void {
    let state = this.#state;
    let depth = this.#depth;
    let tokens = this.tokens;
    try {
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i]!;
        if (state === STRING) {
          if (c === 0x22) state = OUT;
          else if (c === 0x5c) state = ESCAPE;
        } else if (state === ESCAPE) state = STRING;
        else if (c === 0x22) state = STRING;
        else if (c === 0x7b || c === 0x5b) {
          if (++depth > EXPORT_BOUNDS.jsonDepth) throw overBound('jsonDepth');
          if (++tokens > EXPORT_BOUNDS.jsonTokens) throw overBound('jsonTokens');
        } else if (c === 0x7d || c === 0x5d) depth--;
        else if (c === 0x2c || c === 0x3a) {
          if (++tokens > EXPORT_BOUNDS.jsonTokens) throw overBound('jsonTokens');
        }
      }
    } finally {
      this.#state = state;
      this.#depth = depth;
      this.tokens = tokens;
    }
  }
}
