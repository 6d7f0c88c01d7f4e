import type { OtelExtras } from './schemas.ts';
import type { AttrValue, Attrs, OtelSpan } from './spans.ts';

// Which spans become invocations, and what each of our fields is taken from
// (the mapping table of the OTLP research, §0): the current OpenTelemetry GenAI
// conventions first, then OpenInference, then the Vercel AI SDK's `ai.*` spans
// and OpenLLMetry/Traceloop. For each field the first carrier present wins.

/** Longest stored text, in code points (as the JSON endpoints allow). */
export const MAX_TEXT = 32_000;

export type TextField = 'prompt' | 'response' | 'context' | 'tool_input' | 'tool_output';

export interface MappedSpan {
  span: OtelSpan;
  /** The agent the span itself names (null: inherit it from an ancestor or the resource). */
  ownAgent: string | null;
  /** Set by resolveAgents: own agent, nearest ancestor's, or the resource's service.name. */
  agentKey: string;
  isTool: boolean;
  mode: 'observed' | 'shadow';
  outcome: string;
  durationMs: number | undefined;
  principalKind: 'user' | 'agent' | undefined;
  principalId: string | undefined;
  toolName: string | undefined;
  text: Partial<Record<TextField, string>>;
  extras: OtelExtras;
}

const SPAN_KIND_NAMES = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const KEY_MAX = 512;
const INT64_MAX = 9_223_372_036_854_775_807n;
const TOOL_MAX = 256;

/** The span's kind of GenAI work, or null when it is not one we record (HTTP, DB, …). */
export function operationOf(a: Attrs): string | null {
  const op = str(a['gen_ai.operation.name']);
  if (op) return op;
  const oi = str(a['openinference.span.kind']);
  if (oi) return `openinference.${oi.toLowerCase()}`;
  const vercel = str(a['ai.operationId']);
  if (vercel) return vercel;
  const tl = str(a['traceloop.span.kind']);
  if (tl) return `traceloop.${tl}`;
  if (str(a['gen_ai.tool.name']) || str(a['gen_ai.tool.call.id'])) return 'execute_tool';
  // An MCP gateway's span of a tools/call (OpenTelemetry's MCP conventions; agentgateway's governance attributes).
  if (mcpToolName(a) !== undefined) return 'execute_tool';
  // OpenLLMetry's LLM spans ("openai.chat") carry no kind of their own.
  if (str(a['llm.request.type']) && (str(a['gen_ai.request.model']) || str(a['gen_ai.system'])))
    return `llm.${str(a['llm.request.type'])}`;
  return null;
}

const TOOL_OPERATIONS = new Set(['execute_tool', 'openinference.tool', 'ai.toolCall', 'traceloop.tool']);

function ownAgentOf(a: Attrs, op: string): string | null {
  const named =
    str(a['gen_ai.agent.id']) ??
    str(a['gen_ai.agent.name']) ??
    str(a['agent.name']) ??
    str(a['ai.telemetry.functionId']) ??
    (op === 'traceloop.agent' || op === 'traceloop.workflow' ? str(a['traceloop.entity.name']) : undefined) ??
    // The caller an MCP gateway authenticated (JWT sub, mTLS name): the agent that called the tool.
    str(a[`${GOVERNANCE}identity.subject`]);
  return named === undefined ? null : cut(named, KEY_MAX);
}

