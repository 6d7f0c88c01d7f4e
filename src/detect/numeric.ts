// Numeric identifiers found in "numeric chunks": runs of digit groups joined by short separators.
// One linear regex pass finds the chunks with enough digits for any rule; every candidate is a window of
// at most MAX_GROUPS groups and MAX_DIGITS digits, so the total work is O(n * MAX_GROUPS). Most digit runs
// (timestamps, latencies, dates) are rejected on the group lengths and separator codes alone, before any
// string is built; context keywords are read from each candidate's 40-char window.

import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { CountryCode } from "libphonenumber-js/max";
import { iso7064Mod11_10, luhn, validDate, verhoeff, weightedSum } from "./checksums.ts";
import { clamp01, isAsciiDigit, isStandalone, isWordChar, keywordList, textContext } from "./context.ts";
import type { KeywordList, TextContext } from "./context.ts";
import type { Finding } from "./types.ts";
import { codeUnitReader } from "./code-units.ts";
import { CLOSE_PAREN, CR, DIGIT_0, DIGIT_1, DIGIT_2, DIGIT_9, LF, lowerAscii, OPEN_PAREN, PLUS } from "./chars.ts";

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

// ---------------------------------------------------------------- character classes

/** Separator characters between digit groups, coded 1..7 (0: not a separator). */
const SEP_CODE = new Uint8Array(0xa1);
const SPACE = 1;
const DASH = 2;
const DOT = 3;
const SLASH = 4;
for (const [ch, code] of [[" ", SPACE], ["-", DASH], [".", DOT], ["/", SLASH], ["(", 5], [")", 6], ["\u00a0", 7]] as const) SEP_CODE[ch.charCodeAt(0)] = code;

/** A separator (1-3 chars) is kept as one number, c1 + 8*c2 + 64*c3: equal strings have equal codes, single chars codes below 8. */
const SINGLE_CHAR_SEP = 8;


/** isWordChar() remembered per UTF-16 code unit (its non-ASCII path tests a Unicode regex). */
const WORD_CACHE = new Uint8Array(0x10000); // 0: not yet known, 1: word char, 2: not
function isWord(c: number): boolean {
  if (c < 128) return isWordChar(c);
  let v = WORD_CACHE[c]!;
  if (v === 0) WORD_CACHE[c] = v = isWordChar(c) ? 1 : 2;
  return v === 1;
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
  // a foreigner registration number's check digit is offset by 2 from a resident's
  return ((foreigner ? 13 : 11) - (s % 11)) % 10 === Number(d[12]);
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
  if (d[10] !== "0" && d[10] !== "1" && d[10] !== "2") return false; // citizen, permanent resident, refugee
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
  // issued ids repeat exactly one digit (2 or 3 times); all-distinct digits still pass the checksum in
  // Presidio's recognizer and in test data, so they are accepted too
  if (multi.length > 1 || (multi[0] ?? 0) > 3) return false;
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
  // calling and numbers in other languages
  "anrufen", "rufen sie", "ruf mich", "erreichen sie mich", "rückruf", "nummer", "llámame", "llamar", "llame", "número", "appelez", "appelle", "appeler",
  "joindre", "tél", "chiamami", "chiamare", "numero", "bel me", "bellen", "liga", "ligar", "telemóvel", "celular", "móvil", "movil", "portable",
  "телефон", "номер", "звоните", "позвоните", "电话", "手机", "電話", "携帯", "전화",
];

// ---------------------------------------------------------------- rule table

/** `fits` of a rule that takes a single group or one of these numbers of groups. */
function groupCounts(...counts: number[]): (digits: number, groups: number) => boolean {
  return (_, groups) => counts.includes(groups);
}

