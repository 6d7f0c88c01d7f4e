// Numeric identifiers found in "numeric chunks": runs of digit groups joined by short separators.
// One linear scan builds the chunks; every candidate is a window of at most MAX_GROUPS groups and
// MAX_DIGITS digits, so the total work is O(n * MAX_GROUPS).

import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import type { CountryCode } from "libphonenumber-js/max";
import { iso7064Mod11_10, luhn, validDate, verhoeff, weightedSum } from "./checksums.ts";
import { clamp01, hasContext, isAsciiDigit, isStandalone, isWordChar } from "./context.ts";
import type { Finding } from "./types.ts";

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
  if (!plus && digits.startsWith("00") && digits.length > 9 && lens[0]! <= 4) plus = true;
  const gluedRight = end < text.length && isWordChar(text.charCodeAt(end));
  if (end < text.length && text[end] === ")" && text.slice(start, end).includes("(") && !text.slice(start, end).includes(")")) end++;
  return { start, end, digits, groups: lens, seps, plus, gluedRight, raw: text.slice(start, end) };
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

interface Rule {
  type: string;
  /** returns a base score (>0) when the candidate is acceptable, else 0 */
  check: (c: Candidate) => number;
  context: readonly string[];
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

const PHONE_REGIONS: CountryCode[] = ["US", "GB", "DE", "FR", "IN", "BR", "IT", "ES", "AU", "IL", "TR", "PH", "NL", "BE"];

const PHONE_CONTEXT = [
  "phone",
  "mobile",
  "tel",
  "call",
  "fax",
  "cell",
  "contact",
  "number",
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
    check: (c) => {
      const n = c.digits.length;
      if (n < 12 || n > 19 || !cardPrefixOk(c.digits) || allSame(c.digits)) return 0;
      if (!uniformSeps(c, " -")) return 0;
      if (c.groups.length > 1 && !(c.groups.slice(0, -1).every((g) => g === 4) || groupsAre(c, [4, 6, 5], [4, 6, 4]))) return 0;
      if (!luhn(c.digits)) return 0;
      return n >= 15 ? 0.6 : 0.45;
    },
    context: ["card", "credit", "debit", "visa", "mastercard", "amex", "cc ", "cc#", "cc:", "cc=", "kreditkarte", "tarjeta", "carte", "payment", "pan"],
    boost: 0.35,
  },
  {
    type: "US_SSN",
    check: (c) => {
      if (c.digits.length !== 9 || !groupsAre(c, [3, 2, 4]) || !uniformSeps(c, "- .")) return 0;
      if (!ssnParts(c.digits)) return 0;
      return c.groups.length === 3 ? 0.5 : 0.3;
    },
    context: ["ssn", "social security", "social sec", "ss#", "ss #", "ssa"],
    boost: 0.4,
  },
  {
    type: "US_ITIN",
    check: (c) => (c.digits.length === 9 && groupsAre(c, [3, 2, 4]) && uniformSeps(c, "- ") && itinOk(c.digits) ? (c.groups.length === 3 ? 0.5 : 0.3) : 0),
    context: ["itin", "taxpayer", "tax id", "individual taxpayer"],
    boost: 0.4,
  },
  {
    type: "UK_NHS",
    check: (c) => (groupsAre(c, [3, 3, 4]) && uniformSeps(c, "- ") && nhsOk(c.digits) ? 0.5 : 0),
    context: ["nhs", "national health", "health service", "patient"],
    boost: 0.4,
  },
  {
    type: "CA_SIN",
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, "- ") && sinOk(c.digits) ? (c.groups.length === 3 ? 0.45 : 0.3) : 0),
    context: ["sin", "social insurance", "nas", "numéro d'assurance sociale", "assurance sociale"],
    boost: 0.4,
  },
  {
    type: "ABA_ROUTING_NUMBER",
    check: (c) => (groupsAre(c, [4, 4, 1]) && uniformSeps(c, "-") && abaOk(c.digits) ? 0.4 : 0),
    context: ["routing", "aba", "rtn", "bank"],
    boost: 0.45,
  },
  {
    type: "AU_ABN",
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, " ") && abnOk(c.digits) ? 0.45 : 0),
    context: ["abn", "australian business number", "business number"],
    boost: 0.45,
  },
  {
    type: "AU_ACN",
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, " ") && acnOk(c.digits) ? 0.4 : 0),
    context: ["acn", "australian company number", "company number"],
    boost: 0.45,
  },
  {
    type: "AU_TFN",
    check: (c) => (groupsAre(c, [3, 3, 3]) && uniformSeps(c, " ") && tfnOk(c.digits) ? 0.4 : 0),
    context: ["tfn", "tax file number", "tax file"],
    boost: 0.45,
  },
  {
    type: "AU_MEDICARE",
    check: (c) => (groupsAre(c, [4, 5, 1], [4, 5, 1, 1]) && uniformSeps(c, " ") && medicareOk(c.digits) ? 0.4 : 0),
    context: ["medicare"],
    boost: 0.45,
  },
  {
    type: "US_NPI",
    check: (c) => (groupsAre(c, [4, 3, 3], [3, 3, 4]) && uniformSeps(c, " -") && npiOk(c.digits) ? 0.4 : 0),
    context: ["npi", "national provider", "provider identifier", "provider id", "provider"],
    boost: 0.45,
  },
  {
    type: "IN_AADHAAR",
    check: (c) => (groupsAre(c, [4, 4, 4]) && uniformSeps(c, " -") && aadhaarOk(c.digits) ? 0.5 : 0),
    context: ["aadhaar", "aadhar", "uidai", "uid"],
    boost: 0.4,
  },
  {
    type: "TR_NATIONAL_ID",
    check: (c) => (c.groups.length === 1 && trIdOk(c.digits) ? 0.45 : 0),
    context: ["kimlik", "tc no", "t.c.", "tckn", "turkish id", "turkish national", "national id", "citizen"],
    boost: 0.45,
  },
  {
    type: "PL_PESEL",
    check: (c) => (c.groups.length === 1 && peselOk(c.digits) ? 0.45 : 0),
    context: ["pesel", "numer ewidencyjny", "national id", "id number"],
    boost: 0.45,
  },
  {
    type: "KR_RRN",
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, "-") && krRrnOk(c.digits, false) ? 0.5 : 0),
    context: ["rrn", "resident registration", "주민등록번호", "주민번호"],
    boost: 0.4,
  },
  {
    type: "KR_FRN",
    check: (c) => (groupsAre(c, [6, 7]) && uniformSeps(c, "-") && krRrnOk(c.digits, true) ? 0.5 : 0),
    context: ["frn", "foreigner registration", "foreign registration", "외국인등록번호"],
    boost: 0.4,
  },
  {
    type: "KR_BRN",
    check: (c) => (groupsAre(c, [3, 2, 5]) && uniformSeps(c, "-") && krBrnOk(c.digits) ? 0.45 : 0),
    context: ["brn", "business registration", "사업자등록번호", "사업자"],
    boost: 0.45,
  },
  {
    type: "KR_DRIVER_LICENSE",
    check: (c) => {
      if (c.digits.length !== 12 || !groupsAre(c, [2, 2, 6, 2]) || !uniformSeps(c, "-")) return 0;
      const region = Number(c.digits.slice(0, 2));
      return region >= 11 && region <= 28 ? 0.4 : 0;
    },
    context: ["driver", "license", "licence", "운전면허"],
    boost: 0.45,
  },
  {
    type: "TH_TNIN",
    check: (c) => (groupsAre(c, [1, 4, 5, 2, 1]) && uniformSeps(c, " -") && thTninOk(c.digits) ? 0.45 : 0),
    context: ["tnin", "thai id", "thai national", "national id", "บัตรประชาชน", "id card"],
    boost: 0.45,
  },
  {
    type: "ZA_ID_NUMBER",
    check: (c) => (groupsAre(c, [6, 4, 3], [6, 4, 1, 1, 1]) && uniformSeps(c, " -") && zaIdOk(c.digits) ? 0.45 : 0),
    context: ["id number", "identity number", "south african id", "national id", "sa id", "permanent resident", "id no", "identity document"],
    boost: 0.45,
  },
  {
    type: "SE_PERSONNUMMER",
    check: (c) => ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, "-+")) || c.groups.length === 1) && sePnrOk(c.digits) ? 0.45 : 0,
    context: ["personnummer", "pnr", "personal identity", "person number", "personal number", "identity code"],
    boost: 0.45,
  },
  {
    type: "SE_ORGANISATIONSNUMMER",
    check: (c) => ((groupsAre(c, [6, 4], [8, 4]) && uniformSeps(c, "-")) || c.groups.length === 1) && seOrgOk(c.digits) ? 0.45 : 0,
    context: ["organisationsnummer", "org.nr", "orgnr", "organisation number", "organization number", "company identity", "company id"],
    boost: 0.45,
  },
  {
    type: "IT_VAT_CODE",
    check: (c) => (c.groups.length === 1 && itVatOk(c.digits) ? 0.45 : 0),
    context: ["partita iva", "p.iva", "piva", "vat", "iva"],
    boost: 0.45,
  },
  {
    type: "DE_TAX_ID",
    check: (c) => (groupsAre(c, [2, 3, 3, 3]) && uniformSeps(c, " ") && deTaxIdOk(c.digits) ? 0.45 : 0),
    context: ["steuer-id", "steuerid", "steueridentifikationsnummer", "idnr", "identifikationsnummer", "tax id", "tin"],
    boost: 0.45,
  },
  {
    type: "DE_LANR",
    check: (c) => (c.groups.length === 1 && lanrOk(c.digits) && !allSame(c.digits.slice(0, 6)) ? 0.4 : 0),
    context: ["lanr", "arztnummer", "lebenslange arztnummer"],
    boost: 0.45,
  },
  {
    type: "BR_CPF",
    check: (c) => ((groupsAre(c, [3, 3, 3, 2]) && c.seps.length === 3 && c.seps[0] === "." && c.seps[1] === "." && c.seps[2] === "-") || c.groups.length === 1) && cpfOk(c.digits) ? 0.45 : 0,
    context: ["cpf", "cadastro de pessoas"],
    boost: 0.45,
  },
  {
    type: "PH_TIN",
    check: (c) => (c.groups.length >= 3 && groupsAre(c, [3, 3, 3], [3, 3, 3, 3], [3, 3, 3, 5]) && uniformSeps(c, "-") ? 0.35 : 0),
    context: ["tin", "tax identification", "bir"],
    boost: 0.45,
  },
  {
    type: "US_BANK_NUMBER",
    check: (c) => (c.groups.length === 1 && c.digits.length >= 8 && c.digits.length <= 17 ? 0.05 : 0),
    context: ["bank account", "account number", "account no", "acct", "checking account", "savings account"],
    boost: 0.6,
    needsContext: true,
  },
  {
    type: "US_DRIVER_LICENSE",
    check: (c) => (c.digits.length >= 7 && c.digits.length <= 13 && c.groups.length <= 3 ? 0.05 : 0),
    context: ["driver license", "driver's license", "drivers license", "driver licence", "driving license", "driver's licence", "dl#", "dl #", "dl number", "license number", "licence number"],
    boost: 0.6,
    needsContext: true,
  },
  {
    type: "DE_PLZ",
    check: (c) => (c.groups.length === 1 && c.digits.length === 5 && c.digits !== "00000" && c.digits !== "99999" ? 0.05 : 0),
    context: ["plz", "postleitzahl"],
    boost: 0.6,
    needsContext: true,
  },
];

