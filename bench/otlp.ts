// OTLP trace ingest throughput over real HTTP: a spawned `agent-ledger serve`
// (PGlite or PostgreSQL), spans made by the OpenTelemetry JS SDK and encoded
// by its own protobuf serializer.
//
//   ./node_modules/.bin/node bench/otlp.ts [--store pglite|postgres] [--exports 8] [--senders 2] [--clients 64] [--runs 3]
//
// Each run, against the same server and workspace:
//   otlp      EXPORTS exports of 512 spans (application/x-protobuf), from
//             SENDERS concurrent exporters: spans recorded per second
//   json      the same spans, mapped to the invocation bodies the OTLP path
//             records, POSTed one by one as JSON events from CLIENTS
//             connections (the baseline: events per second)
// Spans are GenAI traces (invoke_agent → chat + execute_tool) with prompt,
// response and tool arguments holding PII, so detection and redaction run.
// Fresh trace ids every run (a re-sent span is not recorded again).

import { context, trace } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { mapSpan, resolveAgents } from '../src/otlp/mapping.ts';
import { decodeProtobuf } from '../src/otlp/spans.ts';
import { cannon } from './lib/autocannon.ts';
import { startBenchServer } from './lib/server.ts';
import { benchArgs, fmt, median, table } from './lib/stats.ts';

const args = benchArgs(process.argv.slice(2));
const EXPORTS = args.int('exports', 8);
const SENDERS = args.int('senders', 2);
const CLIENTS = args.int('clients', 64);
const RUNS = args.int('runs', 3);
const SPANS_PER_EXPORT = 512;

console.log(
  `# otlp: ${EXPORTS} exports x ${SPANS_PER_EXPORT} spans from ${SENDERS} senders vs the same spans as JSON events from ${CLIENTS} clients; ${RUNS} runs per store`,
);

/** EXPORTS protobuf bodies of 512 GenAI spans each, made by the SDK. */
function makeExports(run: number): Buffer[] {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'bench-agents' }),
    spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
  });
  const tracer = provider.getTracer('bench');
  const traces = Math.ceil((EXPORTS * SPANS_PER_EXPORT) / 3);
  for (let i = 0; i < traces; i++) {
    const agentName = `bench-agent-${i % 8}`;
    const agent = tracer.startSpan(`invoke_agent ${agentName}`, {
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agentName },
    });
    const ctx = trace.setSpan(context.active(), agent);
    const chat = tracer.startSpan(
      'chat gpt-4o',
      {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.provider.name': 'openai',
          'gen_ai.usage.input_tokens': 120 + (i % 50),
          'gen_ai.usage.output_tokens': 30,
          'gen_ai.input.messages': JSON.stringify([
            {
              role: 'user',
              parts: [
                {
                  type: 'text',
                  content: `Run ${run} case ${i}: customer jane.doe${i}@example.com, phone +1 415 555 01${String(i % 100).padStart(2, '0')}, wants a refund of order ${10_000 + i}. Please check the account and the last three invoices before answering.`,
                },
              ],
            },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            {
              role: 'assistant',
              parts: [{ type: 'text', content: 'I will look up the order and issue the refund if it qualifies.' }],
            },
          ]),
        },
      },
      ctx,
    );
    chat.end();
    const tool = tracer.startSpan(
      'execute_tool refund',
      {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'refund',
          'gen_ai.tool.call.id': `call_${run}_${i}`,
          'gen_ai.tool.call.arguments': JSON.stringify({
            order: 10_000 + i,
            email: `jane.doe${i}@example.com`,
            amount: 12.5,
          }),
          'gen_ai.tool.call.result': '{"ok":true}',
        },
      },
      ctx,
    );
    tool.end();
    agent.end();
  }
  const spans: ReadableSpan[] = memory.getFinishedSpans().slice(0, EXPORTS * SPANS_PER_EXPORT);
  const out: Buffer[] = [];
  for (let i = 0; i < spans.length; i += SPANS_PER_EXPORT) {
    out.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans.slice(i, i + SPANS_PER_EXPORT))!));
  }
  return out;
}

/** The invocation bodies the OTLP path records for these exports (same texts, agents, tools). */
function asJsonEvents(exports: Buffer[]): string[] {
  const bodies: string[] = [];
  for (const bytes of exports) {
    const decoded = decodeProtobuf(bytes);
    const mapped = decoded.spans.map(mapSpan).filter((m) => m !== null);
    resolveAgents(mapped, decoded.spans);
    for (const m of mapped) {
      bodies.push(
        JSON.stringify({
          agent_key: m.agentKey,
          tool_name: m.toolName,
          duration_ms: m.durationMs,
          correlation_id: m.span.traceId,
          ...m.text,
        }),
      );
    }
  }
  return bodies;
}

async function sendExports(
  url: string,
  token: string,
  bodies: Buffer[],
): Promise<{ seconds: number; failures: number }> {
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const sender = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const res = await fetch(`${url}/api/v1/otel/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf' },
        body,
      });
      const answer = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || answer.length !== 0) failures++; // an empty response: every span recorded
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return { seconds: (performance.now() - started) / 1000, failures };
}

const rows: string[][] = [];
for (const store of args.stores) {
  const server = await startBenchServer(store);
  try {
    const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    // Warm-up: agents registered, JIT, connection pools.
    await sendExports(server.url, server.token, makeExports(0).slice(0, 2));
    const otlp: number[] = [];
    const json: number[] = [];
    const ratio: number[] = [];
    let errors = 0;
    for (let run = 1; run <= RUNS; run++) {
      const exports = makeExports(run);
      const spans = exports.length * SPANS_PER_EXPORT;
      const events = asJsonEvents(makeExports(1000 + run));
      const o = await sendExports(server.url, server.token, exports);
      let i = 0;
      const j = await cannon({
        url: `${server.url}/api/v1/admin/agents/events/invocation`,
        connections: CLIENTS,
        amount: events.length,
        headers,
        requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: events[i++ % events.length]! }) }],
      });
      errors += o.failures + j.non2xx + j.errors;
      const otlpRate = spans / o.seconds;
      otlp.push(otlpRate);
      json.push(j.perSecond);
      ratio.push(otlpRate / j.perSecond);
      console.log(
        `#   ${store} run ${run}: otlp ${fmt(otlpRate)} spans/s (${exports.length} exports in ${fmt(o.seconds, 2)} s), json single events ${fmt(j.perSecond)}/s`,
      );
    }
    rows.push([store, fmt(median(otlp)), fmt(median(json)), `${fmt(median(ratio), 1)}x`, String(errors)]);
  } finally {
    await server.stop();
  }
}

console.log(`\nmedians of ${RUNS} runs (spans or events recorded per second; ratio: median of the per-run ratios)`);
table(['store', `otlp 512-span exports x${SENDERS}`, `json events x${CLIENTS}`, 'otlp/json', 'errors'], rows);
if (rows.some((r) => r[4] !== '0')) process.exitCode = 1;
