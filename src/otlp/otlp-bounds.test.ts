import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachStore, type SignedIn } from '../testing/harness.ts';
import { gzipped, otlpBombs } from '../testing/otlp-bombs.ts';
import { EXPORT_BOUNDS } from './export-bounds.ts';
import { ErrorInfo, ExportTraceServiceRequest, RpcStatus } from './proto.ts';

// Exports that decode into far more than they weigh are refused with 413 and
// an OTLP google.rpc.Status while they stream in, before anything is decoded
// (export-bounds.ts); exports at the bounds are read. The time and memory of
// a refusal are measured by bench/otlp-bombs.ts.

interface Status {
  code: number;
  message: string;
  reason: string;
}

async function statusOf(res: Response): Promise<Status> {
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('application/x-protobuf')) {
    const s = RpcStatus.toObject(RpcStatus.decode(Buffer.from(await res.arrayBuffer()))) as {
      code: number;
      message: string;
      details: Array<{ type_url: string; value: Uint8Array }>;
    };
    assert.equal(s.details[0]!.type_url, 'type.googleapis.com/google.rpc.ErrorInfo');
    const info = ErrorInfo.toObject(ErrorInfo.decode(s.details[0]!.value)) as { reason: string };
    return { code: s.code, message: s.message, reason: info.reason };
  }
  assert.match(type, /^application\/json/);
  const s = (await res.json()) as { code: number; message: string; details: Array<{ reason: string }> };
  return { code: s.code, message: s.message, reason: s.details[0]!.reason };
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
/** `count` GenAI-less spans (dropped, not recorded) of one trace, as an OTLP/JSON export. */
const plainSpans = (count: number, trace: string) =>
  JSON.stringify({
    resourceSpans: [
      {
        scopeSpans: [
          { spans: Array.from({ length: count }, (_, i) => ({ traceId: trace, spanId: hex(i + 1, 16), name: 'GET' })) },
        ],
      },
    ],
  });

