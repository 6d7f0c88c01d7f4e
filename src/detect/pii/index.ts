// Structured PII found by anchors and bounded patterns: e-mail, URL, IP, MAC, crypto wallets, IBAN and
// alphanumeric national identifiers. Every regex starts with a negative look-behind on word characters
// (so a run of word characters is entered once) and has bounded quantifiers only. A leading look-behind
// keeps V8 from scanning fast for a first character, so the IP, MAC and national-id regexes are sticky
// and only tried where a match can start (found with indexOf or a cheaper scan).

import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import * as checksumsModule from '../text/checksums.ts';
import * as contextModule from '../text/context.ts';
import * as charsModule from '../text/chars.ts';
import type { KeywordList, TextContext } from '../text/context.ts';
import * as tokenScan from './token-scan.ts';
import type { TokenRule } from './token-scan.ts';
import type { Finding } from '../types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { base58Decode, bech32Verify, mod97Step } = checksumsModule;
const { clamp01, hasContext, isStandalone, keywordList, textContext } = contextModule;
const {
  asciiSet,
  COLON,
  DOT,
  HYPHEN,
  isAsciiAlnum,
  isAsciiDigit,
  isAsciiLetter,
  isAsciiUpper,
  isHexDigit,
  PERCENT,
  SPACE,
  UNDERSCORE,
} = charsModule;
const { scanTokenRules } = tokenScan;

/**
 * Does a keyword of the list lie within the 48 characters before `start`? From the shared analysis when
 * there is one (its keyword pass runs once per text anyway), else read off that window (so that a
 * detector run on its own needs no keyword pass over the whole text).
 */
function contextBefore(
  text: string,
  list: KeywordList,
  start: number,
  end: number,
  shared: TextContext | undefined,
): boolean {
  return shared?.text === text ? shared.has(list, start, end) : hasContext(text, start, end, list.words);
}

// ---------------------------------------------------------------- e-mail

const LOCAL_PUNCT = asciiSet('._%+-');

function isLocalChar(c: number): boolean {
  return isAsciiAlnum(c) || LOCAL_PUNCT.has(c);
}

function isDomainChar(c: number): boolean {
  return isAsciiAlnum(c) || c === DOT || c === HYPHEN;
}

function isDotOrDash(c: number): boolean {
  return c === DOT || c === HYPHEN;
}

/** Anchored on '@': expansions stop at the previous/next '@', so the total work is O(n). */
export function detectEmail(text: string): Finding[] {
  const out: Finding[] = [];
  let at = text.indexOf('@');
  while (at !== -1) {
    let s = at;
    while (s > 0 && at - s < 64 && isLocalChar(text.charCodeAt(s - 1))) s--;
    let e = at + 1;
    while (e < text.length && e - at < 254 && isDomainChar(text.charCodeAt(e))) e++;
    const next = text.indexOf('@', at + 1);
    // trim
    while (s < at && isDotOrDash(text.charCodeAt(s))) s++;
    while (e > at + 1 && isDotOrDash(text.charCodeAt(e - 1))) e--;
    const before = text.charCodeAt(s - 1);
    const tooLong = (s > 0 && isLocalChar(before) && !isDotOrDash(before)) || (e < text.length && e - at >= 254);
    if (!tooLong && s < at && e > at + 3 && validEmailParts(text, s, at, e))
      out.push({ type: 'EMAIL_ADDRESS', start: s, end: e, score: 0.95 });
    at = next;
  }
  return out;
}

/**
 * The local part [s, at) and the domain (at, e) (letters, digits, '.' and '-' only) are well formed: no
 * ".." in the local part, 2 labels or more of 1-63 characters not starting or ending with '-', and a
 * top-level label of 2-24 letters or an "xn--" one.
 */
function validEmailParts(text: string, s: number, at: number, e: number): boolean {
  if (at - s > 64) return false;
  for (let i = s + 1; i < at; i++) if (text.charCodeAt(i) === DOT && text.charCodeAt(i - 1) === DOT) return false;
  let labels = 0;
  let label = at + 1;
  for (let i = at + 1; i <= e; i++) {
    if (i < e && text.charCodeAt(i) !== 46) continue;
    const len = i - label;
    if (len === 0 || len > 63 || text.charCodeAt(label) === HYPHEN || text.charCodeAt(i - 1) === HYPHEN) return false;
    labels++;
    if (i < e) label = i + 1;
  }
  return labels >= 2 && isTopLevelLabel(text, label, e);
}

function isTopLevelLabel(text: string, s: number, e: number): boolean {
  if (text.startsWith('xn--', s)) return e - s >= 5;
  if (e - s < 2 || e - s > 24) return false;
  for (let i = s; i < e; i++) if (!isAsciiLetter(text.charCodeAt(i))) return false;
  return true;
}

// ---------------------------------------------------------------- URL

const COMMON_TLDS =
  'com|org|net|edu|gov|mil|int|info|biz|name|pro|io|ai|app|dev|co|me|tv|cloud|online|site|store|tech|xyz|shop|blog|news|' +
  'us|uk|de|fr|es|it|nl|be|at|ch|se|no|dk|fi|pl|cz|hu|pt|ie|gr|ro|bg|hr|si|sk|lt|lv|ee|ru|ua|tr|il|in|jp|cn|kr|au|nz|ca|br|mx|ar|cl|za|eu|is|lu|gl|cy';
const TLD_RE = new RegExp(`\\.(?:${COMMON_TLDS})(?![\\w@-]|\\.[a-z0-9])`, 'gi');

/**
 * Start of the host labels ending at `end` (at most 4 labels of [a-z0-9-], not starting or ending with
 * '-', 63 chars each, not before `floor`), or -1 when there is none. A backward scan: O(length).
 */
