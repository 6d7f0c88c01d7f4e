// Frozen copy of the detectors before the performance rewrite: the oracle of the equivalence tests
// (equivalence.test.ts). Not used at run time.
// Numeric identifiers found in "numeric chunks": runs of digit groups joined by short separators.
// One linear scan builds the chunks; every candidate is a window of at most MAX_GROUPS groups and
// MAX_DIGITS digits, so the total work is O(n * MAX_GROUPS).

import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { CountryCode } from "libphonenumber-js/max";
import { iso7064Mod11_10, luhn, validDate, verhoeff, weightedSum } from "../checksums.ts";
import { clamp01, isAsciiDigit, isStandalone, isWordChar, keywordList, textContext } from "./context.ts";
import type { KeywordList, TextContext } from "./context.ts";
import type { Finding } from "../types.ts";

const MAX_GROUPS = 8;
const MAX_DIGITS = 20;
const MAX_GROUP_LEN = 20;

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

interface Group {
  start: number;
  end: number;
}

const SEP_CHARS = new Set([" ", "-", ".", "/", "(", ")", "\u00a0"]);

/** Calls `onChunk` with the groups of each numeric chunk of `text`. */
function scanChunks(text: string, onChunk: (groups: Group[], chunkStart: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (!isAsciiDigit(c)) {
      i++;
      continue;
    }
    // left boundary: not glued to a letter/digit/underscore
    if (i > 0) {
      const p = text.charCodeAt(i - 1);
      if (isWordChar(p)) {
        // skip the rest of this alnum token
        while (i < n && isWordChar(text.charCodeAt(i))) i++;
        continue;
      }
    }
    let chunkStart = i;
    // include "+" / "(" / "(+" prefixes
    if (i > 0 && (text[i - 1] === "+" || text[i - 1] === "(")) {
      chunkStart = i - 1;
      if (chunkStart > 0 && text[chunkStart - 1] === "(" && text[chunkStart] === "+") chunkStart--;
    }
    const groups: Group[] = [];
    let j = i;
    for (;;) {
      const gs = j;
      while (j < n && isAsciiDigit(text.charCodeAt(j))) j++;
      groups.push({ start: gs, end: j });
      // separator of 1..3 chars followed by a digit
      let k = j;
      let spaces = 0;
      while (k < n && k - j < 3 && SEP_CHARS.has(text[k]!)) {
        if (text[k] === " ") spaces++;
        k++;
      }
      if (k > j && k < n && isAsciiDigit(text.charCodeAt(k)) && spaces <= 2) {
        j = k;
        continue;
      }
      break;
    }
    onChunk(groups, chunkStart);
    i = j;
  }
}

function makeCandidate(text: string, groups: Group[], a: number, b: number, chunkStart: number): Candidate | null {
  const ga = groups[a]!;
  const gb = groups[b]!;
  let start = ga.start;
  let plus = false;
  if (a === 0 && chunkStart < ga.start) {
    start = chunkStart;
    plus = text.slice(chunkStart, ga.start).includes("+");
  } else if (a > 0 && text[ga.start - 1] === "(") {
    start = ga.start - 1;
  }
  let end = gb.end;
  // closing parenthesis right after the last group belongs to it only if we opened one
  let digits = "";
  const lens: number[] = [];
  const seps: string[] = [];
  for (let g = a; g <= b; g++) {
    const gr = groups[g]!;
    digits += text.slice(gr.start, gr.end);
    lens.push(gr.end - gr.start);
    if (g < b) seps.push(text.slice(gr.end, groups[g + 1]!.start));
  }
  const plusSign = plus;
  if (!plus && digits.startsWith("00") && digits.length > 9 && lens[0]! <= 4) plus = true;
  const gluedRight = end < text.length && isWordChar(text.charCodeAt(end));
  if (end < text.length && text[end] === ")" && text.slice(start, end).includes("(") && !text.slice(start, end).includes(")")) end++;
  return { start, end, digits, groups: lens, seps, plus, plusSign, gluedRight, raw: text.slice(start, end) };
}

// ---------------------------------------------------------------- helpers

function uniformSeps(c: Candidate, allowed: string): boolean {
  if (c.seps.length === 0) return true;
  const s0 = c.seps[0]!;
  if (s0.length !== 1 || !allowed.includes(s0)) return false;
  return c.seps.every((s) => s === s0);
}

function groupsAre(c: Candidate, ...patterns: number[][]): boolean {
  if (c.groups.length === 1) return true;
  return patterns.some((p) => p.length === c.groups.length && p.every((v, i) => v === c.groups[i]));
}