export function mapSpan(span: OtelSpan): MappedSpan | null {
  const a = span.attributes;
  const op = operationOf(a);
  if (op === null) return null;
  const isTool = TOOL_OPERATIONS.has(op);
  const truncated: Record<string, number> = {};
  const text: Partial<Record<TextField, string>> = {};
  const put = (field: TextField, v: string | undefined) => {
    if (v === undefined || v === '') return;
    const { text: t, length } = bounded(v);
    if (length > MAX_TEXT) truncated[field] = length;
    text[field] = t;
  };
  if (isTool) {
    put('tool_input', toolInput(a));
    put('tool_output', toolOutput(a));
  } else {
    put('prompt', prompt(span));
    put('response', response(span));
  }
  const toolName = isTool ? toolNameOf(a, op, span.name) : undefined;
  const usage = usageOf(a);
  const extras: OtelExtras = {
    trace_id: span.traceId,
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    // Every text of a span is stored through cut(): NUL becomes U+FFFD, as in the content fields.
    span_name: cut(span.name, KEY_MAX),
    span_kind: SPAN_KIND_NAMES[span.kind] ?? String(span.kind),
    operation: cut(op, KEY_MAX),
    // The column is a bigint: a start past 2262 is kept as the largest one.
    start_time_unix_nano: (span.startNs > INT64_MAX ? INT64_MAX : span.startNs).toString(),
    model: cutOrNull(
      str(a['gen_ai.response.model']) ??
        str(a['gen_ai.request.model']) ??
        str(a['llm.model_name']) ??
        str(a['ai.model.id']) ??
        str(a['ai.response.model']),
    ),
    provider: cutOrNull(
      str(a['gen_ai.provider.name']) ??
        str(a['gen_ai.system']) ??
        str(a['llm.provider']) ??
        str(a['llm.system']) ??
        str(a['ai.model.provider']),
    ),
    usage,
    finish_reasons: finishReasons(a),
    tool_call_id: cutOrNull(
      str(a['gen_ai.tool.call.id']) ?? str(a['tool_call.id']) ?? str(a['tool.id']) ?? str(a['ai.toolCall.id']),
    ),
    conversation_id: cutOrNull(
      str(a['gen_ai.conversation.id']) ?? str(a['session.id']) ?? str(a['ai.telemetry.metadata.sessionId']),
    ),
    scope: span.scopeName === '' ? null : cutOrNull(span.scopeName),
    truncated: null,
  };
  // The context field: what else the span says about the call, as JSON. It
  // is scanned and committed like any context; ids stay out of it (they are
  // shown from their own columns, and hex ids would read as secrets).
  const context: Record<string, unknown> = { source: 'otlp', operation: op, span: span.name };
  for (const k of ['model', 'provider', 'usage', 'finish_reasons', 'conversation_id'] as const) {
    if (extras[k] !== null) context[k] = extras[k];
  }
  const errorType = str(a['error.type']);
  if (errorType) context.error_type = errorType;
  const governance = governanceOf(a);
  if (governance) context.governance = governance;
  if (span.statusCode === 2 && span.statusMessage) context.status_message = span.statusMessage;
  if (Object.keys(truncated).length > 0) context.truncated = truncated;
  put('context', JSON.stringify(context));
  extras.truncated = Object.keys(truncated).length > 0 ? truncated : null;

  const [principalKind, principalId] = principalOf(a);
  const durationNs = span.endNs - span.startNs;
  const mode = str(span.resource['agent_ledger.mode']) === 'shadow' ? 'shadow' : 'observed';
  return {
    span,
    ownAgent: ownAgentOf(a, op),
    agentKey: '',
    isTool,
    mode,
    outcome: outcomeOf(span),
    durationMs: span.endNs > 0n && durationNs >= 0n ? Number(durationNs / 1_000_000n) : undefined,
    principalKind,
    principalId,
    toolName,
    text,
    extras,
  };
}

/**
 * Gives every span its agent: its own name, else the nearest ancestor in this
 * request that names one (the invoke_agent span above a chat or execute_tool),
 * else the resource's service.name.
 */
export function resolveAgents(mapped: MappedSpan[], all: readonly OtelSpan[]): void {
  const byId = new Map<string, OtelSpan>();
  for (const s of all) byId.set(`${s.traceId}/${s.spanId}`, s);
  const agentOfSpan = new Map<string, string | null>();
  for (const m of mapped) agentOfSpan.set(`${m.span.traceId}/${m.span.spanId}`, m.ownAgent);
  for (const m of mapped) {
    let agent = m.ownAgent;
    let cur: OtelSpan | undefined = m.span;
    // Bounded walk: a malicious request could chain spans in a loop.
    for (let hops = 0; agent === null && cur?.parentSpanId && hops < 64; hops++) {
      cur = byId.get(`${cur.traceId}/${cur.parentSpanId}`);
      if (!cur) break;
      const k = `${cur.traceId}/${cur.spanId}`;
      agent = agentOfSpan.has(k) ? agentOfSpan.get(k)! : ownAgentOf(cur.attributes, operationOf(cur.attributes) ?? '');
    }
    m.agentKey = agent ?? cut(str(m.span.resource['service.name']) ?? 'unknown_service', KEY_MAX);
  }
}