function labelsStart(text: string, end: number, floor: number): number {
  let start = -1;
  let j = end;
  for (let labels = 0; labels < 4; labels++) {
    let k = j;
    while (k > floor && j - k < 63) {
      const c = text.charCodeAt(k - 1);
      if (isAsciiAlnum(c) || c === HYPHEN) k--;
      else break;
    }
    while (k < j && text.charCodeAt(k) === HYPHEN) k++; // a label does not start with '-'
    if (k === j || text.charCodeAt(j - 1) === HYPHEN) break;
    start = k;
    if (k - 1 <= floor || text.charCodeAt(k - 1) !== 46) break;
    j = k - 1;
  }
  return start;
}
const SCHEME_RE = /(?<![A-Za-z0-9+-])(?:https?|ftp|ftps|sftp|wss?|git|ssh|s3):\/\//gi;
const WWW_RE = /(?<![\w./@-])www\.(?=[a-z0-9-]{1,63}\.)/gi;
const URL_STOP = /[\s<>"'`\][{}|\\^]/;
const PERSONAL_QUERY =
  /[?&#](?:e?mail|user(?:name)?|name|first_?name|last_?name|phone|tel|ssn|dob|birth|address|token|key|api_?key|secret|password|passwd|pwd|auth|session|sid|access_token|id_token|code)=/i;

function urlEnd(text: string, from: number): number {
  let e = from;
  const max = Math.min(text.length, from + 2048);
  while (e < max && !URL_STOP.test(text[e]!)) e++;
  // trim trailing punctuation, unbalanced closing parentheses
  for (;;) {
    const ch = text[e - 1];
    if (ch === '.' || ch === ',' || ch === ';' || ch === ':' || ch === '!' || ch === '?' || ch === '*' || ch === "'") {
      e--;
      continue;
    }
    if (ch === ')') {
      const seg = text.slice(from, e);
      const open = seg.split('(').length - 1;
      const close = seg.split(')').length - 1;
      if (close > open) {
        e--;
        continue;
      }
    }
    break;
  }
  return e;
}

function urlScore(url: string): number {
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]{1,256}:[^/\s@]{1,256}@/i.test(url)) return 0.95; // credentials
  if (PERSONAL_QUERY.test(url)) return 0.9;
  return 0.7;
}