eachStore('OTLP export bounds', (get) => {
  let alice: SignedIn;
  let base: string;
  const post = (body: Buffer | string, headers: Record<string, string>) =>
    fetch(`${base}/api/v1/otel/v1/traces`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${alice.token}`, ...headers },
    });
  const invocations = async () => {
    const res = await get().request({ method: 'GET', url: '/api/v1/invocations?limit=5', token: alice.token });
    return (res.json() as { items: unknown[] }).items.length;
  };

  test('setup', async () => {
    const t = get();
    alice = await t.signIn('alice@otlp-bounds.example');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });

  test('every bomb (protobuf and JSON, gzip): 413 with a google.rpc.Status naming the bound', async () => {
    for (const bomb of otlpBombs()) {
      const res = await post(gzipped(bomb.body), { 'content-type': bomb.contentType, 'content-encoding': 'gzip' });
      assert.equal(res.status, 413, bomb.name);
      assert.ok(res.headers.get('content-type')?.startsWith(bomb.contentType), bomb.name);
      const s = await statusOf(res);
      assert.equal(s.code, 3, bomb.name); // INVALID_ARGUMENT: not retried
      assert.equal(s.reason, 'payload_too_large', bomb.name);
      assert.match(s.message, /holds more than \d+ /, bomb.name);
    }
    assert.equal(await invocations(), 0);
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
  });

  test('the same bombs uncompressed: refused by the same bounds', async () => {
    for (const bomb of otlpBombs(2 * 1024 * 1024)) {
      const res = await post(bomb.body, { 'content-type': bomb.contentType });
      assert.equal(res.status, 413, bomb.name);
      const s = await statusOf(res);
      assert.equal(s.reason, 'payload_too_large', bomb.name);
      assert.match(s.message, /holds more than \d+ /, bomb.name);
    }
  });

  test('spans: the bound is read, one more is a 413, in both encodings', async () => {
    const limit = EXPORT_BOUNDS.spans;
    const at = plainSpans(limit, 'a'.repeat(32));
    const over = plainSpans(limit + 1, 'a'.repeat(32));
    const okJson = await post(at, { 'content-type': 'application/json' });
    assert.equal(okJson.status, 200);
    const body = (await okJson.json()) as { partialSuccess?: { errorMessage: string } };
    assert.match(body.partialSuccess?.errorMessage ?? '', new RegExp(`${limit} spans carry no GenAI`));
    const overJson = await post(over, { 'content-type': 'application/json' });
    assert.equal(overJson.status, 413);
    assert.match((await statusOf(overJson)).message, new RegExp(`more than ${limit} spans`));
    const pb = (json: string) =>
      Buffer.from(
        ExportTraceServiceRequest.encode(
          ExportTraceServiceRequest.fromObject({
            resourceSpans: (JSON.parse(json) as { resourceSpans: Array<{ scopeSpans: unknown[] }> }).resourceSpans.map(
              (rs) => ({
                scopeSpans: (rs.scopeSpans as Array<{ spans: Array<{ traceId: string; spanId: string }> }>).map(
                  (ss) => ({
                    spans: ss.spans.map((s) => ({
                      traceId: Buffer.from(s.traceId, 'hex'),
                      spanId: Buffer.from(s.spanId, 'hex'),
                      name: 'GET',
                    })),
                  }),
                ),
              }),
            ),
          }),
        ).finish(),
      );
    assert.equal((await post(pb(at), { 'content-type': 'application/x-protobuf' })).status, 200);
    const overPb = await post(gzipped(pb(over)), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    assert.equal(overPb.status, 413);
    assert.match((await statusOf(overPb)).message, new RegExp(`more than ${limit} spans`));
  });

  test('nested values: 32 levels are read (kept to 8), 33 are a 413; both encodings', async () => {
    const nested = (depth: number): unknown =>
      depth === 0 ? { stringValue: 'leaf' } : { arrayValue: { values: [nested(depth - 1)] } };
    const exportWith = (depth: number) => ({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'b'.repeat(32),
                  spanId: 'c'.repeat(16),
                  name: 'GET',
                  attributes: [{ key: 'deep', value: nested(depth - 1) }],
                },
              ],
            },
          ],
        },
      ],
    });
    assert.equal(
      (await post(JSON.stringify(exportWith(EXPORT_BOUNDS.valueDepth)), { 'content-type': 'application/json' })).status,
      200,
    );
    const overJson = await post(JSON.stringify(exportWith(EXPORT_BOUNDS.valueDepth + 1)), {
      'content-type': 'application/json',
    });
    // JSON's own nesting bound (128) is not reached at 33 value levels: the decoded tree is measured too.
    assert.equal(overJson.status, 413);
    assert.match((await statusOf(overJson)).message, /levels of nested attribute values/);
    const pb = (depth: number) => {
      const tree = exportWith(depth) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Obj> }> }> };
      const span = tree.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
      span.traceId = Buffer.from(span.traceId as string, 'hex');
      span.spanId = Buffer.from(span.spanId as string, 'hex');
      return Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(tree)).finish());
    };
    assert.equal((await post(pb(EXPORT_BOUNDS.valueDepth), { 'content-type': 'application/x-protobuf' })).status, 200);
    const overPb = await post(pb(EXPORT_BOUNDS.valueDepth + 1), { 'content-type': 'application/x-protobuf' });
    assert.equal(overPb.status, 413);
    assert.match((await statusOf(overPb)).message, /levels of nested attribute values/);
  });

  test('a protobuf body that overruns its own lengths is a 400, not a 413', async () => {
    // ResourceSpans of length 10 holding 2 bytes.
    const res = await post(Buffer.from([0x0a, 0x0a, 0x12, 0x00]), { 'content-type': 'application/x-protobuf' });
    assert.equal(res.status, 400);
    assert.equal((await statusOf(res)).reason, 'bad_request');
  });
});

type Obj = Record<string, unknown>;
