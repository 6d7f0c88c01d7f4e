// Finds the matches of many short token patterns (the alphanumeric national ids) in one pass over the
// text. Each pattern's match is a run of word characters, or a few runs joined by single separators,
// and (with one declared exception) holds a digit: so instead of running every regex over the whole
// text, the scan visits the word runs that hold digits, derives where a match could start, and runs a
// rule's regex (sticky) only at starts whose first run has a length and first character the rule
// allows. The result is exactly what each regex finds when run over the whole text on its own.

import * as codeUnitsModule from '../text/code-units.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { codeUnitReader } = codeUnitsModule;

/** Where a rule's match can start, described by its first run of ASCII word characters [A-Za-z0-9_]. */
export interface TokenShape {
  /** Lengths of the match's first word run when that run is the whole match. */
  lengths: readonly number[];
  /** Lengths of the match's first word run when the match goes on after it, past one of `joiners`. */
  parts?: readonly number[];
  /** The characters that can follow a first run of a length in `parts`. */
  joiners?: string;
  /**
   * How many word characters a match going on past its first run can hold in all (its runs' lengths
   * summed). Only for a rule whose matches are runs joined by single `joiners`: a first run whose chain of
   * runs so joined never sums to one of these counts is not tried (most near misses in logs).
   */
  wordCounts?: readonly number[];
  /** Character class (regex class syntax, without brackets) of the match's first character. */
  first: string;
  /** Characters of the match that can come before the word run holding its first digit (default 0). */
  lead?: number;
  /** The match may start inside a word run (its first run is then a suffix of that run). */
  startsInRun?: boolean;
  /** The match may hold no digit: every word run of a length in `lengths` is tried. */
  digitOptional?: boolean;
  /** On texts this matches, the rule's regex runs over the whole text (the shape only covers ASCII). */
  wholeTextIf?: RegExp;
}

export interface TokenRule {
  /** Global regex: its matches are what the scan returns. */
  re: RegExp;
  shape: TokenShape;
}

/** ASCII word characters [A-Za-z0-9_] (what \\w means without the u flag), by char code (table: fast). */
const IS_WORD = new Uint8Array(65536);
for (let c = 0; c < 128; c++) IS_WORD[c] = /\w/.test(String.fromCharCode(c)) ? 1 : 0;

/** Separators that can join the runs of a match before the run holding its first digit. */
function isLeadSeparator(c: number): boolean {
  return c === 32 || c === 45; // space, '-'
}

/** The text's code units (valid until this module's next call). */
const codeUnits = codeUnitReader();

/** Start of the run holding units[i], or -1 when it starts before `floor`. */
function runStartAtLeast(units: Uint16Array, i: number, floor: number): number {
  while (i > floor && IS_WORD[units[i - 1]!] === 1) i--;
  return i > 0 && IS_WORD[units[i - 1]!] === 1 ? -1 : i;
}

interface CompiledRule {
  index: number;
  sticky: RegExp;
  /** Indexed by char code (< 128): can the match start with this character? */
  first: Uint8Array;
  /** Indexed by char code (< 128): can this character follow a first run of a length in `parts`? */
  joiner: Uint8Array;
  /** The first run's possible lengths, longest first, each with whether a joiner must follow the run. */
  firstRuns: readonly FirstRun[];
  /** TokenShape.lead */
  lead: number;
  /** Indexed by count: can a match going on past its first run hold this many word characters? (all 1 when unknown) */
  wordCounts: Uint8Array;
}

interface FirstRun {
  len: number;
  needsJoiner: boolean;
}

interface Plan {
  /** Rules that start at a whole word run, at [len * 128 + first char code], for a run that is the whole match… */
  whole: (readonly CompiledRule[])[];
  /** … and for a run after which the match goes on past a joiner. */
  part: (readonly CompiledRule[])[];
  /** At the same index: 1 when `whole` has a rule… */
  starts: Uint8Array;
  /** … and the joiners (joinerBit) after which a rule of `part` goes on. Most runs of mixed text (timestamps, counts) start no rule. */
  partJoiners: Uint8Array;
  /** The rules of `part` that may start before the run holding their first digit (lead > 0), and their joiners. */
  leadPart: (readonly CompiledRule[])[];
  leadJoiners: Uint8Array;
  /** A bit per joiner character of any rule (0: not a joiner). */
  joinerBit: Uint8Array;
  /** The longest first run of any rule (the tables end there). */
  maxRun: number;
  inRun: CompiledRule[];
  /** The shortest first run of an `inRun` rule: shorter runs cannot hold its start. */
  minInRun: number;
  digitOptional: CompiledRule[];
  wholeTextIf: { rule: CompiledRule; when: RegExp; re: RegExp }[];
  maxLead: number;
  /** Per rule, where its last match ended (reset by each scan). */
  lastEnd: Int32Array;
}

