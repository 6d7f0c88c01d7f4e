import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

// @agent-ledger/client: record what an agent does, from TypeScript.
//  - invocation() / rogue(): one event, answered with the verdict (the call
//    to make in `enforced` mode, before the tool runs);
//  - record(): buffered, sent in batches in the background; flush() and
//    shutdown() wait until everything was sent;
//  - waitForApproval(): a held call's wait for a person's decision (long polls);
//  - attachOutput() / attachOutputs(): a call's result (or up to 100 calls'),
//    after it ran, as its invocation's tool_output;
// every request carries an Idempotency-Key that stays the same across its
// retries (a retry after a timeout never records twice), 429/502/503/504 and
// lost connections are retried with backoff honouring Retry-After, and
// whatever cannot be sent is reported through onDrop, never lost silently.
// Types come from the service's OpenAPI document (scripts/write-api-types.ts).

type InvocationOp = paths['/api/v1/admin/agents/events/invocation']['post'];
type RogueOp = paths['/api/v1/admin/agents/events/rogue']['post'];
type AttachOp = paths['/api/v1/invocations/{invocation_id}/output']['post'];
type AttachManyOp = paths['/api/v1/invocations/outputs']['post'];
export type InvocationEvent = NonNullable<InvocationOp['requestBody']>['content']['application/json'];
export type InvocationResult = InvocationOp['responses'][201]['content']['application/json'];
export type OutputAttached = AttachOp['responses'][201]['content']['application/json'];
/** One result's answer in attachOutputs(): status 201 with its evidence_id, or the single endpoint's problem (404, 409). */
export type OutputAttachedItem = AttachManyOp['responses'][207]['content']['application/json']['results'][number];
export type RogueEvent = NonNullable<RogueOp['requestBody']>['content']['application/json'];
export type RogueResult = RogueOp['responses'][201]['content']['application/json'];
type ApprovalOp = paths['/api/v1/approvals/{approval_id}']['get'];
export type Approval = ApprovalOp['responses'][200]['content']['application/json'];
/** What a held invocation's answer says of its approval, or the approval as last read. */
export type ApprovalState = Pick<Approval, 'approval_id' | 'status' | 'expires_at'> & Partial<Approval>;

export interface WaitOptions {
  /** Stops the wait: the approval is answered as last read (pending). */
  signal?: AbortSignal;
  /** Stop waiting at this time (ms since the epoch), answering the approval as last read; default: until it is decided or expires. */
  deadline?: number;
  /** Seconds each long poll asks the service to wait (1-60, default 30); it answers as soon as the approval is decided. */
  pollSeconds?: number;
  /** Called before each poll with the seconds left until the approval expires. */
  onWaiting?: (secondsLeft: number) => void;
  /** Called when a poll failed (it is retried with backoff until the approval's expiry). */
  onRetry?: (err: unknown) => void;
}

export type BufferedEvent = { kind: 'invocation'; event: InvocationEvent } | { kind: 'rogue'; event: RogueEvent };

export interface DropReport {
  /** buffer_full: record() found the buffer at maxBuffer; rejected: the service refused the event (4xx);
   *  send_failed: still failing after the last retry; shut_down: record() after shutdown(). */
  reason: 'buffer_full' | 'rejected' | 'send_failed' | 'shut_down';
  events: BufferedEvent[];
  /** The service's answer or the network error, when there was one. */
  error?: unknown;
}

export interface ClientOptions {
  /** The service, e.g. https://ledger.example.com (no trailing /api). */
  baseUrl: string;
  /** An API token (svc_live_…) or an ingress token (svc_ingress_…). */
  token: string;
  /** Retries after the first attempt (default 5). */
  maxRetries?: number;
  /** First backoff step in ms, doubled per retry with jitter (default 200). */
  retryBaseMs?: number;
  /** Longest wait between attempts, also for a longer Retry-After (default 30,000). */
  maxRetryDelayMs?: number;
  /** Per-attempt timeout in ms (default 10,000). */
  timeoutMs?: number;
  /** Events record() holds at most (default 10,000); more are dropped and reported. */
  maxBuffer?: number;
  /** Events per batch request (default 100, the service takes up to 500). */
  batchSize?: number;
  /** How often buffered events are sent (default 1,000 ms). */
  flushIntervalMs?: number;
  /** Called with every event that could not be recorded. Default: a warning on stderr. */
  onDrop?: (report: DropReport) => void;
  fetch?: typeof fetch;
}

