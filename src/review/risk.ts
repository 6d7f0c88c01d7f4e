// The risk score of an agent, 0-100: it rises with what went wrong and decays
// as clean activity accumulates.
//
//   bad   = 10·denies + 5·rogue_events + 2·flags + pii_findings
//   clean = invocations allowed with no PII in their tool_input
//   score = 0                                              when bad = 0
//         = clamp(round(100 · bad / (bad + clean + 20)), 1, 99) otherwise
//
// - denies and flags (flag_for_review) count only outside shadow mode: a
//   shadow verdict never counts as a violation (API.md, Modes);
// - rogue_events counts every rogue event naming the agent (an out-of-scope
//   tool call is a deny and an oos_tool event, so it weighs 15);
// - pii_findings is the number of PII findings in tool_input (pii_count);
// - the constant 20 is a prior of clean activity: one deny on a new agent
//   scores 33, not 100; the same deny after 1,000 clean invocations scores 1.
//
// The score is 0 exactly when nothing went wrong, grows with every incident,
// shrinks with every clean invocation (down to 1 while any incident is on
// record), and never reaches 100. It is computed
// from counters kept per agent (agent_activity, agent_rogue_activity), so it
// costs the same for any amount of history.

export interface RiskInputs {
  denies: number;
  flags: number;
  rogue_events: number;
  pii_findings: number;
  clean_invocations: number;
}

export const RISK_WEIGHTS = { deny: 10, rogue: 5, flag: 2, pii: 1, prior: 20 } as const;

export function riskScore(r: RiskInputs): number {
  const bad =
    RISK_WEIGHTS.deny * r.denies +
    RISK_WEIGHTS.rogue * r.rogue_events +
    RISK_WEIGHTS.flag * r.flags +
    RISK_WEIGHTS.pii * r.pii_findings;
  if (bad <= 0) return 0;
  return Math.min(99, Math.max(1, Math.round((100 * bad) / (bad + r.clean_invocations + RISK_WEIGHTS.prior))));
}
