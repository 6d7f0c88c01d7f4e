import type { Dispatcher } from 'undici';
import { askJudge } from './ask-judge.ts';
import { buildMessages } from './judge-prompt.ts';

// The judge panel (issue 17): asks every configured judge about one case, in
// parallel, and combines their opinions under the workspace's quorum. It knows
// nothing of storage, jobs or quota bookkeeping: the caller (the judge job)
// passes reserveCall, which counts every HTTP request against the month's cap.

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

/**
 * The panel's decision. "Answered" judges are those whose verdict is not
 * 'abstained' (an 'uncertain' answer, including a malformed one, counts as an
 * answer).
 *
 * - majority: the verdict held by MORE than half of the answered judges
 *   (allow, deny or uncertain); no such verdict (a tie or a three-way split)
 *   → uncertain; nobody answered → uncertain.
 * - unanimous_to_deny: deny only when every answered judge says deny; allow
 *   when more than half of the answered judges say allow and none says deny;
 *   anything else (some deny but not all, no allow majority, nobody answered)
 *   → uncertain, i.e. a human decides.
 *
 * unanimous: every judge of the panel answered (none abstained) and all gave
 * the same verdict. It can be true with decision 'uncertain' (all uncertain);
 * auto-resolving needs unanimous AND a decision of allow or deny.
 */
export function decide(quorum: Quorum, opinions: JudgeOpinion[]): { decision: JudgeVerdict; unanimous: boolean } {
  const answered = opinions.map((o) => o.verdict).filter((v): v is JudgeVerdict => v !== 'abstained');
  const count = (v: JudgeVerdict) => answered.filter((a) => a === v).length;
  const unanimous =
    opinions.length > 0 && answered.length === opinions.length && answered.every((v) => v === answered[0]);
  const n = answered.length;
  if (n === 0) return { decision: 'uncertain', unanimous: false };
  if (quorum === 'majority') {
    for (const v of ['allow', 'deny', 'uncertain'] as const) if (count(v) * 2 > n) return { decision: v, unanimous };
    return { decision: 'uncertain', unanimous };
  }
  if (count('deny') === n) return { decision: 'deny', unanimous };
  if (count('deny') === 0 && count('allow') * 2 > n) return { decision: 'allow', unanimous };
  return { decision: 'uncertain', unanimous };
}

/**
 * Asks every judge in parallel and decides. Each judge sees the same prompt,
 * built from `c` alone (judge-prompt.ts), and only its own API key.
 */
export async function runPanel(
  judges: JudgeEndpoint[],
  quorum: Quorum,
  c: JudgeCase,
  opts: RunOptions,
): Promise<PanelOutcome> {
  const messages = buildMessages(c);
  // allSettled, not all: a judge whose reserveCall throws must not leave the
  // others running unobserved; every request made is accounted before we return.
  const settled = await Promise.allSettled(judges.map((j) => askJudge(j, messages, opts)));
  opts.signal?.throwIfAborted();
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const opinions = settled.map((s) => (s as PromiseFulfilledResult<JudgeOpinion>).value);
  return { ...decide(quorum, opinions), judges: opinions };
}
