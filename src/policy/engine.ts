// The verdict: a workspace's policy maps findings and facts to allow,
// flag_for_review or deny. Pure functions; the ids of the rules that fired are
// the reasons stored with the record.

import { categoryOf, type ContentField, type Finding, type FindingCategory } from '../detect/index.ts';

export type Verdict = 'allow' | 'flag_for_review' | 'deny';

// The finding vocabulary is detect's (one Finding, one field type); re-exported for policy's callers.
export type { ContentField, Finding, FindingCategory };

export interface FieldFindings {
  field: ContentField;
  findings: readonly Finding[];
}

export interface Facts {
  agent_key: string;
  tool_name?: string | undefined;
  mode: 'observed' | 'enforced' | 'shadow';
  outcome: string;
  principal_kind?: 'user' | 'agent' | undefined;
  principal_id: string;
  findings: readonly FieldFindings[];
  /** false when the tool is outside the agent's allowed scope (its own or its persona's); true or undefined otherwise. */
  tool_in_scope?: boolean | undefined;
  /** The agent's persona (issue 17), when it has one. */
  persona?: PersonaFacts | undefined;
  /** Decided after the call ran (the tool_output scan): no hold, since nothing is left to stop. */
  after_call?: boolean | undefined;
}

/** What of an agent's persona takes part in the verdict. */
export interface PersonaFacts {
  id: string;
  version: number;
  /** Tool globs the persona allows; null: no limit. Part of the agent's scope (tool_in_scope). */
  allowed_tools: string[] | null;
  /** PII finding types the persona may handle; null: no limit. */
  allowed_pii_types: string[] | null;
  /** Rules that replace the policy's rule of the same id, or add to the policy. */
  overrides: Rule[];
}

export interface RuleCondition {
  /** Any finding of one of these types (in `fields`, at `min_score` or more). */
  finding_types?: string[];
  /** Any finding of one of these categories (same field and score limits). */
  finding_categories?: FindingCategory[];
  fields?: ContentField[];
  min_score?: number;
  agents?: string[];
  tools?: string[];
  modes?: Array<Facts['mode']>;
  outcomes?: string[];
  principal_kinds?: Array<'user' | 'agent'>;
  principal_ids?: string[];
}

export interface Rule {
  id: string;
  description?: string;
  when: RuleCondition;
  verdict: Verdict;
  /** The invocations it fires on go to the judge panel, whatever the verdict. */
  judge?: boolean;
  /** In enforced mode, the invocations it fires on wait for a person's decision (an approval). */
  hold?: boolean;
  /** How long they wait before the approval expires (default HOLD_SECONDS_DEFAULT). */
  hold_seconds?: number;
}

export interface PolicyDocument {
  default_verdict: Verdict;
  rules: Rule[];
}

export interface Decision {
  verdict: Verdict;
  reasons: string[];
  /** A rule that fired asks for the judge panel (`judge: true`), whatever the verdict. */
  judge: boolean;
  /**
   * A rule that fired holds the invocation for a person (`hold: true`, enforced
   * mode, not denied): the verdict is flag_for_review and an approval waits
   * this many seconds for a decision.
   */
  hold?: { seconds: number } | undefined;
}

/** How long a held invocation waits for a decision when its rule does not say. */
export const HOLD_SECONDS_DEFAULT = 300;

/** The built-in reason of a tool call outside the agent's scope: always a deny. */
export const OUT_OF_SCOPE_REASON = 'tool_out_of_scope';
export const DEFAULT_REASON = 'default';

const SEVERITY: Record<Verdict, number> = { allow: 0, flag_for_review: 1, deny: 2 };

/**
 * Glob match with `*` (any run) and `?` (one character), in linear time: a
 * greedy two-pointer walk that backtracks only to the last star.
 */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

const anyGlob = (patterns: string[] | undefined, value: string | undefined) =>
  patterns === undefined || (value !== undefined && patterns.some((g) => globMatch(g, value)));

