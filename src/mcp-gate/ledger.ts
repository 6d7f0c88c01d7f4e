import { AgentLedger, AgentLedgerError, type ApprovalState } from '../../packages/client/src/index.ts';
import { clipText, toolResultText } from '../core/index.ts';
import { globMatch } from '../policy/index.ts';

// What the gate asks of the service: record a tool call before it runs and
// obey the verdict (waiting for a person when the policy holds the call),
// record the tool's result after, and read the agent's scope for tools/list.
// Every request goes through the TypeScript client, so retries keep one
// Idempotency-Key and honour Retry-After.

export type Mode = 'enforced' | 'observed';
export type OnUnreachable = 'deny' | 'allow';

export interface GateOptions {
  url: string;
  token: string;
  agentKey: string;
  mode: Mode;
  onUnreachable: OnUnreachable;
  /** Names the wrapped server in each record's context (the command, or the upstream URL). */
  server: string;
  /** Per-attempt timeout of a request to the service (ms). */
  timeoutMs?: number;
  /** Retries of a request to the service after the first attempt. */
  maxRetries?: number;
  /** Where warnings go (the proxy's stderr: stdout is the MCP stream). */
  warn?: (line: string) => void;
  fetch?: typeof fetch;
}

export interface ToolCall {
  name: string;
  arguments: unknown;
  /** Aborted when the caller cancels the request (notifications/cancelled) or goes away. */
  signal: AbortSignal;
  /** Called now and then while a held call waits, so a caller's request timeout can be reset. */
  onWaiting?: (secondsLeft: number) => void;
}

/** forward: run the tool (invocationId: the gated record, null when unrecorded); refuse: answer the caller with `text` as an error result. */
export type GateDecision =
  { action: 'forward'; invocationId: number | null; startedAt: number } | { action: 'refuse'; text: string };

type Approval = ApprovalState;

/** How long a tool result waits to be attached, so the results of a burst of calls go together. */
const ATTACH_DELAY_MS = 1_000;
/** Most results in one request (the service's limit), and most characters of them (its body limit is 4 MiB). */
const MANY_RESULTS = 100;
const MANY_CHARS = 500_000;

/** A tool's result waiting to be attached to its gated invocation. */
interface Attachment {
  call: { name: string; arguments: unknown };
  gated: GateDecision & { action: 'forward' };
  output: { text: string; cutFrom: number | null };
  isError: boolean;
  id: number;
}
/** A held call asks again this long (s) per long poll; the service answers as soon as it is decided (at most 60). */
const POLL_SECONDS = 30;

export class LedgerGate {
  readonly #o: Required<Omit<GateOptions, 'fetch' | 'warn'>> & { warn: (line: string) => void };
  readonly #client: AgentLedger;
  readonly #fetch: typeof fetch;
  /** One correlation id per proxy run: the calls of one MCP session read as one trace. */
  readonly correlationId = crypto.randomUUID();
  #seq = 0;
  #scopeWarned = false;
  /** False once the service answered that it has no POST /api/v1/invocations/{id}/output (older versions). */
  #canAttach = true;
  /** True once the service took an attachment: the endpoint is there, queued ones may go at once. */
  #attachSeen = false;
  /** False once the service answered that it has no POST /api/v1/invocations/outputs: one request a result then. */
  #canAttachMany = true;
  /** Results waiting to be attached, sent together at most ATTACH_DELAY_MS after the first. */
  #queued: Attachment[] = [];
  #attachTimer: NodeJS.Timeout | undefined;
  /** Results being attached (close() waits for them). */
  readonly #attaching = new Set<Promise<void>>();

