import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bounded, mapSpan, MAX_TEXT, recordedParent, resolveAgents } from './mapping.ts';
import { decodeJson, decodeProtobuf, type OtelSpan, UndecodableBody } from './spans.ts';
import { ExportTraceServiceRequest } from './proto.ts';

// Span → invocation mapping on its own (no service): which carrier wins,
// agents through ancestors, text bounds, and the decoder's edges.

let n = 0;
function span(attributes: OtelSpan['attributes'], extra: Partial<OtelSpan> = {}): OtelSpan {
  n++;
  return {
    traceId: 'e'.repeat(32),
    spanId: n.toString(16).padStart(16, '0'),
    parentSpanId: null,
    name: 'span',
    kind: 1,
    startNs: 1_000_000_000n,
    endNs: 3_500_000_000n,
    statusCode: 0,
    statusMessage: '',
    attributes: Object.assign(Object.create(null) as OtelSpan['attributes'], attributes),
    events: [],
    resource: { 'service.name': 'svc' },
    scopeName: 'scope',
    ...extra,
  };
}

describe('OTLP mapping', () => {
  test('plain HTTP and DB spans are not recorded; each convention is', () => {
    assert.equal(mapSpan(span({ 'http.request.method': 'GET', 'db.system': 'postgresql' })), null);
    const sets: Array<OtelSpan['attributes']> = [
      { 'gen_ai.operation.name': 'chat' },
      { 'openinference.span.kind': 'LLM' },
      { 'ai.operationId': 'ai.generateText' },
      { 'traceloop.span.kind': 'task' },
      { 'gen_ai.tool.name': 'x' },
      { 'llm.request.type': 'chat', 'gen_ai.system': 'openai' },
    ];
    for (const a of sets) assert.ok(mapSpan(span(a)), JSON.stringify(a));
  });

  test('GenAI carriers win over OpenInference and Vercel ones; duration and outcome', () => {
    const m = mapSpan(
      span({
        'gen_ai.operation.name': 'chat',
        'gen_ai.system_instructions': 'be brief',
        'gen_ai.input.messages': '[{"role":"user"}]',
        'input.value': 'not this',
        'ai.prompt': 'nor this',
        'error.type': 'timeout',
      }),
    )!;
    assert.equal(m.text.prompt, 'be brief\n[{"role":"user"}]');
    assert.equal(m.durationMs, 2500);
    assert.equal(m.outcome, 'error');
    assert.match(m.text.context!, /"error_type":"timeout"/);
  });

  test('span events carry content for older instrumentations', () => {
    const m = mapSpan(
      span(
        { 'gen_ai.operation.name': 'chat' },
        {
          events: [
            { name: 'gen_ai.system.message', timeNs: 1n, attributes: { content: 'sys' } },
            { name: 'gen_ai.user.message', timeNs: 2n, attributes: { content: 'hello' } },
            { name: 'gen_ai.choice', timeNs: 3n, attributes: { message: '{"content":"hi"}' } },
          ],
        },
      ),
    )!;
    assert.equal(m.text.prompt, 'system: sys\nuser: hello');
    assert.equal(m.text.response, '{"content":"hi"}');
    const old = mapSpan(
      span(
        { 'gen_ai.system': 'openai', 'llm.request.type': 'chat', 'gen_ai.request.model': 'm' },
        {
          events: [{ name: 'gen_ai.content.prompt', timeNs: 1n, attributes: { 'gen_ai.prompt': 'old style' } }],
        },
      ),
    )!;
    assert.equal(old.text.prompt, 'old style');
  });

  test('structured attribute values are kept as JSON text', () => {
    const m = mapSpan(
      span({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 't',
        'gen_ai.tool.call.arguments': { a: [1, 'x'] },
      }),
    )!;
    assert.equal(m.text.tool_input, '{"a":[1,"x"]}');
    assert.equal(m.toolName, 't');
  });

  test('agents: own name, else the nearest naming ancestor (through dropped spans), else service.name; cycles end', () => {
    const agent = span({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'planner' });
    const http = span({ 'http.request.method': 'POST' }, { parentSpanId: agent.spanId });
    const chat = span({ 'gen_ai.operation.name': 'chat' }, { parentSpanId: http.spanId });
    const orphan = span({ 'gen_ai.operation.name': 'chat' }, { parentSpanId: 'f'.repeat(16) });
    const a = span({ 'gen_ai.operation.name': 'chat' });
    const b = span({ 'gen_ai.operation.name': 'chat' }, { parentSpanId: a.spanId });
    a.parentSpanId = b.spanId; // a hostile loop
    const all = [agent, http, chat, orphan, a, b];
    const mapped = all.map(mapSpan).filter((m) => m !== null);
    resolveAgents(mapped, all);
    assert.deepEqual(
      mapped.map((m) => m.agentKey),
      ['planner', 'planner', 'svc', 'svc', 'svc'],
    );
    const recorded = new Set(mapped.map((m) => `${m.span.traceId}/${m.span.spanId}`));
    const byKey = new Map(all.map((s) => [`${s.traceId}/${s.spanId}`, s]));
    assert.equal(recordedParent(mapped[1]!, recorded, byKey), agent.spanId, 'the dropped HTTP span is skipped');
    assert.equal(
      recordedParent(mapped[2]!, recorded, byKey),
      'f'.repeat(16),
      'unknown parent: kept for when it arrives',
    );
  });

  test('text bound: 32,000 code points (not UTF-16 units), NUL and lone surrogates made storable', () => {
    assert.deepEqual(bounded('a\u0000b'), { text: 'a\uFFFDb', length: 3 });
    assert.equal(bounded('x\uD800y').text, 'x\uFFFDy');
    const astral = '😀'.repeat(MAX_TEXT);
    assert.equal(bounded(astral).text, astral, '32,000 emoji are 64,000 units but within the bound');
    const over = bounded(`${astral}z`);
    assert.equal(over.length, MAX_TEXT + 1);
    assert.equal(over.text, astral);
    const m = mapSpan(span({ 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': 'y'.repeat(MAX_TEXT + 5) }))!;
    assert.equal(m.text.prompt!.length, MAX_TEXT);
    assert.deepEqual(m.extras.truncated, { prompt: MAX_TEXT + 5 });
  });
});

describe('OTLP decoding', () => {
  test('protobuf and JSON give the same span', () => {
    const obj = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 's' } }] },
          scopeSpans: [
            {
              scope: { name: 'sc' },
              spans: [
                {
                  traceId: Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex'),
                  spanId: Buffer.from('b7ad6b7169203331', 'hex'),
                  name: 'chat',
                  kind: 3,
                  startTimeUnixNano: '1700000000123456789',
                  endTimeUnixNano: '1700000001123456789',
                  attributes: [
                    { key: 'n', value: { intValue: '9007199254740993' } },
                    { key: 'd', value: { doubleValue: 1.5 } },
                    { key: 'b', value: { boolValue: true } },
                    { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'x' }] } } },
                  ],
                  status: { code: 2, message: 'bad' },
                },
              ],
            },
          ],
        },
      ],
    };
    const bytes = Buffer.from(ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(obj)).finish());
    const [p] = decodeProtobuf(bytes).spans;
    const json = JSON.parse(
      JSON.stringify(obj, (k, v: unknown) =>
        k === 'traceId' || k === 'spanId' ? Buffer.from((v as { data: number[] }).data).toString('hex') : v,
      ),
    ) as unknown;
    const [j] = decodeJson(json).spans;
    assert.deepEqual({ ...p!, attributes: { ...p!.attributes } }, { ...j!, attributes: { ...j!.attributes } });
    assert.equal(p!.traceId, '0af7651916cd43dd8448eb211c80319c');
    assert.equal(p!.startNs, 1700000000123456789n);
    assert.equal(p!.attributes.n, '9007199254740993', 'an int64 beyond 2^53 stays exact (as a string)');
    assert.equal(p!.statusCode, 2);
  });

  test('garbage is UndecodableBody; invalid ids are rejected spans', () => {
    assert.throws(() => decodeProtobuf(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f])), UndecodableBody);
    assert.throws(() => decodeJson([]), UndecodableBody);
    const d = decodeJson({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                { traceId: '0'.repeat(32), spanId: '1'.repeat(16) },
                { traceId: '1'.repeat(32), spanId: 'xyz' },
                { traceId: '1'.repeat(32), spanId: '1'.repeat(16), parentSpanId: 'nothex' },
                { traceId: '1'.repeat(32), spanId: '2'.repeat(16), startTimeUnixNano: -5 },
              ],
            },
          ],
        },
      ],
    });
    assert.equal(d.spans.length, 0);
    assert.equal(d.rejected, 4);
  });
});