export const NUMERIC_RULES: Rule[] = [
  {
    type: "CREDIT_CARD", validated: true,
    lengths: [12,13,14,15,16,17,18,19],
    fits: (d, g) => 4 * (g - 1) < d,
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
    type: "US_SSN", validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => {
      if (c.digits.length !== 9 || !groupsAre(c, [3, 2, 4]) || !uniformSeps(c, "- .")) return 0;
      if (!ssnParts(c.digits)) return 0;
      return c.groups.length === 3 ? 0.5 : 0.3;
    },
    context: keywordList(["ssn", "social security", "social sec", "soc. sec", "soc sec", "socsec", "ss#", "ss #", "ss no", "ssa", "social", "sozialversicherungsnummer"]),
    boost: 0.4,
  },
  {
    type: "US_ITIN", validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (c.digits.length === 9 && groupsAre(c, [3, 2, 4]) && uniformSeps(c, "- ") && itinOk(c.digits) ? (c.groups.length === 3 ? 0.5 : 0.3) : 0),
    context: keywordList(["itin", "taxpayer", "tax id", "individual taxpayer"]),
    boost: 0.4,
  },
  {
    type: "UK_NHS", validated: true,
    lengths: [10],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 3, 4]) && uniformSeps(c, "- ") && nhsOk(c.digits) ? 0.5 : 0),
    context: keywordList(["nhs", "national health", "health service", "patient"]),
    boost: 0.4,
  },
  {
    type: "CA_SIN", validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, "- ") && sinOk(c.digits) ? (c.groups.length === 3 ? 0.45 : 0.3) : 0),
    context: keywordList(["sin", "social insurance", "nas", "numéro d'assurance sociale", "assurance sociale"]),
    boost: 0.4,
  },
  {
    type: "ABA_ROUTING_NUMBER", validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [4, 4, 1]) && uniformSeps(c, "-") && abaOk(c.digits) ? 0.4 : 0),
    context: keywordList(["routing", "aba", "rtn", "bank"]),
    boost: 0.45,
  },
  {
    type: "AU_ABN", validated: true,
    lengths: [11],
    fits: groupCounts(1, 4),
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, " ") && abnOk(c.digits) ? 0.45 : 0),
    context: keywordList(["abn", "australian business number", "business number"]),
    boost: 0.45,
  },
  {
    type: "AU_ACN", validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, " ") && acnOk(c.digits) ? 0.4 : 0),
    context: keywordList(["acn", "australian company number", "company number"]),
    boost: 0.45,
  },
  {
    type: "AU_TFN", validated: true,
    lengths: [9],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, " ") && tfnOk(c.digits) ? 0.4 : 0),
    context: keywordList(["tfn", "tax file number", "tax file"]),
    boost: 0.45,
  },
  {
    type: "AU_MEDICARE", validated: true,
    lengths: [10, 11],
    fits: groupCounts(1, 3, 4),
    check: (c) => (groupsAre(c, [4, 5, 1], [4, 5, 1, 1]) && uniformSeps(c, " ") && medicareOk(c.digits) ? 0.4 : 0),
    context: keywordList(["medicare"]),
    boost: 0.45,
  },
  {
    type: "US_NPI", validated: true,
    lengths: [10],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [4, 3, 3], [3, 3, 4]) && uniformSeps(c, " -") && npiOk(c.digits) ? 0.4 : 0),
    context: keywordList(["npi", "national provider", "provider identifier", "provider id", "provider"]),
    boost: 0.45,
  },
  {
    type: "IN_AADHAAR", validated: true,
    lengths: [12],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [4, 4, 4]) && uniformSeps(c, " -") && aadhaarOk(c.digits) ? 0.5 : 0),
    context: keywordList(["aadhaar", "aadhar", "uidai", "uid"]),
    boost: 0.4,
  },
  {
    type: "TR_NATIONAL_ID", validated: true,
    lengths: [11],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && trIdOk(c.digits) ? 0.45 : 0),
    context: keywordList(["kimlik", "tc no", "t.c.", "tckn", "turkish id", "turkish national", "national id", "citizen"]),
    boost: 0.45,
  },
  {
    type: "PL_PESEL", validated: true,
    lengths: [11],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && peselOk(c.digits) ? 0.45 : 0),
    context: keywordList(["pesel", "numer ewidencyjny", "national id", "id number"]),
    boost: 0.45,
  },
  {
    type: "KR_RRN", validated: true,
    lengths: [13],
    fits: groupCounts(1, 2),
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, "-") && krRrnOk(c.digits, false) ? 0.5 : 0),
    context: keywordList(["rrn", "resident registration", "주민등록번호", "주민번호"]),
    boost: 0.4,
  },
  {
    type: "KR_FRN", validated: true,
    lengths: [13],
    fits: groupCounts(1, 2),
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, "-") && krRrnOk(c.digits, true) ? 0.5 : 0),
    context: keywordList(["frn", "foreigner registration", "foreign registration", "외국인등록번호"]),
    boost: 0.4,
  },
  {
    type: "KR_BRN", validated: true,
    lengths: [10],
    fits: groupCounts(1, 3),
    check: (c) => (groupsAre(c, [3, 2, 5]) && uniformSeps(c, "-") && krBrnOk(c.digits) ? 0.45 : 0),
    context: keywordList(["brn", "business registration", "사업자등록번호", "사업자"]),
    boost: 0.45,
  },
  {
    type: "KR_DRIVER_LICENSE",
    lengths: [12],
    fits: groupCounts(1, 4),
    check: (c) => {
      if (c.digits.length !== 12 || !groupsAre(c, [2, 2, 6, 2]) || !uniformSeps(c, "-")) return 0;
      const region = Number(c.digits.slice(0, 2));
      return region >= 11 && region <= 28 ? 0.4 : 0;
    },
    context: keywordList(["driver", "license", "licence", "운전면허"]),
    boost: 0.45,
  },
  {
    type: "TH_TNIN", validated: true,
    lengths: [13],
    fits: groupCounts(1, 5),
    check: (c) => (groupsAre(c, [1, 4, 5, 2, 1]) && uniformSeps(c, " -") && thTninOk(c.digits) ? 0.45 : 0),
    context: keywordList(["tnin", "thai id", "thai national", "national id", "บัตรประชาชน", "id card"]),
    boost: 0.45,
  },
  {
    type: "ZA_ID_NUMBER", validated: true,
    lengths: [13],
    fits: groupCounts(1, 3, 5),
    check: (c) => (groupsAre(c, [6, 4, 3], [6, 4, 1, 1, 1]) && uniformSeps(c, " -") && zaIdOk(c.digits) ? 0.45 : 0),
    context: keywordList(["id number", "identity number", "south african id", "national id", "sa id", "permanent resident", "id no", "identity document"]),
    boost: 0.45,
  },
  {
    type: "SE_PERSONNUMMER", validated: true,
    lengths: [10, 12],
    fits: groupCounts(1, 2),
    check: (c) => ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, "-+")) || c.groups.length === 1) && sePnrOk(c.digits) ? 0.45 : 0,
    context: keywordList(["personnummer", "pnr", "personal identity", "person number", "personal number", "identity code"]),
    boost: 0.45,
  },
  {
    type: "SE_ORGANISATIONSNUMMER", validated: true,
    lengths: [10, 12],
    fits: groupCounts(1, 2),
    check: (c) => ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, "-")) || c.groups.length === 1) && seOrgOk(c.digits) ? 0.45 : 0,
    context: keywordList(["organisationsnummer", "org.nr", "orgnr", "organisation number", "organization number", "company identity", "company id"]),
    boost: 0.45,
  },
  {
    type: "IT_VAT_CODE", validated: true,
    lengths: [11],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && itVatOk(c.digits) ? 0.45 : 0),
    context: keywordList(["partita iva", "p.iva", "piva", "vat", "iva"]),
    boost: 0.45,
  },
  {
    type: "DE_TAX_ID", validated: true,
    lengths: [11],
    fits: groupCounts(1, 4),
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, " ") && deTaxIdOk(c.digits) ? 0.45 : 0),
    context: keywordList(["steuer-id", "steuerid", "steueridentifikationsnummer", "idnr", "identifikationsnummer", "tax id", "tin"]),
    boost: 0.45,
  },
  {
    type: "DE_LANR", validated: true,
    lengths: [9],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && lanrOk(c.digits) && !allSame(c.digits.slice(0, 6)) ? 0.4 : 0),
    context: keywordList(["lanr", "arztnummer", "lebenslange arztnummer"]),
    boost: 0.45,
  },
  {
    type: "BR_CPF", validated: true,
    lengths: [11],
    fits: groupCounts(1, 4),
    check: (c) => ((groupsAre(c, [3, 3, 3, 2]) && c.seps.length === 3 && c.seps[0] === "." && c.seps[1] === "." && c.seps[2] === "-") || c.groups.length === 1) && cpfOk(c.digits) ? 0.45 : 0,
    context: keywordList(["cpf", "cadastro de pessoas"]),
    boost: 0.45,
  },
  {
    type: "PH_TIN",
    lengths: [9, 12, 14],
    fits: (d, g) => (g === 3 && d === 9) || (g === 4 && (d === 12 || d === 14)),
    check: (c) => (c.groups.length >= 3 && groupsAre(c, [3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 5]) && uniformSeps(c, "-") ? 0.35 : 0),
    context: keywordList(["tin", "tax identification", "bir"]),
    boost: 0.45,
  },
  {
    type: "US_BANK_NUMBER",
    lengths: [8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && c.digits.length >= 8 && c.digits.length <= 17 ? 0.05 : 0),
    context: keywordList(["bank account", "account number", "account no", "acct", "checking account", "savings account"]),
    boost: 0.6,
    needsContext: true,
  },
  {
    type: "US_DRIVER_LICENSE",
    lengths: [7, 8, 9, 10, 11, 12, 13],
    fits: (_, g) => g <= 3,
    check: (c) => (c.digits.length >= 7 && c.digits.length <= 13 && c.groups.length <= 3 ? 0.05 : 0),
    context: keywordList(["driver license", "driver's license", "drivers license", "driver licence", "driving license", "driver's licence", "dl#", "dl #", "dl number", "license number", "licence number"]),
    boost: 0.6,
    needsContext: true,
  },
  {
    type: "DE_PLZ",
    lengths: [5],
    fits: groupCounts(1),
    check: (c) => (c.groups.length === 1 && c.digits.length === 5 && c.digits !== "00000" && c.digits !== "99999" ? 0.05 : 0),
    context: keywordList(["plz", "postleitzahl"]),
    boost: 0.6,
    needsContext: true,
  },
];