function allSame(s: string): boolean {
  for (let i = 1; i < s.length; i++) if (s[i] !== s[0]) return false;
  return true;
}

function looksLikeDate(c: Candidate): boolean {
  const g = c.groups;
  if (g.length === 3 && c.seps.every((s) => s === "-" || s === "." || s === "/")) {
    if ((g[0] === 4 && g[1]! <= 2 && g[2]! <= 2) || (g[0]! <= 2 && g[1]! <= 2 && (g[2] === 4 || g[2] === 2))) return true;
  }
  return false;
}

export interface Rule {
  type: string;
  /** returns a base score (>0) when the candidate is acceptable, else 0 */
  check: (c: Candidate) => number;
  context: KeywordList;
  /** digit counts the rule can accept (a cheap pre-filter before `check`) */
  lengths: readonly number[];
  /** score added when a context word precedes the value */
  boost?: number;
  /** if set, no finding without context (or a bare standalone value) */
  needsContext?: boolean;
}

// ---------------------------------------------------------------- validators

function ssnParts(digits: string): boolean {
  const area = Number(digits.slice(0, 3));
  const group = Number(digits.slice(3, 5));
  const serial = Number(digits.slice(5));
  if (area === 0 || area === 666 || area >= 900) return false;
  if (group === 0 || serial === 0) return false;
  if (allSame(digits)) return false;
  if (digits === "123456789") return false;
  return true;
}