/**
 * The nearest ancestor of each span that is itself recorded, within this
 * request (spans we drop, such as an HTTP call between an agent and its
 * model call, are skipped over). Across requests only the direct parent is
 * known: it is linked when it arrives.
 */
export function recordedParent(
  m: MappedSpan,
  recorded: ReadonlySet<string>,
  all: ReadonlyMap<string, OtelSpan>,
): string | null {
  let parent = m.span.parentSpanId;
  for (let hops = 0; parent !== null && hops < 64; hops++) {
    const key = `${m.span.traceId}/${parent}`;
    if (recorded.has(key)) return parent;
    const s = all.get(key);
    if (!s) return parent; // not in this request: maybe stored already, maybe still to come
    parent = s.parentSpanId;
  }
  return parent;
}

// ---- carriers -------------------------------------------------------------

function prompt(span: OtelSpan): string | undefined {
  const a = span.attributes;
  const system = text(a['gen_ai.system_instructions']);
  const input = text(a['gen_ai.input.messages']);
  if (system !== undefined || input !== undefined) return [system, input].filter((x) => x !== undefined).join('\n');
  return (
    indexedMessages(a, 'llm.input_messages.', '.message.') ??
    text(a['input.value']) ??
    text(a['ai.prompt.messages']) ??
    text(a['ai.prompt']) ??
    indexedMessages(a, 'gen_ai.prompt.', '.') ??
    text(a['traceloop.entity.input']) ??
    eventText(
      span,
      ['gen_ai.system.message', 'gen_ai.user.message', 'gen_ai.assistant.message', 'gen_ai.tool.message'],
      ['content', 'gen_ai.event.content'],
    ) ??
    eventText(span, ['gen_ai.content.prompt'], ['gen_ai.prompt']) ??
    eventText(span, ['gen_ai.client.inference.operation.details'], ['gen_ai.input.messages'])
  );
}

function response(span: OtelSpan): string | undefined {
  const a = span.attributes;
  return (
    text(a['gen_ai.output.messages']) ??
    indexedMessages(a, 'llm.output_messages.', '.message.') ??
    text(a['output.value']) ??
    text(a['ai.response.text']) ??
    text(a['ai.response.object']) ??
    text(a['ai.response.toolCalls']) ??
    indexedMessages(a, 'gen_ai.completion.', '.') ??
    text(a['traceloop.entity.output']) ??
    eventText(span, ['gen_ai.choice'], ['message', 'content', 'gen_ai.event.content']) ??
    eventText(span, ['gen_ai.content.completion'], ['gen_ai.completion']) ??
    eventText(span, ['gen_ai.client.inference.operation.details'], ['gen_ai.output.messages'])
  );
}

function toolInput(a: Attrs): string | undefined {
  return (
    text(a['gen_ai.tool.call.arguments']) ??
    text(a['input.value']) ??
    text(a['ai.toolCall.args']) ??
    text(a['traceloop.entity.input'])
  );
}

function toolOutput(a: Attrs): string | undefined {
  return (
    text(a['gen_ai.tool.call.result']) ??
    text(a['output.value']) ??
    text(a['ai.toolCall.result']) ??
    text(a['traceloop.entity.output'])
  );
}

function toolNameOf(a: Attrs, op: string, spanName: string): string | undefined {
  const name =
    str(a['gen_ai.tool.name']) ??
    str(a['tool.name']) ??
    str(a['ai.toolCall.name']) ??
    (op === 'traceloop.tool' ? str(a['traceloop.entity.name']) : undefined) ??
    mcpToolName(a) ??
    (spanName.startsWith('execute_tool ') ? spanName.slice('execute_tool '.length) : undefined);
  return name === undefined ? undefined : cut(name, TOOL_MAX);
}

/** agentgateway's governance attributes (its design EP-2141): `agentgateway.governance.*`. */
const GOVERNANCE = 'agentgateway.governance.';

/**
 * The tool of an MCP gateway's tools/call span: `mcp.method.name` (or
 * `mcp.method`) `tools/call` with `gen_ai.tool.name` / `mcp.tool.name`, or
 * agentgateway's `action.target` naming a tool (`mcp://<server>/tools/<name>`).
 */