const PHONE_EXT = /^\s?(?:x|ext\.?|extension)\s?\d{1,5}/i;

/** libphonenumber costs ~10-50 µs a call: at most this many calls per text (plus one per 256 chars). */
const PHONE_CALL_BASE = 32;

function phoneFinding(text: string, c: Candidate, end: number, budget: { calls: number }): Finding | null {
  const nd = c.digits.length;
  if (nd < 7 || nd > 15) return null;
  if (c.groups.length > 7) return null;
  for (let g = 1; g < c.groups.length; g++) if (c.groups[g]! < 2) return null;
  if (looksLikeDate(c) || (c.groups.length > 3 && looksLikeDate({ ...c, groups: c.groups.slice(0, 3), seps: c.seps.slice(0, 2) }))) return null;
  if (c.seps.length >= 2 && c.seps.every((s) => s === ".") && c.groups.every((g) => g <= 3)) return null;
  if (allSame(c.digits)) return null;
  const ctx = hasContext(text, c.start, end, PHONE_CONTEXT, 40);
  const standalone = isStandalone(text, c.start, end);
  const formatted = c.groups.length >= 2 || c.raw.startsWith("(");
  // cheapest bound first: an unformatted digit run needs context (or a bare value) to reach the threshold
  if (!c.plus && !formatted && !ctx && !standalone) return null;
  let base = 0;
  if (budget.calls <= 0) {
    // budget spent (a text made of thousands of phone-like runs): shape-only, weaker score
    base = c.plus || formatted ? 0.45 : 0;
    if (base === 0) return null;
  } else if (c.plus) {
    budget.calls--;
    const p = parsePhoneNumberFromString(c.raw.replace(/^\(\+/, "+").replace(/^00/, "+").replace(/\)$/, ""));
    if (!p) return null;
    if (p.isValid()) base = 0.75;
    else if (p.isPossible()) base = 0.6;
    else return null;
  } else {
    if (!formatted && nd > 12) return null;
    for (const r of PHONE_REGIONS) {
      if (budget.calls-- <= 0) break;
      const p = parsePhoneNumberFromString(c.raw, r);
      if (p?.isValid()) {
        base = formatted ? 0.55 : 0.4;
        break;
      }
    }
    if (base === 0) return null;
  }
  const s = ctx ? base + 0.3 : standalone ? base + 0.25 : base;
  return { type: "PHONE_NUMBER", start: c.start, end, score: clamp01(s) };
}

