import { askJudge } from './ask-judge.ts';
import { buildMessages } from './judge-prompt.ts';
import type {
  JudgeCase,
  JudgeEndpoint,
  JudgeOpinion,
  JudgeVerdict,
  PanelOutcome,
  Quorum,
  RunOptions,
} from './panel-types.ts';

// The judge panel (issue 17): asks every configured judge about one case, in
// parallel, and combines their opinions under the workspace's quorum. It knows
// nothing of storage, jobs or quota bookkeeping: the caller (the judge job)
// passes reserveCall, which counts every HTTP request against the month's cap.

export type {
  JudgeCase,
  JudgeEndpoint,
  JudgeOpinion,
  JudgeVerdict,
  PanelOutcome,
  Quorum,
  RunOptions,
} from './panel-types.ts';

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
