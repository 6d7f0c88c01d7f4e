// Values that their context names as a card, an SSN or a phone number but that no check accepts: the
// well-known example values ("SSN: 123-45-6789", "card 0000 0000 0000 0000", "Phone: 555-555-5555"),
// unissued ranges, numbers no region validates. The verdict does not count them — precision matters
// there, and most of them are examples — but storage hides them: whoever wrote "SSN: 123-45-6789" may
// have written their own, and a value kept in clear cannot be taken back.
//
// The rules below accept the shape of each type only, and only after one of its context words (the
// same words as the type's own rule): the scan of numbers/scan.ts with its bounds.

import * as numericChecks from './checks.ts';
import * as phoneRules from './phone-rules.ts';
import type { Rule } from './rule.ts';
import * as numericRules from './rules.ts';
// Bound once (../README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { groupsAre, uniformSeps } = numericChecks;
const { dateLengths, PHONE_CTX } = phoneRules;
const { NUMERIC_RULES } = numericRules;

const contextOf = (type: string) => NUMERIC_RULES.find((r) => r.type === type)!.context;

/** The base score of a named value; the context boost (0.35) takes it over the scan's threshold. */
const NAMED = 0.3;

export const NAMED_VALUE_RULES: Rule[] = [
  {
    type: 'CREDIT_CARD',
    lengths: [13, 14, 15, 16, 17, 18, 19],
    fits: (d, g) => 4 * (g - 1) < d,
    needsContext: true,
    context: contextOf('CREDIT_CARD'),
    check: (c) =>
      uniformSeps(c, ' -') &&
      (c.groups.length === 1 || c.groups.slice(0, -1).every((g) => g === 4) || groupsAre(c, [4, 6, 5], [4, 6, 4]))
        ? NAMED
        : 0,
  },
  {
    type: 'US_SSN',
    lengths: [9],
    fits: (_, g) => g === 1 || g === 3,
    needsContext: true,
    context: contextOf('US_SSN'),
    check: (c) => (groupsAre(c, [3, 2, 4]) && uniformSeps(c, '- .') ? NAMED : 0),
  },
  {
    type: 'PHONE_NUMBER',
    lengths: [7, 8, 9, 10, 11, 12, 13, 14, 15],
    fits: (_, g) => g >= 2 && g <= 6,
    needsContext: true,
    context: PHONE_CTX,
    // formatted as a phone number is written: groups of two digits or more, one kind of separator, not a date
    check: (c) =>
      c.groups.every((g) => g >= 2) &&
      uniformSeps(c, ' -.') &&
      !(c.groups.length === 3 && dateLengths(c.groups[0]!, c.groups[1]!, c.groups[2]!))
        ? NAMED
        : 0,
  },
];
