// Phone numbers in a numeric chunk: the whole chunk, or what follows a space when the chunk is
// "<zip> <phone>"-like; plausible shapes only, and where needed valid per libphonenumber (numbers/phone-rules.ts:
// regions, memo, per-text call budget).

import type { CountryCode } from 'libphonenumber-js/max';
import * as chars from '../text/chars.ts';
import * as contextModule from '../text/context.ts';
import type { NumericChunk } from './chunk-reader.ts';
import * as numericChunks from './chunks.ts';
import * as numericPhoneRegions from './phone-regions.ts';
import * as numericPhoneRules from './phone-rules.ts';
import * as numericRules from './rules.ts';
import type { Finding } from '../types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { DIGIT_0, DIGIT_1, OPEN_PAREN } = chars;
/** The separator code of " - " (numbers/chunks.ts: c1 + 8*c2 + 64*c3). */
const SPACED_DASH = numericChunks.SPACE + 8 * numericChunks.DASH + 64 * numericChunks.SPACE;
/** $ £ ¥ € ₹ ₽ ₩: the number after one is an amount. */
const isCurrencySign = (c: number) =>
  c === 36 || c === 0xa3 || c === 0xa5 || c === 0x20ac || c === 0x20b9 || c === 0x20bd || c === 0x20a9;
const { clamp01, hasContext, isStandalone } = contextModule;
/** The US_SSN rule's context words. */
const SSN_WORDS = numericRules.NUMERIC_RULES.find((r) => r.type === 'US_SSN')!.context.words;
const { DASH, DOT, isDateSep, isWord, SPACE } = numericChunks;
const { countryRegionsBefore, cueRegionsBefore, scriptRegionsNear } = numericPhoneRegions;
const {
  internationalForm,
  NANP,
  NO_TRUNK,
  PHONE_CALL_BASE,
  PHONE_EXT,
  phoneValidity,
  startsLikeYear,
  TRUNK_ZERO,
  TRUNK_ZERO_MORE,
} = numericPhoneRules;

/** What the phone check needs of the scan: the current chunk, the phone cues before a value, where findings go. */
export interface PhoneScan {
  readonly chunk: NumericChunk;
  readonly minScore: number;
  readonly found: Finding[];
  /** A phone cue before `start`, or "number" that does not name another identifier ("license number"). */
  phoneCue(start: number): boolean;
}

/** The phone check of one detectNumeric() call: its libphonenumber budget and its last international question. */
export class PhoneFinder {
  private readonly scan: PhoneScan;
  private readonly budget: { calls: number };
  /** the last phoneValidity() question, when it was about an international number ("" otherwise), and its answer */
  private lastIntl = '';
  private lastIntlValidity = 0;

  constructor(scan: PhoneScan, textLength: number) {
    this.scan = scan;
    this.budget = { calls: PHONE_CALL_BASE + Math.floor(textLength / 512) };
  }

  /** Phone: the whole chunk, or what follows a space when the chunk is "<zip> <phone>"-like. */
  ofChunk(): void {
    const { gs, ge, sep, count } = this.scan.chunk;
    let total = 0;
    for (let g = 0; g < count; g++) total += ge[g]! - gs[g]!;
    let first = 0;
    if (total > 15 || count > 7 || (count >= 3 && sep[0] === SPACE && sep[1] !== SPACE)) {
      first = 1;
      while (first < count - 1 && sep[first - 1] !== SPACE) first++;
      if (count - first < 2) return;
      total = 0;
      for (let g = first; g < count; g++) total += ge[g]! - gs[g]!;
    }
    // 7-15 digits in at most 7 groups; a short local number of 6 in groups after a phone label ("Tel. 23 45 67")
    if (total <= 15 && count - first <= 7) {
      if (total >= 7) this.phone(first, count - 1, total);
      else if (total === 6 && count - first >= 2 && this.scan.phoneCue(this.scan.chunk.startOf(first)))
        this.phone(first, count - 1, total);
    }
  }