function itinOk(digits: string): boolean {
  if (digits[0] !== "9") return false;
  const g = Number(digits.slice(3, 5));
  return (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || (g >= 94 && g <= 99);
}

function cardPrefixOk(d: string): boolean {
  const c = d[0];
  return c === "1" || c === "2" || c === "3" || c === "4" || c === "5" || c === "6";
}

function nhsOk(d: string): boolean {
  if (d.length !== 10 || allSame(d)) return false;
  const r = 11 - (weightedSum(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  const check = r === 11 ? 0 : r;
  return check !== 10 && check === Number(d[9]);
}

function abaOk(d: string): boolean {
  if (d.length !== 9 || allSame(d)) return false;
  const p = Number(d.slice(0, 2));
  if (!((p >= 0 && p <= 12) || (p >= 21 && p <= 32) || (p >= 61 && p <= 72) || p === 80)) return false;
  return weightedSum(d, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
}

function abnOk(d: string): boolean {
  if (d.length !== 11 || d[0] === "0") return false;
  const w = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  let sum = (Number(d[0]) - 1) * 10;
  for (let i = 1; i < 11; i++) sum += Number(d[i]) * w[i]!;
  return sum % 89 === 0;
}

function acnOk(d: string): boolean {
  if (d.length !== 9) return false;
  const s = weightedSum(d, [8, 7, 6, 5, 4, 3, 2, 1]);
  return (10 - (s % 10)) % 10 === Number(d[8]);
}

function tfnOk(d: string): boolean {
  if (d.length !== 9 || allSame(d)) return false;
  return weightedSum(d, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0;
}

function medicareOk(d: string): boolean {
  if (d.length !== 10 && d.length !== 11) return false;
  if (!"23456".includes(d[0]!)) return false;
  return weightedSum(d, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 === Number(d[8]);
}

function sinOk(d: string): boolean {
  return d.length === 9 && d[0] !== "0" && d[0] !== "8" && !allSame(d) && luhn(d);
}

function npiOk(d: string): boolean {
  return d.length === 10 && (d[0] === "1" || d[0] === "2") && luhn("80840" + d);
}

function aadhaarOk(d: string): boolean {
  return d.length === 12 && d[0] !== "0" && d[0] !== "1" && !allSame(d) && verhoeff(d);
}

function trIdOk(d: string): boolean {
  if (d.length !== 11 || d[0] === "0") return false;
  const n = [...d].map(Number);
  const odd = n[0]! + n[2]! + n[4]! + n[6]! + n[8]!;
  const even = n[1]! + n[3]! + n[5]! + n[7]!;
  const c10 = (((odd * 7 - even) % 10) + 10) % 10;
  if (c10 !== n[9]) return false;
  return n.slice(0, 10).reduce((a, b) => a + b, 0) % 10 === n[10];
}

function peselOk(d: string): boolean {
  if (d.length !== 11) return false;
  const s = weightedSum(d, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]);
  if ((10 - (s % 10)) % 10 !== Number(d[10])) return false;
  let month = Number(d.slice(2, 4));
  const yy = Number(d.slice(0, 2));
  let century = 1900;
  if (month > 80) {
    century = 1800;
    month -= 80;
  } else if (month > 60) {
    century = 2200;
    month -= 60;
  } else if (month > 40) {
    century = 2100;
    month -= 40;
  } else if (month > 20) {
    century = 2000;
    month -= 20;
  }
  return validDate(century + yy, month, Number(d.slice(4, 6)));
}

function krRrnOk(d: string, foreigner: boolean): boolean {
  if (d.length !== 13) return false;
  const g = Number(d[6]);
  if (foreigner ? !(g >= 5 && g <= 8) : !(g >= 1 && g <= 4) && g !== 9 && g !== 0) return false;
  const yy = Number(d.slice(0, 2));
  const century = g === 1 || g === 2 || g === 5 || g === 6 ? 1900 : g === 9 || g === 0 ? 1800 : 2000;
  if (!validDate(century + yy, Number(d.slice(2, 4)), Number(d.slice(4, 6)))) return false;
  const s = weightedSum(d, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]);
  return (11 - (s % 11)) % 10 === Number(d[12]);
}

function thTninOk(d: string): boolean {
  if (d.length !== 13 || d[0] === "0") return false;
  const s = weightedSum(d, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return (11 - (s % 11)) % 10 === Number(d[12]);
}

function zaIdOk(d: string): boolean {
  if (d.length !== 13) return false;
  const yy = Number(d.slice(0, 2));
  if (!validDate(2000 + yy, Number(d.slice(2, 4)), Number(d.slice(4, 6)))) return false;
  if (d[10] !== "0" && d[10] !== "1") return false;
  return luhn(d);
}

function sePnrOk(d: string): boolean {
  let ten = d;
  if (d.length === 12) {
    const cc = Number(d.slice(0, 2));
    if (cc < 18 || cc > 20) return false;
    ten = d.slice(2);
  }
  if (ten.length !== 10) return false;
  const yy = Number(ten.slice(0, 2));
  let day = Number(ten.slice(4, 6));
  if (day > 60) day -= 60; // samordningsnummer
  if (!validDate(2000 + yy, Number(ten.slice(2, 4)), day)) return false;
  return luhn(ten);
}

function seOrgOk(d: string): boolean {
  let ten = d;
  if (d.length === 12) {
    if (!d.startsWith("16")) return false;
    ten = d.slice(2);
  }
  if (ten.length !== 10) return false;
  if (Number(ten[2]) < 2) return false;
  return luhn(ten);
}

function itVatOk(d: string): boolean {
  if (d.length !== 11 || allSame(d)) return false;
  if (d.slice(0, 7) === "0000000") return false;
  return luhn(d);
}

function deTaxIdOk(d: string): boolean {
  if (d.length !== 11 || d[0] === "0") return false;
  const counts = new Map<string, number>();
  for (const ch of d.slice(0, 10)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const multi = [...counts.values()].filter((v) => v > 1);
  if (multi.length !== 1 || multi[0]! > 3) return false;
  return iso7064Mod11_10(d);
}

function krBrnOk(d: string): boolean {
  if (d.length !== 10) return false;
  const w = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  let s = weightedSum(d, w);
  s += Math.floor((Number(d[8]) * 5) / 10);
  return (10 - (s % 10)) % 10 === Number(d[9]);
}

function lanrOk(d: string): boolean {
  if (d.length !== 9) return false;
  const s = weightedSum(d, [4, 9, 4, 9, 4, 9]);
  return (10 - (s % 10)) % 10 === Number(d[6]);
}

function cpfOk(d: string): boolean {
  if (d.length !== 11 || allSame(d)) return false;
  let s = 0;
  for (let i = 0; i < 9; i++) s += Number(d[i]) * (10 - i);
  let c1 = (s * 10) % 11;
  if (c1 === 10) c1 = 0;
  if (c1 !== Number(d[9])) return false;
  s = 0;
  for (let i = 0; i < 10; i++) s += Number(d[i]) * (11 - i);
  let c2 = (s * 10) % 11;
  if (c2 === 10) c2 = 0;
  return c2 === Number(d[10]);
}

// ---------------------------------------------------------------- phone

const PHONE_CONTEXT: string[] = [
  "phone",
  "mobile",
  "tel",
  "call",
  "fax",
  "cell",
  "contact",
  "reach",
  "whatsapp",
  "sms",
  "text me",
  "desk",
  "dial",
  "answering",
  "registered",
  "telefon",
  "handy",
  "teléfono",
  "téléphone",
  "numéro",
  "cep",
  "messages to",
  "ring",
];

// ---------------------------------------------------------------- rule table

export const NUMERIC_RULES: Rule[] = [
  {
    type: "CREDIT_CARD",
    lengths: [12,13,14,15,16,17,18,19],
    check: (c) => {
      const n = c.digits.length;
      if (n < 12 || n > 19 || !cardPrefixOk(c.digits) || allSame(c.digits)) return 0;
      if (!uniformSeps(c, " -")) return 0;
      if (c.groups.length > 1 && !(c.groups.slice(0, -1).every((g) => g === 4) || groupsAre(c, [4, 6, 5], [4, 6, 4]))) return 0;
      if (!luhn(c.digits)) return 0;
      return n >= 15 ? 0.6 : 0.45;
    },
    context: keywordList(["card", "credit", "debit", "visa", "mastercard", "amex", "cc ", "cc#", "cc:", "cc=", "kreditkarte", "tarjeta", "carte", "payment", "pan"]),
    boost: 0.35,
  },
  {
    type: "US_SSN",
    lengths: [9],
    check: (c) => {
      if (c.digits.length !== 9 || !groupsAre(c, [3, 2, 4]) || !uniformSeps(c, "- .")) return 0;
      if (!ssnParts(c.digits)) return 0;
      return c.groups.length === 3 ? 0.5 : 0.3;
    },
    context: keywordList(["ssn", "social security", "social sec", "ss#", "ss #", "ssa"]),
    boost: 0.4,
  },
  {
    type: "US_ITIN",
    lengths: [9],
    check: (c) => (c.digits.length === 9 && groupsAre(c, [3, 2, 4]) && uniformSeps(c, "- ") && itinOk(c.digits) ? (c.groups.length === 3 ? 0.5 : 0.3) : 0),
    context: keywordList(["itin", "taxpayer", "tax id", "individual taxpayer"]),
    boost: 0.4,
  },
  {
    type: "UK_NHS",
    lengths: [10],
    check: (c) => (groupsAre(c, [3, 3, 4]) && uniformSeps(c, "- ") && nhsOk(c.digits) ? 0.5 : 0),
    context: keywordList(["nhs", "national health", "health service", "patient"]),
    boost: 0.4,
  },
  {
    type: "CA_SIN",
    lengths: [9],
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, "- ") && sinOk(c.digits) ? (c.groups.length === 3 ? 0.45 : 0.3) : 0),
    context: keywordList(["sin", "social insurance", "nas", "numéro d'assurance sociale", "assurance sociale"]),
    boost: 0.4,
  },
  {
    type: "ABA_ROUTING_NUMBER",
    lengths: [9],
    check: (c) => (groupsAre(c, [4, 4, 1]) && uniformSeps(c, "-") && abaOk(c.digits) ? 0.4 : 0),
    context: keywordList(["routing", "aba", "rtn", "bank"]),
    boost: 0.45,
  },
  {
    type: "AU_ABN",
    lengths: [11],
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, " ") && abnOk(c.digits) ? 0.45 : 0),
    context: keywordList(["abn", "australian business number", "business number"]),
    boost: 0.45,
  },
  {
    type: "AU_ACN",
    lengths: [9],
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, " ") && acnOk(c.digits) ? 0.4 : 0),
    context: keywordList(["acn", "australian company number", "company number"]),
    boost: 0.45,
  },
  {
    type: "AU_TFN",
    lengths: [9],
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, " ") && tfnOk(c.digits) ? 0.4 : 0),
    context: keywordList(["tfn", "tax file number", "tax file"]),
    boost: 0.45,
  },
  {
    type: "AU_MEDICARE",
    lengths: [10, 11],
    check: (c) => (groupsAre(c, [4, 5, 1], [4, 5, 1, 1]) && uniformSeps(c, " ") && medicareOk(c.digits) ? 0.4 : 0),
    context: keywordList(["medicare"]),
    boost: 0.45,
  },
  {
    type: "US_NPI",
    lengths: [10],
    check: (c) => (groupsAre(c, [4, 3, 3], [3, 3, 4]) && uniformSeps(c, " -") && npiOk(c.digits) ? 0.4 : 0),
    context: keywordList(["npi", "national provider", "provider identifier", "provider id", "provider"]),
    boost: 0.45,
  },
  {
    type: "IN_AADHAAR",
    lengths: [12],
    check: (c) => (groupsAre(c, [4, 4, 4]) && uniformSeps(c, " -") && aadhaarOk(c.digits) ? 0.5 : 0),
    context: keywordList(["aadhaar", "aadhar", "uidai", "uid"]),
    boost: 0.4,
  },
  {
    type: "TR_NATIONAL_ID",
    lengths: [11],
    check: (c) => (c.groups.length === 1 && trIdOk(c.digits) ? 0.45 : 0),
    context: keywordList(["kimlik", "tc no", "t.c.", "tckn", "turkish id", "turkish national", "national id", "citizen"]),
    boost: 0.45,
  },
  {
    type: "PL_PESEL",
    lengths: [11],
    check: (c) => (c.groups.length === 1 && peselOk(c.digits) ? 0.45 : 0),
    context: keywordList(["pesel", "numer ewidencyjny", "national id", "id number"]),
    boost: 0.45,
  },
  {
    type: "KR_RRN",
    lengths: [13],
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, "-") && krRrnOk(c.digits, false) ? 0.5 : 0),
    context: keywordList(["rrn", "resident registration", "주민등록번호", "주민번호"]),
    boost: 0.4,
  },
  {
    type: "KR_FRN",
    lengths: [13],
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, "-") && krRrnOk(c.digits, true) ? 0.5 : 0),
    context: keywordList(["frn", "foreigner registration", "foreign registration", "외국인등록번호"]),
    boost: 0.4,
  },
  {
    type: "KR_BRN",
    lengths: [10],
    check: (c) => (groupsAre(c, [3, 2, 5]) && uniformSeps(c, "-") && krBrnOk(c.digits) ? 0.45 : 0),
    context: keywordList(["brn", "business registration", "사업자등록번호", "사업자"]),
    boost: 0.45,
  },
  {
    type: "KR_DRIVER_LICENSE",
    lengths: [12],
    check: (c) => {
      if (c.digits.length !== 12 || !groupsAre(c, [2, 2, 6, 2]) || !uniformSeps(c, "-")) return 0;
      const region = Number(c.digits.slice(0, 2));
      return region >= 11 && region <= 28 ? 0.4 : 0;
    },
    context: keywordList(["driver", "license", "licence", "운전면허"]),
    boost: 0.45,
  },
  {
    type: "TH_TNIN",
    lengths: [13],
    check: (c) => (groupsAre(c, [1, 4, 5, 2, 1]) && uniformSeps(c, " -") && thTninOk(c.digits) ? 0.45 : 0),
    context: keywordList(["tnin", "thai id", "thai national", "national id", "บัตรประชาชน", "id card"]),
    boost: 0.45,
  },
  {
    type: "ZA_ID_NUMBER",
    lengths: [13],
    check: (c) => (groupsAre(c, [6, 4, 3], [6, 4, 1, 1, 1]) && uniformSeps(c, " -") && zaIdOk(c.digits) ? 0.45 : 0),
    context: keywordList(["id number", "identity number", "south african id", "national id", "sa id", "permanent resident", "id no", "identity document"]),
    boost: 0.45,
  },
  {
    type: "SE_PERSONNUMMER",
    lengths: [10, 12],
    check: (c) => ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, "-+")) || c.groups.length === 1) && sePnrOk(c.digits) ? 0.45 : 0,
    context: keywordList(["personnummer", "pnr", "personal identity", "person number", "personal number", "identity code"]),
    boost: 0.45,
  },
  {
    type: "SE_ORGANISATIONSNUMMER",
    lengths: [10, 12],
    check: (c) => ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, "-")) || c.groups.length === 1) && seOrgOk(c.digits) ? 0.45 : 0,
    context: keywordList(["organisationsnummer", "org.nr", "orgnr", "organisation number", "organization number", "company identity", "company id"]),
    boost: 0.45,
  },
  {
    type: "IT_VAT_CODE",
    lengths: [11],
    check: (c) => (c.groups.length === 1 && itVatOk(c.digits) ? 0.45 : 0),
    context: keywordList(["partita iva", "p.iva", "piva", "vat", "iva"]),
    boost: 0.45,
  },
  {
    type: "DE_TAX_ID",
    lengths: [11],
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, " ") && deTaxIdOk(c.digits) ? 0.45 : 0),
    context: keywordList(["steuer-id", "steuerid", "steueridentifikationsnummer", "idnr", "identifikationsnummer", "tax id", "tin"]),
    boost: 0.45,
  },
  {
    type: "DE_LANR",
    lengths: [9],
    check: (c) => (c.groups.length === 1 && lanrOk(c.digits) && !allSame(c.digits.slice(0, 6)) ? 0.4 : 0),
    context: keywordList(["lanr", "arztnummer", "lebenslange arztnummer"]),
    boost: 0.45,
  },
  {
    type: "BR_CPF",
    lengths: [11],
    check: (c) => ((groupsAre(c, [3, 3, 3, 2]) && c.seps.length === 3 && c.seps[0] === "." && c.seps[1] === "." && c.seps[2] === "-") || c.groups.length === 1) && cpfOk(c.digits) ? 0.45 : 0,
    context: keywordList(["cpf", "cadastro de pessoas"]),
    boost: 0.45,
  },
  {
    type: "PH_TIN",
    lengths: [9, 12, 14],
    check: (c) => (c.groups.length >= 3 && groupsAre(c, [3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 5]) && uniformSeps(c, "-") ? 0.35 : 0),
    context: keywordList(["tin", "tax identification", "bir"]),
    boost: 0.45,
  },
  {
    type: "US_BANK_NUMBER",
    lengths: [8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    check: (c) => (c.groups.length === 1 && c.digits.length >= 8 && c.digits.length <= 17 ? 0.05 : 0),
    context: keywordList(["bank account", "account number", "account no", "acct", "checking account", "savings account"]),
    boost: 0.6,
    needsContext: true,
  },
  {
    type: "US_DRIVER_LICENSE",
    lengths: [7, 8, 9, 10, 11, 12, 13],
    check: (c) => (c.digits.length >= 7 && c.digits.length <= 13 && c.groups.length <= 3 ? 0.05 : 0),
    context: keywordList(["driver license", "driver's license", "drivers license", "driver licence", "driving license", "driver's licence", "dl#", "dl #", "dl number", "license number", "licence number"]),
    boost: 0.6,
    needsContext: true,
  },
  {
    type: "DE_PLZ",
    lengths: [5],
    check: (c) => (c.groups.length === 1 && c.digits.length === 5 && c.digits !== "00000" && c.digits !== "99999" ? 0.05 : 0),
    context: keywordList(["plz", "postleitzahl"]),
    boost: 0.6,
    needsContext: true,
  },
];

