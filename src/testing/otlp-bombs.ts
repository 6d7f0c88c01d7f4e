import { gzipSync } from 'node:zlib';

// Hostile OTLP exports: small on the wire (gzip), huge once decoded. Each
// fills about `size` decompressed bytes with the cheapest repeatable item of
// one kind, so a decoder without bounds would build millions of objects.

export interface Bomb {
  name: string;
  contentType: 'application/x-protobuf' | 'application/json';
  /** The decompressed body. */
  body: Buffer;
}

/** A protobuf varint. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** A length-delimited field holding `inner`. */
function field(no: number, inner: Buffer): Buffer {
  return Buffer.concat([Buffer.from([...varint((no << 3) | 2), ...varint(inner.length)]), inner]);
}

/** `count` copies of an empty embedded message in field `no`. */
function emptyMessages(no: number, count: number): Buffer {
  return Buffer.from(new Uint8Array(count * 2).map((_, i) => (i % 2 === 0 ? (no << 3) | 2 : 0)));
}

const TRACE_ID = field(1, Buffer.alloc(16, 0x11));
const SPAN_ID = field(2, Buffer.alloc(8, 0x22));

/** An ExportTraceServiceRequest with one resource and one scope holding `spans` (encoded Span messages). */
function requestOf(spans: Buffer): Buffer {
  return field(1, field(2, spans));
}

/** One span (ids set) whose body ends with `rest`. */
function spanWith(rest: Buffer): Buffer {
  return field(2, Buffer.concat([TRACE_ID, SPAN_ID, rest]));
}

/** AnyValue{arrayValue{values: AnyValue{…}}} nested `depth` times, built inside out with known lengths. */
function nestedValue(depth: number): Buffer {
  // Each level is: AnyValue.arrayValue (field 5) { ArrayValue.values (field 1) { inner } }.
  const sizes: number[] = [0];
  for (let d = 1; d <= depth; d++) {
    const inner = sizes[d - 1]!;
    const array = 1 + varint(inner).length + inner; // ArrayValue: values tag + len + AnyValue
    sizes.push(1 + varint(array).length + array); // AnyValue: arrayValue tag + len + ArrayValue
  }
  const out = Buffer.alloc(sizes[depth]!);
  let at = 0;
  for (let d = depth; d >= 1; d--) {
    const inner = sizes[d - 1]!;
    const array = 1 + varint(inner).length + inner;
    for (const b of [(5 << 3) | 2, ...varint(array), (1 << 3) | 2, ...varint(inner)]) out[at++] = b;
  }
  return out;
}

function jsonSpans(size: number, span: string): Buffer {
  const head = '{"resourceSpans":[{"scopeSpans":[{"spans":[';
  const n = Math.floor((size - head.length) / (span.length + 1));
  return Buffer.from(`${head}${Array(n).fill(span).join(',')}]}]}]}`);
}

function jsonInSpan(size: number, key: string, item: string): Buffer {
  const head = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${'1'.repeat(32)}","spanId":"${'2'.repeat(16)}","${key}":[`;
  const n = Math.floor((size - head.length) / (item.length + 1));
  return Buffer.from(`${head}${Array(n).fill(item).join(',')}]}]}]}]}`);
}

/** Every bomb, each about `size` bytes decompressed (16 MiB: the body limit). */
export function otlpBombs(size = 16 * 1024 * 1024 - 64): Bomb[] {
  const items = Math.floor(size / 2) - 64;
  const pb = (name: string, body: Buffer): Bomb => ({ name, contentType: 'application/x-protobuf', body });
  const json = (name: string, body: Buffer): Bomb => ({ name, contentType: 'application/json', body });
  const deepValue = field(9, field(2, nestedValue(Math.min(100_000, Math.floor(size / 12))))); // Span.attributes{value: …}
  const deepJson = `{"key":"k","value":${'{"arrayValue":{"values":['.repeat(100_000)}${']}}'.repeat(100_000)}}`;
  return [
    pb('protobuf: empty spans', requestOf(emptyMessages(2, items))),
    pb('protobuf: empty resources', emptyMessages(1, items)),
    pb('protobuf: empty attributes', requestOf(spanWith(emptyMessages(9, items - 32)))),
    pb('protobuf: empty events', requestOf(spanWith(emptyMessages(11, items - 32)))),
    pb('protobuf: empty links', requestOf(spanWith(emptyMessages(13, items - 32)))),
    pb('protobuf: repeated span status', requestOf(spanWith(emptyMessages(15, items - 32)))),
    pb('protobuf: deep value nesting', requestOf(spanWith(deepValue))),
    json('json: empty spans', jsonSpans(size, '{}')),
    json('json: empty attributes', jsonInSpan(size, 'attributes', '{}')),
    json('json: empty events', jsonInSpan(size, 'events', '{}')),
    json('json: empty links', jsonInSpan(size, 'links', '{}')),
    json('json: deep value nesting', jsonInSpan(deepJson.length + 256, 'attributes', deepJson)),
  ];
}

export const gzipped = (body: Buffer) => gzipSync(body, { level: 9 });