  constructor(opts: GateOptions) {
    this.#o = {
      timeoutMs: 5_000,
      maxRetries: 2,
      warn: (line) => process.stderr.write(`agent-ledger mcp-proxy: ${line}\n`),
      ...opts,
      url: opts.url.replace(/\/+$/, ''),
    };
    this.#fetch = opts.fetch ?? globalThis.fetch;
    this.#client = new AgentLedger({
      baseUrl: this.#o.url,
      token: this.#o.token,
      maxRetries: this.#o.maxRetries,
      retryBaseMs: 100,
      maxRetryDelayMs: 2_000,
      timeoutMs: this.#o.timeoutMs,
      // Outputs are sent in the background; one that cannot be recorded is said on stderr, never silently lost.
      onDrop: (r) => this.#o.warn(`${r.events.length} tool result record(s) not recorded (${r.reason})`),
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
  }

  /** Decides a tools/call before the server sees it. */
  async before(call: ToolCall): Promise<GateDecision> {
    const startedAt = performance.now();
    // Observed mode records the call with its result, after it ran: nothing waits for the service.
    if (this.#o.mode === 'observed') return { action: 'forward', invocationId: null, startedAt };
    const input = clipText(JSON.stringify(call.arguments ?? {}));
    let res: Omit<Awaited<ReturnType<AgentLedger['invocation']>>, 'approval'> & { approval?: Approval };
    try {
      res = await this.#client.invocation(
        {
          agent_key: this.#o.agentKey,
          mode: 'enforced',
          tool_name: call.name.slice(0, 256),
          tool_input: input.text,
          context: this.#context(input.cutFrom === null ? {} : { truncated: { tool_input: input.cutFrom } }),
          correlation_id: this.correlationId,
        },
        // The same key on every retry of this call: a retry after a lost answer never records twice.
        { idempotencyKey: `mcp-proxy:${this.correlationId}:${++this.#seq}` },
      );
    } catch (err) {
      return this.#unreachable(call.name, err, startedAt);
    }
    if (res.approval) {
      const approval = await this.#wait(res.approval, call);
      if (approval.status !== 'approved') {
        const who = approval.decided_by ? ` by ${approval.decided_by}` : '';
        const note = approval.note ? `: ${approval.note}` : '';
        const what =
          approval.status === 'denied'
            ? `was denied${who}${note}`
            : approval.status === 'expired'
              ? `was not approved before ${approval.expires_at} (expired)`
              : `was not decided (${approval.status})`;
        return {
          action: 'refuse',
          text: `agent-ledger held ${call.name} for agent ${this.#o.agentKey} for approval ${approval.approval_id}, which ${what} (invocation ${res.invocation_id}).`,
        };
      }
      return { action: 'forward', invocationId: res.invocation_id, startedAt: performance.now() };
    }
    if (res.verdict === 'deny') {
      const reasons = await this.#reasons(res.invocation_id);
      return {
        action: 'refuse',
        text:
          `agent-ledger denied ${call.name} for agent ${this.#o.agentKey}` +
          (reasons ? `: ${reasons.join(', ')}` : '') +
          ` (invocation ${res.invocation_id}, evidence ${res.evidence_id ?? 'n/a'}).`,
      };
    }
    return { action: 'forward', invocationId: res.invocation_id, startedAt: performance.now() };
  }

  /**
   * Records what the tool answered, in the background. A gated call's result
   * is attached to its invocation as its tool_output (one invocation per call,
   * scanned after the fact); a service without that endpoint (404) gets it as
   * an observed child invocation instead, as does observed mode (the call and
   * its result in one record).
   */
  after(
    call: { name: string; arguments: unknown },
    gated: GateDecision & { action: 'forward' },
    result: unknown,
  ): void {
    const { text, isError } = toolResultText(result);
    const output = clipText(text);
    const id = gated.invocationId;
    if (id === null || !this.#canAttach) {
      this.#recordResult(call, gated, output, isError);
      return;
    }
    // Queued, not sent now: a request per result right after the call would make the agent's next call wait behind
    // it in the workspace's log (+5 ms p50 through the proxy, bench/mcp-proxy.ts); sent together, in one request,
    // they take one transaction of the log.
    this.#queued.push({ call, gated, output, isError, id });
    if (this.#attachTimer === undefined) {
      this.#attachTimer = setTimeout(() => void this.#sendAttachments(), ATTACH_DELAY_MS);
      this.#attachTimer.unref();
    }
  }

  /** Sends the queued results: in requests of many (MANY_RESULTS, MANY_CHARS), or one by one to an older service. */
  #sendAttachments(): Promise<void> {
    clearTimeout(this.#attachTimer);
    this.#attachTimer = undefined;
    const queued = this.#queued;
    this.#queued = [];
    const run = (async () => {
      let i = 0;
      while (i < queued.length && this.#canAttachMany && this.#canAttach) {
        const chunk: Attachment[] = [];
        let chars = 0;
        while (
          i < queued.length &&
          chunk.length < MANY_RESULTS &&
          (chunk.length === 0 || chars + queued[i]!.output.text.length <= MANY_CHARS)
        ) {
          chars += queued[i]!.output.text.length;
          chunk.push(queued[i++]!);
        }
        if (!(await this.#attachMany(chunk))) i -= chunk.length;
      }
      while (i < queued.length) await this.#attachOne(queued[i++]!);
    })();
    this.#attaching.add(run);
    void run.finally(() => this.#attaching.delete(run));
    return run;
  }

  /** Attaches results in one request; false (nothing sent) when the service predates the endpoint. */
  async #attachMany(chunk: readonly Attachment[]): Promise<boolean> {
    let results: Awaited<ReturnType<AgentLedger['attachOutputs']>>;
    try {
      results = await this.#client.attachOutputs(chunk.map((a) => ({ invocationId: a.id, toolOutput: a.output.text })));
    } catch (err) {
      if (err instanceof AgentLedgerError && err.status === 404) {
        this.#canAttachMany = false;
        return false;
      }
      this.#o.warn(`${chunk.length} tool result(s) not recorded (${message(err)})`);
      return true;
    }
    this.#attachSeen = true;
    for (const r of results) {
      // 409: stored by an attempt whose answer was lost, then retried: it is there.
      if (r.status === 201 || r.status === 409) continue;
      const a = chunk[r.index]!;
      this.#o.warn(
        `the result of ${a.call.name} (invocation ${a.id}) was not recorded (${r.status} ${r.code ?? ''}: ${r.detail ?? ''})`,
      );
    }
    return true;
  }

  /** Attaches one result through the single endpoint; a service without it gets the result as a child record. */
  async #attachOne(a: Attachment): Promise<void> {
    if (!this.#canAttach) return this.#recordResult(a.call, a.gated, a.output, a.isError);
    try {
      await this.#client.attachOutput(a.id, a.output.text);
      this.#attachSeen = true;
    } catch (err) {
      // Stored by an attempt whose answer was lost, then retried: it is there.
      if (err instanceof AgentLedgerError && err.status === 409) {
        this.#attachSeen = true;
        return;
      }
      if (err instanceof AgentLedgerError && err.status === 404 && !this.#attachSeen) {
        // A service from before the endpoint: the result as a child record, from now on.
        this.#canAttach = false;
        return this.#recordResult(a.call, a.gated, a.output, a.isError);
      }
      this.#o.warn(`the result of ${a.call.name} (invocation ${a.id}) was not recorded (${message(err)})`);
    }
  }

  /** The result as an observed invocation: with its input in observed mode, a child of the gated call otherwise. */
  #recordResult(
    call: { name: string; arguments: unknown },
    gated: GateDecision & { action: 'forward' },
    output: { text: string; cutFrom: number | null },
    isError: boolean,
  ): void {
    const input = this.#o.mode === 'observed' ? clipText(JSON.stringify(call.arguments ?? {})) : null;
    const truncated = {
      ...(output.cutFrom === null ? {} : { tool_output: output.cutFrom }),
      ...(input && input.cutFrom !== null ? { tool_input: input.cutFrom } : {}),
    };
    this.#client.record({
      kind: 'invocation',
      event: {
        agent_key: this.#o.agentKey,
        mode: 'observed',
        tool_name: call.name.slice(0, 256),
        ...(input ? { tool_input: input.text } : {}),
        tool_output: output.text,
        outcome: isError ? 'error' : 'success',
        duration_ms: Math.max(0, Math.round(performance.now() - gated.startedAt)),
        correlation_id: this.correlationId,
        ...(gated.invocationId === null ? {} : { parent_invocation_id: gated.invocationId }),
        context: this.#context({
          ...(gated.invocationId === null ? {} : { result_of: gated.invocationId }),
          ...(Object.keys(truncated).length > 0 ? { truncated } : {}),
        }),
      },
    });
  }

  /**
   * Which of these tools the agent may call, by its scope; null: do not filter
   * (no scope, or the token may not read it). A persona's tool list is not
   * readable here: its calls are still denied at tools/call.
   */
  async allowedTools(): Promise<{ filter: ((name: string) => boolean) | null; unreachable: boolean }> {
    let res: Response;
    try {
      res = await this.#fetch(`${this.#o.url}/api/v1/agents/${encodeURIComponent(this.#o.agentKey)}`, {
        headers: { authorization: `Bearer ${this.#o.token}` },
        signal: AbortSignal.timeout(this.#o.timeoutMs),
      });
    } catch (err) {
      this.#o.warn(`cannot read the agent's scope (${message(err)})`);
      return { filter: null, unreachable: true };
    }
    if (res.status === 404) return { filter: null, unreachable: false }; // an agent never seen and without a scope
    if (!res.ok) {
      await res.body?.cancel();
      if (res.status >= 500 || res.status === 429) return { filter: null, unreachable: true };
      if (!this.#scopeWarned) {
        this.#scopeWarned = true;
        this.#o.warn(
          `the token may not read the agent's scope (HTTP ${res.status}): tools/list is not filtered; calls outside the scope are still denied`,
        );
      }
      return { filter: null, unreachable: false };
    }
    const body = (await res.json()) as { allowed_tools?: string[] | null };
    const globs = body.allowed_tools;
    if (!Array.isArray(globs)) return { filter: null, unreachable: false };
    return { filter: (name) => globs.some((g) => globMatch(g, name)), unreachable: false };
  }

  get onUnreachable(): OnUnreachable {
    return this.#o.onUnreachable;
  }

  /** Sends the tool results still queued. */
  async close(): Promise<void> {
    // An attachment that falls back to a child record queues it: those first, then the queue.
    await this.#sendAttachments();
    await Promise.all([...this.#attaching]);
    await this.#client.shutdown();
  }

  #unreachable(tool: string, err: unknown, startedAt: number): GateDecision {
    const why =
      err instanceof AgentLedgerError && err.status < 500 && err.status !== 429
        ? `the service refused the record (${err.message})`
        : `the service could not be reached (${message(err)})`;
    if (this.#o.onUnreachable === 'allow') {
      this.#o.warn(`${why}; ${tool} runs unrecorded (--on-unreachable allow)`);
      return { action: 'forward', invocationId: null, startedAt };
    }
    return {
      action: 'refuse',
      text: `agent-ledger could not decide ${tool} for agent ${this.#o.agentKey}: ${why}; the call is refused (fail closed).`,
    };
  }

  /** The rule ids that denied the call, when the token may read the invocation; null otherwise. */
  async #reasons(invocationId: number): Promise<string[] | null> {
    try {
      const res = await this.#fetch(`${this.#o.url}/api/v1/invocations/${invocationId}`, {
        headers: { authorization: `Bearer ${this.#o.token}` },
        signal: AbortSignal.timeout(this.#o.timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return null;
      }
      const body = (await res.json()) as { reasons?: unknown };
      return Array.isArray(body.reasons) ? body.reasons.map(String) : null;
    } catch {
      return null;
    }
  }

  /**
   * Waits until the approval is decided or expires (the client's long polls:
   * the service holds no database connection for them). A lost connection is
   * retried until the expiry; after it the call counts as expired (expiry is
   * a deny). A cancelled call counts as denied.
   */
  async #wait(first: Approval, call: ToolCall): Promise<Approval> {
    const last = await this.#client.waitForApproval(first, {
      signal: call.signal,
      pollSeconds: POLL_SECONDS,
      ...(call.onWaiting ? { onWaiting: call.onWaiting } : {}),
      onRetry: (err) => this.#o.warn(`waiting for approval ${first.approval_id}: ${message(err)}`),
    });
    if (last.status === 'pending' && call.signal.aborted)
      return { ...last, status: 'denied', note: 'the caller cancelled the call' };
    return last;
  }

  #context(extra: Record<string, unknown>): string {
    return clipText(JSON.stringify({ source: 'mcp-proxy', server: this.#o.server.slice(0, 512), ...extra })).text;
  }
}

const message = (err: unknown) => {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message}: ${cause.message}` : err.message;
  }
  return String(err);
};