const PHONE_EXT = /^\s?(?:x|ext\.?|extension)\s?\d{1,5}/i;

const PHONE_CTX = keywordList(PHONE_CONTEXT);
const NUMBER_WORD = keywordList(["number", "no.", "nr."]);
/** "number" right after one of these names another identifier ("license number"), not a phone. */
const OTHER_NUMBER = keywordList([
  "licen", "account", "card", "passport", "routing", "tax", "ssn", "social", "policy", "order", "invoice", "member", "customer", "case",
  "ticket", "tracking", "serial", "id ", "id:", "identi", "insurance", "nhs", "npi", "aadhaar", "sin ", "iban", "vat", "registration",
]);

/** libphonenumber costs ~5-15 µs a call: at most this many calls per text (plus one per 512 chars). */
const PHONE_CALL_BASE = 16;

const NANP: CountryCode[] = ["US"];
const TRUNK_ZERO: CountryCode[] = ["GB", "DE", "FR", "IT", "IN"];
const TRUNK_ZERO_MORE: CountryCode[] = ["BR", "AU", "NL", "BE", "TR", "PH", "IL", "ES"];
const NO_TRUNK: CountryCode[] = ["US", "IN", "ES", "IT"];

/** Bounded memo of libphonenumber results (repeated numbers in logs are common). */
const PHONE_MEMO = new Map<string, number>();