export function detectUrl(text: string): Finding[] {
  const out: Finding[] = [];
  if (!/:\/\/|www\./i.test(text)) return out;
  let lastEnd = -1;
  SCHEME_RE.lastIndex = 0;
  for (let m = SCHEME_RE.exec(text); m; m = SCHEME_RE.exec(text)) {
    if (m.index < lastEnd) continue;
    const hostStart = m.index + m[0].length;
    const e = urlEnd(text, hostStart);
    SCHEME_RE.lastIndex = Math.max(SCHEME_RE.lastIndex, e);
    const host = text.slice(hostStart, e).split(/[/?#]/, 1)[0] ?? '';
    // need a host with a dot (or an IP / bracketed IPv6 / localhost)
    if (
      !/^(?:[^@]{0,256}@)?(?:\[[0-9a-f:.]{2,45}\]|[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}|localhost)(?::\d{1,5})?$/i.test(
        host,
      )
    )
      continue;
    if (
      /\.(?:[a-z]{1,24})$/i.test(host.replace(/:\d+$/, '')) === false &&
      !/[\d\]]$/.test(host.replace(/:\d+$/, '')) &&
      !/localhost/i.test(host)
    )
      continue;
    out.push({ type: 'URL', start: m.index, end: e, score: urlScore(text.slice(m.index, e)) });
    lastEnd = e;
    SCHEME_RE.lastIndex = Math.max(SCHEME_RE.lastIndex, e);
  }
  WWW_RE.lastIndex = 0;
  for (let m = WWW_RE.exec(text); m; m = WWW_RE.exec(text)) {
    const e = urlEnd(text, m.index);
    if (out.some((f) => f.start <= m!.index && m!.index < f.end)) continue;
    const host = text.slice(m.index, e).split(/[/?#:]/, 1)[0] ?? '';
    if (!new RegExp(`\\.(?:${COMMON_TLDS}|[a-z]{2,24})$`, 'i').test(host) || host.split('.').length < 3) continue;
    out.push({ type: 'URL', start: m.index, end: e, score: urlScore(text.slice(m.index, e)) });
    WWW_RE.lastIndex = Math.max(WWW_RE.lastIndex, e);
  }
  out.sort((a, b) => a.start - b.start);
  return out;
}

/** Bare domain names ("microsoft.com"): weaker, separate so that callers can leave them out. */
export function detectBareDomain(text: string, taken: Finding[]): Finding[] {
  const out: Finding[] = [];
  TLD_RE.lastIndex = 0;
  let ti = 0;
  const sorted = [...taken].sort((a, b) => a.start - b.start);
  let lastEnd = -1;
  for (let m = TLD_RE.exec(text); m; m = TLD_RE.exec(text)) {
    const e = m.index + m[0].length;
    // labels before the TLD (bounded look-back of 256 chars)
    const s = labelsStart(text, m.index, Math.max(lastEnd, m.index - 256, 0));
    if (s < 0) continue;
    if (s > 0 && /[\w@.\-/:]/.test(text[s - 1]!)) continue;
    while (ti < sorted.length && sorted[ti]!.end <= s) ti++;
    if (ti < sorted.length && sorted[ti]!.start < e) continue;
    const name = text.slice(s, e);
    if (
      /^(?:os|sys|self|this|np|pd|re|json|math|console|document|window|file|obj|lib|app|main|index|setup)\./i.test(name)
    )
      continue;
    out.push({ type: 'URL', start: s, end: e, score: 0.5 });
    lastEnd = e;
  }
  return out;
}

// ---------------------------------------------------------------- IP

// sticky, like IPV6_AT: tried only where a match can start (see ipv4Matches)
const IPV4_AT =
  /(?<![\w.:])(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?![\w]|\.\d)/y;
const IPV6_AT = /(?<![\w:.%])(?=[0-9a-f]{0,4}:[0-9a-f:])[0-9a-f:.]{2,45}(?:%[\w]{1,15})?/iy;

/** Characters IPV6_AT's look-behind excludes before a match: [\w:.%]. */
function joinsIpv6(c: number): boolean {
  return isAsciiAlnum(c) || c === UNDERSCORE || c === COLON || c === DOT || c === PERCENT;
}

/** Does the run of [0-9a-fA-F:.] at `s` hold two colons within the 45 characters IPV6_AT can take? */
function twoColonsAhead(text: string, s: number): boolean {
  let colons = 0;
  for (let i = s; i < s + 45; i++) {
    const c = text.charCodeAt(i);
    if (c === COLON) {
      if (++colons === 2) return true;
    } else if (c !== 46 && !isHexDigit(c)) return false;
  }
  return false;
}

/**
 * IPV6_AT's matches that hold two colons or more (an IPv6 address does). Its look-ahead needs a colon
 * followed by a hex digit or a colon, at most 4 hex digits after the start, and its look-behind no hex
 * digit just before the start: so a match can only start where the run of hex digits before such a
 * colon starts. The look-behind also excludes every character a match holds, so no match starts inside
 * another: each start can be tried on its own.
 */
function ipv6Matches(text: string): { index: number; value: string }[] {
  const out: { index: number; value: string }[] = [];
  for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    const next = text.charCodeAt(colon + 1);
    if (next !== 58 && !isHexDigit(next)) continue;
    let s = colon;
    while (s > 0 && colon - s <= 4 && isHexDigit(text.charCodeAt(s - 1))) s--;
    if (colon - s > 4 || (s > 0 && joinsIpv6(text.charCodeAt(s - 1))) || !twoColonsAhead(text, s)) continue;
    IPV6_AT.lastIndex = s;
    const m = IPV6_AT.exec(text);
    if (m) out.push({ index: s, value: m[0] });
  }
  return out;
}

/** Four pairs of digits, and a phone label right before them: "Tlf: 32.12.34.56" is a Danish phone number. */
const PAIRS4 = /^\d\d\.\d\d\.\d\d\.\d\d$/;
const PHONE_LABEL_BEFORE =
  /(?:^|[^\p{L}])(?:tel|tél|tlf|phone|telefon|fax|mobil|gsm|puh|handy|cell)\p{L}*\.?[\s:.(-]{0,4}$/iu;

/**
 * IPV4_AT's matches: a match starts with 1-3 digits before a '.' followed by a digit, and its look-behind
 * excludes digits, '.' and ':' before the start (so, as for IPv6, no match starts inside another).
 */
function ipv4Matches(text: string): { index: number; value: string }[] {
  const out: { index: number; value: string }[] = [];
  for (let dot = text.indexOf('.'); dot >= 0; dot = text.indexOf('.', dot + 1)) {
    if (!isAsciiDigit(text.charCodeAt(dot + 1))) continue;
    let s = dot;
    while (s > 0 && dot - s <= 3 && isAsciiDigit(text.charCodeAt(s - 1))) s--;
    if (s === dot || dot - s > 3) continue;
    IPV4_AT.lastIndex = s;
    const m = IPV4_AT.exec(text);
    if (m) out.push({ index: s, value: m[0] });
  }
  return out;
}

export function detectIp(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of ipv6Matches(text)) {
    let cand = m.value;
    let zone = '';
    const pct = cand.indexOf('%');
    if (pct >= 0) {
      zone = cand.slice(pct);
      cand = cand.slice(0, pct);
    }
    while (cand.endsWith('.')) cand = cand.slice(0, -1);
    const end = m.index + cand.length + zone.length;
    const after = text.charCodeAt(end);
    if (end < text.length && (isAsciiAlnum(after) || after === UNDERSCORE)) continue;
    if (text[end] === ':' && /^:[0-9a-f]/i.test(text.slice(end, end + 2))) continue;
    if (!isIPv6(cand)) continue;
    if (!cand.includes('::') && cand.split(':').length < 8 && !cand.includes('.')) continue;
    out.push({ type: 'IP_ADDRESS', start: m.index, end, score: cand === '::' ? 0.3 : 0.8 });
  }
  // An IPv4 match starting inside an earlier finding is dropped (an IPv6 address ending in IPv4 form).
  // Findings come in order of start (the IPv6 ones, then the IPv4 ones): so the earlier findings that
  // start at or before s reach past it exactly when the largest of their ends does.
  const v6 = out.length;
  let next6 = 0;
  let reach = 0;
  for (const m of ipv4Matches(text)) {
    const s = m.index;
    while (next6 < v6 && out[next6]!.start <= s) reach = Math.max(reach, out[next6++]!.end);
    if (reach > s) continue;
    if (!isIPv4(m.value)) continue;
    if (PAIRS4.test(m.value) && PHONE_LABEL_BEFORE.test(text.slice(Math.max(0, s - 16), s))) continue;
    // version strings "v1.2.3.4" and OIDs are preceded by letters/dots (excluded by the look-behind)
    out.push({ type: 'IP_ADDRESS', start: s, end: s + m.value.length, score: 0.8 });
    reach = Math.max(reach, s + m.value.length);
  }
  return out;
}

// ---------------------------------------------------------------- MAC

// sticky: tried only where a match can start (see macStarts); the first hex digit comes before the
// look-behind (which then checks the character before it)
const MAC_AT =
  /[0-9A-Fa-f](?<![\w:.-][0-9A-Fa-f])(?:[0-9A-Fa-f]([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}|[0-9A-Fa-f]{3}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?![\w:-]|\.[0-9A-Fa-f])/y;
// the start of the colon or dash form: two hex digits, a separator, two hex digits, the same separator
const MAC_PAIRS_RE = /[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}\1/g;

const MAC_CTX = keywordList(['mac', 'hardware', 'ethernet', 'wifi', 'wi-fi', 'bssid', 'ether']);

/**
 * Sorted positions where MAC_AT can match: where MAC_PAIRS_RE matches, and 4 characters before a '.'
 * between hex digits that has another '.' 5 characters on.
 */
function macStarts(text: string): number[] {
  const starts: number[] = [];
  MAC_PAIRS_RE.lastIndex = 0;
  while (MAC_PAIRS_RE.test(text)) {
    const s = MAC_PAIRS_RE.lastIndex - 6;
    starts.push(s);
    MAC_PAIRS_RE.lastIndex = s + 1;
  }
  const pairs = starts.length;
  for (let dot = text.indexOf('.', 4); dot >= 0; dot = text.indexOf('.', dot + 1)) {
    if (
      text.charCodeAt(dot + 5) === DOT &&
      isHexDigit(text.charCodeAt(dot - 1)) &&
      isHexDigit(text.charCodeAt(dot + 1))
    )
      starts.push(dot - 4);
  }
  return starts.length > pairs ? starts.sort((a, b) => a - b) : starts;
}

export function detectMac(text: string, shared?: TextContext): Finding[] {
  const out: Finding[] = [];
  let lastEnd = 0;
  for (const s of macStarts(text)) {
    if (s < lastEnd) continue;
    MAC_AT.lastIndex = s;
    const m = MAC_AT.exec(text);
    if (!m) continue;
    const end = s + m[0].length;
    lastEnd = end;
    const hex = m[0].replace(/[:.-]/g, '').toLowerCase();
    if (hex === 'ffffffffffff' || hex === '000000000000') continue;
    const ctx = contextBefore(text, MAC_CTX, s, end, shared);
    out.push({ type: 'MAC_ADDRESS', start: s, end, score: ctx ? 0.9 : 0.6 });
  }
  return out;
}

// ---------------------------------------------------------------- crypto wallets

const BTC_B58_RE = /(?<![\w])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?![\w])/g;
const BTC_BECH_RE = /(?<![\w])(?:bc1|tb1|BC1|TB1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}(?![\w])/g;
const ETH_RE = /(?<![\w])0x[0-9a-fA-F]{40}(?![\w])/g;
const CRYPTO_CONTEXT = keywordList([
  'wallet',
  'bitcoin',
  'btc',
  'eth',
  'ethereum',
  'crypto',
  'address',
  'send to',
  'usdt',
]);

function base58CheckOk(s: string): boolean {
  const bytes = base58Decode(s);
  if (bytes?.length !== 25) return false;
  const payload = bytes.subarray(0, 21);
  const h = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest();
  for (let i = 0; i < 4; i++) if (h[i] !== bytes[21 + i]) return false;
  return payload[0] === 0x00 || payload[0] === 0x05;
}

export function detectCrypto(text: string, shared?: TextContext): Finding[] {
  const out: Finding[] = [];
  for (const re of [BTC_B58_RE, BTC_BECH_RE, ETH_RE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const v = m[0];
      let score: number;
      if (re === BTC_B58_RE) score = base58CheckOk(v) ? 0.9 : 0;
      else if (re === BTC_BECH_RE) score = bech32Verify(v) ? 0.9 : 0;
      else score = textContext(text, shared).has(CRYPTO_CONTEXT, m.index, m.index + v.length) ? 0.85 : 0.45;
      if (score > 0) out.push({ type: 'CRYPTO', start: m.index, end: m.index + v.length, score });
    }
  }
  return out;
}

// ---------------------------------------------------------------- IBAN

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IR: 26,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};
// IBAN length by country code, at (first letter - 'A') * 26 + (second letter - 'A'); 0 for no IBAN country
const IBAN_LENGTH_BY_CODE = new Uint8Array(26 * 26);
for (const [code, len] of Object.entries(IBAN_LENGTHS))
  IBAN_LENGTH_BY_CODE[(code.charCodeAt(0) - 65) * 26 + code.charCodeAt(1) - 65] = len;

// country code and check digits (exactly 4 characters: the look-ahead consumes nothing)
const IBAN_START_RE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?=[ -]?[A-Z0-9])/g;