/** Numeric-chunk detector: all rules over all bounded candidates; per type the best non-overlapping spans. */
export function detectNumeric(text: string, rules: readonly Rule[] = NUMERIC_RULES): Finding[] {
  const raw: Finding[] = [];
  const budget = { calls: PHONE_CALL_BASE + Math.floor(text.length / 256) };
  scanChunks(text, (groups, chunkStart) => {
    // phone: the whole chunk only (bounded number of libphonenumber calls per chunk)
    let total = 0;
    for (const g of groups) total += g.end - g.start;
    if (total <= 15 && groups.length <= 7) {
      const c = makeCandidate(text, groups, 0, groups.length - 1, chunkStart);
      if (c) {
        let end = c.end;
        let ok = true;
        if (c.gluedRight) {
          const m = PHONE_EXT.exec(text.slice(c.end, c.end + 16));
          if (m && (end + m[0].length >= text.length || !isWordChar(text.charCodeAt(end + m[0].length)))) end += m[0].length;
          else ok = false;
        }
        if (ok) {
          const f = phoneFinding(text, c, end, budget);
          if (f) raw.push(f);
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
        if (digits < 5) continue;
        const c = makeCandidate(text, groups, a, b, chunkStart);
        if (!c || c.gluedRight) continue;
        // a candidate must not be preceded by a group separated by a single '-' or '.' (a longer number)
        for (const r of rules) {
          let s = r.check(c);
          if (s <= 0) continue;
          const ctx = hasContext(text, c.start, c.end, r.context, 40);
          if (r.needsContext && !ctx) continue;
          if (ctx) s += r.boost ?? 0.35;
          else if (isStandalone(text, c.start, c.end)) s += 0.25;
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