export class AgentLedgerError extends Error {
  readonly status: number;
  readonly problem: unknown;
  constructor(status: number, problem: unknown) {
    const detail =
      typeof problem === 'object' && problem !== null && 'detail' in problem
        ? String((problem as { detail: unknown }).detail)
        : '';
    super(`agent-ledger answered ${status}${detail ? `: ${detail}` : ''}`);
    this.status = status;
    this.problem = problem;
  }
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const BATCH_PATH = '/api/v1/admin/agents/events/batch';

export class AgentLedger {
  readonly #opts: Required<Omit<ClientOptions, 'fetch' | 'onDrop'>> & Pick<ClientOptions, 'onDrop'>;
  readonly #fetch: typeof fetch;
  readonly #api: ReturnType<typeof createClient<paths>>;
  #buffer: Array<BufferedEvent & { key: string }> = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;
  /** null: not known yet whether the service has the batch endpoint. */
  #hasBatch: boolean | null = null;
  readonly stats = { sent: 0, dropped: 0, retries: 0 };

  constructor(opts: ClientOptions) {
    this.#opts = {
      maxRetries: 5,
      retryBaseMs: 200,
      maxRetryDelayMs: 30_000,
      timeoutMs: 10_000,
      maxBuffer: 10_000,
      batchSize: 100,
      flushIntervalMs: 1_000,
      ...opts,
      baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    };
    this.#fetch = opts.fetch ?? globalThis.fetch;
    this.#api = createClient<paths>({ baseUrl: this.#opts.baseUrl, fetch: (req: Request) => this.#send(req) });
  }

