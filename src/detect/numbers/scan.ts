// One detectNumeric() call: finds the numeric chunks (numbers/chunks.ts chunkStartRe), reads each
// (numbers/chunk-reader.ts), asks the phone check (numbers/phone.ts) and tries the rules over every bounded
// window of its groups, with the context keywords of each value (numbers/cues.ts).

import type { KeywordList, TextContext } from '../text/context.ts';
import * as contextModule from '../text/context.ts';
import { NumericChunk } from './chunk-reader.ts';
import * as codeUnitsModule from '../text/code-units.ts';
import * as numericChunks from './chunks.ts';
import * as numericFields from './fields.ts';
import type { Tables as TablesType } from './fields.ts';
import type { Matcher } from './cues.ts';
import * as numericCues from './cues.ts';
import { PhoneFinder } from './phone.ts';
import type { PhoneScan } from './phone.ts';
import * as numericPhoneRules from './phone-rules.ts';
import type { RuleTable } from './rule-table.ts';
import type { Candidate, Rule } from './rule.ts';
import * as numericRule from './rule.ts';
import type { Finding } from '../types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { clamp01, isStandalone } = contextModule;
const { codeUnitReader } = codeUnitsModule;
const { chunkStartRe, isWord, SINGLE_CHAR_SEP } = numericChunks;
const { labelBefore, Tables } = numericFields;
const { asciiCues, CONTEXT_BEFORE, cueAfter, cuesIn, matcherOf } = numericCues;
const { OTHER_NUMBER, PHONE_CUES } = numericPhoneRules;
const { MAX_DIGITS, MAX_GROUP_LEN, MAX_GROUPS } = numericRule;

/** The text's code units (valid until this module's next call). */
const codeUnits = codeUnitReader();

export class NumericScan implements PhoneScan {
  readonly text: string;
  /** the text's UTF-16 code units (see text/code-units.ts) */
  readonly units: Uint16Array;
  readonly tc: TextContext;
  readonly table: RuleTable;
  readonly minScore: number;
  readonly found: Finding[] = [];
  /** only in a short text can a value be "standalone" (isStandalone) */
  readonly short: boolean;
  /** finds the chunks with enough digits for a rule or a phone number */
  readonly chunkRe: RegExp;
  /** the chunk being read */
  readonly chunk: NumericChunk;
  /** the phone check, unless the scan reads its rules' values only */
  private readonly phones: PhoneFinder | undefined;
  private lowerText: string | undefined;
  /** the text's tables, found when a value first needs its column's header */
  private tables: TablesType | undefined;

  constructor(tc: TextContext, table: RuleTable, minScore: number, phones = true) {
    this.text = tc.text;
    this.units = codeUnits(tc.text);
    this.tc = tc;
    this.table = table;
    this.minScore = minScore;
    this.short = tc.text.length <= 64;
    this.chunkRe = chunkStartRe(table);
    this.chunk = new NumericChunk(this.text, this.units);
    this.phones = phones ? new PhoneFinder(this, tc.text.length) : undefined;
  }