const IBAN_CTX = keywordList(['iban', 'account', 'bank', 'transfer', 'konto', 'cuenta', 'compte']);

function isUpperOrDigit(c: number): boolean {
  return isAsciiUpper(c) || isAsciiDigit(c);
}

/**
 * End of the IBAN of `len` characters whose first four are at `start`, or -1: upper-case letters and
 * digits, grouped by single spaces or single dashes (one kind throughout), not followed by a letter or
 * digit, with a valid mod-97 check (computed on the way: the first four characters count last).
 */
function ibanEnd(text: string, start: number, len: number): number {
  let n = 4;
  let i = start + 4;
  let sep = -1;
  let rem = 0;
  while (n < len && i < text.length) {
    const c = text.charCodeAt(i);
    if (isUpperOrDigit(c)) {
      rem = mod97Step(rem, c);
      n++;
      i++;
    } else if ((c === SPACE || c === HYPHEN) && (sep === -1 || sep === c) && isUpperOrDigit(text.charCodeAt(i + 1))) {
      sep = c;
      i++;
    } else break;
  }
  if (n !== len || isAsciiAlnum(text.charCodeAt(i))) return -1;
  for (let k = start; k < start + 4; k++) rem = mod97Step(rem, text.charCodeAt(k));
  return rem === 1 ? i : -1;
}