/** A phone extension glued to the number ("…-0100x565"); at most 16 chars, tried at the number's end only. */
const PHONE_EXT = /\s?(?:x|ext\.?|extension)\s?\d{1,5}/iy;

const PHONE_CTX = keywordList(PHONE_CONTEXT);
const NUMBER_WORD = keywordList(["number", "no.", "nr."]);
/** "number" right after one of these names another identifier ("license number"), not a phone. */
const OTHER_NUMBER = keywordList([
  "licen", "account", "card", "passport", "routing", "tax", "ssn", "social", "policy", "order", "invoice", "member", "customer", "case",
  "ticket", "tracking", "serial", "id ", "id:", "identi", "insurance", "nhs", "npi", "aadhaar", "sin ", "iban", "vat", "registration",
]);

/** Phone cues (bit 1) and "number" words (bit 2), looked up in one pass. */
const PHONE_CUES = matcherFor([PHONE_CTX, NUMBER_WORD]);

/** Context keywords are looked for this many chars before a value. */
const CONTEXT_BEFORE = 40;

/** At most this many libphonenumber questions per text (plus one per 512 chars): its calls are the costly part (bench/detect.ts). */
const PHONE_CALL_BASE = 16;

const NANP: CountryCode[] = ["US"];
const TRUNK_ZERO: CountryCode[] = ["GB", "DE", "FR", "IT", "IN"];
const TRUNK_ZERO_MORE: CountryCode[] = ["BR", "AU", "NL", "BE", "TR", "PH", "IL", "ES"];
const NO_TRUNK: CountryCode[] = ["US", "IN", "ES", "IT"];

