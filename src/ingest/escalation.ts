// What a verdict sets going besides its row: the review queue, the judge panel, the tool_output scan.

/** The kind of the background job that scans an invocation's tool_output. */
export const OUTPUT_SCAN_JOB = 'tool_output_scan';

/**
 * Whether an invocation goes to the judge panel on its own: a flag_for_review
 * (it is in the review queue), or any verdict when a rule that fired asks for
 * the panel (`judge: true`). Never in shadow mode: a shadow verdict has no
 * consequence, so it spends no judge calls either.
 */
export function escalatesToJudges(decision: { verdict: string; judge: boolean }, mode: string): boolean {
  return mode !== 'shadow' && (decision.verdict === 'flag_for_review' || decision.judge);
}

/** flag_for_review puts an invocation in the review queue; shadow-mode verdicts never count. */
export function needsReview(verdict: string, mode: string): boolean {
  return verdict === 'flag_for_review' && mode !== 'shadow';
}
