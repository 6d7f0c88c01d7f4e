// Numeric identifiers found in "numeric chunks": runs of digit groups joined by short separators.
// One linear regex pass finds the chunks with enough digits for any rule; every candidate is a window of
// at most MAX_GROUPS groups and MAX_DIGITS digits, so the total work is O(n * MAX_GROUPS). Most digit runs
// (timestamps, latencies, dates) are rejected on the group lengths and separator codes alone, before any
// string is built; context keywords are read from each candidate's 40-char window.
//
// This file puts the detector together: scan.ts (the scan), chunks.ts and
// chunk-reader.ts (chunks), rules.ts and rule-table.ts (the rules), phone*.ts (phone numbers), cues.ts (context keywords),
// named.ts (the values context names that no check accepts, hidden in storage).

import type { TextContext } from '../text/context.ts';
import * as contextModule from '../text/context.ts';
import * as digitsModule from '../text/digits.ts';
import * as numericBest from './best.ts';
import * as namedValues from './named.ts';
import type { Rule } from './rule.ts';
import * as numericRuleTable from './rule-table.ts';
import * as numericRules from './rules.ts';
import { NumericScan } from './scan.ts';
import type { Finding } from '../types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { textContext, TextContext: ContextOf } = contextModule;
const { foldDigits } = digitsModule;
const { bestPerType } = numericBest;
const { ruleTable } = numericRuleTable;
const { NUMERIC_RULES } = numericRules;
const { NAMED_VALUE_RULES } = namedValues;

const DEFAULT_TABLE = ruleTable(NUMERIC_RULES);
const NAMED_TABLE = ruleTable(NAMED_VALUE_RULES);

/**
 * Numeric-chunk detector: all rules over all bounded candidates; per type the best non-overlapping spans.
 * With `minScore`, findings that cannot reach it are not produced.
 */
export function detectNumeric(
  text: string,
  rules: readonly Rule[] = NUMERIC_RULES,
  shared?: TextContext,
  minScore = 0,
): Finding[] {
  // Digits of other scripts read as ASCII ones (same offsets): the scan below knows ASCII digits only.
  const folded = foldDigits(text);
  const tc = folded === text ? textContext(text, shared) : new ContextOf(folded);
  if (!tc.hasDigit) return [];
  const table = rules === NUMERIC_RULES ? DEFAULT_TABLE : rules === NAMED_VALUE_RULES ? NAMED_TABLE : ruleTable(rules);
  const scan = new NumericScan(tc, table, minScore, rules !== NAMED_VALUE_RULES);
  scan.run();
  return bestPerType(scan.found, text.length);
}

/**
 * Values their context names as a card, an SSN or a phone number that no check accepts (example values,
 * unissued ranges; numbers/named.ts): what storage hides beyond the findings.
 */
export function detectNamedValues(text: string, shared?: TextContext, minScore = 0.5): Finding[] {
  return detectNumeric(text, NAMED_VALUE_RULES, shared, minScore);
}

export { NUMERIC_RULES };
export type { Candidate, Rule } from './rule.ts';