function phoneValidity(raw: string, region: CountryCode | undefined, budget: { calls: number }): number {
  const key = (region ?? "+") + raw;
  const hit = PHONE_MEMO.get(key);
  if (hit !== undefined) return hit;
  if (budget.calls <= 0) return -1;
  budget.calls--;
  const p = parsePhoneNumberFromString(raw, { defaultCountry: region, extract: false });
  const v = !p ? 0 : p.isValid() ? 2 : p.isPossible() ? 1 : 0;
  if (PHONE_MEMO.size >= 4096) PHONE_MEMO.clear();
  PHONE_MEMO.set(key, v);
  return v;
}

/** Regions worth trying for a national-format number, most likely first (few calls per candidate). */
function regionsFor(c: Candidate, ctx: boolean): CountryCode[] {
  const g = c.groups;
  const nd = c.digits.length;
  if (nd === 10 && c.digits[0] !== "0" && c.digits[0] !== "1" && (c.raw.startsWith("(") || (g.length === 3 && g[0] === 3 && g[1] === 3))) return NANP;
  if (c.digits[0] === "0") return ctx ? [...TRUNK_ZERO, ...TRUNK_ZERO_MORE] : TRUNK_ZERO;
  return NO_TRUNK;
}

function phoneFinding(tc: TextContext, c: Candidate, end: number, budget: { calls: number }): Finding | null {
  const text = tc.text;
  const nd = c.digits.length;
  if (nd < 7 || nd > 15) return null;
  if (c.groups.length > 7) return null;
  const trunk = c.plus && c.raw.includes("(0)"); // "+41 (0)71 …": the national trunk prefix in parentheses
  for (let g = 1; g < c.groups.length; g++) if (c.groups[g]! < 2 && !(trunk && c.groups[g] === 1)) return null;
  if (looksLikeDate(c) || (c.groups.length > 3 && looksLikeDate({ ...c, groups: c.groups.slice(0, 3), seps: c.seps.slice(0, 2) }))) return null;
  if (c.seps.length >= 2 && c.seps.every((s) => s === ".") && c.groups.every((g) => g <= 3)) return null;
  if (allSame(c.digits)) return null;
  const ctx = tc.has(PHONE_CTX, c.start, end, 40) || (tc.has(NUMBER_WORD, c.start, end, 40) && !tc.has(OTHER_NUMBER, c.start, end, 40));
  const standalone = isStandalone(text, c.start, end);
  const formatted = c.groups.length >= 2 || c.raw.startsWith("(");
  // cheapest bounds first: without a '+' prefix, context or a bare value, only a formatted number of
  // national length that does not start like a year ("2024-118") can reach the threshold
  if (!c.plus && !ctx && !standalone) {
    if (!formatted || nd < 9) return null;
    if (c.groups[0] === 4 && /^(?:19|20)/.test(c.digits) && c.seps[0] === "-") return null;
  }
  let base = 0;
  if (c.plus) {
    const v = phoneValidity(c.raw.replace("(0)", "").replace(/^\(\+/, "+").replace(/^00/, "+").replace(/\)$/, ""), undefined, budget);
    if (v === 2) base = 0.75;
    else if (v === 1) base = 0.6;
    else if (v < 0) base = 0.45; // budget spent: shape only
    else return null;
  } else {
    if (!formatted && nd > 12) return null;
    let spent = false;
    for (const r of regionsFor(c, ctx)) {
      const v = phoneValidity(c.raw, r, budget);
      if (v < 0) {
        spent = true;
        break;
      }
      if (v === 2) {
        base = formatted ? 0.55 : 0.4;
        break;
      }
    }
    // a formatted number right after a phone cue ("Phone: 60-56-85-91") even when no region validates it
    if (base === 0 && ((spent && formatted) || (ctx && (formatted || (nd >= 9 && nd <= 12))))) base = 0.45;
    if (base === 0) return null;
  }
  const s = ctx ? base + 0.3 : standalone ? base + 0.25 : base;
  return { type: "PHONE_NUMBER", start: c.start, end, score: clamp01(s) };
}