  run(): void {
    const { text, units } = this;
    const n = text.length;
    const re = this.chunkRe;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      let i = m.index;
      // left boundary: not glued to a letter/digit/underscore (the regex only rules out ASCII ones); else
      // skip the rest of this token
      if (i > 0 && isWord(units[i - 1]!)) {
        while (i < n && isWord(units[i]!)) i++;
      } else {
        i = this.chunk.read(i);
        this.phones?.ofChunk();
        this.windows();
      }
      re.lastIndex = i;
    }
  }

  /** A phone cue before `start`, or "number" that does not name another identifier ("license number"). */
  phoneCue(start: number): boolean {
    const bits = this.cues(PHONE_CUES, start, 1);
    return (bits & 1) !== 0 || ((bits & 2) !== 0 && !this.cue(OTHER_NUMBER, start));
  }

  /** A keyword of the list within the CONTEXT_BEFORE chars before `start` (as tc.has()). */
  private cue(list: KeywordList, start: number): boolean {
    return this.cues(matcherOf(list), start, 1) !== 0;
  }

  /**
   * The lists (bits) of `m` with a keyword within the CONTEXT_BEFORE chars before `start`; stops once all
   * the `want` bits are found. Candidates that need context are few, so reading their window beats a
   * whole-text keyword pass. An ASCII window is read in place, folding ASCII case (toLowerCase() maps
   * ASCII chars the same way anywhere in a text); a window with another char is read from the lower-cased text.
   */
  private cues(m: Matcher, start: number, want: number): number {
    const lo = Math.max(0, start - CONTEXT_BEFORE);
    if (lo >= start) return 0;
    let found = asciiCues(this.units, m, lo, start, want);
    if (found < 0) {
      this.lowerText ??= this.tc.lower;
      found = cuesIn(this.lowerText, m, lo, start, want);
    }
    return found !== 0 ? found : this.fieldCues(m, start, want);
  }

  /**
   * The lists of `m` with a keyword in what names the value's field when it is not in the window before it
   * (numbers/fields.ts): a label longer than the window, the header of a table's column.
   */
  private fieldCues(m: Matcher, start: number, want: number): number {
    const label = start > CONTEXT_BEFORE ? labelBefore(this.units, start) : undefined;
    if (label && label[0] < start - CONTEXT_BEFORE) {
      this.lowerText ??= this.tc.lower;
      const found = cuesIn(this.lowerText, m, label[0], label[1], want);
      if (found !== 0) return found;
    }
    const header = (this.tables ??= new Tables(this.text, this.units)).headerOf(start);
    if (!header) return 0;
    this.lowerText ??= this.tc.lower;
    return cuesIn(this.lowerText, m, header[0], header[1], want);
  }

  /** Every rule over every window of at most MAX_GROUPS groups and MAX_DIGITS digits. */
  private windows(): void {
    const chunk = this.chunk;
    const { gs, ge, sep, count } = chunk;
    const long = count > 8;
    // a window that starts at a '+' is a phone number or nothing
    for (let a = chunk.plusPrefix ? 1 : 0; a < count; a++) {
      // in long chunks a window starts only at the chunk start or where the separator changes
      if (long && a > 0) {
        const prev = sep[a - 1]!;
        if (prev < SINGLE_CHAR_SEP && a + 1 < count && a > 1 && sep[a] === prev && sep[a - 2] === prev) continue;
      }
      let digits = 0;
      for (let b = a; b < count && b - a < MAX_GROUPS; b++) {
        const len = ge[b]! - gs[b]!;
        if (len > MAX_GROUP_LEN) break;
        digits += len;
        if (digits > MAX_DIGITS) break;
        const rules = this.table.byShape[digits * (MAX_GROUPS + 1) + b - a + 1]!;
        if (rules.length === 0) continue;
        // glued to a word on the right ("123abc"), or a piece of a longer run: no finding
        if ((b === count - 1 && chunk.glued) || (!long && chunk.isFragment(a, b))) continue;
        this.tryRules(a, b, rules);
      }
    }
  }

  /**
   * The rules over the window of groups a..b. A rule that needs context has it looked up first: most
   * windows have none (no candidate strings are built for them), and its check is a shape check anyway.
   */
  private tryRules(a: number, b: number, rules: readonly Rule[]): void {
    const text = this.text;
    const chunk = this.chunk;
    const start = chunk.startOf(a);
    const end = chunk.endOf(start, b);
    let c: Candidate | undefined;
    for (const r of rules) {
      let ctx: boolean | undefined;
      if (r.needsContext && !(ctx = this.cue(r.context, start) || cueAfter(text, this.units, r.context, end))) continue;
      c ??= chunk.makeCandidate(a, b, start, end);
      let s = r.check(c);
      if (s <= 0) continue;
      ctx ??= this.cue(r.context, start) || cueAfter(text, this.units, r.context, end);
      if (ctx) s += r.boost ?? 0.35;
      else if (this.short && isStandalone(text, start, end)) s += 0.25;
      if (s < this.minScore) continue;
      this.found.push({ type: r.type, start, end, score: clamp01(s) });
    }
  }
}
