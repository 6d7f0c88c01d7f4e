import type { Dispatcher } from 'undici';

// What the judge panel (panel.ts) is asked and answers, apart so that the files it calls (ask-judge.ts,
// judge-answer.ts, judge-prompt.ts) name these without importing the panel.

export type Quorum = 'majority' | 'unanimous_to_deny';

export interface JudgeEndpoint {
  name: string;
  /** OpenAI-compatible: requests go to POST {base_url}/chat/completions (a trailing slash and a query string are kept right). */
  base_url: string;
  model: string;
  /** Sent as `Authorization: Bearer <api_key>` (as `api-key` to Azure OpenAI hosts); null sends none (e.g. a local Ollama). */
  api_key: string | null;
}

export interface JudgeCase {
  persona: { id: string; version: number; name: string; description: string; rubric: string } | null;
  /** Metadata only: id, agent_key, tool_name, model, verdict, reasons, created_at, … (already redacted values). */
  invocation: Record<string, unknown>;
  /** The REDACTED stored content only, never raw text. */
  content: { field: string; text: string }[];
  findings: { type: string; field: string; start?: number; end?: number }[];
}

export type JudgeVerdict = 'allow' | 'deny' | 'uncertain';

export interface JudgeOpinion {
  name: string;
  /** abstained: timeouts/429/5xx/network errors exhausted, a non-retryable HTTP error, or no quota for the call. */
  verdict: JudgeVerdict | 'abstained';
  rationale: string;
  rubric_points: string[];
  /** HTTP requests made to this judge (each was reserved with reserveCall first). */
  calls: number;
  /** Why it abstained or why it is uncertain without saying so itself: 'malformed', 'timeout', 'network', 'http_429', 'http_503', 'http_401', 'too_large', 'quota', … */
  error?: string;
}

export interface PanelOutcome {
  decision: JudgeVerdict;
  unanimous: boolean;
  judges: JudgeOpinion[];
}

export interface RunOptions {
  /**
   * Called before EVERY HTTP request to a judge; resolves false when the
   * monthly quota has no call left (then that judge abstains with error
   * 'quota' and no request is sent). If it throws, runPanel rejects.
   */
  reserveCall(judge: string): Promise<boolean>;
  /** The HTTP connection pool with its address guard (outbound/address-guard.ts); default: private networks allowed, link-local never. */
  dispatcher?: Dispatcher;
  /** Per HTTP request, including reading the answer. Default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** HTTP attempts per judge for transient failures (timeout, network, 429, 5xx). Default DEFAULT_MAX_ATTEMPTS. */
  maxAttempts?: number;
  /** First backoff step; doubles per retry (with jitter), capped at BACKOFF_CAP_MS. Default BACKOFF_BASE_MS. Tests shorten it. */
  backoffBaseMs?: number;
  /** A Retry-After longer than this is not waited for: the judge abstains at once. Default RETRY_AFTER_CAP_MS. */
  retryAfterCapMs?: number;
  /** Aborting it stops all judges; runPanel then rejects (so a durable job stays pending and runs again). */
  signal?: AbortSignal;
}
