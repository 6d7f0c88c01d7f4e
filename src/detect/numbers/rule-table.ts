// The numeric rules indexed by the digit and group counts they accept: a window of digit groups looks up the
// rules that can accept its shape, so that no candidate is built for a window no rule can accept.

import type { Rule } from './rule.ts';
import * as numericRule from './rule.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { MAX_DIGITS, MAX_GROUPS } = numericRule;

/** Rules indexed by the digit and group counts they accept. */
export interface RuleTable {
  /** at digits * (MAX_GROUPS + 1) + groups */
  byShape: Rule[][];
  /** the fewest digits any rule accepts */
  minDigits: number;
}

export function ruleTable(rules: readonly Rule[]): RuleTable {
  const byShape: Rule[][] = Array.from({ length: (MAX_DIGITS + 1) * (MAX_GROUPS + 1) }, () => []);
  let minDigits = Infinity;
  for (const r of rules) {
    for (const d of r.lengths) {
      if (d > MAX_DIGITS) continue;
      minDigits = Math.min(minDigits, d);
      for (let g = 1; g <= MAX_GROUPS; g++) if (!r.fits || r.fits(d, g)) byShape[d * (MAX_GROUPS + 1) + g]!.push(r);
    }
  }
  return { byShape, minDigits };
}