/** Rules indexed by the digit counts they accept. */
function rulesByLength(rules: readonly Rule[]): Rule[][] {
  const t: Rule[][] = Array.from({ length: MAX_DIGITS + 1 }, () => []);
  for (const r of rules) for (const n of r.lengths) if (n <= MAX_DIGITS) t[n]!.push(r);
  return t;
}
const DEFAULT_TABLE = rulesByLength(NUMERIC_RULES);

/** Is the window [a, b] part of a longer run of groups joined by the same separator (e.g. the first 12 digits of "4567-8901-2345-6789")? */
function isFragment(text: string, groups: Group[], a: number, b: number): boolean {
  const sepAt = (g: number) => text.slice(groups[g]!.end, groups[g + 1]!.start);
  const inner = b > a ? sepAt(a) : "";
  if (a > 0) {
    const s = sepAt(a - 1);
    if (inner ? s === inner : s === "-" || s === "." || s === "/") return true;
  }
  if (b < groups.length - 1) {
    const s = sepAt(b);
    if (inner ? s === inner : s === "-" || s === "." || s === "/") return true;
  }
  return false;
}

/**
 * Numeric-chunk detector: all rules over all bounded candidates; per type the best non-overlapping spans.
 * With `minScore`, findings that cannot reach it are not produced (rules needing absent context are skipped).
 */