export function detectIban(text: string, shared?: TextContext): Finding[] {
  const out: Finding[] = [];
  if (!textContext(text, shared).hasDigit) return out;
  IBAN_START_RE.lastIndex = 0;
  while (IBAN_START_RE.test(text)) {
    const start = IBAN_START_RE.lastIndex - 4;
    const len = IBAN_LENGTH_BY_CODE[(text.charCodeAt(start) - 65) * 26 + text.charCodeAt(start + 1) - 65]!;
    if (len === 0) continue;
    const end = ibanEnd(text, start, len);
    if (end < 0) continue;
    const ctx = contextBefore(text, IBAN_CTX, start, end, shared);
    out.push({ type: 'IBAN_CODE', start, end, score: ctx ? 0.95 : 0.85 });
    IBAN_START_RE.lastIndex = end;
  }
  return out;
}

// ---------------------------------------------------------------- alphanumeric national ids

export interface PatternRule extends TokenRule {
  type: string;
  base: number;
  context: KeywordList;
  boost?: number;
  needsContext?: boolean;
  validate?: (v: string) => boolean;
  /** `validate` verifies a check digit or a strict structure: the finding outranks a generic guess on the same digits */
  validated?: boolean;
}

const ICAO: Record<string, number> = {};
for (let i = 0; i < 10; i++) ICAO[String(i)] = i;
for (let i = 0; i < 26; i++) ICAO[String.fromCharCode(65 + i)] = 10 + i;

function icaoCheck(body: string, check: string): boolean {
  const w = [7, 3, 1];
  let s = 0;
  for (let i = 0; i < body.length; i++) s += (ICAO[body[i]!] ?? 0) * w[i % 3]!;
  return String(s % 10) === check;
}

function crossSum(n: number): number {
  return n >= 10 ? Math.floor(n / 10) + (n % 10) : n;
}

function deHealthOk(v: string): boolean {
  const letter = v.charCodeAt(0) - 64;
  const digits = String(letter).padStart(2, '0') + v.slice(1, 9);
  let s = 0;
  for (let i = 0; i < 10; i++) s += crossSum(Number(digits[i]) * (i % 2 === 0 ? 1 : 2));
  return s % 10 === Number(v[9]);
}

function deRvnrOk(v: string): boolean {
  const letter = v.charCodeAt(8) - 64;
  const digits = v.slice(0, 8) + String(letter).padStart(2, '0') + v.slice(9, 11);
  const w = [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1];
  let s = 0;
  for (let i = 0; i < 12; i++) s += crossSum(Number(digits[i]) * w[i]!);
  const dd = Number(v.slice(2, 4));
  const mm = Number(v.slice(4, 6));
  if (dd < 1 || dd > 31 || mm < 1 || mm > 12) return false;
  return s % 10 === Number(v[11]);
}

const NIF_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

function esNifOk(v: string): boolean {
  const c = v.replace(/-/g, '').toUpperCase();
  const num = Number(c.slice(0, -1));
  return NIF_LETTERS[num % 23] === c[c.length - 1];
}

function esNieOk(v: string): boolean {
  const c = v.replace(/-/g, '').toUpperCase();
  const prefix = 'XYZ'.indexOf(c[0]!);
  const num = Number(String(prefix) + c.slice(1, -1));
  return NIF_LETTERS[num % 23] === c[c.length - 1];
}

const FI_CHECK = '0123456789ABCDEFHJKLMNPRSTUVWXY';

function fiHetuOk(v: string): boolean {
  const dd = Number(v.slice(0, 2));
  const mm = Number(v.slice(2, 4));
  if (dd < 1 || dd > 31 || mm < 1 || mm > 12) return false;
  const n = Number(v.slice(0, 6) + v.slice(7, 10));
  return FI_CHECK[n % 31] === v[10];
}

const IT_ODD: Record<string, number> = {};
{
  const odd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
  for (let i = 0; i < 10; i++) IT_ODD[String(i)] = odd[i]!;
  for (let i = 0; i < 26; i++) IT_ODD[String.fromCharCode(65 + i)] = odd[i]!;
}

function itFiscalOk(v: string): boolean {
  const c = v.toUpperCase();
  let s = 0;
  for (let i = 0; i < 15; i++) {
    const ch = c[i]!;
    if (i % 2 === 0) s += IT_ODD[ch] ?? 0;
    else s += /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65;
  }
  return String.fromCharCode(65 + (s % 26)) === c[15];
}

function sgNricOk(v: string): boolean {
  const c = v.toUpperCase();
  const w = [2, 7, 6, 5, 4, 3, 2];
  let s = 0;
  for (let i = 0; i < 7; i++) s += Number(c[i + 1]) * w[i]!;
  const p = c[0];
  if (p === 'T' || p === 'G') s += 4;
  if (p === 'M') s += 3;
  const r = s % 11;
  if (p === 'S' || p === 'T') return 'JZIHGFEDCBA'[r] === c[8];
  if (p === 'F' || p === 'G') return 'XWUTRQPNMLK'[r] === c[8];
  return 'KLJNPQRTUWX'[10 - r] === c[8];
}

function deaOk(v: string): boolean {
  const d = v.slice(2);
  const s = Number(d[0]) + Number(d[2]) + Number(d[4]) + 2 * (Number(d[1]) + Number(d[3]) + Number(d[5]));
  return s % 10 === Number(d[6]);
}

