import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A stand-in for a model provider (which cannot run here): a real HTTP server
// on 127.0.0.1 serving OpenAI-compatible POST .../chat/completions, answering
// as each test scripts it, per model. It records every request (path, headers,
// parsed body) so tests can assert exactly what a judge saw, and counts calls.
//
// A script is a list of steps per model, used in order; the last step repeats.

export type StandInStep =
  /** A well-formed answer with this verdict. */
  | { verdict: 'allow' | 'deny' | 'uncertain'; rationale?: string; rubric_points?: string[] }
  /** A 200 whose message content is this text verbatim (malformed or non-schema answers). */
  | { content: string }
  /** A raw HTTP response. */
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Answer `then` only after delayMs (past the client's timeout: a timeout). */
  | { delayMs: number; then: StandInStep }
  /** Hold the request until the test calls release() (e.g. to restart the service while a judgement is pending). */
  | { hold: StandInStep }
  /** Destroy the connection without answering (ECONNRESET at the client). */
  | { reset: true }
  /** A 200 streaming this many bytes (a judge answering far too much). */
  | { hugeBytes: number };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed JSON body, or null when it was not JSON. */
  body: Record<string, unknown> | null;
  model: string | null;
}

export interface JudgeStandIn {
  /** e.g. http://127.0.0.1:PORT/v1 — use as a judge's base_url. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests received for a model (all models when omitted). */
  calls(model?: string): number;
  /** The recorded requests of one model, oldest first. */
  requestsFor(model: string): RecordedRequest[];
  /** Requests currently held by a `hold` step (all models when omitted). */
  held(model?: string): number;
  /** Answers the held requests (of one model, or all) with their scripted step; returns how many. */
  release(model?: string): number;
  script(model: string, steps: StandInStep | StandInStep[]): void;
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export function completion(content: string, model = 'stand-in') {
  return {
    id: 'chatcmpl-standin',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function sendJson(res: ServerResponse, status: number, value: unknown) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

interface Held {
  model: string;
  step: StandInStep;
  res: ServerResponse;
  socket: Socket;
}

function play(
  step: StandInStep,
  model: string,
  res: ServerResponse,
  socket: Socket,
  timers: Set<NodeJS.Timeout>,
  holds: Held[],
): void {
  if ('hold' in step) {
    holds.push({ model, step: step.hold, res, socket });
  } else if ('delayMs' in step) {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!res.destroyed) play(step.then, model, res, socket, timers, holds);
    }, step.delayMs);
    timers.add(t);
  } else if ('reset' in step) {
    socket.resetAndDestroy();
  } else if ('hugeBytes' in step) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = step.hugeBytes;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(chunk.subarray(0, n))) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  } else if ('status' in step) {
    res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
    res.end(step.body ?? JSON.stringify({ error: { message: `scripted ${step.status}` } }));
  } else if ('content' in step) {
    sendJson(res, 200, completion(step.content, model));
  } else {
    const answer = {
      verdict: step.verdict,
      rationale: step.rationale ?? `scripted ${step.verdict}`,
      rubric_points: step.rubric_points ?? [],
    };
    sendJson(res, 200, completion(JSON.stringify(answer), model));
  }
}

export async function startJudgeStandIn(
  scripts: Record<string, StandInStep | StandInStep[]> = {},
): Promise<JudgeStandIn> {
  const plans = new Map<string, StandInStep[]>();
  const served = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const holds: Held[] = [];
  const script = (model: string, steps: StandInStep | StandInStep[]) => {
    plans.set(model, Array.isArray(steps) ? steps : [steps]);
    served.set(model, 0);
  };
  for (const [m, s] of Object.entries(scripts)) script(m, s);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | null;
      try {
        body = JSON.parse(rawBody) as Record<string, unknown>;
      } catch {
        body = null;
      }
      const model = body && typeof body.model === 'string' ? body.model : null;
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody, body, model });
      if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]!.endsWith('/chat/completions')) {
        return sendJson(res, 404, { error: { message: 'not found' } });
      }
      const plan = model === null ? undefined : plans.get(model);
      if (!plan || plan.length === 0) return sendJson(res, 404, { error: { message: `model ${model} not scripted` } });
      const i = served.get(model!) ?? 0;
      served.set(model!, i + 1);
      play(plan[Math.min(i, plan.length - 1)]!, model!, res, req.socket, timers, holds);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    calls: (model) => requests.filter((r) => model === undefined || r.model === model).length,
    requestsFor: (model) => requests.filter((r) => r.model === model),
    held: (model) => holds.filter((h) => !h.res.destroyed && (model === undefined || h.model === model)).length,
    release: (model) => {
      const due = holds.filter((h) => model === undefined || h.model === model);
      holds.splice(0, holds.length, ...holds.filter((h) => !due.includes(h)));
      const live = due.filter((h) => !h.res.destroyed);
      for (const h of live) play(h.step, h.model, h.res, h.socket, timers, holds);
      return live.length;
    },
    script,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