function mcpToolName(a: Attrs): string | undefined {
  const method = str(a['mcp.method.name']) ?? str(a['mcp.method']);
  const target = str(a[`${GOVERNANCE}action.target`]);
  const fromTarget = target === undefined ? undefined : /\/tools\/([^/?#]+)$/.exec(target)?.[1];
  if (method === 'tools/call') return str(a['gen_ai.tool.name']) ?? str(a['mcp.tool.name']) ?? fromTarget ?? target;
  if (method !== undefined || fromTarget === undefined || fromTarget === 'list') return undefined;
  try {
    return decodeURIComponent(fromTarget);
  } catch {
    return fromTarget;
  }
}

/** What agentgateway says it decided about the call, for the record's context (null when it says nothing). */
function governanceOf(a: Attrs): Record<string, string | boolean> | null {
  const out: Record<string, string | boolean> = {};
  const fields: Array<[string, string]> = [
    ['decision.result', 'decision'],
    ['decision.policy_id', 'policy_id'],
    ['action.risk_class', 'risk_class'],
    ['action.target', 'target'],
    ['action.arguments_digest', 'arguments_digest'],
    ['capability.selected', 'capability'],
    ['workflow.phase', 'workflow_phase'],
    ['workflow.checkpoint_ref', 'checkpoint_ref'],
    ['audit.id', 'audit_id'],
    ['identity.subject', 'subject'],
  ];
  for (const [attr, key] of fields) {
    const v = str(a[`${GOVERNANCE}${attr}`]);
    if (v !== undefined) out[key] = cut(v, KEY_MAX);
  }
  const bounded = a[`${GOVERNANCE}output.bounded`];
  if (typeof bounded === 'boolean') out.output_bounded = bounded;
  else if (bounded === 'true' || bounded === 'false') out.output_bounded = bounded === 'true';
  return Object.keys(out).length > 0 ? out : null;
}

/** error for a failed span; denied / confirmation_required when a gateway says it blocked or deferred the call. */
function outcomeOf(span: OtelSpan): string {
  const a = span.attributes;
  if (span.statusCode === 2 || str(a['error.type']) !== undefined) return 'error';
  const decision = str(a[`${GOVERNANCE}decision.result`]);
  if (decision === 'deny') return 'denied';
  if (decision === 'require_confirmation') return 'confirmation_required';
  return 'success';
}

/**
 * Flattened message lists (`llm.input_messages.0.message.role`,
 * `gen_ai.prompt.0.content`) as "role: content" lines, in index order.
 */
function indexedMessages(a: Attrs, prefix: string, sep: string): string | undefined {
  const byIndex = new Map<number, { role?: string; content?: string; parts: string[] }>();
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(prefix)) continue;
    const rest = k.slice(prefix.length);
    const dot = rest.indexOf('.');
    if (dot <= 0) continue;
    const i = Number(rest.slice(0, dot));
    if (!Number.isSafeInteger(i) || i < 0) continue;
    const field = rest.slice(dot + 1);
    const sub = field.startsWith(sep.slice(1)) ? field.slice(sep.length - 1) : field;
    const m = byIndex.get(i) ?? { parts: [] };
    const t = text(v);
    if (t === undefined) continue;
    if (sub === 'role') m.role = t;
    else if (sub === 'content') m.content = t;
    else if (sub.endsWith('.text') || sub.endsWith('arguments') || sub.endsWith('function.name')) m.parts.push(t);
    byIndex.set(i, m);
  }
  if (byIndex.size === 0) return undefined;
  const lines: string[] = [];
  for (const i of [...byIndex.keys()].sort((x, y) => x - y)) {
    const m = byIndex.get(i)!;
    const body = [m.content, ...m.parts].filter((x) => x !== undefined && x !== '').join('\n');
    if (body === '' && m.role === undefined) continue;
    lines.push(m.role ? `${m.role}: ${body}` : body);
  }
  return lines.length > 0 ? lines.join('\n') : undefined;
}