const PLANS = new WeakMap<readonly TokenRule[], Plan>();

function asciiTable(cls: string, ignoreCase: boolean): Uint8Array {
  const table = new Uint8Array(128);
  if (cls === '') return table;
  const re = new RegExp(`[${cls}]`, ignoreCase ? 'i' : '');
  for (let c = 0; c < 128; c++) if (re.test(String.fromCharCode(c))) table[c] = 1;
  return table;
}

/** Longest first: for a rule starting inside a run, that is the earliest start. */
function firstRuns(shape: TokenShape): FirstRun[] {
  const runs = shape.lengths.map((len) => ({ len, needsJoiner: false }));
  for (const len of shape.parts ?? []) if (!shape.lengths.includes(len)) runs.push({ len, needsJoiner: true });
  return runs.sort((a, b) => b.len - a.len);
}

function compile(r: TokenRule, index: number): CompiledRule {
  const flags = r.re.flags.replace('g', '');
  const escapedJoiners = (r.shape.joiners ?? '').replace(/[-\\\]^]/g, '\\$&');
  return {
    index,
    sticky: new RegExp(r.re.source, flags + 'y'),
    first: asciiTable(r.shape.first, flags.includes('i')),
    joiner: asciiTable(escapedJoiners, false),
    firstRuns: firstRuns(r.shape),
    lead: r.shape.lead ?? 0,
    wordCounts: countTable(r.shape),
  };
}

/** TokenShape.wordCounts as a table; without them, every count up to the longest first run fits. */
function countTable(shape: TokenShape): Uint8Array {
  const counts = shape.wordCounts;
  if (!counts) return new Uint8Array(Math.max(0, ...shape.lengths, ...(shape.parts ?? [])) + 1).fill(1);
  const table = new Uint8Array(Math.max(...counts) + 1);
  for (const n of counts) table[n] = 1;
  return table;
}

const NONE: readonly CompiledRule[] = [];

/** The bits (Plan.joinerBit) of a rule's joiners, giving each joiner char not seen before the next free bit. */
function joinerBits(joiner: Uint8Array, joinerBit: Uint8Array): number {
  let bits = 0;
  for (let ch = 0; ch < 128; ch++) {
    if (joiner[ch] !== 1) continue;
    if (joinerBit[ch] === 0) {
      const used = joinerBit.reduce((a, b) => a | b, 0);
      if (used === 0xff) throw new Error('token-scan: more than 8 joiner characters');
      joinerBit[ch] = (used + 1) & ~used; // lowest free bit
    }
    bits |= joinerBit[ch]!;
  }
  return bits;
}

function plan(rules: readonly TokenRule[]): Plan {
  let p = PLANS.get(rules);
  if (p) return p;
  const maxRun = Math.max(0, ...rules.flatMap((r) => [...r.shape.lengths, ...(r.shape.parts ?? [])]));
  const size = (maxRun + 1) * 128;
  // dense arrays (filling a sparse one leaves it in slow dictionary mode)
  const whole = Array.from({ length: size }, () => NONE);
  const part = Array.from({ length: size }, () => NONE);
  const starts = new Uint8Array(size);
  const partJoiners = new Uint8Array(size);
  const joinerBit = new Uint8Array(128);
  const leadPart = Array.from({ length: size }, () => NONE);
  const leadJoiners = new Uint8Array(size);
  p = {
    whole,
    part,
    starts,
    partJoiners,
    leadPart,
    leadJoiners,
    joinerBit,
    maxRun,
    inRun: [],
    minInRun: Infinity,
    digitOptional: [],
    wholeTextIf: [],
    maxLead: 0,
    lastEnd: new Int32Array(rules.length),
  };
  for (let i = 0; i < rules.length; i++) {
    const shape = rules[i]!.shape;
    const c = compile(rules[i]!, i);
    if (shape.wholeTextIf) p.wholeTextIf.push({ rule: c, when: shape.wholeTextIf, re: rules[i]!.re });
    if (shape.digitOptional) p.digitOptional.push(c);
    else if (shape.startsInRun) {
      p.inRun.push(c);
      for (const run of c.firstRuns) p.minInRun = Math.min(p.minInRun, run.len);
    } else {
      const joiners = joinerBits(c.joiner, joinerBit);
      for (const run of c.firstRuns) {
        const table = run.needsJoiner ? part : whole;
        for (let ch = 0; ch < 128; ch++) {
          if (c.first[ch] !== 1) continue;
          const k = run.len * 128 + ch;
          table[k] = [...table[k]!, c];
          if (run.needsJoiner) partJoiners[k]! |= joiners;
          else starts[k] = 1;
          if (run.needsJoiner && c.lead > 0) {
            leadPart[k] = [...leadPart[k]!, c];
            leadJoiners[k]! |= joiners;
          }
        }
      }
    }
    p.maxLead = Math.max(p.maxLead, shape.lead ?? 0);
  }
  PLANS.set(rules, p);
  return p;
}

