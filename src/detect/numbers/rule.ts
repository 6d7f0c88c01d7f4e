// What a numeric rule sees (a Candidate: a window of digit groups) and what it declares (a Rule), and the
// bounds of every window.

import type { KeywordList } from '../text/context.ts';

export const MAX_GROUPS = 8;
export const MAX_DIGITS = 20;
export const MAX_GROUP_LEN = 20;

export interface Candidate {
  start: number;
  end: number;
  /** Concatenated digits. */
  digits: string;
  /** Lengths of the digit groups. */
  groups: number[];
  /** Separator strings between consecutive groups (groups.length - 1 entries). */
  seps: string[];
  /** A '+' (or "00") international prefix is part of the candidate. */
  plus: boolean;
  /** A literal '+' precedes the digits (not just a "00" prefix). */
  plusSign: boolean;
  /** A letter or digit touches the candidate on the right (e.g. "x565" extension, "123abc"). */
  gluedRight: boolean;
  raw: string;
}

export interface Rule {
  type: string;
  /** returns a base score (>0) when the candidate is acceptable, else 0 */
  check: (c: Candidate) => number;
  context: KeywordList;
  /** digit counts the rule can accept (a cheap pre-filter before `check`) */
  lengths: readonly number[];
  /**
   * whether the rule can accept a value of this many digits in this many groups (default: any); read once
   * into a table with `lengths`, so that no candidate is built for a window no rule can accept
   */
  fits?: (digits: number, groups: number) => boolean;
  /** score added when a context word precedes the value */
  boost?: number;
  /** if set, no finding without context (or a bare standalone value) */
  needsContext?: boolean;
  /** `check` verifies a check digit or a strict structure: the finding outranks a generic guess on the same digits */
  validated?: boolean;
}