function fires(rule: Rule, facts: Facts): boolean {
  const w = rule.when;
  if (!anyGlob(w.agents, facts.agent_key)) return false;
  if (!anyGlob(w.tools, facts.tool_name)) return false;
  if (w.modes && !w.modes.includes(facts.mode)) return false;
  if (!anyGlob(w.outcomes, facts.outcome)) return false;
  if (w.principal_kinds && (facts.principal_kind === undefined || !w.principal_kinds.includes(facts.principal_kind)))
    return false;
  if (!anyGlob(w.principal_ids, facts.principal_id)) return false;
  if (w.finding_types || w.finding_categories) {
    const types = w.finding_types ? new Set(w.finding_types) : null;
    const categories = w.finding_categories ? new Set(w.finding_categories) : null;
    const minScore = w.min_score ?? 0;
    const matches = (f: Finding) =>
      f.score >= minScore &&
      (types === null || types.has(f.type)) &&
      (categories === null || (f.category !== undefined && categories.has(f.category)));
    const hit = facts.findings.some((ff) => (!w.fields || w.fields.includes(ff.field)) && ff.findings.some(matches));
    if (!hit) return false;
  } else if (w.fields || w.min_score !== undefined) {
    // Field and score limits qualify findings; alone they match any finding there.
    const minScore = w.min_score ?? 0;
    const hit = facts.findings.some(
      (ff) => (!w.fields || w.fields.includes(ff.field)) && ff.findings.some((f) => f.score >= minScore),
    );
    if (!hit) return false;
  }
  return true;
}

/** A reason that comes from a persona names it and its version: `persona.<id>.v<version>.<what>`. */
export const personaReason = (p: PersonaFacts, what: string) => `persona.${p.id}.v${p.version}.${what}`;
export const PERSONA_TOOL_REASON = 'tool_out_of_scope';
export const PERSONA_PII_REASON = 'pii_not_allowed';

/** The verdict is the most severe of the rules that fire; all of them are the reasons. */
export function decide(policy: PolicyDocument, facts: Facts): Decision {
  const reasons: string[] = [];
  let verdict: Verdict = 'allow';
  const persona = facts.persona;
  if (facts.tool_in_scope === false) {
    reasons.push(OUT_OF_SCOPE_REASON);
    verdict = 'deny';
  }
  if (persona) {
    // The persona's tools are part of the agent's scope (tool_in_scope, one
    // mechanism); this reason says the persona is why.
    if (
      persona.allowed_tools !== null &&
      facts.tool_name !== undefined &&
      !persona.allowed_tools.some((g) => globMatch(g, facts.tool_name!))
    ) {
      reasons.push(personaReason(persona, PERSONA_TOOL_REASON));
      verdict = 'deny';
    }
    if (persona.allowed_pii_types !== null) {
      const allowed = new Set(persona.allowed_pii_types);
      const foreign = facts.findings.some((ff) =>
        ff.findings.some((f) => (f.category ?? categoryOf(f.type)) === 'pii' && !allowed.has(f.type)),
      );
      if (foreign) {
        reasons.push(personaReason(persona, PERSONA_PII_REASON));
        if (SEVERITY.flag_for_review > SEVERITY[verdict]) verdict = 'flag_for_review';
      }
    }
  }
  const overrides = new Map((persona?.overrides ?? []).map((r) => [r.id, r]));
  const rules: Array<[Rule, string]> = [];
  for (const rule of policy.rules) {
    const o = overrides.get(rule.id);
    rules.push(o ? [o, personaReason(persona!, o.id)] : [rule, rule.id]);
    overrides.delete(rule.id);
  }
  for (const o of overrides.values()) rules.push([o, personaReason(persona!, o.id)]);
  let judge = false;
  let holdSeconds = 0;
  for (const [rule, reason] of rules) {
    if (!fires(rule, facts)) continue;
    reasons.push(reason);
    if (SEVERITY[rule.verdict] > SEVERITY[verdict]) verdict = rule.verdict;
    if (rule.judge === true) judge = true;
    if (rule.hold === true) holdSeconds = Math.max(holdSeconds, rule.hold_seconds ?? HOLD_SECONDS_DEFAULT);
  }
  if (reasons.length === 0) return { verdict: policy.default_verdict, reasons: [DEFAULT_REASON], judge };
  if (SEVERITY[policy.default_verdict] > SEVERITY[verdict]) verdict = policy.default_verdict;
  // A hold is a control over a call not yet made: only an enforced agent asks before it acts, and a
  // deny already stops the call, so holding it would only make a person confirm what policy decided.
  if (holdSeconds > 0 && facts.mode === 'enforced' && verdict !== 'deny' && facts.after_call !== true)
    return { verdict: 'flag_for_review', reasons, judge, hold: { seconds: holdSeconds } };
  return { verdict, reasons, judge };
}
