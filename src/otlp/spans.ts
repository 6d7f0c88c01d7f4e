import { type BoundName, EXPORT_BOUNDS, overBound } from './export-bounds.ts';
import { ExportTraceServiceRequest } from './proto.ts';

// One internal span shape for both OTLP/HTTP encodings. The protobuf path
// decodes with our schema (proto.ts) and the JSON path parses; both then walk
// the same object tree, which differs only in how ids, bytes and 64-bit
// integers are spelled (bytes vs hex/base64, Long vs string/number).

/** An attribute value: nested arrays and maps keep their shape (bounded depth). */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attrs = Record<string, AttrValue>;

export interface OtelSpan {
  traceId: string; // 32 lower-case hex digits
  spanId: string; // 16 lower-case hex digits
  parentSpanId: string | null;
  name: string;
  kind: number; // 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer
  startNs: bigint;
  endNs: bigint;
  statusCode: number; // 0 unset, 1 ok, 2 error
  statusMessage: string;
  attributes: Attrs;
  events: Array<{ name: string; timeNs: bigint; attributes: Attrs }>;
  resource: Attrs;
  scopeName: string;
}

/** A span we could not read (bad ids); counted in partial_success.rejected_spans. */
export interface DecodedRequest {
  spans: OtelSpan[];
  rejected: number;
  rejectReasons: string[];
}

export class UndecodableBody extends Error {}

/** Nested attribute values deeper than this are kept as a marker, not walked. */
const MAX_DEPTH = 8;
const HEX = /^[0-9a-f]*$/;
const SPAN_KINDS: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODES: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

type Encoding = 'protobuf' | 'json';
type Obj = Record<string, unknown>;

export function decodeProtobuf(body: Buffer): DecodedRequest {
  let tree: unknown;
  try {
    const msg = ExportTraceServiceRequest.decode(body);
    tree = ExportTraceServiceRequest.toObject(msg, { longs: String });
  } catch (err) {
    // Truncated or malformed bytes (RangeError "index out of range", bad wire
    // types, a nesting deep enough to exhaust the stack): not OTLP.
    throw new UndecodableBody(`The body is not an OTLP ExportTraceServiceRequest: ${(err as Error).message}`);
  }
  return normalise(tree, 'protobuf');
}

/**
 * An OTLP/JSON request, already parsed by the route under the service's body
 * rules (I-JSON: UTF-8 without invalid bytes, no duplicate keys, no
 * __proto__/constructor keys; http/json-body.ts).
 */
export function decodeJson(tree: unknown): DecodedRequest {
  if (!isObj(tree)) throw new UndecodableBody('The body must be a JSON object (an ExportTraceServiceRequest).');
  return normalise(tree, 'json');
}

/**
 * Counts what an export holds against EXPORT_BOUNDS as it is read. The body
 * was measured as it streamed in (body-walkers.ts); this applies the same
 * bounds to the decoded tree, so both encodings answer alike whatever path
 * a tree took here.
 */
class Tally {
  readonly #n: Partial<Record<BoundName, number>> = {};
  add(name: BoundName, k = 1): void {
    const v = (this.#n[name] ?? 0) + k;
    if (v > EXPORT_BOUNDS[name]) throw overBound(name);
    this.#n[name] = v;
  }
}

function normalise(tree: unknown, enc: Encoding): DecodedRequest {
  const out: DecodedRequest = { spans: [], rejected: 0, rejectReasons: [] };
  const root = tree as Obj;
  const tally = new Tally();
  for (const rs of list(pick(root, 'resourceSpans', 'resource_spans'))) {
    tally.add('resources');
    if (!isObj(rs)) throw new UndecodableBody('resourceSpans must hold objects.');
    const resource = attrs(isObj(rs.resource) ? rs.resource.attributes : undefined, enc, tally);
    for (const ss of list(pick(rs, 'scopeSpans', 'scope_spans'))) {
      tally.add('scopes');
      if (!isObj(ss)) throw new UndecodableBody('scopeSpans must hold objects.');
      const scopeName = isObj(ss.scope) && typeof ss.scope.name === 'string' ? ss.scope.name : '';
      for (const s of list(ss.spans)) {
        tally.add('spans');
        if (!isObj(s)) throw new UndecodableBody('spans must hold objects.');
        tally.add('links', list(s.links).length);
        const span = readSpan(s, enc, resource, scopeName, tally);
        if (typeof span === 'string') {
          out.rejected++;
          if (out.rejectReasons.length < 5) out.rejectReasons.push(span);
        } else out.spans.push(span);
      }
    }
  }
  return out;
}

/** A span, or why it cannot be recorded. */
function readSpan(s: Obj, enc: Encoding, resource: Attrs, scopeName: string, tally: Tally): OtelSpan | string {
  const traceId = id(pick(s, 'traceId', 'trace_id'), 16, enc);
  const spanId = id(pick(s, 'spanId', 'span_id'), 8, enc);
  if (!traceId || /^0+$/.test(traceId)) return 'a span has no valid traceId (16 bytes, not all zero)';
  if (!spanId || /^0+$/.test(spanId)) return 'a span has no valid spanId (8 bytes, not all zero)';
  const rawParent = pick(s, 'parentSpanId', 'parent_span_id');
  const parent = rawParent === undefined || rawParent === '' ? null : id(rawParent, 8, enc);
  if (parent === undefined) return 'a span has an invalid parentSpanId';
  const status = isObj(s.status) ? s.status : {};
  const startNs = nanos(pick(s, 'startTimeUnixNano', 'start_time_unix_nano'));
  const endNs = nanos(pick(s, 'endTimeUnixNano', 'end_time_unix_nano'));
  if (startNs === null || endNs === null) return 'a span has an invalid start or end time';
  const events: OtelSpan['events'] = [];
  for (const e of list(s.events)) {
    tally.add('events');
    if (!isObj(e)) continue;
    events.push({
      name: typeof e.name === 'string' ? e.name : '',
      timeNs: nanos(pick(e, 'timeUnixNano', 'time_unix_nano')) ?? 0n,
      attributes: attrs(e.attributes, enc, tally),
    });
  }
  return {
    traceId,
    spanId,
    parentSpanId: parent === null || /^0+$/.test(parent) ? null : parent,
    name: typeof s.name === 'string' ? s.name : '',
    kind: enumValue(s.kind, SPAN_KINDS),
    startNs,
    endNs,
    statusCode: enumValue(status.code, STATUS_CODES),
    statusMessage: typeof status.message === 'string' ? status.message : '',
    attributes: attrs(s.attributes, enc, tally),
    events,
    resource,
    scopeName,
  };
}

/** An id as lower-case hex; null when absent or malformed; undefined for a malformed optional id. */
function id(v: unknown, bytes: number, enc: Encoding): string | null | undefined {
  if (enc === 'protobuf') {
    if (v instanceof Uint8Array && v.length === bytes)
      return Buffer.from(v.buffer, v.byteOffset, v.length).toString('hex');
    if (v instanceof Uint8Array && v.length === 0) return null;
    return v === undefined ? null : undefined;
  }
  if (typeof v !== 'string') return v === undefined ? null : undefined;
  const hex = v.toLowerCase();
  return hex.length === bytes * 2 && HEX.test(hex) ? hex : undefined;
}

function nanos(v: unknown): bigint | null {
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return null;
}

function enumValue(v: unknown, names: Record<string, number>): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string') return names[v] ?? 0;
  return 0;
}