function eventText(span: OtelSpan, names: string[], keys: string[]): string | undefined {
  const parts: string[] = [];
  for (const e of span.events) {
    if (!names.includes(e.name)) continue;
    for (const k of keys) {
      const t = text(e.attributes[k]);
      if (t !== undefined) {
        const role = e.name.startsWith('gen_ai.') && e.name.endsWith('.message') ? e.name.slice(7, -8) : undefined;
        parts.push(role ? `${role}: ${t}` : t);
        break;
      }
    }
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

function usageOf(a: Attrs): Record<string, number> | null {
  const pairs: Array<[string, AttrValue | undefined]> = [
    [
      'input_tokens',
      a['gen_ai.usage.input_tokens'] ??
        a['gen_ai.usage.prompt_tokens'] ??
        a['llm.token_count.prompt'] ??
        a['ai.usage.promptTokens'] ??
        a['ai.usage.inputTokens'],
    ],
    [
      'output_tokens',
      a['gen_ai.usage.output_tokens'] ??
        a['gen_ai.usage.completion_tokens'] ??
        a['llm.token_count.completion'] ??
        a['ai.usage.completionTokens'] ??
        a['ai.usage.outputTokens'],
    ],
    [
      'total_tokens',
      a['llm.usage.total_tokens'] ??
        a['llm.token_count.total'] ??
        a['gen_ai.usage.total_tokens'] ??
        a['ai.usage.totalTokens'],
    ],
    ['cache_read_input_tokens', a['gen_ai.usage.cache_read.input_tokens'] ?? a['gen_ai.usage.cache_read_input_tokens']],
    [
      'cache_creation_input_tokens',
      a['gen_ai.usage.cache_creation.input_tokens'] ?? a['gen_ai.usage.cache_creation_input_tokens'],
    ],
    ['reasoning_output_tokens', a['gen_ai.usage.reasoning.output_tokens']],
  ];
  const out: Record<string, number> = {};
  for (const [k, v] of pairs) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
    if (n !== undefined && Number.isFinite(n) && n >= 0) out[k] = Math.floor(n);
  }
  return Object.keys(out).length > 0 ? out : null;
}

function finishReasons(a: Attrs): string[] | null {
  const v =
    a['gen_ai.response.finish_reasons'] ?? a['ai.response.finishReason'] ?? a['gen_ai.completion.0.finish_reason'];
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  const out = list
    .filter((x): x is string => typeof x === 'string')
    .slice(0, 16)
    .map((x) => cut(x, 64));
  return out.length > 0 ? out : null;
}

function principalOf(a: Attrs): ['user' | 'agent' | undefined, string | undefined] {
  const user =
    str(a['enduser.id']) ??
    str(a['enduser.pseudo.id']) ??
    str(a['user.id']) ??
    str(a['langfuse.user.id']) ??
    str(a['ai.telemetry.metadata.userId']);
  if (user) return ['user', cut(user, KEY_MAX)];
  const caller = str(a['gen_ai.caller.name']);
  if (caller && str(a['gen_ai.caller.type']) === 'agent') return ['agent', cut(caller, KEY_MAX)];
  return [undefined, undefined];
}

// ---- values ---------------------------------------------------------------

function str(v: AttrValue | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Text of an attribute: strings as sent, structured values as JSON. */
function text(v: AttrValue | undefined): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * Storable text of at most MAX_TEXT code points: PostgreSQL cannot store NUL
 * or lone surrogates (they become U+FFFD), and longer text is cut (the length
 * sent is reported, never refused).
 */
export function bounded(v: string): { text: string; length: number } {
  let t = v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v;
  if (!t.isWellFormed()) t = t.toWellFormed();
  if (t.length <= MAX_TEXT) return { text: t, length: t.length };
  // Count code points only when the UTF-16 length allows more than the cap.
  let points = 0;
  let cutAt = -1;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    points++;
    if (points === MAX_TEXT) cutAt = i + 1;
  }
  return points <= MAX_TEXT ? { text: t, length: points } : { text: t.slice(0, cutAt), length: points };
}

function cut(v: string, max: number): string {
  const t = bounded(v).text;
  return t.length > max ? [...t].slice(0, max).join('') : t;
}

function cutOrNull(v: string | undefined): string | null {
  return v === undefined ? null : cut(v, KEY_MAX);
}
