import { setTimeout as sleep } from 'node:timers/promises';
import { completionsUrl, postChatCompletion } from './chat-client.ts';
import { messageContent, parseAnswer } from './judge-answer.ts';
import type { ChatMessage } from './judge-prompt.ts';
import type { JudgeEndpoint, JudgeOpinion, RunOptions } from './panel-types.ts';

// One judge's opinion: the retry policy around chat-client.ts.
// - Every HTTP request is reserved first (opts.reserveCall); no reservation,
//   no request: the judge abstains with 'quota'.
// - Transient failures (timeout, network, 429, 5xx) are retried up to
//   maxAttempts requests in all, with exponential backoff and jitter, or after
//   the server's Retry-After when it asks for no more than retryAfterCapMs
//   (a longer wait abstains at once rather than spend a call on a refusal).
//   Exhausted: the judge abstains with the last error.
// - A malformed answer (envelope or schema) is asked again once; a second
//   malformed answer is 'uncertain' with error 'malformed'.
// - Any other HTTP status, a redirect, an oversized body or an unusable
//   base_url ('bad_url', no call reserved): abstain at once.
// Worst case per judge: maxAttempts + 1 requests.

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_ATTEMPTS = 3;
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 10_000;
export const RETRY_AFTER_CAP_MS = 30_000;
export const MALFORMED_RETRIES = 1;

/** "Equal jitter": half the exponential step fixed, half random, so parallel retries spread but never hammer. */
export function backoffMs(retry: number, base: number, random = Math.random): number {
  const step = Math.min(BACKOFF_CAP_MS, base * 2 ** (retry - 1));
  return step / 2 + random() * (step / 2);
}

export function chatRequestBody(model: string, messages: ChatMessage[]) {
  // json_object rather than json_schema: every target (OpenAI, Azure, vLLM,
  // Ollama, LiteLLM) accepts it; the schema itself is in the system prompt and
  // checked by judge-answer.ts. No temperature/max_tokens: some models reject them.
  return { model, messages, response_format: { type: 'json_object' }, stream: false };
}

export async function askJudge(judge: JudgeEndpoint, messages: ChatMessage[], opts: RunOptions): Promise<JudgeOpinion> {
  const maxAttempts = Math.max(1, opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = opts.backoffBaseMs ?? BACKOFF_BASE_MS;
  const retryAfterCap = opts.retryAfterCapMs ?? RETRY_AFTER_CAP_MS;
  const body = chatRequestBody(judge.model, messages);
  let calls = 0;
  let failures = 0;
  let malformed = 0;
  const abstain = (error: string): JudgeOpinion => ({
    name: judge.name,
    verdict: 'abstained',
    rationale: '',
    rubric_points: [],
    calls,
    error,
  });
  let url: URL;
  try {
    url = completionsUrl(judge.base_url);
  } catch {
    return abstain('bad_url'); // one judge's bad address must not sink the panel
  }

  for (;;) {
    opts.signal?.throwIfAborted();
    if (!(await opts.reserveCall(judge.name))) return abstain('quota');
    calls += 1;
    const r = await postChatCompletion({
      url,
      apiKey: judge.api_key,
      body,
      timeoutMs,
      signal: opts.signal,
      dispatcher: opts.dispatcher,
    });
    if (r.kind === 'ok') {
      const msg = messageContent(r.body);
      const parsed = msg.ok ? parseAnswer(msg.content) : msg;
      if (parsed.ok) return { name: judge.name, ...parsed.answer, calls };
      malformed += 1;
      if (malformed > MALFORMED_RETRIES) {
        return {
          name: judge.name,
          verdict: 'uncertain',
          rationale: `malformed answer: ${parsed.reason}`,
          rubric_points: [],
          calls,
          error: 'malformed',
        };
      }
      continue;
    }
    if (r.kind === 'fatal') {
      opts.signal?.throwIfAborted();
      return abstain(r.error);
    }
    failures += 1;
    if (failures >= maxAttempts) return abstain(r.error);
    if (r.retryAfterMs !== undefined && r.retryAfterMs > retryAfterCap) return abstain(r.error);
    // An abort while waiting rejects with the caller's reason, as it does mid-request.
    await sleep(r.retryAfterMs ?? backoffMs(failures, base), undefined, { signal: opts.signal }).catch((e: unknown) => {
      opts.signal?.throwIfAborted();
      throw e;
    });
  }
}