/**
 * Bounded memo of libphonenumber results (repeated numbers in logs are common), by region ("+" for an
 * international number) and then number: no key string is built per question.
 */
const PHONE_MEMO = new Map<string, Map<string, number>>();
const PHONE_MEMO_MAX = 4096;
let phoneMemoSize = 0;

function phoneValidity(raw: string, region: CountryCode | undefined, budget: { calls: number }): number {
  // the budget counts questions, answered from the memo or not, so that a text's findings do not depend
  // on what earlier texts left in the memo (scan() must be a function of its text)
  if (budget.calls <= 0) return -1;
  budget.calls--;
  const byNumber = PHONE_MEMO.get(region ?? "+");
  const hit = byNumber?.get(raw);
  if (hit !== undefined) return hit;
  const p = parsePhoneNumberFromString(raw, { defaultCountry: region, extract: false });
  const v = !p ? 0 : p.isValid() ? 2 : p.isPossible() ? 1 : 0;
  if (phoneMemoSize >= PHONE_MEMO_MAX) {
    PHONE_MEMO.clear();
    phoneMemoSize = 0;
  }
  let memo = PHONE_MEMO.get(region ?? "+");
  if (!memo) PHONE_MEMO.set(region ?? "+", (memo = new Map()));
  memo.set(raw, v);
  phoneMemoSize++;
  return v;
}

/** "+41 (0)71 …", "(+41) 71 …", "0041 71 …" as libphonenumber reads them: "+41 71 …" (without the trunk "(0)"). */
function internationalForm(raw: string): string {
  let s = raw.replace("(0)", "");
  if (s.startsWith("(+")) s = "+" + s.slice(2);
  if (s.startsWith("00")) s = "+" + s.slice(2);
  return s.endsWith(")") ? s.slice(0, -1) : s;
}

/** Day-month-year-like group lengths ("2024-01-15", "15.01.24"). */
function dateLengths(g0: number, g1: number, g2: number): boolean {
  return (g0 === 4 && g1 <= 2 && g2 <= 2) || (g0 <= 2 && g1 <= 2 && (g2 === 4 || g2 === 2));
}

function isDateSep(s: number): boolean {
  return s === DASH || s === DOT || s === SLASH;
}

// ---------------------------------------------------------------- context keywords

/** A keyword with the bit of the list it belongs to. */
interface Keyword {
  word: string;
  bit: number;
}

/** Keyword lists indexed by first char, for looking their keywords up in one short window. */
interface Matcher {
  /** [c1 * 128 + c2] is 1 when a keyword starts with the ASCII chars c1 c2 in either case (or is the single char c1, any c2) */
  pairs: Uint8Array;
  ascii: Keyword[][];
  other: Map<number, Keyword[]>;
}

/** A matcher for `lists`, the i-th list reported as bit 1 << i. */
function matcherFor(lists: readonly KeywordList[]): Matcher {
  const m: Matcher = { pairs: new Uint8Array(128 * 128), ascii: Array.from({ length: 128 }, () => []), other: new Map() };
  lists.forEach((list, i) => {
    for (const word of list.words) {
      if (word.length === 0) continue;
      const k = { word, bit: 1 << i };
      const c = word.charCodeAt(0);
      if (c < 128) {
        const c2 = word.length > 1 ? word.charCodeAt(1) : -1;
        for (const u of asciiCases(c)) {
          if (c2 < 0) m.pairs.fill(1, u * 128, u * 128 + 128);
          else if (c2 < 128) for (const d of asciiCases(c2)) m.pairs[u * 128 + d] = 1;
        }
        m.ascii[c]!.push(k);
      } else {
        const arr = m.other.get(c) ?? [];
        arr.push(k);
        m.other.set(c, arr);
      }
    }
  });
  return m;
}

/** One-list matchers, by list. */
const MATCHERS = new WeakMap<KeywordList, Matcher>();

function matcherOf(list: KeywordList): Matcher {
  let m = MATCHERS.get(list);
  if (!m) MATCHERS.set(list, (m = matcherFor([list])));
  return m;
}

/** The ASCII chars that fold to the lower-case char `c` (itself, and its capital for a letter). */
function asciiCases(c: number): number[] {
  return c >= 97 && c <= 122 ? [c, c - 32] : [c];
}