/** The matches of a rule that has none (shared, never written). */
const NO_MATCHES: readonly number[] = Object.freeze([]);

/** Per-text state of a scan: each rule's matches so far ([start, end] pairs) and where its last one ended. */
class Scan {
  readonly text: string;
  readonly units: Uint16Array;
  readonly found: (readonly number[])[];
  private readonly lastEnd: Int32Array;

  constructor(text: string, ruleCount: number, lastEnd: Int32Array) {
    this.text = text;
    this.units = codeUnits(text);
    this.found = new Array<readonly number[]>(ruleCount).fill(NO_MATCHES);
    this.lastEnd = lastEnd.fill(0);
  }

  private add(rule: CompiledRule, start: number, end: number): void {
    const f = this.found[rule.index]!;
    if (f === NO_MATCHES) this.found[rule.index] = [start, end];
    else (f as number[]).push(start, end);
    this.lastEnd[rule.index] = end;
  }

  /** Takes the matches of the rule's whole-text regex, and leaves the rule out of the candidate scan. */
  takeWholeText(rule: CompiledRule, re: RegExp): void {
    re.lastIndex = 0;
    for (let m = re.exec(this.text); m; m = re.exec(this.text)) this.add(rule, m.index, m.index + m[0].length);
    this.lastEnd[rule.index] = this.text.length + 1;
  }

  /** Tries the rule at `p` (< text length); starts must come in increasing order per rule (as a global regex visits them). */
  tryAt(rule: CompiledRule, p: number): void {
    const c = this.units[p]!;
    if (p < this.lastEnd[rule.index]! || c >= 128 || rule.first[c] !== 1) return;
    rule.sticky.lastIndex = p;
    if (rule.sticky.test(this.text)) this.add(rule, p, rule.sticky.lastIndex);
  }
}

/**
 * The matches of each rule's regex over the whole text, as [start, end, start, end, …] per rule (same
 * order as `rules`). Linear: every word run is expanded a bounded number of times.
 */
export function scanTokenRules(text: string, rules: readonly TokenRule[]): (readonly number[])[] {
  const p = plan(rules);
  const scan = new Scan(text, rules.length, p.lastEnd);
  for (const w of p.wholeTextIf) if (w.when.test(text)) scan.takeWholeText(w.rule, w.re);
  scanDigitRuns(scan, p);
  for (const rule of p.digitOptional) scanRunsOfLength(scan, rule);
  return scan.found;
}

/** A digit and the rest of its word run: a match's lastIndex is the run's end. */
const DIGIT_RUN_RE = /[0-9]\w*/g;

/** Visits every word run holding a digit, after the runs chained before it, in text order. */
function scanDigitRuns(scan: Scan, p: Plan): void {
  const { text, units } = scan;
  let tried = 0; // word runs starting before this have been tried
  const re = DIGIT_RUN_RE;
  re.lastIndex = 0;
  while (re.test(text)) {
    const we = re.lastIndex;
    let ws = we - 1;
    while (ws > 0 && IS_WORD[units[ws - 1]!] === 1) ws--;
    // runs joined to this one by single separators, starting at most maxLead characters before it
    if (ws - 2 >= tried && isLeadSeparator(units[ws - 1]!) && IS_WORD[units[ws - 2]!] === 1)
      tryLeadRuns(scan, p, ws, Math.max(tried, ws - p.maxLead));
    tryRunStart(scan, p, ws, we);
    if (we - ws >= p.minInRun) for (const rule of p.inRun) tryInRun(scan, rule, ws, we);
    tried = we;
  }
}

// a chained run and its separator take at least 2 characters: at most maxLead / 2 + 1 runs fit
const leadStarts = new Int32Array(64);
const leadEnds = new Int32Array(64);