const IN_STATES = new Set(
  'AN AP AR AS BR CG CH DD DL DN GA GJ HR HP JH JK KA KL LA LD MH ML MN MP MZ NL OD OR PB PY RJ SK TN TR TS UK UP WB'.split(
    ' ',
  ),
);

const PASSPORT_CTX = ['passport', 'pasaporte', 'passeport', 'reisepass', 'passaporto', 'travel document', '여권'];

/** Types of the structured detectors above that verify a checksum (IBAN mod 97, crypto address checksums). */
export const VALIDATED_STRUCTURED_TYPES: readonly string[] = ['IBAN_CODE', 'CRYPTO'];

// A rule's `shape` tells the scan where its match can start (see TokenShape in pii/token-scan.ts);
// pii/token-scan.test.ts checks that the scan finds every match of the regex.
export const PATTERN_RULES: PatternRule[] = [
  {
    type: 'UK_NINO',
    re: /(?<![\w])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\w])/g,
    shape: { lengths: [9], parts: [2, 4, 6, 8], joiners: ' ', wordCounts: [9], first: 'A-Z', lead: 3 },
    base: 0.55,
    context: keywordList(['national insurance', 'nino', 'ni number', 'ni no']),
  },
  {
    type: 'UK_POSTCODE',
    re: /(?<![\w])(?:GIR ?0AA|[A-PR-UWYZ](?:\d[A-HJKPSTUW\d]?|[A-HK-Y]\d[ABEHMNPRVWXY\d]?) ?\d[ABD-HJLNP-UW-Z]{2})(?![\w])/g,
    shape: { lengths: [5, 6, 7], parts: [2, 3, 4], joiners: ' ', wordCounts: [5, 6, 7], first: 'A-Z', lead: 4 },
    base: 0.5,
    context: keywordList(['postcode', 'post code', 'address', 'london', 'uk', 'united kingdom', 'england']),
  },
  {
    type: 'UK_VEHICLE_REGISTRATION',
    re: /(?<![\w])[A-HJ-PR-Y]{2}(?:0[2-9]|[1-7]\d) ?[A-HJ-PR-Z]{3}(?![\w])/g,
    shape: { lengths: [7], parts: [4], joiners: ' ', wordCounts: [7], first: 'A-Z' },
    base: 0.45,
    context: keywordList(['registration', 'vehicle', 'number plate', 'reg ', 'car ', 'plate']),
  },
  {
    type: 'UK_DRIVING_LICENCE',
    re: /(?<![\w])[A-Z9]{5}\d[0156]\d[0-3]\d\d[A-Z9]{2}\d[A-Z]{2}(?![\w])/g,
    shape: { lengths: [16], first: 'A-Z9' },
    base: 0.6,
    context: keywordList(['driving licence', 'driving license', 'licence', 'dvla']),
  },
  {
    type: 'UK_PASSPORT',
    re: /(?<![\w])[A-Z]{2}\d{7}(?![\w])/g,
    shape: { lengths: [9], first: 'A-Z' },
    base: 0.3,
    context: keywordList(PASSPORT_CTX),
    needsContext: true,
  },
  {
    type: 'US_PASSPORT',
    re: /(?<![\w])(?:[A-Z]\d{8}|\d{9})(?![\w])/g,
    shape: { lengths: [9], first: 'A-Z0-9' },
    base: 0.3,
    context: keywordList(PASSPORT_CTX),
    needsContext: true,
  },
  {
    type: 'US_MBI',
    re: /(?<![\w])[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d(-?)[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d\1[AC-HJKMNP-RT-Y]{2}\d{2}(?![\w])/gi,
    shape: { lengths: [11], parts: [4], joiners: '-', wordCounts: [11], first: '1-9' },
    base: 0.55,
    context: keywordList(['medicare', 'mbi', 'beneficiary', 'patient']),
  },
  {
    type: 'MEDICAL_LICENSE',
    validated: true,
    re: /(?<![\w])[ABCDEFGHJKLMPRSTUX][A-Z9]\d{7}(?![\w])/g,
    shape: { lengths: [9], first: 'A-Z' },
    base: 0.45,
    context: keywordList(['dea', 'medical license', 'license', 'prescriber']),
    validate: deaOk,
  },
  {
    type: 'DE_PASSPORT',
    validated: true,
    re: /(?<![\w])[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{7}\d(?![\w])/g,
    shape: { lengths: [9], first: 'A-Z' },
    base: 0.45,
    context: keywordList(PASSPORT_CTX),
    validate: (v) => icaoCheck(v.slice(0, 8), v[8]!),
  },
  {
    type: 'DE_FUEHRERSCHEIN',
    re: /(?<![\w])[A-Z0-9]{2}\d{8}[A-Z0-9](?![\w])/g,
    shape: { lengths: [11], first: 'A-Z0-9' },
    base: 0.3,
    context: keywordList([
      'führerschein',
      'fuehrerschein',
      'fahrerlaubnis',
      'driving licen',
      "driver's licen",
      'driver licen',
    ]),
    validate: (v) => /[A-Z]/.test(v),
  },
  {
    type: 'DE_HEALTH_INSURANCE',
    validated: true,
    re: /(?<![\w])[A-Z]\d{9}(?![\w])/g,
    shape: { lengths: [10], first: 'A-Z' },
    base: 0.45,
    context: keywordList(['krankenversicherung', 'versichertennummer', 'kvnr', 'krankenkasse', 'health insurance']),
    validate: deHealthOk,
  },
  {
    type: 'DE_SOCIAL_SECURITY',
    validated: true,
    re: /(?<![\w])\d{8}[A-Z]\d{3}(?![\w])/g,
    shape: { lengths: [12], first: '0-9' },
    base: 0.5,
    context: keywordList([
      'rentenversicherung',
      'sozialversicherung',
      'rvnr',
      'social security',
      'versicherungsnummer',
    ]),
    validate: deRvnrOk,
  },
  {
    type: 'DE_HANDELSREGISTER',
    re: /(?<![\w])HR[AB] ?\d{1,6}(?: ?[A-Z]{1,2})?(?![\w])/g,
    shape: {
      lengths: [4, 5, 6, 7, 8, 9, 10, 11],
      parts: [3, 4, 5, 6, 7, 8, 9],
      joiners: ' ',
      wordCounts: [4, 5, 6, 7, 8, 9, 10, 11],
      first: 'H',
      lead: 4,
    },
    base: 0.6,
    context: keywordList(['handelsregister', 'amtsgericht', 'registergericht', 'eingetragen']),
  },
  {
    type: 'DE_TAX_NUMBER',
    re: /(?<![\w/])(?:\d{2,3}\/\d{3,4}\/\d{4,5})(?![\w/])/g,
    shape: { lengths: [], parts: [2, 3], joiners: '/', wordCounts: [9, 10, 11, 12], first: '0-9' },
    base: 0.45,
    context: keywordList(['steuernummer', 'st.-nr', 'stnr', 'st-nr', 'steuer-nr', 'tax number']),
    validate: (v) => {
      const n = v.replace(/\//g, '').length;
      return n === 10 || n === 11;
    },
  },
  {
    type: 'DE_KFZ',
    re: /(?<![\w])[A-ZÄÖÜ]{1,3}[ -][A-Z]{1,2} ?\d{1,4}[EH]?(?![\w])/g,
    shape: {
      lengths: [],
      parts: [1, 2, 3],
      joiners: ' -',
      wordCounts: [3, 4, 5, 6, 7, 8, 9, 10],
      first: 'A-Z',
      lead: 7,
      wholeTextIf: /[ÄÖÜ]/,
    },
    base: 0.3,
    context: keywordList(['kennzeichen', 'kfz', 'nummernschild', 'fahrzeug', 'license plate']),
  },
  {
    type: 'ES_NIF',
    validated: true,
    re: /(?<![\w])\d{7,8}-?[A-Za-z](?![\w])/g,
    shape: { lengths: [8, 9], parts: [7, 8], joiners: '-', wordCounts: [8, 9], first: '0-9' },
    base: 0.5,
    context: keywordList(['nif', 'dni', 'documento nacional']),
    validate: esNifOk,
  },
  {
    type: 'ES_NIE',
    validated: true,
    re: /(?<![\w])[XYZ]-?\d{7}-?[A-Z](?![\w])/g,
    shape: { lengths: [9], parts: [1, 8], joiners: '-', wordCounts: [9], first: 'XYZ', lead: 2 },
    base: 0.55,
    context: keywordList(['nie', 'extranjero', 'identificación']),
    validate: esNieOk,
  },
  {
    type: 'ES_PASSPORT',
    re: /(?<![\w])[A-Za-z]{3}\d{6}(?![\w])/g,
    shape: { lengths: [9], first: 'A-Za-z' },
    base: 0.3,
    context: keywordList(PASSPORT_CTX),
    needsContext: true,
  },
  {
    type: 'FI_PERSONAL_IDENTITY_CODE',
    validated: true,
    re: /(?<!\d)\d{6}[-+ABCDEFYXWVU]\d{3}[0-9A-Y](?![\w])/g,
    shape: { lengths: [11], parts: [6], joiners: '-+', first: '0-9', startsInRun: true },
    base: 0.6,
    context: keywordList(['henkilötunnus', 'hetu', 'personal identity code', 'identity code', 'id code']),
    validate: fiHetuOk,
  },
  {
    type: 'IT_FISCAL_CODE',
    validated: true,
    re: /(?<![\w])[A-Z]{6}[\dLMNP-V]{2}[A-EHLMPR-T][\dLMNP-V]{2}[A-Z][\dLMNP-V]{3}[A-Z](?![\w])/gi,
    shape: { lengths: [16], first: 'A-Z', digitOptional: true },
    base: 0.6,
    context: keywordList(['codice fiscale', 'fiscal code', 'cf']),
    validate: itFiscalOk,
  },
  {
    type: 'IT_DRIVER_LICENSE',
    re: /(?<![\w])(?:[A-Z]{2}\d{7}[A-Z]|U1[A-Z0-9]{7}[A-Z])(?![\w])/gi,
    shape: { lengths: [10], first: 'A-Z' },
    base: 0.3,
    context: keywordList(['patente', 'driver license', 'driving license', 'license', 'licence']),
    needsContext: true,
  },
  {
    type: 'IT_IDENTITY_CARD',
    re: /(?<![\w])(?:[A-Z]{2}\d{7}|[A-Z]{2}\d{5}[A-Z]{2}|\d{7}[A-Z]{2})(?![\w])/gi,
    shape: { lengths: [9], first: 'A-Z0-9' },
    base: 0.3,
    context: keywordList(["carta d'identità", 'carta di identità', 'identity card', 'id card']),
    needsContext: true,
  },
  {
    type: 'IT_PASSPORT',
    re: /(?<![\w])[A-Z]{2}\d{7}(?![\w])/gi,
    shape: { lengths: [9], first: 'A-Z' },
    base: 0.3,
    context: keywordList(['passaporto', 'italian passport']),
    needsContext: true,
  },
  {
    type: 'IN_PAN',
    re: /(?<![\w])[A-Z]{5}\d{4}[A-Z](?![\w])/g,
    shape: { lengths: [10], first: 'A-Z' },
    base: 0.3,
    context: keywordList(['pan', 'permanent account', 'income tax']),
    validate: () => true,
  },
  {
    type: 'IN_PASSPORT',
    re: /(?<![\w])[A-Z][1-9]\d{6}(?![\w])/g,
    shape: { lengths: [8], first: 'A-Z' },
    base: 0.3,
    context: keywordList(PASSPORT_CTX),
    needsContext: true,
  },
  {
    type: 'IN_VEHICLE_REGISTRATION',
    re: /(?<![\w])[A-Z]{2}[ -]?\d{1,2}[ -]?[A-Z]{1,3}[ -]?\d{4}(?![\w])/g,
    shape: {
      lengths: [8, 9, 10, 11],
      parts: [2, 3, 4, 5, 6, 7],
      joiners: ' -',
      wordCounts: [8, 9, 10, 11],
      first: 'A-Z',
      lead: 3,
    },
    base: 0.45,
    context: keywordList(['registration', 'vehicle', 'bike', 'car', 'number plate']),
    validate: (v) => IN_STATES.has(v.slice(0, 2)),
  },
  {
    type: 'IN_VOTER',
    re: /(?<![\w])[A-Z]{3}\d{7}(?![\w])/g,
    shape: { lengths: [10], first: 'A-Z' },
    base: 0.45,
    context: keywordList(['voter', 'epic', 'election']),
  },
  {
    type: 'KR_PASSPORT',
    re: /(?<![\w])[MSROD](?:\d{3}[A-Z]\d{4}|\d{8})(?![\w])/g,
    shape: { lengths: [9], first: 'MSROD' },
    base: 0.45,
    context: keywordList(PASSPORT_CTX),
    validate: (v) => /[A-Z]/.test(v.slice(1)) || false,
  },
  {
    type: 'KR_PASSPORT',
    re: /(?<![\w])[MSROD]\d{8}(?![\w])/g,
    shape: { lengths: [9], first: 'MSROD' },
    base: 0.3,
    context: keywordList(PASSPORT_CTX),
    needsContext: true,
  },
  {
    type: 'SG_NRIC_FIN',
    validated: true,
    re: /(?<![\w])[STFGM]\d{7}[A-Z](?![\w])/gi,
    shape: { lengths: [9], first: 'STFGM' },
    base: 0.6,
    context: keywordList(['nric', 'fin', 'identity card']),
    validate: sgNricOk,
  },
  {
    type: 'SG_UEN',
    re: /(?<![\w])(?:\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])(?![\w])/g,
    shape: { lengths: [9, 10], first: '0-9TSR' },
    base: 0.45,
    context: keywordList(['uen', 'unique entity', 'acra', 'company registration']),
  },
  {
    type: 'NG_VEHICLE_REGISTRATION',
    re: /(?<![\w])[A-Z]{3} ?\d{3}[A-Z]{2}(?![\w])/g,
    shape: { lengths: [8], parts: [3], joiners: ' ', wordCounts: [8], first: 'A-Z', lead: 4 },
    base: 0.45,
    context: keywordList(['plate', 'vehicle', 'registration']),
  },
  {
    type: 'TR_LICENSE_PLATE',
    re: /(?<![\w])(?:0[1-9]|[1-7]\d|8[01]) (?:[A-Z] \d{4,5}|[A-Z]{2} \d{3,4}|[A-Z]{3} \d{2,3}|[A-Z] \d{3}|[A-Z]{2} \d{2})(?![\w])/g,
    shape: { lengths: [], parts: [2], joiners: ' ', wordCounts: [6, 7, 8], first: '0-9' },
    base: 0.3,
    context: keywordList(['plaka', 'plate', 'vehicle', 'araç']),
  },
  {
    type: 'US_DRIVER_LICENSE',
    re: /(?<![\w])[A-Z]\d{3}-?\d{3,4}-?\d{2,5}(?:-?\d{1,3})?(?![\w])/g,
    shape: {
      lengths: [9, 10, 11, 12, 13, 14, 15, 16],
      parts: [4, 7, 8, 9, 10, 11, 12, 13],
      joiners: '-',
      wordCounts: [9, 10, 11, 12, 13, 14, 15, 16],
      first: 'A-Z',
    },
    base: 0.2,
    context: keywordList([
      'driver license',
      "driver's license",
      'drivers license',
      'driver licence',
      'driving license',
      'dl#',
      'dl number',
      'license number',
    ]),
    needsContext: true,
  },
];

/**
 * Alphanumeric national ids. Every rule's regex is only run where its match could start (see
 * pii/token-scan.ts); a context keyword counts when it lies within the 48 characters before the value.
 * With `minScore`, only findings scoring at least that much are returned.
 */
export function detectPatterns(
  text: string,
  rules: readonly PatternRule[] = PATTERN_RULES,
  shared?: TextContext,
  minScore = 0,
): Finding[] {
  if (!textContext(text, shared).hasDigit) return [];
  const out: Finding[] = [];
  const short = text.length <= 64; // only then can a value be "standalone"
  const found = scanTokenRules(text, rules);
  rules.forEach((r, i) => {
    const spans = found[i]!;
    for (let k = 0; k < spans.length; k += 2) {
      const s = spans[k]!;
      const e = spans[k + 1]!;
      if (r.validate && !r.validate(text.slice(s, e))) continue;
      const ctx = contextBefore(text, r.context, s, e, shared);
      const standalone = short && isStandalone(text, s, e);
      if (r.needsContext && !ctx && !standalone) continue;
      const score = clamp01(r.base + (ctx ? (r.boost ?? 0.4) : standalone ? 0.25 : 0));
      if (score >= minScore) out.push({ type: r.type, start: s, end: e, score });
    }
  });
  return out;
}