  /** Records one invocation and returns its verdict (allow, flag_for_review, deny). */
  async invocation(event: InvocationEvent, opts: { idempotencyKey?: string } = {}): Promise<InvocationResult> {
    const { data, error, response } = await this.#api.POST('/api/v1/admin/agents/events/invocation', {
      body: event,
      headers: this.#headers(opts.idempotencyKey ?? crypto.randomUUID()),
    });
    if (data === undefined) throw new AgentLedgerError(response.status, error);
    return data;
  }

  /** Records one out-of-scope ("rogue") action. */
  async rogue(event: RogueEvent, opts: { idempotencyKey?: string } = {}): Promise<RogueResult> {
    const { data, error, response } = await this.#api.POST('/api/v1/admin/agents/events/rogue', {
      body: event,
      headers: this.#headers(opts.idempotencyKey ?? crypto.randomUUID()),
    });
    if (data === undefined) throw new AgentLedgerError(response.status, error);
    return data;
  }

  /**
   * Attaches a tool's result to the invocation recorded for its call (before
   * it ran), as that invocation's tool_output: scanned like one sent with it,
   * not counted as another invocation. Throws AgentLedgerError: 404 when the
   * invocation is not this token's (or the service predates the endpoint),
   * 409 when it has a tool_output already (also a retry whose first attempt
   * was stored but its answer lost).
   */
  async attachOutput(invocationId: number, toolOutput: string): Promise<OutputAttached> {
    const { data, error, response } = await this.#api.POST('/api/v1/invocations/{invocation_id}/output', {
      params: { path: { invocation_id: invocationId } },
      body: { tool_output: toolOutput },
      headers: { authorization: `Bearer ${this.#opts.token}` },
    });
    if (data === undefined) throw new AgentLedgerError(response.status, error);
    return data;
  }

  /**
   * Attaches up to 100 results at once (one request, one transaction in the
   * service): one answer per result, in order, each what attachOutput() would
   * have been told — status 201, or 404 / 409 with the problem's code. Throws
   * AgentLedgerError for the whole request (401, 403, 413, 422, or 404 when
   * the service predates the endpoint).
   */
  async attachOutputs(
    outputs: ReadonlyArray<{ invocationId: number; toolOutput: string }>,
  ): Promise<OutputAttachedItem[]> {
    const { data, error, response } = await this.#api.POST('/api/v1/invocations/outputs', {
      body: { outputs: outputs.map((o) => ({ invocation_id: o.invocationId, tool_output: o.toolOutput })) },
      headers: { authorization: `Bearer ${this.#opts.token}` },
    });
    if (data === undefined) throw new AgentLedgerError(response.status, error);
    return data.results;
  }

  /**
   * Waits for a held invocation's approval to be decided: long polls
   * `GET /api/v1/approvals/{id}?wait=…` until its status is not pending, the
   * deadline passes or the signal aborts (then the approval as last read is
   * answered, still pending). A poll that fails is retried with backoff; when
   * the approval's expiry is 5 s past and the service still cannot be read,
   * it is answered as expired (expiry is a deny). Only `approved` means act.
   */
  async waitForApproval(first: ApprovalState, opts: WaitOptions = {}): Promise<ApprovalState> {
    let current = first;
    let failures = 0;
    const expiresAt = Date.parse(first.expires_at);
    const deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
    const pollSeconds = Math.max(1, Math.min(60, Math.floor(opts.pollSeconds ?? 30)));
    while (current.status === 'pending') {
      const now = Date.now();
      if (opts.signal?.aborted || now >= deadline) return current;
      const left = Math.max(0, Math.ceil((expiresAt - now) / 1000));
      opts.onWaiting?.(left);
      const wait = Math.max(1, Math.min(pollSeconds, left + 1, Math.ceil((deadline - now) / 1000)));
      const signals = [AbortSignal.timeout((wait + 10) * 1000)];
      if (opts.signal) signals.push(opts.signal);
      if (Number.isFinite(deadline)) signals.push(AbortSignal.timeout(Math.max(1, deadline - now)));
      try {
        const res = await this.#fetch(
          `${this.#opts.baseUrl}/api/v1/approvals/${encodeURIComponent(current.approval_id)}?wait=${wait}`,
          { headers: { authorization: `Bearer ${this.#opts.token}` }, signal: AbortSignal.any(signals) },
        );
        if (!res.ok) {
          const body: unknown = await res.json().catch(() => null);
          throw new AgentLedgerError(res.status, body);
        }
        current = (await res.json()) as Approval;
        failures = 0;
      } catch (err) {
        if (opts.signal?.aborted || Date.now() >= deadline) return current;
        failures++;
        if (Date.now() > expiresAt + 5_000) return { ...current, status: 'expired' };
        opts.onRetry?.(err);
        await sleep(Math.min(5_000, 250 * 2 ** failures, Math.max(0, deadline - Date.now())));
      }
    }
    return current;
  }

  /** Queues an event; it is sent in the background (flush() waits for it). */
  record(item: BufferedEvent): void {
    const entry = { ...item, key: crypto.randomUUID() };
    if (this.#closed) {
      this.#drop({ reason: 'shut_down', events: [item] });
      return;
    }
    if (this.#buffer.length >= this.#opts.maxBuffer) {
      this.#drop({ reason: 'buffer_full', events: [item] });
      return;
    }
    this.#buffer.push(entry);
    if (this.#buffer.length >= this.#opts.batchSize) void this.flush();
    else this.#schedule();
  }

  /** Sends everything queued so far; resolves when the service has answered for all of it. */
  flush(): Promise<void> {
    const run = this.#flushing.then(() => this.#drain());
    this.#flushing = run.catch(() => {});
    return run;
  }

  /** Stops taking events and sends what is queued. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  #schedule(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#opts.flushIntervalMs);
    this.#timer.unref();
  }

  async #drain(): Promise<void> {
    while (this.#buffer.length > 0) {
      const batch = this.#buffer.splice(0, this.#opts.batchSize);
      try {
        if (this.#hasBatch !== false) {
          const done = await this.#sendBatch(batch);
          if (done) continue;
        }
        await this.#sendSingles(batch);
      } catch (err) {
        this.#drop({ reason: 'send_failed', events: batch.map(strip), error: err });
      }
    }
  }

  /** false when the service has no batch endpoint (older versions): the caller sends one by one. */
  async #sendBatch(batch: Array<BufferedEvent & { key: string }>): Promise<boolean> {
    const res = await this.#send(
      new Request(`${this.#opts.baseUrl}${BATCH_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.#opts.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events: batch.map((e) => ({ kind: e.kind, event_id: e.key, event: e.event })) }),
      }),
    );
    if (res.status === 404 && this.#hasBatch === null) {
      this.#hasBatch = false;
      return false;
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) throw new AgentLedgerError(res.status, body);
    this.#hasBatch = true;
    const results = (body as { results?: Array<{ index: number; status: number }> }).results ?? [];
    const refused = results.filter((r) => r.status >= 300);
    this.stats.sent += batch.length - refused.length;
    if (refused.length > 0)
      this.#drop({ reason: 'rejected', events: refused.map((r) => strip(batch[r.index]!)), error: refused });
    return true;
  }

  async #sendSingles(batch: Array<BufferedEvent & { key: string }>): Promise<void> {
    const CONCURRENCY = 8;
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const e = batch[next++]!;
        try {
          if (e.kind === 'invocation') await this.invocation(e.event, { idempotencyKey: e.key });
          else await this.rogue(e.event, { idempotencyKey: e.key });
          this.stats.sent++;
        } catch (err) {
          const rejected = err instanceof AgentLedgerError && err.status < 500 && !RETRY_STATUSES.has(err.status);
          this.#drop({ reason: rejected ? 'rejected' : 'send_failed', events: [strip(e)], error: err });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batch.length) }, worker));
  }

  #headers(key: string): Record<string, string> {
    return { authorization: `Bearer ${this.#opts.token}`, 'idempotency-key': key };
  }

  /** One request with its retries: the same bytes and Idempotency-Key every time. */
  async #send(req: Request): Promise<Response> {
    const body = req.body === null ? undefined : await req.arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      let res: Response | undefined;
      let failure: unknown;
      try {
        res = await this.#fetch(req.url, {
          method: req.method,
          headers: req.headers,
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(this.#opts.timeoutMs),
        });
      } catch (err) {
        failure = err; // connection refused or dropped, timeout: the request may or may not have arrived
      }
      if (res && !RETRY_STATUSES.has(res.status)) return res;
      if (attempt >= this.#opts.maxRetries) {
        if (res) return res;
        throw failure;
      }
      this.stats.retries++;
      await sleep(this.#delay(attempt, res?.headers.get('retry-after') ?? null));
    }
  }

  #delay(attempt: number, retryAfter: string | null): number {
    const cap = this.#opts.maxRetryDelayMs;
    if (retryAfter !== null) {
      const secs = Number(retryAfter);
      const ms = Number.isFinite(secs) ? secs * 1000 : Date.parse(retryAfter) - Date.now();
      if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, cap);
    }
    const backoff = this.#opts.retryBaseMs * 2 ** attempt;
    return Math.min(cap, backoff / 2 + Math.random() * (backoff / 2));
  }

  #drop(report: DropReport): void {
    this.stats.dropped += report.events.length;
    if (this.#opts.onDrop) this.#opts.onDrop(report);
    else
      process.emitWarning(`agent-ledger: ${report.events.length} event(s) not recorded (${report.reason})`, {
        code: 'AGENT_LEDGER_DROP',
      });
  }
}

function strip(e: BufferedEvent & { key: string }): BufferedEvent {
  return e.kind === 'invocation' ? { kind: 'invocation', event: e.event } : { kind: 'rogue', event: e.event };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