function attrs(kvs: unknown, enc: Encoding, tally: Tally): Attrs {
  const out: Attrs = Object.create(null) as Attrs;
  for (const kv of list(kvs)) {
    tally.add('values');
    if (!isObj(kv) || typeof kv.key !== 'string') continue;
    out[kv.key] = anyValue(kv.value, enc, 0, tally);
  }
  return out;
}

function anyValue(v: unknown, enc: Encoding, depth: number, tally: Tally): AttrValue {
  if (!isObj(v)) return null;
  if (depth >= MAX_DEPTH) {
    measureDepth(v, depth);
    return '[nested too deep]';
  }
  const s = pick(v, 'stringValue', 'string_value');
  if (typeof s === 'string') return s;
  const b = pick(v, 'boolValue', 'bool_value');
  if (typeof b === 'boolean') return b;
  const i = pick(v, 'intValue', 'int_value');
  if (typeof i === 'number') return i;
  if (typeof i === 'string' && /^-?\d{1,20}$/.test(i)) {
    const n = Number(i);
    return Number.isSafeInteger(n) ? n : i;
  }
  const d = pick(v, 'doubleValue', 'double_value');
  if (typeof d === 'number') return d;
  if (typeof d === 'string') return Number(d); // proto3 JSON spells NaN/Infinity as strings
  const arr = pick(v, 'arrayValue', 'array_value');
  if (isObj(arr)) {
    const values = list(arr.values);
    tally.add('values', values.length);
    return values.map((x) => anyValue(x, enc, depth + 1, tally));
  }
  const kvl = pick(v, 'kvlistValue', 'kvlist_value');
  if (isObj(kvl)) {
    const m: Record<string, AttrValue> = Object.create(null) as Record<string, AttrValue>;
    const values = list(kvl.values);
    tally.add('values', values.length);
    for (const kv of values)
      if (isObj(kv) && typeof kv.key === 'string') m[kv.key] = anyValue(kv.value, enc, depth + 1, tally);
    return m;
  }
  const bytes = pick(v, 'bytesValue', 'bytes_value');
  if (bytes instanceof Uint8Array) return Buffer.from(bytes).toString('base64');
  if (typeof bytes === 'string') return bytes;
  return null;
}

/** Walks a value kept only as a marker, to refuse one nested past EXPORT_BOUNDS.valueDepth (depth 0: an attribute's value). */
function measureDepth(v: unknown, depth: number): void {
  if (!isObj(v)) return;
  if (depth + 1 > EXPORT_BOUNDS.valueDepth) throw overBound('valueDepth');
  const arr = pick(v, 'arrayValue', 'array_value');
  if (isObj(arr)) for (const x of list(arr.values)) measureDepth(x, depth + 1);
  const kvl = pick(v, 'kvlistValue', 'kvlist_value');
  if (isObj(kvl)) for (const kv of list(kvl.values)) if (isObj(kv)) measureDepth(kv.value, depth + 1);
}

function pick(o: Obj, camel: string, snake: string): unknown {
  return o[camel] !== undefined ? o[camel] : o[snake];
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}