/** Does keyword `w` occur at `p` of the text's code units, ignoring ASCII case? (false at any non-ASCII char) */
function asciiMatchAt(units: Uint16Array, p: number, w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    const c = units[p + i]!;
    if (c >= 128 || lowerAscii(c) !== w.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The lists (bits) with a keyword entirely within [lo, start) of the lower-cased text, as tc.has() would
 * say; stops once all the `want` bits are found.
 */
function cuesIn(lower: string, m: Matcher, lo: number, start: number, want: number): number {
  let found = 0;
  for (let p = lo; p < start; p++) {
    const c = lower.charCodeAt(p);
    const ks = c < 128 ? m.ascii[c] : m.other.get(c);
    if (!ks) continue;
    for (const k of ks) if ((found & k.bit) === 0 && p + k.word.length <= start && lower.startsWith(k.word, p)) found |= k.bit;
    if ((found & want) === want) return found;
  }
  return found;
}

/** A keyword may also follow the value ("199109242397 är mitt pnr", "… is my SSN") within this many chars. */
const CONTEXT_AFTER = 24;

/** Positions of a window where a keyword's first two chars occur (asciiCues). */
const pairHits = new Int32Array(Math.max(CONTEXT_BEFORE, CONTEXT_AFTER) + 1);

/**
 * The lists (bits) of `m` with a keyword entirely within [lo, hi) of an ASCII window, read in place with
 * ASCII case folded (what toLowerCase() does to ASCII chars); stops once all the `want` bits are found.
 * -1 when the window holds a non-ASCII char (the callers then read the lower-cased text, which finds the
 * same keywords and maybe more, so their yes/no answers agree). The positions where a keyword's first two
 * chars occur are collected without a branch per char (a branch there is often mispredicted in prose),
 * then the keywords are compared there in order.
 */
function asciiCues(units: Uint16Array, m: Matcher, lo: number, hi: number, want: number): number {
  const pairs = m.pairs;
  let n = 0;
  let all = 0; // every char or-ed: >= 128 when one is not ASCII
  let c = units[lo]!;
  for (let p = lo; p < hi; p++) {
    const d = p + 1 < hi ? units[p + 1]! : 0; // 0 past the window
    all |= c;
    pairHits[n] = p;
    n += pairs[((c << 7) | d) & 0x3fff]!;
    c = d;
  }
  if (all >= 128) return -1;
  let found = 0;
  for (let i = 0; i < n; i++) {
    const p = pairHits[i]!;
    for (const k of m.ascii[lowerAscii(units[p]!)]!) if ((found & k.bit) === 0 && p + k.word.length <= hi && asciiMatchAt(units, p, k.word)) found |= k.bit;
    if ((found & want) === want) return found;
  }
  return found;
}


/**
 * A keyword of the list right after the value: within CONTEXT_AFTER chars, on its line and before the next
 * digit (a label after another number belongs to that number).
 */
function cueAfter(text: string, units: Uint16Array, list: KeywordList, end: number): boolean {
  let stop = end;
  const max = Math.min(text.length, end + CONTEXT_AFTER);
  while (stop < max) {
    const c = units[stop]!;
    if (c === LF || c === CR || isAsciiDigit(c)) break;
    stop++;
  }
  if (stop === end) return false;
  // an ASCII window lower-cases char by char; another one as toLowerCase() does it (its length may change)
  const found = asciiCues(units, matcherOf(list), end, stop, 1);
  if (found >= 0) return found !== 0;
  const window = text.slice(end, stop).toLowerCase();
  for (const k of list.words) if (k.length > 0 && window.includes(k)) return true;
  return false;
}

// ---------------------------------------------------------------- the scan

/** Rules indexed by the digit and group counts they accept. */
interface RuleTable {
  /** at digits * (MAX_GROUPS + 1) + groups */
  byShape: Rule[][];
  /** the fewest digits any rule accepts */
  minDigits: number;
}

function ruleTable(rules: readonly Rule[]): RuleTable {
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
const DEFAULT_TABLE = ruleTable(NUMERIC_RULES);

/** The text's code units (valid until this module's next call). */
const codeUnits = codeUnitReader();

/** Do the two digits at `p` read "19" or "20"? */
function startsLikeYear(units: Uint16Array, p: number): boolean {
  const d0 = units[p]!;
  const d1 = units[p + 1]!;
  return (d0 === DIGIT_1 && d1 === DIGIT_9) || (d0 === DIGIT_2 && d1 === DIGIT_0);
}

/** A phone number has at least this many digits. */
const PHONE_MIN_DIGITS = 7;

const CHUNK_RES = new Map<number, RegExp>();

/**
 * The start of every chunk with at least as many digits as the shortest rule (or phone) accepts: a digit
 * not preceded by an ASCII word char, followed by more digits each after 0-3 separator chars. A chunk
 * with fewer digits yields nothing; no match starts inside a chunk that does not match at its own start
 * (the digits reachable from a later position are reachable from the start too). Runs in linear time: the
 * separators and digits are disjoint classes, so each repetition has one way to match.
 */
function chunkStartRe(table: RuleTable): RegExp {
  const min = Math.min(PHONE_MIN_DIGITS, table.minDigits);
  let re = CHUNK_RES.get(min);
  if (!re) {
    re = new RegExp(`(?<![A-Za-z0-9_])[0-9](?:[ \\-./()\u00a0]{0,3}[0-9]){${min - 1}}`, "g");
    CHUNK_RES.set(min, re);
  }
  return re;
}

/** Does separator `s` continue the run of window separators `inner` (or, for a one-group window, a date-like run)? */
function continuesRun(s: number, inner: number): boolean {
  return inner ? s === inner : isDateSep(s);
}

/** The group arrays, reused by the next call (typed arrays this size live outside the heap: costly per call). */
const groupArrays = { gs: new Int32Array(32), ge: new Int32Array(32), sep: new Int32Array(32) };

/**
 * One detectNumeric() call. A numeric chunk is a run of digit groups joined by 1-3 separator chars; its
 * groups live in reused typed arrays (no allocation per digit run), and a Candidate (strings) is only
 * built for windows that a rule or the phone check can still accept.
 */
class NumericScan {
  readonly text: string;
  /** the text's UTF-16 code units (see code-units.ts) */
  readonly units: Uint16Array;
  readonly tc: TextContext;
  readonly table: RuleTable;
  readonly minScore: number;
  readonly found: Finding[] = [];
  readonly budget: { calls: number };
  /** only in a short text can a value be "standalone" (isStandalone) */
  readonly short: boolean;
  /** finds the chunks with enough digits for a rule or a phone number */
  readonly chunkRe: RegExp;
  private lowerText: string | undefined;
  // the current chunk: group g spans [gs[g], ge[g]); sep[g] is the code of the separator after it
  private gs = groupArrays.gs;
  private ge = groupArrays.ge;
  private sep = groupArrays.sep;
  private count = 0;
  private chunkStart = 0;
  /** a '+' precedes the first group (the chunk starts with "+" or "(+") */
  private plusPrefix = false;
  /** a word char touches the last group on the right */
  private glued = false;
  /** the last phoneValidity() question, when it was about an international number ("" otherwise), and its answer */
  private lastIntl = "";
  private lastIntlValidity = 0;

  constructor(tc: TextContext, table: RuleTable, minScore: number) {
    this.text = tc.text;
    this.units = codeUnits(tc.text);
    this.tc = tc;
    this.table = table;
    this.minScore = minScore;
    this.budget = { calls: PHONE_CALL_BASE + Math.floor(tc.text.length / 512) };
    this.short = tc.text.length <= 64;
    this.chunkRe = chunkStartRe(table);
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
        i = this.readChunk(i);
        this.phoneOfChunk();
        this.windows();
      }
      re.lastIndex = i;
    }
  }

  /** A phone cue before `start`, or "number" that does not name another identifier ("license number"). */
  private phoneCue(start: number): boolean {
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
    const found = asciiCues(this.units, m, lo, start, want);
    if (found >= 0) return found;
    this.lowerText ??= this.tc.lower;
    return cuesIn(this.lowerText, m, lo, start, want);
  }

  /** Reads the chunk whose first digit is at `i` into the group arrays; returns the end of its last group. */
  private readChunk(i: number): number {
    const { text, units } = this;
    const n = text.length;
    // include "+" / "(" / "(+" prefixes
    const p = i > 0 ? units[i - 1]! : 0;
    let chunkStart = i;
    if (p === PLUS || p === OPEN_PAREN) {
      chunkStart = i - 1;
      if (p === PLUS && chunkStart > 0 && units[chunkStart - 1]! === OPEN_PAREN) chunkStart--;
    }
    this.chunkStart = chunkStart;
    this.plusPrefix = p === PLUS;
    let g = 0;
    let j = i;
    for (;;) {
      if (g === this.gs.length) this.grow();
      this.gs[g] = j;
      while (j < n && isAsciiDigit(units[j]!)) j++;
      this.ge[g] = j;
      g++;
      // separator of 1..3 chars (at most two spaces) followed by a digit
      let k = j;
      let spaces = 0;
      let code = 0;
      for (let mul = 1; k < n && k - j < 3; mul *= 8) {
        const c = units[k]!;
        const s = c <= 0xa0 ? SEP_CODE[c]! : 0;
        if (s === 0) break;
        if (s === SPACE) spaces++;
        code += s * mul;
        k++;
      }
      if (k > j && k < n && isAsciiDigit(units[k]!) && spaces <= 2) {
        this.sep[g - 1] = code;
        j = k;
        continue;
      }
      break;
    }
    this.count = g;
    this.glued = j < n && isWord(units[j]!);
    return j;
  }

  private grow(): void {
    const size = this.gs.length * 2;
    for (const k of ["gs", "ge", "sep"] as const) {
      const a = new Int32Array(size);
      a.set(this[k]);
      this[k] = groupArrays[k] = a;
    }
  }

  /** Where a candidate of groups a.. starts: with the chunk's "+"/"(" prefix, or an opening parenthesis. */
  private startOf(a: number): number {
    const gsa = this.gs[a]!;
    if (a === 0) return this.chunkStart;
    return this.units[gsa - 1]! === OPEN_PAREN ? gsa - 1 : gsa;
  }

  /** Where a candidate ending with group b ends: a closing parenthesis belongs to it only if it opened one. */
  private endOf(start: number, b: number): number {
    const { text, units } = this;
    const end = this.ge[b]!;
    if (end >= text.length || units[end]! !== 41) return end;
    let open = false;
    for (let p = start; p < end; p++) {
      const c = units[p]!;
      if (c === CLOSE_PAREN) return end;
      if (c === OPEN_PAREN) open = true;
    }
    return open ? end + 1 : end;
  }

  /** The `k`-th digit (char code) of the concatenated groups a..; k is within them. */
  private digitAt(a: number, k: number): number {
    let g = a;
    for (let len = this.ge[g]! - this.gs[g]!; k >= len; len = this.ge[g]! - this.gs[g]!) {
      k -= len;
      g++;
    }
    return this.units[this.gs[g]! + k]!;
  }

  /** A "+"/"00" international prefix: a '+' before the first group, or leading "00" on more than 9 digits. */
  private hasPlus(a: number, nd: number): boolean {
    if (a === 0 && this.plusPrefix) return true;
    return nd > 9 && this.ge[a]! - this.gs[a]! <= 4 && this.digitAt(a, 0) === DIGIT_0 && this.digitAt(a, 1) === DIGIT_0;
  }

  private allSameDigit(a: number, b: number): boolean {
    const units = this.units;
    const d0 = units[this.gs[a]!]!;
    for (let g = a; g <= b; g++) for (let p = this.gs[g]!; p < this.ge[g]!; p++) if (units[p]! !== d0) return false;
    return true;
  }

  /** The candidate of groups a..b, which spans [start, end) (startOf(a), endOf(start, b)). */
  private makeCandidate(a: number, b: number, start: number, end: number): Candidate {
    const { text, gs, ge } = this;
    let digits = "";
    const lens: number[] = [];
    const seps: string[] = [];
    for (let g = a; g <= b; g++) {
      digits += text.slice(gs[g]!, ge[g]!);
      lens.push(ge[g]! - gs[g]!);
      if (g < b) seps.push(text.slice(ge[g]!, gs[g + 1]!));
    }
    const plusSign = a === 0 && this.plusPrefix;
    const plus = this.hasPlus(a, digits.length);
    const gluedRight = b === this.count - 1 && this.glued;
    return { start, end, digits, groups: lens, seps, plus, plusSign, gluedRight, raw: text.slice(start, end) };
  }

  /** Phone: the whole chunk, or what follows a space when the chunk is "<zip> <phone>"-like. */
  private phoneOfChunk(): void {
    const { gs, ge, sep } = this;
    const count = this.count;
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
    // 7-15 digits in at most 7 groups
    if (total >= 7 && total <= 15 && count - first <= 7) this.phone(first, count - 1, total);
  }

  /** A phone number made of groups a..b (nd digits), if plausible and, where needed, valid per libphonenumber. */
  private phone(a: number, b: number, nd: number): void {
    const { text, units, gs, ge, sep } = this;
    const ng = b - a + 1;
    const start = this.startOf(a);
    // the finding may extend past the number's raw text by an extension
    let rawEnd: number;
    let end: number;
    if (this.glued) {
      // only an extension may touch the number ("x565", "ext. 12")
      rawEnd = ge[b]!;
      PHONE_EXT.lastIndex = rawEnd;
      const m = PHONE_EXT.exec(text);
      if (!m || (rawEnd + m[0].length < text.length && isWord(units[rawEnd + m[0].length]!))) return;
      end = rawEnd + m[0].length;
    } else {
      rawEnd = end = this.endOf(start, b);
    }
    const plus = this.hasPlus(a, nd);
    // groups after the first have 2+ digits, except a "(0)" trunk prefix after a '+' ("+41 (0)71 …") and
    // a one-digit area or mobile prefix right after the country code ("+31 6 12345678", "+377 6 12 34 56 78"),
    // which then must be a valid number, not only a possible one
    let trunk: boolean | undefined;
    let shortPrefix = false;
    for (let g = a + 1; g <= b; g++) {
      if (ge[g]! - gs[g]! >= 2) continue;
      if (plus && g === a + 1 && this.plusPrefix && a === 0) {
        shortPrefix = true;
        continue;
      }
      trunk ??= plus && text.slice(start, rawEnd).includes("(0)");
      if (!(trunk && ge[g]! - gs[g]! === 1)) return;
    }
    if (ng >= 3 && isDateSep(sep[a]!) && isDateSep(sep[a + 1]!) && dateLengths(ge[a]! - gs[a]!, ge[a + 1]! - gs[a + 1]!, ge[a + 2]! - gs[a + 2]!)) return;
    if (ng >= 3) {
      // "1.2.3.4"-like dotted short groups (versions, addresses)
      let dotted = true;
      for (let g = a; g <= b && dotted; g++) dotted = ge[g]! - gs[g]! <= 3 && (g === b || sep[g] === DOT);
      if (dotted) return;
    }
    if (this.allSameDigit(a, b)) return;
    const standalone = isStandalone(text, start, end);
    const formatted = ng >= 2 || units[start]! === OPEN_PAREN;
    let ctx: boolean;
    let base = 0;
    if (plus) {
      const v = this.internationalValidity(start, rawEnd);
      if (shortPrefix && v !== 2) return;
      if (v === 2) base = 0.75;
      else if (v === 1) base = 0.6;
      else if (v < 0) base = 0.45; // budget spent: shape only
      else return;
      // the context only raises the score of an international number: read once the number is kept
      ctx = this.phoneCue(start);
    } else {
      ctx = this.phoneCue(start);
      // cheapest bounds first: without a '+' prefix, context or a bare value, only a formatted number of
      // national length that does not start like a year ("2024-118") can reach the threshold
      if (!ctx && !standalone) {
        if (!formatted || nd < 9) return;
        if (ng >= 2 && ge[a]! - gs[a]! === 4 && sep[a] === DASH && startsLikeYear(units, gs[a]!)) return;
      }
      if (!formatted && nd > 12) return;
      const raw = text.slice(start, rawEnd);
      let spent = false;
      for (const r of this.regionsFor(a, ng, nd, raw, ctx)) {
        this.lastIntl = "";
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
      // a formatted number right after a phone cue ("Phone: 60-56-85-91") even when no region validates it
      // (or an unformatted one of 7-12 digits: "call me on 71239376")
      if (base === 0 && ((spent && formatted) || (ctx && (formatted || (nd >= 7 && nd <= 12))))) base = 0.45;
      if (base === 0) return;
    }
    const s = clamp01(ctx ? base + 0.3 : standalone ? base + 0.25 : base);
    if (s >= this.minScore) this.found.push({ type: "PHONE_NUMBER", start, end, score: s });
  }

  /**
   * phoneValidity() of the international number text[start, end). The same number as the scan's
   * previous question (repeated numbers in logs) gets the same answer without building strings: no
   * call came between, so the memo and the budget are as they were.
   */
  private internationalValidity(start: number, end: number): number {
    const last = this.lastIntl;
    if (last.length === end - start && last.length > 0 && this.text.startsWith(last, start)) return this.lastIntlValidity;
    const raw = this.text.slice(start, end);
    this.lastIntlValidity = phoneValidity(internationalForm(raw), undefined, this.budget);
    this.lastIntl = raw;
    return this.lastIntlValidity;
  }

  /** Regions worth trying for a national-format number, most likely first (few calls per candidate). */
  private regionsFor(a: number, ng: number, nd: number, raw: string, ctx: boolean): CountryCode[] {
    const d0 = this.units[this.gs[a]!]!;
    const len = (g: number) => this.ge[g]! - this.gs[g]!;
    if (nd === 10 && d0 !== DIGIT_0 && d0 !== DIGIT_1 && (raw.startsWith("(") || (ng === 3 && len(a) === 3 && len(a + 1) === 3))) return NANP;
    if (d0 === DIGIT_0) return ctx ? [...TRUNK_ZERO, ...TRUNK_ZERO_MORE] : TRUNK_ZERO;
    return NO_TRUNK;
  }

  /** Is the window [a, b] part of a longer run of groups joined by the same separator (e.g. the first 12 digits of "4567-8901-2345-6789")? */
  private isFragment(a: number, b: number): boolean {
    const inner = b > a ? this.sep[a]! : 0;
    return (a > 0 && continuesRun(this.sep[a - 1]!, inner)) || (b < this.count - 1 && continuesRun(this.sep[b]!, inner));
  }

  /** Every rule over every window of at most MAX_GROUPS groups and MAX_DIGITS digits. */
  private windows(): void {
    const { gs, ge, sep } = this;
    const count = this.count;
    const long = count > 8;
    // a window that starts at a '+' is a phone number or nothing
    for (let a = this.plusPrefix ? 1 : 0; a < count; a++) {
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
        if ((b === count - 1 && this.glued) || (!long && this.isFragment(a, b))) continue;
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
    const start = this.startOf(a);
    const end = this.endOf(start, b);
    let c: Candidate | undefined;
    for (const r of rules) {
      let ctx: boolean | undefined;
      if (r.needsContext && !(ctx = this.cue(r.context, start) || cueAfter(text, this.units, r.context, end))) continue;
      c ??= this.makeCandidate(a, b, start, end);
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

/**
 * Numeric-chunk detector: all rules over all bounded candidates; per type the best non-overlapping spans.
 * With `minScore`, findings that cannot reach it are not produced.
 */
export function detectNumeric(text: string, rules: readonly Rule[] = NUMERIC_RULES, shared?: TextContext, minScore = 0): Finding[] {
  const tc = textContext(text, shared);
  if (!tc.hasDigit) return [];
  const scan = new NumericScan(tc, rules === NUMERIC_RULES ? DEFAULT_TABLE : ruleTable(rules), minScore);
  scan.run();
  return bestPerType(scan.found, text.length);
}

/** Per type: keep the best (highest score, then longest) non-overlapping spans. O(k log k + total span length). */
export function bestPerType(fs: Finding[], textLength: number): Finding[] {
  if (fs.length <= 1) return fs.slice();
  const byType = new Map<string, Finding[]>();
  for (const f of fs) {
    const arr = byType.get(f.type);
    if (arr) arr.push(f);
    else byType.set(f.type, [f]);
  }
  const out: Finding[] = [];
  let occ: Uint8Array | undefined;
  for (const arr of byType.values()) {
    arr.sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
    // few spans: compare with the kept ones; many: mark the kept positions (linear in their total length)
    const kept = arr.length <= 16 ? keepDisjointFew(arr) : keepDisjoint(arr, (occ ??= new Uint8Array(textLength + 1)));
    out.push(...kept);
  }
  return out.sort((a, b) => a.start - b.start);
}

function keepDisjointFew(arr: readonly Finding[]): Finding[] {
  const kept: Finding[] = [];
  for (const f of arr) if (!kept.some((k) => k.start < f.end && f.start < k.end)) kept.push(f);
  return kept;
}

/** `occ` is all zero on entry and on return. */
function keepDisjoint(arr: readonly Finding[], occ: Uint8Array): Finding[] {
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
  return kept;
}