  /** A phone number made of groups a..b (nd digits), if plausible and, where needed, valid per libphonenumber. */
  private phone(a: number, b: number, nd: number): void {
    const scan = this.scan;
    const chunk = scan.chunk;
    const { text, units, gs, ge, sep } = chunk;
    const ng = b - a + 1;
    const start = chunk.startOf(a);
    // the finding may extend past the number's raw text by an extension
    let rawEnd: number;
    let end: number;
    if (chunk.glued) {
      // only an extension may touch the number ("x565", "ext. 12")
      rawEnd = ge[b]!;
      PHONE_EXT.lastIndex = rawEnd;
      const m = PHONE_EXT.exec(text);
      if (!m || (rawEnd + m[0].length < text.length && isWord(units[rawEnd + m[0].length]!))) return;
      end = rawEnd + m[0].length;
    } else {
      rawEnd = end = chunk.endOf(start, b);
    }
    // "00", the international call prefix of most countries, before a country code: spaced ("0044 7624 …")
    // or, after a phone cue, written as one run that is a possible number so ("My phone number is 004917612345678";
    // else it is read as a national number)
    const plus =
      chunk.hasPlus(a, nd) ||
      (ng === 1 &&
        nd >= 11 &&
        units[start] === DIGIT_0 &&
        units[start + 1] === DIGIT_0 &&
        units[start + 2] !== DIGIT_0 &&
        scan.phoneCue(start) &&
        this.internationalValidity(start, rawEnd) >= 1);
    // groups after the first have 2+ digits, except a "(0)" trunk prefix after a '+' ("+41 (0)71 …") and
    // a one-digit area or mobile prefix right after the country code ("+31 6 12345678", "+377 6 12 34 56 78"),
    // which then must be a valid number, not only a possible one
    let trunk: boolean | undefined;
    let shortPrefix = false;
    for (let g = a + 1; g <= b; g++) {
      if (ge[g]! - gs[g]! >= 2) continue;
      if (plus && g === a + 1 && chunk.plusPrefix && a === 0) {
        shortPrefix = true;
        continue;
      }
      trunk ??= plus && text.slice(start, rawEnd).includes('(0)');
      if (!(trunk && ge[g]! - gs[g]! === 1)) return;
    }
    // pairs of digits only, one kind of separator between them ("06.12.34.56.78", "63-06-75")
    let pairs = ng >= 3;
    for (let g = a; g <= b && pairs; g++) pairs = ge[g]! - gs[g]! === 2 && (g === b || sep[g] === sep[a]);
    // a date ("15.01.24", "2024-01-15 …") by its lengths and its day and month; not four pairs or more
    // with one separator ("06.03.60.34": a date's time is set off by another), nor five groups or more
    if (
      ng >= 3 &&
      isDateSep(sep[a]!) &&
      isDateSep(sep[a + 1]!) &&
      chunk.isDate(a) &&
      (ng === 3 || (ng === 4 && !pairs) || ge[a]! - gs[a]! === 4)
    )
      return;
    if (ng >= 3) {
      // "1.2.3.4"-like dotted short groups (versions, addresses), but for dotted pairs after a phone label
      // ("Tél. 06.12.34.56.78", a short local "Tel: 75.21.52")
      let dotted = true;
      for (let g = a; g <= b && dotted; g++) dotted = ge[g]! - gs[g]! <= 3 && (g === b || sep[g] === DOT);
      if (dotted && !((nd >= 8 || pairs) && scan.phoneCue(start))) return;
    }
    if (chunk.allSameDigit(a, b)) return;
    const standalone = isStandalone(text, start, end);
    const formatted = ng >= 2 || units[start]! === OPEN_PAREN;
    let ctx: boolean;
    let base = 0;
    if (plus) {
      const v = this.internationalValidity(start, rawEnd);
      if (shortPrefix && v !== 2) return;
      if (v === 2) base = 0.75;
      else if (v === 1) base = 0.6;
      else if (v < 0)
        base = 0.45; // budget spent: shape only
      else return;
      // the context only raises the score of an international number: read once the number is kept
      ctx = scan.phoneCue(start);
    } else {
      ctx = scan.phoneCue(start);
      // an SSN's groups after a word for one (and no phone word) are no phone number, valid SSN or not
      // ("SSN: 900-12-3456": storage hides it as a named value, numbers/named.ts)
      if (!ctx && ng === 3 && ge[a]! - gs[a]! === 3 && ge[a + 1]! - gs[a + 1]! === 2 && ge[b]! - gs[b]! === 4) {
        if (hasContext(text, start, rawEnd, SSN_WORDS, 40)) return;
      }
      let placeRegions: CountryCode[] | undefined;
      // cheapest bounds first: without a '+' prefix, context or a bare value, only a formatted number of
      // national length that does not start like a year ("2024-118") can reach the threshold, or a shorter
      // formatted one after a country's name that makes it valid there ("Our Bahrain office: 3600 2677")
      if (!ctx && !standalone) {
        if (!formatted || nd < 9) {
          if (!formatted || nd < 7) return;
          placeRegions = countryRegionsBefore(text, start);
          if (placeRegions.length === 0) return;
        }
        if (
          ng >= 2 &&
          ge[a]! - gs[a]! === 4 &&
          (sep[a] === DASH || sep[a] === SPACED_DASH) &&
          startsLikeYear(units, gs[a]!)
        )
          return;
        // a range of two numbers of one length ("60000 - 70000", "2000 - 2004"), or an amount ("$60000")
        if (ng === 2 && sep[a] === SPACED_DASH && ge[a]! - gs[a]! >= 4 && ge[a]! - gs[a]! === ge[b]! - gs[b]!) return;
        if (start > 0 && isCurrencySign(units[start - 1]!)) return;
      }
      if (!formatted && nd > 12) return;
      if (nd < 7 && !(ctx && formatted)) return;
      const raw = text.slice(start, rawEnd);
      let spent = false;
      for (const r of this.regionsFor(a, ng, nd, raw, ctx)) {
        this.lastIntl = '';
        const v = phoneValidity(raw, r, this.budget);
        if (v < 0) {
          spent = true;
          break;
        }
        if (v === 2) {
          base = formatted ? 0.55 : 0.4;
          break;
        }
      }
      // a country named shortly before the number says where to dial it ("Our Malawi office: 0991 23 76 22"),
      // and so does the language of its label ("tlf. 22 33 44 55", "Tél. 06.12.34.56.78")
      if (base === 0 && !spent) {
        // and so does the script of the words around it ("Καλέστε με στο 691 234 1435")
        const named = placeRegions ?? countryRegionsBefore(text, start);
        const scripts = scriptRegionsNear(text, start, rawEnd);
        for (const r of ctx ? [...named, ...cueRegionsBefore(text, start), ...scripts] : [...named, ...scripts]) {
          const v = phoneValidity(raw, r, this.budget);
          if (v < 0) break;
          if (v === 2) {
            base = formatted ? 0.55 : 0.4;
            break;
          }
        }
      }
      // a formatted number right after a phone cue ("Phone: 60-56-85-91") even when no region validates it
      // (or an unformatted one of 7-12 digits: "call me on 71239376")
      // (not five digits, a dash and three: a Brazilian postal code, "CEP 01202-001", that no region validates)
      if (
        base === 0 &&
        ((spent && formatted) || (ctx && (formatted || (nd >= 7 && nd <= 12)))) &&
        !(ng === 2 && sep[a] === DASH && ge[a]! - gs[a]! === 5 && nd === 8)
      )
        base = 0.45;
      if (base === 0) return;
    }
    const s = clamp01(ctx ? base + 0.3 : standalone ? base + 0.25 : base);
    if (s >= scan.minScore) scan.found.push({ type: 'PHONE_NUMBER', start, end, score: s });
  }