/** Tries the runs chained before the run starting at `ws` by single lead separators, none starting before `floor`, first to last. */
function tryLeadRuns(scan: Scan, p: Plan, ws: number, floor: number): void {
  const units = scan.units;
  let n = 0;
  for (let q = ws; q - 2 >= floor && isLeadSeparator(units[q - 1]!) && IS_WORD[units[q - 2]!] === 1;) {
    const s = runStartAtLeast(units, q - 2, floor);
    if (s < 0) break;
    leadStarts[n] = s;
    leadEnds[n++] = q - 1;
    q = s;
  }
  for (let i = n - 1; i >= 0; i--) tryLeadRunStart(scan, p, leadStarts[i]!, leadEnds[i]!, ws);
}

/**
 * Tries the rules that can start at a run [start, end) chained before the digit run at `ws`. That run
 * holds no digit (the scan has visited every digit run before `ws`), so a match starting there goes on
 * past it (`part`), and may start that far before the run holding its first digit (its `lead`).
 */
function tryLeadRunStart(scan: Scan, p: Plan, start: number, end: number, ws: number): void {
  const len = end - start;
  if (len > p.maxRun) return;
  const units = scan.units;
  const k = len * 128 + units[start]!;
  const next = units[end]!; // the lead separator
  if ((p.leadJoiners[k]! & p.joinerBit[next]!) === 0) return;
  for (const rule of p.leadPart[k]!)
    if (ws - start <= rule.lead && rule.joiner[next] === 1 && countsFit(units, rule, start, end))
      scan.tryAt(rule, start);
}

/**
 * Can the rule's match start with the run [start, end)? Its runs joined by single joiners from there,
 * summed, must reach one of its word counts (the match ends where a run ends). `end` is followed by a joiner.
 */
function countsFit(units: Uint16Array, rule: CompiledRule, start: number, end: number): boolean {
  const counts = rule.wordCounts;
  const n = units.length;
  let total = end - start;
  for (let e = end; total < counts.length;) {
    if (counts[total] === 1) return true;
    const j = e < n ? units[e]! : 0;
    if (j >= 128 || rule.joiner[j] !== 1 || e + 1 >= n || IS_WORD[units[e + 1]!] !== 1) return false;
    let f = e + 2;
    while (f < n && IS_WORD[units[f]!] === 1) f++;
    total += f - e - 1;
    e = f;
  }
  return false;
}

function tryRunStart(scan: Scan, p: Plan, start: number, end: number): void {
  const len = end - start;
  if (len > p.maxRun) return;
  const units = scan.units;
  const k = len * 128 + units[start]!;
  if (p.starts[k] === 1) for (const rule of p.whole[k]!) scan.tryAt(rule, start);
  const next = end < units.length ? units[end]! : 0;
  if (next >= 128 || (p.partJoiners[k]! & p.joinerBit[next]!) === 0) return;
  for (const rule of p.part[k]!)
    if (rule.joiner[next] === 1 && countsFit(units, rule, start, end)) scan.tryAt(rule, start);
}

/** A rule starting inside a run: its first run is a suffix of [start, end). */
function tryInRun(scan: Scan, rule: CompiledRule, start: number, end: number): void {
  const units = scan.units;
  const next = end < units.length ? units[end]! : 0;
  for (const run of rule.firstRuns) {
    if (end - run.len < start) continue;
    if (!run.needsJoiner || (next < 128 && rule.joiner[next] === 1)) scan.tryAt(rule, end - run.len);
  }
}

/**
 * Tries the rule at every word run of a length it allows as a whole match. Windows of the shortest such
 * length are read from their last character back: a non-word character at k rules out every such run
 * through k, so the next window ends that length past k (as in Horspool's search); most windows of prose
 * are ruled out after a few characters.
 */
function scanRunsOfLength(scan: Scan, rule: CompiledRule): void {
  const units = scan.units;
  const n = units.length;
  const lengths = rule.firstRuns.filter((r) => !r.needsJoiner).map((r) => r.len);
  const shortest = Math.min(...lengths);
  let end = shortest - 1; // last character of the window
  while (end < n) {
    let k = end;
    while (k > end - shortest && IS_WORD[units[k]!] === 1) k--;
    if (k > end - shortest) {
      end = k + shortest;
      continue;
    }
    let s = k + 1;
    while (s > 0 && IS_WORD[units[s - 1]!] === 1) s--;
    let e = end + 1;
    while (e < n && IS_WORD[units[e]!] === 1) e++;
    if (lengths.includes(e - s)) scan.tryAt(rule, s);
    end = e + shortest;
  }
}