export function detectNumeric(text: string, rules: readonly Rule[] = NUMERIC_RULES, shared?: TextContext, minScore = 0): Finding[] {
  const tc = textContext(text, shared);
  if (!tc.hasDigit) return [];
  const raw: Finding[] = [];
  const budget = { calls: PHONE_CALL_BASE + Math.floor(text.length / 512) };
  const table = rules === NUMERIC_RULES ? DEFAULT_TABLE : rulesByLength(rules);
  // rules that need context are dropped when none of their keywords occurs in the text
  const live = new Set(rules.filter((r) => !r.needsContext || tc.any(r.context)));
  const short = text.length <= 64; // only then can a value be "standalone" (isStandalone)
  scanChunks(text, (groups, chunkStart) => {
    // phone: the whole chunk only (bounded number of libphonenumber calls per chunk)
    let total = 0;
    for (const g of groups) total += g.end - g.start;
    // phone: the whole chunk, or what follows a space when the chunk is "<zip> <phone>"-like
    let first = 0;
    if (total > 15 || groups.length > 7 || (groups.length >= 3 && text.slice(groups[0]!.end, groups[1]!.start) === " " && text.slice(groups[1]!.end, groups[2]!.start) !== " ")) {
      first = 1;
      while (first < groups.length - 1 && text.slice(groups[first - 1]!.end, groups[first]!.start) !== " ") first++;
      total = 0;
      for (let g = first; g < groups.length; g++) total += groups[g]!.end - groups[g]!.start;
      if (groups.length - first < 2) total = 99;
    }
    if (total <= 15 && groups.length - first <= 7) {
      const c = makeCandidate(text, groups, first, groups.length - 1, chunkStart);
      if (c) {
        let end = c.end;
        let ok = true;
        if (c.gluedRight) {
          const m = PHONE_EXT.exec(text.slice(c.end, c.end + 16));
          if (m && (end + m[0].length >= text.length || !isWordChar(text.charCodeAt(end + m[0].length)))) end += m[0].length;
          else ok = false;
        }
        if (ok) {
          const f = phoneFinding(tc, c, end, budget);
          if (f && f.score >= minScore) raw.push(f);
        }
      }
    }
    const long = groups.length > 8;
    for (let a = 0; a < groups.length; a++) {
      // in long chunks a window starts only at the chunk start or where the separator changes
      if (long && a > 0) {
        const prev = text.slice(groups[a - 1]!.end, groups[a]!.start);
        const next = a + 1 < groups.length ? text.slice(groups[a]!.end, groups[a + 1]!.start) : "";
        const before = a > 1 ? text.slice(groups[a - 2]!.end, groups[a - 1]!.start) : "";
        if (prev === next && prev === before && prev.length === 1) continue;
      }
      let digits = 0;
      for (let b = a; b < groups.length && b - a < MAX_GROUPS; b++) {
        const len = groups[b]!.end - groups[b]!.start;
        if (len > MAX_GROUP_LEN) break;
        digits += len;
        if (digits > MAX_DIGITS) break;
        const candidates = table[digits]!;
        if (candidates.length === 0) continue;
        let c: Candidate | null | undefined;
        let fragment: boolean | undefined;
        for (const r of candidates) {
          if (!live.has(r)) continue;
          if (c === undefined) {
            c = makeCandidate(text, groups, a, b, chunkStart);
            if (!c || c.gluedRight || c.plusSign) break;
            fragment = !long && isFragment(text, groups, a, b);
          }
          if (!c || fragment) break;
          let s = r.check(c);
          if (s <= 0) continue;
          const ctx = tc.has(r.context, c.start, c.end, 40);
          if (r.needsContext && !ctx) continue;
          if (ctx) s += r.boost ?? 0.35;
          else if (short && isStandalone(text, c.start, c.end)) s += 0.25;
          if (s < minScore) continue;
          raw.push({ type: r.type, start: c.start, end: c.end, score: clamp01(s) });
        }
      }
    }
  });
  return bestPerType(raw, text.length);
}

/** Per type: keep the best (highest score, then longest) non-overlapping spans. O(k log k + total span length). */
export function bestPerType(fs: Finding[], textLength: number): Finding[] {
  const byType = new Map<string, Finding[]>();
  for (const f of fs) {
    const arr = byType.get(f.type);
    if (arr) arr.push(f);
    else byType.set(f.type, [f]);
  }
  const out: Finding[] = [];
  const occ = new Uint8Array(textLength + 1);
  for (const arr of byType.values()) {
    arr.sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
    const kept: Finding[] = [];
    for (const f of arr) {
      let free = true;
      for (let i = f.start; i < f.end; i++)
        if (occ[i]) {
          free = false;
          break;
        }
      if (!free) continue;
      occ.fill(1, f.start, f.end);
      kept.push(f);
    }
    for (const k of kept) occ.fill(0, k.start, k.end);
    out.push(...kept);
  }
  return out.sort((a, b) => a.start - b.start);
}