  /**
   * phoneValidity() of the international number text[start, end). The same number as the scan's
   * previous question (repeated numbers in logs) gets the same answer without building strings: no
   * call came between, so the memo and the budget are as they were.
   */
  private internationalValidity(start: number, end: number): number {
    const text = this.scan.chunk.text;
    const last = this.lastIntl;
    if (last.length === end - start && last.length > 0 && text.startsWith(last, start)) return this.lastIntlValidity;
    const raw = text.slice(start, end);
    this.lastIntlValidity = phoneValidity(internationalForm(raw), undefined, this.budget);
    this.lastIntl = raw;
    return this.lastIntlValidity;
  }

  /** Regions worth trying for a national-format number, most likely first (few calls per candidate). */
  private regionsFor(a: number, ng: number, nd: number, raw: string, ctx: boolean): CountryCode[] {
    const chunk = this.scan.chunk;
    const d0 = chunk.units[chunk.gs[a]!]!;
    if (
      nd === 10 &&
      d0 !== DIGIT_0 &&
      d0 !== DIGIT_1 &&
      (raw.startsWith('(') || (ng === 3 && chunk.len(a) === 3 && chunk.len(a + 1) === 3))
    )
      return NANP;
    if (d0 === DIGIT_0) return ctx ? [...TRUNK_ZERO, ...TRUNK_ZERO_MORE] : TRUNK_ZERO;
    return NO_TRUNK;
  }
}
