// Person names, locations and street addresses. Offline only: dictionaries shipped in npm packages
// (@faker-js/faker locale data: first names, last names, cities, countries, street suffixes, for
// ~70 locales; @cspell/dict-people-names) combined with context cues (labels such as "Name:",
// honorifics, JSON keys, "ship to …, <zip> <city>") and shape rules. All scans are bounded.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { allLocales } from "@faker-js/faker";
import type { TextContext } from "./context.ts";
import type { Finding } from "./types.ts";
import { codeUnitReader } from "./code-units.ts";
import { APOSTROPHE, asciiSet, code, HYPHEN, isAsciiDigit, isAsciiLetter, isAsciiLower, isAsciiUpper, isJsSpace } from "./chars.ts";
import type { AsciiSet } from "./chars.ts";

interface Dicts {
  first: Set<string>;
  last: Set<string>;
  places: Set<string>;
  countries: Set<string>;
  /** See countryAt. */
  countryFirsts: Uint8Array;
}

let dicts: Dicts | undefined;

function norm(s: string): string {
  return s.toLowerCase();
}

function loadDicts(): Dicts {
  if (dicts) return dicts;
  const first = new Set<string>();
  const last = new Set<string>();
  const places = new Set<string>();
  const countries = new Set<string>();
  const addAll = (set: Set<string>, v: unknown) => {
    if (Array.isArray(v)) for (const x of v) if (typeof x === "string" && !x.includes("{")) set.add(norm(x));
  };
  for (const loc of Object.values(allLocales) as Record<string, Record<string, unknown> | undefined>[]) {
    const person = loc["person"];
    if (person) {
      for (const k of ["first_name", "last_name", "middle_name"]) {
        const v = person[k];
        const target = k === "last_name" ? last : first;
        if (Array.isArray(v)) addAll(target, v);
        else if (v && typeof v === "object") for (const arr of Object.values(v)) addAll(target, arr);
      }
    }
    const location = loc["location"];
    if (location) {
      addAll(places, location["city_name"]);
      addAll(places, location["state"]);
      addAll(countries, location["country"]);
    }
  }
  try {
    const req = createRequire(import.meta.url);
    const dir = req.resolve("@cspell/dict-people-names/cspell-ext.json").replace(/cspell-ext\.json$/, "");
    for (const line of readFileSync(dir + "dict/people-names.txt", "utf8").split("\n")) {
      const w = line.trim();
      if (w && !w.startsWith("#")) last.add(norm(w));
    }
  } catch {
    // optional dictionary
  }
  for (const c of EXTRA_COUNTRIES) countries.add(c);
  for (const w of COMMON_WORDS) {
    first.delete(w);
    last.delete(w);
  }
  dicts = { first, last, places, countries, countryFirsts: countryFirstSlots(countries) };
  return dicts;
}

const EXTRA_COUNTRIES = ["usa", "uk", "england", "scotland", "wales", "czech republic", "south africa", "cyprus (greek)", "united states", "united kingdom"];

/** Frequent words that are also names in some dictionary; never a name on their own. */
const COMMON_WORDS = new Set(
  (
    "the a an and or but if of to in on at by for with from as is are was were be been am i you he she it we they me him her us them my your his its our their this that these those " +
    "what which who whom whose when where why how all any both each few more most other some such no nor not only own same so than too very can will just should now new one two " +
    "may june april august march will mark grace hope joy faith summer winter autumn spring dawn rose lily ivy pearl ruby amber crystal daisy violet iris holly heather sky star " +
    "bill bob rob pat sue art jack frank sandy rich earl duke king prince princess major miles page park gray grey green brown black white young long short small little hill wood " +
    "stone field lane street road north south east west day night love angel baby honey sunny happy lucky christian christmas easter august sunday monday tuesday wednesday thursday " +
    "friday saturday january february july september october november december please thanks hello hi dear regards best kind team customer client user admin support service " +
    "account card bank money order number phone email address name date time status info data note notes help call contact new old good great nice happy well done very yes ok " +
    "tool result results error message file path id type value key field table row column page web site home office work job title company inc ltd llc gmbh corp group " +
    "unit box apt suite floor building house city state country zip code postal post mail first last middle full given family"
  ).split(/\s+/),
);

// honorifics, longest first (so that "mrs" is not read as "mr" + "s"), followed by "." or a space
const HONORIFIC_WORDS = "mrs|mr|ms|miss|mx|dr|prof|sir|madam|herr|frau|srta|sra|sr|mme|mlle|m";
/** Cues after which a single unknown capitalised word is still a name ("my name is Tadzio", "my kid Tadzio"). */
const STRONG_CUE = /(?:name is|call me|me llamo|mi nombre es|ich heiße|mein name ist|je m'appelle|kid|son|daughter|wife|husband|(?:last|first|full|sur|given|family)\s?name\??:?)\s*$/iu;
const NAME_CUE_WORDS =
  "my name is|name is|names? ?:|called|call me|i am|i'm|this is|signed,?|regards,?|sincerely,?|dear|hi|hello|contact|holder|customer|patient|employee|candidate|applicant|soy|me llamo|mi nombre es|ich bin|ich heiße|mein name ist|je m'appelle|je suis|change it to|accounts with|kid|son|daughter|wife|husband|says|commenter|author|speaker|from the desk of|attn:?|c\\/o|(?:last|first|full|sur|given|family) ?name\\??:?|" +
  // an addressee: "ship the replacement unit to", "schicken Sie die Rechnung an", "envoyez le colis à"
  "(?:ship|send|deliver|mail|forward|address(?:ed)?|write|schicken|senden|liefern|envoyer|envoyez|enviar|envíe|envie|spedire)\\b[^.\\n:;]{0,40}?\\b(?:to|an|à|a)";
const KEY_CUE_WORDS =
  "full_?name|name|first_?name|last_?name|surname|contact|card_?holder|cardholder|customer_?name|holder|recipient|sender|owner|patient|employee|user_?name_?full|display_?name";
const CUE_SCAN_RE = new RegExp(
  `(?:(["']?(?:${KEY_CUE_WORDS})["']?\\s*[:=|,]\\s*["']?)|(?<![\\p{L}])((?:${HONORIFIC_WORDS})(?:\\.\\s*|\\s+))|(?<![\\p{L}])(${NAME_CUE_WORDS})(?![\\p{L}]))[ \\t]*`,
  "giu",
);
const CUE_SCAN_AT = sticky(CUE_SCAN_RE);
/** The keys of KEY_CUE_WORDS, spelled out. */
const CUE_KEYS = [
  "full_name", "fullname", "name", "first_name", "firstname", "last_name", "lastname", "surname", "contact", "card_holder", "cardholder", "holder",
  "customer_name", "customername", "recipient", "sender", "owner", "patient", "employee",
  "user_name_full", "username_full", "user_namefull", "usernamefull", "display_name", "displayname",
];
// ---------------------------------------------------------------- candidate starts
//
// Every rule below is a global regex whose matches follow each other left to right. Running those
// regexes (with /u, \p{..} classes, look-behinds and long alternations) at every position of the text
// was most of the detector's time. Each rule now keeps its regex, made sticky, and tries it only at
// candidate starts: a superset of the positions where it can match, found by a cheap prefilter (a
// plain regex over a lower-cased copy, mostly an anchor character with a look-behind) plus a few
// char-code checks. `execAt` then reproduces the global scan: candidates in order, a match hides the
// candidates it covers.

/** A sticky copy of a global regex, to be tried at given positions. */
function sticky(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace("g", "") + "y");
}

/** Runs a sticky regex at the candidate starts (sorted ascending) like its global scan would run. */
function execAt(re: RegExp, text: string, starts: readonly number[], each: (m: RegExpExecArray) => void): void {
  let from = 0;
  for (const p of starts) {
    if (p < from) continue;
    from = p + 1;
    // a global /u scan never starts inside a surrogate pair
    const c = text.charCodeAt(p);
    if (c >= 0xdc00 && c <= 0xdfff && p > 0 && (text.charCodeAt(p - 1) & 0xfc00) === 0xd800) continue;
    re.lastIndex = p;
    const m = re.exec(text);
    if (m) {
      each(m);
      from = p + m[0].length;
    }
  }
}

const ascending = (a: number, b: number) => a - b;

/**
 * A lower-cased copy of the text, index for index, for case-insensitive literal prefilters: "İ"
 * (whose lower case is two units) is mapped to "i", and "ſ" to "s" (/iu matches it as "s"; the
 * Kelvin sign, the only other such letter, lower-cases to "k").
 */
function foldedCopy(text: string): string {
  let lo = text.toLowerCase();
  if (lo.length !== text.length) lo = text.replaceAll("\u0130", "i").toLowerCase();
  if (lo.includes("\u017f")) lo = lo.replaceAll("\u017f", "s");
  return lo;
}

const isSpace = isJsSpace;

function lineEnd(text: string, from: number): number {
  const e = text.indexOf("\n", from);
  return e < 0 ? text.length : e;
}

/** Starts of the first line of the text and of every line that follows an empty line (at most 256). */
function blockFirstLines(text: string): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  if (i < text.length && text[i] !== "\n") out.push(i);
  for (let p = text.indexOf("\n\n"); p >= 0 && out.length < 256; ) {
    let q = p + 2;
    while (q < text.length && (text[q] === "\n" || text[q] === " " || text[q] === "\t")) q++;
    if (q < text.length) out.push(q);
    p = text.indexOf("\n\n", q);
  }
  // the line after an e-mail signature delimiter ("-- " on a line of its own)
  for (let p = text.indexOf("--"); p >= 0 && out.length < 512; p = text.indexOf("--", p + 2)) {
    if (p > 0 && text[p - 1] !== "\n") continue;
    let q = p + 2;
    if (text[q] === " ") q++;
    if (text[q] === "\r") q++;
    if (text[q] !== "\n") continue;
    q++;
    if (q < text.length) out.push(q);
  }
  return out.sort((a, b) => a - b);
}

/** Binary search in findings sorted by start: does [s, e) overlap one? */
function occupied(sorted: readonly Finding[], s: number, e: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.end <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]!.start < e;
}

const PARTICLES = new Set(["van", "de", "der", "den", "von", "bin", "binti", "da", "di", "du", "del", "della", "la", "le", "dos", "das", "ter", "ten", "al", "el", "y", "zu", "mac", "st."]);

// a name token: capitalised word (any script), an initial "M." / "M", or a lower-case word in key-value context
const TOKEN_RE = /[\p{Lu}][\p{Ll}\p{Lm}'’-]{1,24}|[\p{Lu}]\.?(?=\s)|[\p{Lu}]{2,20}(?=[\s,.]|$)|[\p{Ll}][\p{Ll}'’-]{1,24}/uy;

interface Tok {
  start: number;
  end: number;
  text: string;
  /** The text in lower case. */
  low: string;
}

/** Is the first character of the token a lower-case letter (one that has an upper case)? */
function startsLower(t: string): boolean {
  const c = t.charCodeAt(0);
  if (c < 128) return c >= 97 && c <= 122;
  return t[0] === t[0]!.toLowerCase() && t[0] !== t[0]!.toUpperCase();
}

/** /^\p{Lu}/u, with ASCII first characters looked at by code. */
function startsUpper(t: string): boolean {
  const c = t.charCodeAt(0);
  return c < 128 ? c >= 65 && c <= 90 : /^\p{Lu}/u.test(t);
}

/** /^[\p{Lu}.]+$/u, with ASCII tokens looked at by code. */
function allUpper(t: string): boolean {
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (c >= 128) return /^[\p{Lu}.]+$/u.test(t);
    if (!((c >= 65 && c <= 90) || c === 46)) return false;
  }
  return t.length > 0;
}

/** /\p{Ll}/u, with ASCII words looked at by code. */
function hasLowerCase(w: string): boolean {
  for (let k = 0; k < w.length; k++) {
    const c = w.charCodeAt(k);
    if (c >= 97 && c <= 122) return true;
    if (c >= 128) return /\p{Ll}/u.test(w);
  }
  return false;
}

/** /[\s,.]/ of one code unit. */
function isSpaceCommaOrDot(c: number): boolean {
  return c === 44 || c === 46 || isSpace(c);
}

/** Reads up to `max` name tokens starting at `pos` (spaces only between them). */
function readNameTokens(text: string, pos: number, max: number, allowLower: boolean, keepCommon = false): Tok[] {
  const toks: Tok[] = [];
  let i = pos;
  while (toks.length < max && i < text.length) {
    TOKEN_RE.lastIndex = i;
    const m = TOKEN_RE.exec(text);
    if (!m) break;
    const t = m[0];
    if (!allowLower && startsLower(t) && !PARTICLES.has(t)) break;
    toks.push({ start: i, end: i + t.length, text: t, low: t.toLowerCase() });
    i += t.length;
    if (t.length === 1 && text.charCodeAt(i) === 46) i++;
    // single space (or two) between tokens, no newline
    let j = i;
    while (j < text.length && j - i < 2 && text.charCodeAt(j) === 32) j++;
    if (j === i) break;
    i = j;
  }
  // drop trailing particles / common words
  while (toks.length > 0) {
    const last = toks[toks.length - 1]!;
    if (PARTICLES.has(last.low) || (COMMON_WORDS.has(last.low) && !(keepCommon && toks.length === 1 && startsUpper(last.text)))) toks.pop();
    else break;
  }
  return toks;
}

function isNameLike(t: string, d: Dicts): boolean {
  const w = norm(t.replace(/\.$/, ""));
  return d.first.has(w) || d.last.has(w);
}

/** isNameLike of a token (whose only possible "." is the one after an initial). */
function isNameToken(t: Tok, d: Dicts): boolean {
  const w = t.low.charCodeAt(t.low.length - 1) === 46 ? t.low.slice(0, -1) : t.low;
  return d.first.has(w) || d.last.has(w);
}

/** The start of a token after a cue may be an honorific ("call me Mrs. May"): an ASCII letter of one, or non-ASCII. */
function mayStartHonorific(c: number): boolean {
  return c >= 128 || HONORIFIC_FIRST.has(c);
}
/** First letters of HONORIFIC_AFTER_RE's words, both cases. */
const HONORIFIC_FIRST = asciiSet("mdpshfMDPSHF");
const HONORIFIC_AFTER_RE = /^(?:mrs|mr|ms|miss|mx|dr|prof|sir|herr|frau|mme|mlle)(?:\.\s*|\s+)/iu;

const CAP_SEQ_RE = /(?<![\p{L}\p{N}_@.])[\p{Lu}][\p{Ll}'’-]{1,24}(?:\s{1,2}(?:[\p{Lu}]\.?|[\p{Lu}][\p{Ll}'’-]{1,24}|van|de|der|von|bin|da|di|del|la|le|dos)){1,3}(?![\p{L}\p{N}_@])/gu;
const CAP_SEQ_AT = sticky(CAP_SEQ_RE);
export function detectPersons(text: string, cands = scanCandidates(text)): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  // (a) cue-triggered names: one pass over cue words, then read the name tokens after each cue
  let lastEnd = -1;
  execAt(CUE_SCAN_AT, text, cands.cue, (m) => {
    const pos = m.index + m[0].length;
    if (pos <= lastEnd) return;
    const keyCtx = m[1] !== undefined;
    const strong = m[3] !== undefined && STRONG_CUE.test(m[3]);
    // "call me Mrs. May": the honorific after a cue is part of the cue
    const honAfter = mayStartHonorific(text.charCodeAt(pos)) ? HONORIFIC_AFTER_RE.exec(text.slice(pos, pos + 8)) : null;
    const hon = m[2] !== undefined || honAfter !== null;
    const toks = readNameTokens(text, pos + (honAfter ? honAfter[0].length : 0), 4, keyCtx, hon);
    if (toks.length === 0) return;
    const s = toks[0]!.start;
    const e = toks[toks.length - 1]!.end;
    let known = 0;
    let allCaps = true;
    let common = false;
    for (const t of toks) {
      if (isNameToken(t, d)) known++;
      allCaps &&= allUpper(t.text);
      common ||= COMMON_WORDS.has(t.low);
    }
    const capitalised = startsUpper(toks[0]!.text);
    let score: number;
    if (keyCtx) score = toks.length >= 2 ? 0.85 : known > 0 ? 0.75 : 0.55;
    else if (hon) score = capitalised ? 0.85 : 0;
    else if (allCaps && toks.length < 2) score = 0;
    else if (known > 0) score = toks.length >= 2 || known === toks.length ? 0.8 : 0.5;
    else if (strong && capitalised) score = 0.6;
    else score = toks.length >= 2 && !allCaps && capitalised ? 0.55 : 0;
    if (allCaps && !keyCtx && !hon && known < toks.length) score = 0;
    if (common && !hon && !keyCtx) score -= 0.3;
    if (score >= 0.5) {
      out.push({ type: "PERSON", start: s, end: e, score });
      lastEnd = e;
    }
  });
  // (a') a name alone on the first line of the text or of a block (signatures, contact cards)
  for (const ls of blockFirstLines(text)) {
    const le = lineEnd(text, ls);
    if (le - ls > 48 || occupied(out, ls, le)) continue;
    const line = text.slice(ls, le).trim();
    const parts = line.split(/\s+/);
    if (parts.length < 2 || parts.length > 4) continue;
    if (!parts.every((p) => /^[\p{L}][\p{L}'’-]*\.?$/u.test(p))) continue;
    const firstW = norm(parts[0]!);
    const lastW = norm(parts[parts.length - 1]!);
    if (COMMON_WORDS.has(firstW) || COMMON_WORDS.has(lastW)) continue;
    const middleOk = parts.slice(1, -1).every((p) => p.length <= 2 || PARTICLES.has(norm(p)) || isNameLike(p, d) || /^\p{Lu}/u.test(p));
    if (d.first.has(firstW) && (d.last.has(lastW) || d.first.has(lastW)) && middleOk) {
      const s = ls + text.slice(ls, le).indexOf(parts[0]!);
      out.push({ type: "PERSON", start: s, end: s + line.length, score: 0.7 });
    }
  }
  // (b) dictionary-driven capitalised sequences: First [Middle] Last
  const cueSpans = [...out];
  execAt(CAP_SEQ_AT, text, cands.capSeq, (m) => {
    const s = m.index;
    const e = s + m[0].length;
    if (occupied(cueSpans, s, e)) return;
    const parts = m[0].split(/\s+/);
    const firstW = norm(parts[0]!);
    const lastW = norm(parts[parts.length - 1]!.replace(/\.$/, ""));
    if (COMMON_WORDS.has(firstW) || COMMON_WORDS.has(lastW)) return;
    const firstOk = d.first.has(firstW);
    const lastOk = d.last.has(lastW) || d.first.has(lastW);
    if (d.countries.has(norm(m[0])) || d.places.has(norm(m[0]))) return;
    if (firstOk && lastOk) out.push({ type: "PERSON", start: s, end: e, score: 0.75 });
    else if (firstOk && parts.length >= 2 && parts[parts.length - 1]!.length > 2) out.push({ type: "PERSON", start: s, end: e, score: 0.55 });
  });
  return out;
}

// ---------------------------------------------------------------- addresses and locations

const STREET_SUFFIX =
  "street|st\\.?|road|rd\\.?|avenue|ave\\.?|drive|dr\\.?|lane|ln\\.?|court|ct\\.?|boulevard|blvd\\.?|way|place|pl\\.?|terrace|crescent|close|highway|hwy|parkway|pkwy|square|sq\\.?|trail|circle|row|walk|mews|grove|gardens|hill|view|path|loop|alley|plaza";
const EN_STREET_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])\\d{1,6}[A-Za-z]?(?:\\s\\d{1,5})?\\s(?:[\\p{Lu}][\\p{L}'’.-]{0,24}\\s){1,4}(?:${STREET_SUFFIX})(?![\\p{L}])(?:,?\\s(?:apt\\.?|suite|unit|ste\\.?|#)\\s?\\w{1,6})?`,
  "giu",
);
const CONT_STREET_RE =
  /(?<![\p{L}\p{N}])(?:(?:rue|rua|via|calle|avenida|av\.|chemin|boulevard|piazza|plaza|carrer|viale|corso|praça|ulica|ul\.|strada)\s(?:[\p{L}'’.-]{1,24}\s){0,4}[\p{L}'’.-]{1,24},?\s\d{1,5}[a-z]?)(?![\p{L}\p{N}])/giu;
const SUFFIX_NUM_RE = /(?<=\p{Ll})(?:straße|strasse|str\.|gasse|weg|platz|allee|ring|damm|ufer|vej|gade|vägen|gatan|veien|vegen|laan|straat|utca|út|tie|katu|tee|iela|gatve|cesta|ulice)\s\d{1,5}[a-z]?(?![\p{L}\p{N}])/giu;
const MIL_RE = /(?<![\p{L}\p{N}])(?:PSC|Unit|CMR)\s\d{3,5},?\s(?:Box)\s\d{3,5}(?:\s{1,3}(?:APO|FPO|DPO)\s(?:AA|AE|AP)\s\d{5})?/giu;
const ZIP_CITY_RE = /(?<=,\s{0,2})(\d{3}\s\d{3}|\d{3}\s?\d{2}(?:-\d{4})?|\d{4,5}(?:-\d{3,4})?|[A-Z]{1,2}-\d{4,5}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})\s([\p{Lu}][\p{L}'’.-]{1,30}(?:\s[\p{Lu}\d][\p{L}'’.-]{0,30}){0,3})(?=\s*[,.\n"']|$)/gu;
const KEY_VALUE_RE = /["']?(street|address|address_?line_?1|city|country|town|state|region|location)["']?\s*[:=]\s*["']?([^"'\n,]{2,80}?)["']?(?=\s*[,}\n]|$)/giu;
const PLACE_CUE_RE = /(?:\b(?:from|in|at|to|near|visit(?:ed|ing)?|flew to|moved to|live in|lives in|living in|born in|university of|city of|originally from)\s)([\p{Lu}][\p{L}'’.-]{1,30}(?:\s(?:[\p{Lu}][\p{L}'’.-]{1,30}|\([\p{Lu}][\p{L}]{1,20}\))){0,3})/gu;

const STREET_WORDS = new Set(
  (
    "street st str road rd avenue ave drive dr lane ln court ct boulevard blvd way place pl terrace crescent close highway hwy parkway pkwy square sq trail circle row walk mews grove gardens " +
    "rue rua rúa via calle avenida av chemin piazza plaza carrer viale corso praça ulica ul strada utca út straße strasse gasse weg platz allee vej gade vägen gatan veien vegen laan straat tie katu"
  ).split(" "),
);
/** Number-led street line without a street-type suffix: "5850 Jana Nerudy 894", "51709 Spinatsch 94" (bounded, words end at a space). */
const NUM_LED_RE = /(?<![\p{L}\p{N}])\d{1,6}(?:\s\d{1,5})?\s((?:[\p{L}][\p{L}'’.-]{0,24}\s){1,4})\d{1,5}[a-zA-Z]?\.?(?![\p{L}\p{N}])/gu;
/** Number-led street whose type word comes first: "5112 39 Rue Ibn El-Jazzar", "12 Calle Mayor". */
const NUM_PREFIX_STREET_RE =
  /(?<![\p{L}\p{N}])\d{1,6}(?:\s\d{1,5})?\s(?:rue|rua|rúa|via|calle|avenida|av\.|avenue|chemin|boulevard|piazza|plaza|carrer|viale|corso|praça|ulica|ul\.|strada|place|allée|quai)\s[\p{L}'’.-]{1,24}(?:[ \t][\p{L}'’.-]{1,24}){0,4}/giu;
/** "<street> <no>, <postcode> <City>": the street before a postcode-city pair. */
const STREET_BEFORE_ZIP_RE =
  /(?<=(?:^|[,;:(\n"])[ \t]{0,3})[\p{Lu}][\p{L}'’.-]{1,30}(?:\s[\p{L}'’.-]{1,30}){0,3}\s\d{1,5}[a-zA-Z]?(?=,\s{1,2}(?:\d{3}\s?\d{2}|\d{4,5}|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\s[\p{Lu}])/gu;
/** After an address cue: "Vivo en Reyes Católicos 75", "address: Parkring 7". */
const ADDRESS_CUE_RE =
  /(?i:address|adresse|dirección|direccion|indirizzo|endereço|anschrift|vivo en|wohne in|live at|lives at|located at|moved to)(?:\s+is)?\s*:?\s*([\p{Lu}][\p{L}'’.-]{1,30}(?:\s[\p{L}'’.-]{1,30}){0,3}\s\d{1,5}[a-zA-Z]?)(?![\p{L}\p{N}])/gu;
/**
 * A street after " at ": number-led (the number, 1-4 capitalised words) or word-led (a capitalised word, up
 * to 3 more that are not function words, then the number: "Pērses iela 90"); a town after it is a LOCATION
 * of its own (the shared corpus's convention). Letters of caseless scripts count as capitals. Bounded.
 */
const AT_STREET_AT = /(?:\d{1,6}[A-Za-z]?\s([\p{Lu}\p{Lo}][\p{L}\p{M}'’-]{1,30})(?:[ ](?:[\p{Lu}\p{Lo}][\p{L}\p{M}'’-]{1,30}|\d{1,5}[a-zA-Z]?)){0,4}|([\p{Lu}\p{Lo}][\p{L}\p{M}'’-]{1,30})(?:\s{1,2}(?!(?:for|in|on|with|since|about|from|to|at|by|of|the|and|or|than|over|under|after|before|around|until|every|each|per|is|was|were|are|has|had|have)\s)[\p{L}\p{M}][\p{L}\p{M}'’-]{0,30}){0,3}\s{1,2}(?:no\.?\s)?\d{1,5}[a-zA-Z]?(?:\/\d{1,4})?)(?![\p{L}\p{N}])/uy;
const STREET_ANCHORS: ReadonlyArray<readonly [string, boolean]> = [[" at ", false], [", ", true], ["address as ", false], ["Adresse: ", false]];
const TIME_WORD = /^(?:[AaPp]\.?[Mm]\.?|Uhr|Minutes?|Hours?|Days?|Weeks?|Months?|Years?|Percent|Degrees?|Celsius|Fahrenheit|January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|UTC|GMT|CET|EST|PST)$/;

/** Places after cues that name a place whatever the word (any script, capitalised or upper case). */
const STRONG_PLACE_RE =
  /(?i:originally from|born in|flew to|moved to|lives? in|living in|university of|city of|i am in|i'm in|based in|travel(?:l)?ing to|trip to|vivo en|wohne in|j'habite à|grew up (?:in|near)|habite à|vit à|wohnt in|vive en|abita a|mora em|woont in)\s((?:[\p{Lu}][\p{L}∆'’.-]{1,30})(?:\s(?:[\p{Lu}][\p{L}∆'’.-]{1,30}|(?:de|la|del|di|du|le|am|an|der|upon)(?![\p{L}])))*)/gu;
/** A line that can continue an address block: a unit, a town (optionally with a postcode), ", XX", a postcode. */
const ADDRESS_LINE_RE = /^[ \t]*(?:(?:apt|apartment|suite|unit|ste|box|floor|fl|room|bldg|building)\.?\s*#?\s*\w{1,6}|,?\s*[\p{Lu}][\p{L}∆'’.-]*(?:\s(?:[\p{Lu}(][\p{L}∆'’.()-]*|de|la|du|di|am|an|der|upon|on))*(?:\s\d{3,6})?|,\s*[\p{Lu}]{2,3}|\d{4,6}|[\p{Lu}]{1,2}\d[\p{Lu}\d]?\s?\d[\p{Lu}]{2})[ \t]*\.?[ \t]*$/u;
/**
 * One token of a line that can end an address after its street: a word, a
 * number, a unit with its number ("Apt.#4B"), or a unit number ("#4B", "12A").
 * Checked token by token: a single regex over the whole line, with words that
 * may follow each other without a space, backtracked exponentially on lines
 * that do not match.
 */
const REST_TOKEN_RE = /^(?:[\p{L}][\p{L}∆'’.-]*|\d{1,6}|#?\w{1,6}|(?:apt|apartment|suite|unit|ste|box|floor)\.?#?\w{1,6}|\.)$/iu;

function restOfLineIsAddress(rest: string): boolean {
  let any = false;
  for (const token of rest.split(/[ \t]+/)) {
    if (token === '') continue;
    if (!REST_TOKEN_RE.test(token)) return false;
    any = true;
  }
  return any;
}

const UNIT_WORD_RE = /\b(?:apt|apartment|suite|unit|ste|box|floor|fl|room|bldg|building)\b/gi;

/** Extends a street span over the rest of its line and over the following address lines (bounded). */
function extendBlock(text: string, s: number, e: number): number {
  // the rest of the line (looked at up to its 61st character: a longer one is an address only if blank)
  const n = text.length;
  let le = e;
  while (le < n && le - e <= 60 && text.charCodeAt(le) !== 10) le++;
  let end = e;
  if (le - e <= 60) {
    const rest = text.slice(e, le);
    if (restOfLineIsAddress(rest)) end = le;
    else if (rest.trim().length > 0) return e; // the line goes on with other text: a single-line address
  } else {
    for (le = e; le < n && text.charCodeAt(le) !== 10; le++) if (!isSpace(text.charCodeAt(le))) return e;
  }
  let lines = 0;
  let pos = le;
  while (lines < 4 && pos < text.length && text[pos] === "\n") {
    let ne = text.indexOf("\n", pos + 1);
    if (ne < 0) ne = text.length;
    const line = text.slice(pos + 1, ne).replace(UNIT_WORD_RE, (w) => w.toLowerCase());
    if (line.length > 64 || line.trim().length === 0 || /[:@]/.test(line)) break;
    // the last line may go on with other text after its postcode or a '?': "Canada 36523 last night."
    const cut = /^[^\d?!]*\d{4,6}(?=\D|$)|^[^?!]*(?=[?!])/u.exec(line)?.[0];
    if (ADDRESS_LINE_RE.test(line)) end = ne;
    else if (cut !== undefined && cut.trim().length > 0 && ADDRESS_LINE_RE.test(cut)) {
      end = pos + 1 + cut.length;
      break;
    } else break;
    pos = ne;
    lines++;
  }
  while (end > s && /[\s.,]/.test(text[end - 1]!)) end--;
  return Math.max(end, e);
}

// candidate starts of the address and place rules (see execAt)

/** Country names: capitalised words, at most three (the global scan when the text has astral characters, else see countryAt). */
const COUNTRY_RE = /(?<![\p{L}])[\p{Lu}][\p{Ll}]{2,20}(?:\s[\p{Lu}][\p{Ll}]{2,20}){0,2}(?![\p{L}])/gu;

const EN_STREET_AT = sticky(EN_STREET_RE);
const CONT_STREET_AT = sticky(CONT_STREET_RE);
const SUFFIX_NUM_AT = sticky(SUFFIX_NUM_RE);
const MIL_AT = sticky(MIL_RE);
const ZIP_CITY_AT = sticky(ZIP_CITY_RE);
const KEY_VALUE_AT = sticky(KEY_VALUE_RE);
/** KEY_VALUE_RE up to its `:` or `=` (a single way to match: see keyValuesAt). */
const KEY_PREFIX_AT = /["']?(street|address|address_?line_?1|city|country|town|state|region|location)["']?\s*[:=]/iuy;

/**
 * KEY_VALUE_RE at the candidate starts, as execAt runs it: `each(key, value start, value end)`. Its key part is
 * matched by KEY_PREFIX_AT (no backtracking into it can help: the keys differ right after the shorter one); its
 * value, which the regex tried again after each of its up to 80 characters, by char codes. On a text with
 * surrogates (the regex counts code points), the regex itself.
 */
function keyValuesAt(text: string, starts: readonly number[], astral: boolean, each: (key: string, vs: number, ve: number) => void): void {
  if (astral) {
    execAt(KEY_VALUE_AT, text, starts, (m) => {
      const vs = m.index + m[0].lastIndexOf(m[2]!);
      each(m[1]!, vs, vs + m[2]!.length);
    });
    return;
  }
  let from = 0;
  for (const p of starts) {
    if (p < from) continue;
    from = p + 1;
    KEY_PREFIX_AT.lastIndex = p;
    const m = KEY_PREFIX_AT.exec(text);
    if (!m || !keyValueAfter(text, p + m[0].length)) continue;
    each(m[1]!, kv.start, kv.end);
    from = kv.matchEnd;
  }
}

/** The value keyValueAfter found: [start, end), and the end of the whole match (after a closing quote). */
const kv = { start: 0, end: 0, matchEnd: 0 };

/** KEY_VALUE_RE's `\s*["']?([^"'\n,]{2,80}?)["']?(?=\s*[,}\n]|$)` at a (a text without surrogates), into kv. */
function keyValueAfter(text: string, a: number): boolean {
  const n = text.length;
  let b = a;
  while (b < n && isSpace(text.charCodeAt(b))) b++;
  // \s* gives back one space at a time; a value has no quote, so a quote after the spaces must be taken
  for (let c = b; c >= a; c--) {
    const q = text.charCodeAt(c);
    if (keyValueFrom(text, q === 34 || q === 39 ? c + 1 : c)) return true;
  }
  return false;
}

/** The shortest value from vs (2 to 80 characters other than quotes, newline and comma) that an end can follow, into kv. */
function keyValueFrom(text: string, vs: number): boolean {
  const n = text.length;
  const max = Math.min(n, vs + 80);
  let dead = 0; // spaces up to here cannot end a value
  let p = vs;
  for (; p < max; p++) {
    const u = text.charCodeAt(p);
    if (u === 34 || u === 39 || u === 10 || u === 44) break;
    // inside the value's characters, only "}" or spaces (up to a newline, "," or "}") can end it
    if (p - vs < 2 || p < dead || (u !== 125 && !isSpace(u))) continue;
    if (u !== 125) {
      let r = p;
      let c = 0;
      while (r < n && isSpace((c = text.charCodeAt(r))) && c !== 10) r++;
      if (r >= n || (c !== 10 && c !== 44 && c !== 125)) {
        dead = r;
        continue;
      }
    }
    kv.start = vs;
    kv.end = kv.matchEnd = p;
    return true;
  }
  // the first character the value cannot take (or none)
  const e = p - vs >= 2 ? keyValueEndAt(text, p) : -1;
  if (e < 0) return false;
  kv.start = vs;
  kv.end = p;
  kv.matchEnd = e;
  return true;
}

/** After a value ending at p: an optional quote, then `(?=\s*[,}\n]|$)`; the match's end, or -1. */
function keyValueEndAt(text: string, p: number): number {
  const u = text.charCodeAt(p);
  // (without a quote there, the look-ahead would fail at it)
  const e = u === 34 || u === 39 ? p + 1 : p;
  const n = text.length;
  if (e === n) return e;
  for (let q = e; q < n; q++) {
    const c = text.charCodeAt(q);
    if (c === 10) return e;
    if (!isSpace(c)) return c === 44 || c === 125 ? e : -1;
  }
  return -1;
}
const PLACE_CUE_AT = sticky(PLACE_CUE_RE);
const NUM_LED_AT = sticky(NUM_LED_RE);
const NUM_PREFIX_STREET_AT = sticky(NUM_PREFIX_STREET_RE);
const STREET_BEFORE_ZIP_AT = sticky(STREET_BEFORE_ZIP_RE);
const ADDRESS_CUE_AT = sticky(ADDRESS_CUE_RE);
const STRONG_PLACE_AT = sticky(STRONG_PLACE_RE);

/** SUFFIX_NUM_RE's street types. */
const NUM_SUFFIXES = ["straße", "strasse", "str.", "gasse", "weg", "platz", "allee", "ring", "damm", "ufer", "vej", "gade", "vägen", "gatan", "veien", "vegen", "laan", "straat", "utca", "út", "tie", "katu", "tee", "iela", "gatve", "cesta", "ulice"];
const PLACE_CUES = ["from", "in", "at", "to", "near", "visit", "visited", "visiting", "flew to", "moved to", "live in", "lives in", "living in", "born in", "university of", "city of", "originally from"];
const STRONG_PLACE_CUES = ["originally from", "born in", "flew to", "moved to", "live in", "lives in", "living in", "university of", "city of", "i am in", "i'm in", "based in", "traveling to", "travelling to", "trip to", "vivo en", "wohne in", "j'habite à", "grew up in", "grew up near", "habite à", "vit à", "wohnt in", "vive en", "abita a", "mora em", "woont in"];
/** KEY_VALUE_RE's keys, spelled out. */
const LOCATION_KEYS = ["street", "address", "address_line_1", "address_line1", "addressline_1", "addressline1", "city", "country", "town", "state", "region", "location"];

const isDigitAt = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};
const isAsciiLetterAt = (s: string, i: number) => {
  const c = s.charCodeAt(i) | 32;
  return c >= 97 && c <= 122;
};

/**
 * Do the 48 characters before `end` end with a digit, at most 40 characters other than "," and
 * newline, a comma and at most two spaces or tabs (/\d[^,\n]{0,40},[ \t]{0,2}$/, without its
 * backtracking over the window)?
 */
function postcodeTownBefore(text: string, end: number): boolean {
  const from = Math.max(0, end - 48);
  let c = end - 1;
  while (c >= from && end - 1 - c < 2 && (text[c] === " " || text[c] === "\t")) c--;
  if (c < from || text[c] !== ",") return false;
  for (let d = c - 1; d >= from && c - 1 - d <= 40; d--) {
    if (isDigitAt(text, d)) return true;
    if (text[d] === "," || text[d] === "\n") return false;
  }
  return false;
}

const STREET_WORD_PUNCT = asciiSet("'-.");

/** ASCII characters that STREET_BEFORE_ZIP_RE's street words and the spaces between them may hold. */
function streetWordChar(c: number): boolean {
  return c >= 0x80 || isSpace(c) || STREET_WORD_PUNCT.has(c) || isAsciiLetter(c);
}

/**
 * Starts of STREET_BEFORE_ZIP_RE before the comma at `comma` ("Hauptstr. 5, 80331 München"): capital
 * letters (or non-ASCII) after a delimiter, a space or a tab, in the street words before the number.
 */
const STREET_START_AFTER = asciiSet(',;:(\n" \t');

function streetBeforeZipStarts(text: string, comma: number, out: number[]): void {
  let r = comma - 1;
  if (r >= 0 && isAsciiLetterAt(text, r)) r--;
  if (r < 0 || !isDigitAt(text, r)) return;
  while (r > 0 && isDigitAt(text, r - 1)) r--;
  r--; // the space before the number
  if (r < 1 || !isSpace(text.charCodeAt(r))) return;
  // at most 31 + 3 * 31 characters of words and spaces before that space
  for (let p = r - 1, stop = Math.max(0, r - 130); p >= stop; p--) {
    const c = text.charCodeAt(p);
    if (!streetWordChar(c)) break;
    if (isAsciiUpper(c) || c >= 0x80) {
      // ^, [,;:(\n"] or [ \t] before it
      if (p === 0 || STREET_START_AFTER.has(text.charCodeAt(p - 1))) out.push(p);
    }
  }
}

// ---------------------------------------------------------------- one pass for all candidate starts
//
// The candidate starts of every rule come from one loop over the text's code units (copied into a
// Uint16Array, see code-units.ts): at each word start of the folded text
// (cue words, honorifics, street types, capitalised words), at each space (number-led streets,
// street types before a number, place cues before a word), at each comma (postcodes), at each
// `:`/`=`/`|`/`,` (keys) and at a few letters (address cues, which may start inside a word). Literal
// lists are looked up by the two code units at a word's start or end (a flag table first, so that most
// positions cost one table read), then compared code unit by code unit.

/** A code unit of the folded text as a 7-bit key (code units that differ may share a key: lists are only a prefilter). */
function keyUnit(c: number): number {
  return c < 128 ? (c | 32) & 127 : c & 127;
}
/** keyUnit of the folded text at i. */
function keyAt(t: Uint16Array, lo: string, i: number): number {
  const u = t[i]!;
  return u < 128 ? (u | 32) & 127 : lo.charCodeAt(i) & 127;
}
const pairKey = (a: number, b: number) => (a << 7) | b;

interface Literal {
  w: string;
  kind: number;
}
/** Literals by the key of their first (or last) two code units, and a flag table of the keys' kinds. */
interface LiteralTable {
  lists: (Literal[] | undefined)[];
  kinds: Uint8Array;
}
function newTable(): LiteralTable {
  return { lists: new Array<Literal[] | undefined>(1 << 14).fill(undefined), kinds: new Uint8Array(1 << 14) };
}
function addLiteral(table: LiteralTable, key: number, w: string, kind: number): void {
  (table.lists[key] ??= []).push({ w, kind });
  table.kinds[key]! |= kind;
}

// what a word start may begin
const W_CUE = 1; // a cue word of CUE_SCAN_RE
const W_HONORIFIC = 2; // an honorific, then "." or a space
const W_STREET = 4; // a street type of CONT_STREET_RE or a unit of MIL_RE, then a space (not after a digit)
/** The code units of \s (keyUnit'ed): what may follow an honorific or a street type. */
const SPACE_KEYS = [9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff].map(keyUnit);
const WORD_STARTS = (() => {
  const table = newTable();
  const add = (w: string, kind: number) => {
    // a one-letter honorific ("M."): keyed by what may follow it
    const seconds = w.length > 1 ? [keyUnit(w.charCodeAt(1))] : [46, ...SPACE_KEYS];
    for (const k of seconds) addLiteral(table, pairKey(keyUnit(w.charCodeAt(0)), k), w, kind);
  };
  const cues =
    "my name|name|called|call me|i am|i'm|this is|signed|regards|sincerely|dear|hi|hello|contact|holder|customer|patient|employee|candidate|applicant|soy|me llamo|mi nombre es|ich bin|ich heiße|mein name ist|je m'appelle|je suis|change it to|accounts with|kid|son|daughter|wife|husband|says|commenter|author|speaker|from the desk of|attn|c/o|last|first|full|sur|given|family|ship|send|deliver|mail|forward|address|write|schicken|senden|liefern|envoyer|envoyez|enviar|envíe|envie|spedire".split(
      "|",
    );
  // (a cue that starts with another one adds no start)
  for (const w of cues) if (!cues.some((v) => v !== w && w.startsWith(v))) add(w, W_CUE);
  for (const w of HONORIFIC_WORDS.split("|")) add(w, W_HONORIFIC);
  for (const w of ["rue", "rua", "via", "calle", "avenida", "av.", "chemin", "boulevard", "piazza", "plaza", "carrer", "viale", "corso", "praça", "ulica", "ul.", "strada", "psc", "unit", "cmr"]) add(w, W_STREET);
  return table;
})();
/**
 * By the first three code units of a word start (keyUnit'ed, the first one a-z, the others folded to 5 bits so
 * that the table stays small: a prefilter): what the fourth may be for a literal of WORD_STARTS to start there.
 * 0: nothing starts there; ANY_FOURTH: any code unit; else its 5 bits + 1.
 */
const ANY_FOURTH = 255;
const WORD_START4 = (() => {
  const table = new Uint8Array(26 << 10);
  const any = Array.from({ length: 128 }, (_, k) => k);
  WORD_STARTS.lists.forEach((list, key) => {
    for (const { w, kind } of list ?? []) {
      // after a short literal, any code unit; after an honorific, "." or a space
      const after = kind === W_HONORIFIC ? [46, ...SPACE_KEYS] : any;
      const thirds = w.length > 2 ? [keyUnit(w.charCodeAt(2))] : w.length === 2 ? after : any;
      const fourths = w.length > 3 ? [keyUnit(w.charCodeAt(3))] : w.length === 3 ? after : any;
      const v = fourths.length === 1 ? (fourths[0]! & 31) + 1 : ANY_FOURTH;
      for (const k2 of thirds) {
        const at = start3(key >> 7, key & 127, k2);
        table[at] = table[at] === 0 || table[at] === v ? v : ANY_FOURTH;
      }
    }
  });
  return table;
})();
function start3(k0: number, k1: number, k2: number): number {
  return ((k0 - 97) << 10) | ((k1 & 31) << 5) | (k2 & 31);
}

// what may end before a space, or before a key's `:`/`=`/`|`/`,` (and spaces and a quote)
const E_SUFFIX = 1; // SUFFIX_NUM_RE's street types (before a digit)
const E_PLACE = 2; // PLACE_CUE_RE's cues (before a letter)
const E_STRONG_PLACE = 4; // STRONG_PLACE_RE's cues (before a letter)
const E_CUE_KEY = 8; // CUE_SCAN_RE's keys
const E_LOCATION_KEY = 16; // KEY_VALUE_RE's keys
const WORD_ENDS = (() => {
  const table = newTable();
  const add = (words: readonly string[], kind: number) => {
    for (const w of words) addLiteral(table, pairKey(keyUnit(w.charCodeAt(w.length - 1)), keyUnit(w.charCodeAt(w.length - 2))), w, kind);
  };
  add(NUM_SUFFIXES, E_SUFFIX);
  add(PLACE_CUES, E_PLACE);
  add(STRONG_PLACE_CUES, E_STRONG_PLACE);
  add(CUE_KEYS, E_CUE_KEY);
  add(LOCATION_KEYS, E_LOCATION_KEY);
  return table;
})();

/** ADDRESS_CUE_RE's cues (they may start inside a word), with the letters of their first word (1 << (code & 31)). */
const ADDRESS_CUES = ["address", "adresse", "dirección", "direccion", "indirizzo", "endereço", "anschrift", "vivo en", "wohne in", "live at", "lives at", "located at", "moved to"].map((w) => {
  let letters = 0;
  for (const ch of w) {
    if (ch < "a" || ch > "z") break;
    letters |= 1 << (ch.charCodeAt(0) & 31);
  }
  return { w, letters };
});
const ADDRESS_CUE_LETTERS = Int32Array.from(ADDRESS_CUES, (c) => c.letters);
/** By a word's letters l to w (bits 12 to 23 of its mask): the address cues (bit k: ADDRESS_CUES[k]) whose letters there it has. */
const ADDRESS_CUES_BY_LW = (() => {
  const table = new Uint16Array(4096);
  for (let m = 0; m < 4096; m++) {
    for (let k = 0; k < ADDRESS_CUES.length; k++) {
      const need = (ADDRESS_CUE_LETTERS[k]! >>> 12) & 0xfff;
      if ((m & need) === need) table[m]! |= 1 << k;
    }
  }
  return table;
})();
/** Each address cue has one of the letters d, f, v, w. */
const ADDRESS_LETTERS = (1 << (100 & 31)) | (1 << (102 & 31)) | (1 << (118 & 31)) | (1 << (119 & 31));

/** Does the folded text hold the literal (lower case) at i? */
function foldedHas(t: Uint16Array, lo: string, i: number, w: string): boolean {
  if (i < 0 || i + w.length > t.length) return false;
  for (let j = 0; j < w.length; j++) {
    let u = t[i + j]!;
    if (u >= 128) u = lo.charCodeAt(i + j);
    else if (u >= 65 && u <= 90) u |= 32;
    if (u !== w.charCodeAt(j)) return false;
  }
  return true;
}

/** Starts of the literals of the given kinds that end at `end` in the folded text, each also one further back after a quote when `quoted`. */
function endingAt(t: Uint16Array, lo: string, end: number, kinds: number, quoted: boolean, out: number[]): void {
  if (end < 2) return;
  const key = pairKey(keyAt(t, lo, end - 1), keyAt(t, lo, end - 2));
  if ((WORD_ENDS.kinds[key]! & kinds) === 0) return;
  for (const { w, kind } of WORD_ENDS.lists[key]!) {
    if ((kind & kinds) === 0) continue;
    const s = end - w.length;
    if (!foldedHas(t, lo, s, w)) continue;
    if (quoted && s > 0 && (t[s - 1] === 34 || t[s - 1] === 39)) pushAscending(out, s - 1);
    pushAscending(out, s);
  }
}

// classes of ASCII code units
const C_LOWER = 1;
const C_UPPER = 2;
const C_DIGIT = 3;
const C_SPACE = 4;
const C_COMMA = 5;
const C_KEY = 6; // ':' '='
const C_PIPE = 7;
const ASCII_CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 97; c <= 122; c++) t[c] = C_LOWER;
  for (let c = 65; c <= 90; c++) t[c] = C_UPPER;
  for (let c = 48; c <= 57; c++) t[c] = C_DIGIT;
  for (const c of [9, 10, 11, 12, 13, 32]) t[c] = C_SPACE;
  t[44] = C_COMMA;
  t[58] = C_KEY;
  t[61] = C_KEY;
  t[124] = C_PIPE;
  return t;
})();
// \p{L}, \p{Lu}, \p{Ll} of the BMP, built once from the regex classes
const U_L = 1;
const U_LU = 2;
const U_LL = 4;
const U_ASTRAL_LU = 8; // a lead surrogate of astral upper-case letters
let bmpClasses: Uint8Array | undefined;
/** \p{L}, \p{Lu} and \p{Ll} of every BMP code unit (surrogates: none, see Candidates.countries; but lead surrogates of upper-case letters are marked). */
function bmpTable(): Uint8Array {
  if (bmpClasses) return bmpClasses;
  const t = new Uint8Array(65536);
  let all = "";
  for (let c = 0; c < 65536; c++) all += c >= 0xd800 && c <= 0xdfff ? " " : String.fromCharCode(c);
  for (const [re, bit] of [[/\p{L}/gu, U_L], [/\p{Lu}/gu, U_LU], [/\p{Ll}/gu, U_LL]] as const) for (const m of all.matchAll(re)) t[m.index]! |= bit;
  for (let lead = 0xd800; lead <= 0xdbff; lead++) {
    let plane = "";
    for (let trail = 0xdc00; trail <= 0xdfff; trail++) plane += String.fromCharCode(lead, trail);
    if (/\p{Lu}/u.test(plane)) t[lead] = U_ASTRAL_LU;
  }
  bmpClasses = t;
  return t;
}

/** The text's code units (valid until this module's next call). */
const codeUnits = codeUnitReader();

/** Candidate starts of the rules (see execAt, each list ascending) and what the rules need to know about the text. */
interface Candidates {
  hasDigit: boolean;
  /** CUE_SCAN_AT */
  cue: number[];
  /** CAP_SEQ_AT */
  capSeq: number[];
  /** SUFFIX_NUM_AT */
  suffix: number[];
  /** EN_STREET_AT, NUM_LED_AT, NUM_PREFIX_STREET_AT */
  numberLed: number[];
  /** CONT_STREET_AT, MIL_AT */
  contMil: number[];
  /** STREET_BEFORE_ZIP_AT */
  beforeZip: number[];
  /** ZIP_CITY_AT */
  zip: number[];
  /** ADDRESS_CUE_AT */
  addressCue: number[];
  /** STRONG_PLACE_AT */
  strongPlace: number[];
  /** PLACE_CUE_AT */
  place: number[];
  /** KEY_VALUE_AT */
  locationKey: number[];
  /**
   * COUNTRY_RE's matches (start, end pairs) whose first word may begin a country name; undefined when
   * the text has surrogates (astral letters, which the char-code emulation of COUNTRY_RE leaves out).
   */
  countries: number[] | undefined;
}

/** Adds a start to a list kept ascending (a key's start is found at its `:`, after later word starts). */
function pushAscending(a: number[], v: number): void {
  let k = a.length;
  while (k > 0 && a[k - 1]! > v) k--;
  if (k === a.length) a.push(v);
  else a.splice(k, 0, v);
}

function ascendingInPlace(a: number[]): void {
  for (let i = 1; i < a.length; i++) {
    if (a[i]! < a[i - 1]!) {
      a.sort(ascending);
      return;
    }
  }
}

/** The state of one scan: the candidates so far, and COUNTRY_RE's global scan. */
interface Scan {
  t: Uint16Array;
  lo: string;
  bmp: Uint8Array;
  firsts: Uint8Array;
  c: Candidates;
  countries: number[];
  /** End of COUNTRY_RE's last match: its next one starts there or later. */
  countryFrom: number;
  astral: boolean;
}

function scanCandidates(text: string): Candidates {
  const t = codeUnits(text);
  // the folded copy is read at non-ASCII code units only
  const lo = Buffer.byteLength(text, "utf8") === text.length ? text : foldedCopy(text);
  const c: Candidates = {
    hasDigit: false, cue: [], capSeq: [], suffix: [], numberLed: [], contMil: [], beforeZip: [], zip: [], addressCue: [], strongPlace: [], place: [], locationKey: [], countries: [],
  };
  const st: Scan = { t, lo, bmp: bmpTable(), firsts: loadDicts().countryFirsts, c, countries: [], countryFrom: 0, astral: false };
  c.hasDigit = scanText(st, text);
  ascendingInPlace(c.cue);
  ascendingInPlace(c.numberLed);
  ascendingInPlace(c.beforeZip);
  ascendingInPlace(c.addressCue);
  ascendingInPlace(c.strongPlace);
  ascendingInPlace(c.place);
  ascendingInPlace(c.locationKey);
  c.countries = st.astral ? undefined : st.countries;
  return c;
}

/** The loop of scanCandidates (a function of its own, so that the optimised loop returns before any code that runs once per call); says whether the text has a digit. */
function scanText(st: Scan, text: string): boolean {
  const { t, lo, c } = st;
  const n = t.length;
  let hasDigit = false;
  let i = 0;
  while (i < n) {
    const u = t[i]!;
    if (u < 128) {
      const cls = ASCII_CLASS[u]!;
      if (cls <= C_UPPER && cls !== 0) {
        i = scanWord(st, i);
        continue;
      }
      if (cls === C_SPACE) atSpace(t, lo, i, c);
      else if (cls === C_DIGIT) hasDigit = true;
      else if (cls === C_COMMA) {
        atComma(text, t, i, c);
        atKeyAnchor(t, lo, i, false, c);
      } else if (cls !== 0) atKeyAnchor(t, lo, i, cls === C_KEY, c);
      i++;
      continue;
    }
    const l = lo.charCodeAt(i); // "K" (Kelvin), "İ" and "ſ" fold to ASCII letters
    if (l >= 97 && l <= 122) {
      i = scanWord(st, i);
      continue;
    }
    atNonAscii(st, i, u);
    if (isSpace(u)) atSpace(t, lo, i, c);
    i++;
  }
  return hasDigit;
}

/** At a non-ASCII code unit: an upper-case letter may start a capitalised sequence or a country. */
function atNonAscii(st: Scan, i: number, u: number): void {
  const k = st.bmp[u]!;
  if ((k & (U_LU | U_ASTRAL_LU)) !== 0) {
    if (capSeqMayStart(st.t, i)) st.c.capSeq.push(i);
    if ((k & U_LU) !== 0 && i >= st.countryFrom) st.countryFrom = countryAt(st, i);
  }
  if (u >= 0xd800 && u <= 0xdfff) st.astral = true;
}

/**
 * A word of the folded text (a run of a-z) from s: what may start there (cue words, honorifics, street
 * types; a capitalised sequence or a country after an ASCII capital), and the address cues inside it
 * (only when it has their letters). Returns its end.
 */
function scanWord(st: Scan, s: number): number {
  const { t, lo } = st;
  const n = t.length;
  let mask = 0; // the letters of the word, 1 << (code & 31)
  let ascii = true;
  let i = s;
  for (;;) {
    let u = 0;
    while (i < n && (((u = t[i]!) | 32) - 97) >>> 0 < 26) {
      mask |= 1 << (u & 31);
      i++;
    }
    if (i >= n || u < 128) break;
    const l = lo.charCodeAt(i);
    if (l < 97 || l > 122) break;
    atNonAscii(st, i, u);
    ascii = false;
    mask |= 1 << (l & 31);
    i++;
  }
  const k0 = keyAt(t, lo, s);
  const k1 = s + 1 < n ? keyAt(t, lo, s + 1) : 0;
  const fourth = WORD_START4[start3(k0, k1, s + 2 < n ? keyAt(t, lo, s + 2) : 0)]!;
  if (fourth !== 0 && (fourth === ANY_FOURTH || (s + 3 < n && fourth === (keyAt(t, lo, s + 3) & 31) + 1))) wordStart(t, lo, s, pairKey(k0, k1), st.c);
  const u0 = t[s]!;
  if (u0 >= 65 && u0 <= 90) capitalWord(st, s, i, ascii);
  if (i - s >= 4 && (mask & ADDRESS_LETTERS) !== 0) addressCuesIn(t, lo, s, i, mask, st.c.addressCue);
  // the space after a word of two ASCII letters or more matters only after the ending of a literal
  if (ascii && i < n && t[i] === 32 && i - s >= 2) {
    if (WORD_ENDS.kinds[pairKey(t[i - 1]! | 32, t[i - 2]! | 32)] !== 0) atSpace(t, lo, i, st.c);
    return i + 1;
  }
  return i;
}

/**
 * At an ASCII capital that starts the word [s, e) (`ascii` when the word has no non-ASCII letters): a capitalised
 * sequence or a country may start there. The common word, [A-Z][a-z]+ before an ASCII code unit that no rule
 * reads as part of it, is checked from what the word scan already knows.
 */
function capitalWord(st: Scan, s: number, e: number, ascii: boolean): void {
  const t = st.t;
  const n = t.length;
  let simple = ascii && e - s <= 48 && (e >= n || (t[e]! < 128 && t[e] !== 39 && t[e] !== 45));
  let h = t[s]! | 32; // the word's hash, as countryFrom computes it
  for (let j = s + 1; simple && j < e; j++) {
    const u = t[j]!;
    if (u < 97) simple = false;
    h = (Math.imul(h, 31) + u) | 0;
  }
  if (!simple) {
    if (capSeqMayStart(t, s)) st.c.capSeq.push(s);
    if (s >= st.countryFrom) st.countryFrom = countryAt(st, s);
    return;
  }
  if (e - s >= 2 && e < n && isSpace(t[e]!) && capSeqMayFollow(t, s) && (capSeqNext(t, e + 1) || (e + 1 < n && isSpace(t[e + 1]!) && capSeqNext(t, e + 2)))) st.c.capSeq.push(s);
  if (s >= st.countryFrom && e - s >= 3 && e - s <= 21 && !(s > 0 && isLetterUnit(st.bmp, t[s - 1]!))) {
    const end = countryEnd(st, e);
    if (st.firsts[wordHashSlot(h)] === 1) st.countries.push(s, end);
    st.countryFrom = end;
  }
}

/** At a word start of the folded text (a-z after another code unit) whose first two code units begin a literal: cue words, honorifics, street types. */
function wordStart(t: Uint16Array, lo: string, i: number, key: number, c: Candidates): void {
  const list = WORD_STARTS.lists[key];
  if (list === undefined) return; // (WORD_START4 folds code units together)
  let cue = false;
  for (const { w, kind } of list) {
    if (!foldedHas(t, lo, i, w)) continue;
    const after = i + w.length < t.length ? t[i + w.length]! : -1;
    if (kind === W_CUE) cue = true;
    else if (kind === W_HONORIFIC) cue ||= after === 46 || isSpace(after);
    else if (isSpace(after) && !(i > 0 && isAsciiDigit(t[i - 1]!))) c.contMil.push(i);
  }
  if (cue) c.cue.push(i);
}

/** Is the code unit a letter (\p{L}; surrogates are not, see Candidates.countries)? */
function isLetterUnit(bmp: Uint8Array, u: number): boolean {
  return u < 128 ? ASCII_CLASS[u] === C_LOWER || ASCII_CLASS[u] === C_UPPER : (bmp[u]! & U_L) !== 0;
}

/** The end of COUNTRY_RE's word at p (an upper-case letter, 2 to 20 lower-case ones, then no letter), or -1. */
function titleWordEnd(t: Uint16Array, bmp: Uint8Array, p: number): number {
  const n = t.length;
  if (p >= n) return -1;
  const u0 = t[p]!;
  if (u0 < 128 ? ASCII_CLASS[u0] !== C_UPPER : (bmp[u0]! & U_LU) === 0) return -1;
  let j = p + 1;
  for (; j < n && j - p <= 21; j++) {
    const u = t[j]!;
    if (u < 128 ? ASCII_CLASS[u] !== C_LOWER : (bmp[u]! & U_LL) === 0) break;
  }
  const run = j - p - 1;
  if (run < 2 || run > 20 || (j < n && isLetterUnit(bmp, t[j]!))) return -1;
  return j;
}

/**
 * COUNTRY_RE's match at i, if there is one (its global scan being at st.countryFrom <= i): kept when its first
 * word may begin a country name. Returns where the scan goes on.
 */
function countryAt(st: Scan, i: number): number {
  const { t, bmp } = st;
  if (i > 0 && isLetterUnit(bmp, t[i - 1]!)) return st.countryFrom;
  const first = titleWordEnd(t, bmp, i);
  return first < 0 ? st.countryFrom : countryFrom(st, i, first);
}

/** countryAt once COUNTRY_RE's first word [i, first) has matched. */
function countryFrom(st: Scan, i: number, first: number): number {
  const t = st.t;
  const e = countryEnd(st, first);
  let h = 0;
  for (let j = i; j < first; j++) {
    const u = t[j]!;
    if (u >= 128) {
      st.countries.push(i, e); // (a non-ASCII first word: always looked up)
      return e;
    }
    h = (Math.imul(h, 31) + (u | 32)) | 0;
  }
  if (st.firsts[wordHashSlot(h)] === 1) st.countries.push(i, e);
  return e;
}

/** The end of COUNTRY_RE's match whose first word ends at `first`: up to two more words after a space each. */
function countryEnd(st: Scan, first: number): number {
  const { t, bmp } = st;
  let e = first;
  for (let k = 0; k < 2 && e < t.length && isSpace(t[e]!); k++) {
    const next = titleWordEnd(t, bmp, e + 1);
    if (next < 0) break;
    e = next;
  }
  return e;
}

/** A slot in Dicts.countryFirsts for a word's hash (see countryAt). */
function wordHashSlot(h: number): number {
  return (h ^ (h >>> 16)) & 0xffff;
}

/** Slots of the first words of the country names, hashed as countryAt does. */
function countryFirstSlots(countries: Set<string>): Uint8Array {
  const slots = new Uint8Array(65536);
  for (const name of countries) {
    const w = name.split(/\s/)[0]!;
    let h = 0;
    for (let j = 0; j < w.length; j++) h = (Math.imul(h, 31) + (w.charCodeAt(j) | 32)) | 0;
    slots[wordHashSlot(h)] = 1;
  }
  return slots;
}

/**
 * Can CAP_SEQ_RE match at i (an upper-case letter, or the lead surrogate of one)? Not after [A-Za-z0-9_@.]; then
 * 1 to 24 characters of its first word (lower-case ASCII, ', - or any non-ASCII code unit, two for an
 * astral one), one or two spaces and an upper-case (or non-ASCII) letter or a particle.
 */
function capSeqMayStart(t: Uint16Array, i: number): boolean {
  const n = t.length;
  if (!capSeqMayFollow(t, i)) return false;
  for (let j = i + 1; j < n && j <= i + 48; j++) {
    const u = t[j]!;
    if (!(u >= 128 || isAsciiLower(u) || u === APOSTROPHE || u === HYPHEN)) return false;
    let q = j + 1;
    if (q < n && isSpace(t[q]!)) {
      q++;
      if (capSeqNext(t, q) || (q < n && isSpace(t[q]!) && capSeqNext(t, q + 1))) return true;
    }
  }
  return false;
}

const CAP_SEQ_NOT_AFTER = asciiSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@.");

/** CAP_SEQ_RE's look-behind at i: not after [A-Za-z0-9_@.]. */
function capSeqMayFollow(t: Uint16Array, i: number): boolean {
  if (i === 0) return true;
  const b = t[i - 1]!;
  return !CAP_SEQ_NOT_AFTER.has(b);
}

/** An upper-case (or non-ASCII) letter or the first letters of a particle of CAP_SEQ_RE at q. */
function capSeqNext(t: Uint16Array, q: number): boolean {
  if (q >= t.length) return false;
  const u = t[q]!;
  if (isAsciiUpper(u) || (u >= 128 && !(u >= 0xdc00 && u <= 0xdfff))) return true;
  const second = u < 128 ? PARTICLE_SECOND[u] : undefined;
  return second !== undefined && q + 1 < t.length && second.has(t[q + 1]!);
}

/** CAP_SEQ_RE's lower-case particles by their first letter: the letters that may follow it. */
const PARTICLE_SECOND: Array<AsciiSet | undefined> = Array.from({ length: 128 }, () => undefined);
PARTICLE_SECOND[code("v")] = asciiSet("ao"); // van, von
PARTICLE_SECOND[code("d")] = asciiSet("eaio"); // de, der, del, da, di, dos
PARTICLE_SECOND[code("b")] = asciiSet("i"); // bin
PARTICLE_SECOND[code("l")] = asciiSet("ae"); // la, le

/** At a space: number-led streets (a number before it), street types before a number, place cues before a word. */
function atSpace(t: Uint16Array, lo: string, i: number, c: Candidates): void {
  const n = t.length;
  if (i === 0 || i + 1 >= n) return;
  const next = t[i + 1]!;
  const prev = t[i - 1]!;
  if (next >= 128 || ASCII_CLASS[next] === C_LOWER || ASCII_CLASS[next] === C_UPPER) {
    // a number, or a number and a letter ("12A Main St"), before the space
    if (prev < 128 && ASCII_CLASS[prev] !== 0 ? isAsciiDigit(prev) || (ASCII_CLASS[prev]! <= C_UPPER && i >= 2 && isAsciiDigit(t[i - 2]!)) : (prev === 0x17f || prev === 0x212a) && i >= 2 && isAsciiDigit(t[i - 2]!)) {
      numberLedAt(t, i, c.numberLed);
    }
    if (i >= 2) {
      const key = pairKey(keyAt(t, lo, i - 1), keyAt(t, lo, i - 2));
      const kinds = WORD_ENDS.kinds[key]!;
      if ((kinds & (E_STRONG_PLACE | E_PLACE)) !== 0) placeCuesBefore(t, lo, i, key, c);
    }
  } else if (isAsciiDigit(next)) {
    endingAt(t, lo, i, E_SUFFIX, false, c.suffix);
  }
}

/** The place cues (PLACE_CUE_RE's, STRONG_PLACE_RE's) that end before the space at i; `key`: their last two code units. */
function placeCuesBefore(t: Uint16Array, lo: string, i: number, key: number, c: Candidates): void {
  for (const { w, kind } of WORD_ENDS.lists[key]!) {
    if ((kind & (E_STRONG_PLACE | E_PLACE)) === 0 || !foldedHas(t, lo, i - w.length, w)) continue;
    (kind === E_PLACE ? c.place : c.strongPlace).push(i - w.length);
  }
}

/** Starts of number-led streets whose first word follows the space at i: the number before it, or the first of two numbers. */
function numberLedAt(t: Uint16Array, i: number, out: number[]): void {
  let r = i - 1;
  if (!isAsciiDigit(t[r]!)) r--; // the letter after the house number: "12A Main St"
  while (r > 0 && isAsciiDigit(t[r - 1]!)) r--;
  pushAscending(out, r);
  // "12 34 Main": the optional second number
  let k = r - 1;
  if (k < 1 || !isSpace(t[k]!)) return;
  k--;
  const u = t[k]!;
  if (!isAsciiDigit(u) && ((u < 128 && (ASCII_CLASS[u] === C_LOWER || ASCII_CLASS[u] === C_UPPER)) || u === 0x17f || u === 0x212a)) k--;
  if (k < 0 || !isAsciiDigit(t[k]!)) return;
  while (k > 0 && isAsciiDigit(t[k - 1]!)) k--;
  pushAscending(out, k);
}

/** At a comma: a postcode after it and at most two spaces (ZIP_CITY_RE), the street before it (STREET_BEFORE_ZIP_RE). */
function atComma(text: string, t: Uint16Array, i: number, c: Candidates): void {
  const n = t.length;
  let k = i + 1;
  while (k < n && k - i - 1 < 2 && isSpace(t[k]!)) k++;
  if (k >= n) return;
  const u = t[k]!;
  const digit = isAsciiDigit(u);
  if (!digit && !(u >= 65 && u <= 90)) return;
  if (k - i > 1) streetBeforeZipStarts(text, i, c.beforeZip);
  if (digit) c.zip.push(k);
}

/** At a `:`, `=`, `|` or `,`: the keys before it (CUE_SCAN_RE's, and KEY_VALUE_RE's before `:` or `=`), spaces and a quote between. */
function atKeyAnchor(t: Uint16Array, lo: string, q: number, colonOrEquals: boolean, c: Candidates): void {
  let e = q;
  while (e > 0 && isSpace(t[e - 1]!)) e--;
  if (e > 0 && (t[e - 1] === 34 || t[e - 1] === 39)) e--;
  if (e < 2 || (WORD_ENDS.kinds[pairKey(keyAt(t, lo, e - 1), keyAt(t, lo, e - 2))]! & (E_CUE_KEY | E_LOCATION_KEY)) === 0) return;
  endingAt(t, lo, e, E_CUE_KEY, true, c.cue);
  if (colonOrEquals) endingAt(t, lo, e, E_LOCATION_KEY, true, c.locationKey);
}

/** The address cues that start in the word [s, e) of the folded text (whose letters are `mask`). */
function addressCuesIn(t: Uint16Array, lo: string, s: number, e: number, mask: number, out: number[]): void {
  for (let ks = ADDRESS_CUES_BY_LW[(mask >>> 12) & 0xfff]!; ks !== 0; ks &= ks - 1) {
    const k = 31 - Math.clz32(ks & -ks); // (cues in list order)
    if ((mask & ADDRESS_CUE_LETTERS[k]!) !== ADDRESS_CUE_LETTERS[k]) continue;
    const w = ADDRESS_CUES[k]!.w;
    for (let p = s; p < e; p++) if (foldedHas(t, lo, p, w)) out.push(p);
  }
}

export function detectLocations(text: string, cands = scanCandidates(text)): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  const push = (type: string, s: number, e: number, score: number) => {
    while (e > s && isSpaceCommaOrDot(text.charCodeAt(e - 1)) && !(type === "STREET_ADDRESS" && text[e - 1] === "." && /(?:St|Str|Ave|Rd|Dr|Blvd)\.$/.test(text.slice(s, e)))) e--;
    if (e > s) out.push({ type, start: s, end: e, score });
  };
  execAt(SUFFIX_NUM_AT, text, cands.suffix, (m) => {
    let ws = m.index;
    while (ws > 0 && m.index - ws < 30 && /[\p{L}'’-]/u.test(text[ws - 1]!)) ws--;
    if (ws === m.index || !/\p{Lu}/u.test(text[ws]!) || (ws > 0 && /[\p{L}\p{N}]/u.test(text[ws - 1]!))) return;
    push("STREET_ADDRESS", ws, extendBlock(text, ws, m.index + m[0].length), 0.8);
  });
  if (cands.hasDigit) {
    const numStarts = cands.numberLed;
    const contStarts = cands.contMil;
    const street = (m: RegExpExecArray) => push("STREET_ADDRESS", m.index, extendBlock(text, m.index, m.index + m[0].length), 0.8);
    execAt(EN_STREET_AT, text, numStarts, street);
    execAt(CONT_STREET_AT, text, contStarts, street);
    execAt(MIL_AT, text, contStarts, street);
    execAt(NUM_PREFIX_STREET_AT, text, numStarts, street);
    execAt(NUM_LED_AT, text, numStarts, (m) => {
      const words = m[1]!.trim().split(/\s+/);
      const lows = words.map(norm);
      const streety = lows.some((w) => STREET_WORDS.has(w.endsWith(".") ? w.slice(0, -1) : w));
      if (!streety && !(startsUpper(words[0]!) && !COMMON_WORDS.has(lows[0]!))) return;
      if (lows.every((w) => COMMON_WORDS.has(w)) || !words.some(hasLowerCase)) return;
      // "<street> <no>, 382 41 Kaplice 1": a postcode and town after a street, not a street
      if (postcodeTownBefore(text, m.index)) return;
      push("STREET_ADDRESS", m.index, extendBlock(text, m.index, m.index + m[0].length), streety ? 0.8 : 0.7);
    });
    execAt(STREET_BEFORE_ZIP_AT, text, cands.beforeZip, (m) => push("STREET_ADDRESS", m.index, m.index + m[0].length, 0.75));
    execAt(ADDRESS_CUE_AT, text, cands.addressCue, (m) => {
      const v = m[1]!;
      const vs = m.index + m[0].length - v.length;
      if (COMMON_WORDS.has(norm(v.split(" ")[0]!))) return;
      push("STREET_ADDRESS", vs, vs + v.length, 0.75);
    });
  }
  // the town after a single-line street address: "29 Wattle St, King William's Town"
  for (const f of [...out]) {
    if (f.type !== "STREET_ADDRESS") continue;
    const m = /^,[ \t]{1,2}([\p{Lu}][\p{L}'’.-]*(?:[ \t](?:[\p{Lu}][\p{L}'’.-]*|de|la|del|di|du|le|am|an|der|upon|on)){0,4})(?=[ \t]*(?:[,.;\n]|$))/u.exec(text.slice(f.end, f.end + 80));
    if (m) push("LOCATION", f.end + m[0].length - m[1]!.length, f.end + m[0].length, 0.7);
  }
  execAt(STRONG_PLACE_AT, text, cands.strongPlace, (m) => {
    const v = m[1]!;
    const vs = m.index + m[0].length - v.length;
    if (d.first.has(norm(v.split(" ")[0]!)) && v.includes(" ") && !d.places.has(norm(v))) return; // "moved to Anna Berg" is a person
    push("LOCATION", vs, vs + v.length, 0.7);
  });
  keyValuesAt(text, cands.locationKey, cands.countries === undefined, (k, vs, ve) => {
    const key = k.toLowerCase();
    const val = text.slice(vs, ve);
    if (/^(?:n\/a|none|null|unknown|redacted.*|-|\s*)$/i.test(val) || /REDACTED/i.test(val)) return;
    if (key.startsWith("street") || key.startsWith("address")) push("STREET_ADDRESS", vs, vs + val.length, 0.8);
    else if (/[\p{L}]/u.test(val)) push("LOCATION", vs, vs + val.length, 0.75);
  });
  execAt(ZIP_CITY_AT, text, cands.zip, (m) => {
    const city = m[2]!;
    const cs = m.index + m[0].length - city.length;
    push("LOCATION", cs, cs + city.length, 0.7);
  });
  execAt(PLACE_CUE_AT, text, cands.place, (m) => {
    const v = m[1]!;
    const vs = m.index + m[0].length - v.length;
    const n = norm(v);
    if (d.countries.has(n) || d.places.has(n)) push("LOCATION", vs, vs + v.length, 0.75);
    else if (/university of $/i.test(m[0].slice(0, m[0].length - v.length))) push("LOCATION", vs, vs + v.length, 0.6);
  });
  // country names anywhere (bounded word sequences); countries are few and distinctive
  const country = (v: string, at: number) => {
    // longest prefix (of at most 3 words) that is a country; single words without allocating a split
    if (v.indexOf(" ") < 0) {
      if (d.countries.has(norm(v))) push("LOCATION", at, at + v.length, 0.7);
      return;
    }
    const words = v.split(" ");
    for (let k = words.length; k >= 1; k--) {
      const cand = words.slice(0, k).join(" ");
      if (d.countries.has(norm(cand))) {
        push("LOCATION", at, at + cand.length, 0.7);
        break;
      }
    }
  };
  const matches = cands.countries;
  if (matches) for (let k = 0; k < matches.length; k += 2) country(text.slice(matches[k], matches[k + 1]), matches[k]!);
  else {
    COUNTRY_RE.lastIndex = 0;
    for (let m = COUNTRY_RE.exec(text); m; m = COUNTRY_RE.exec(text)) country(m[0], m.index);
  }
  // "… at <number> <Capitalised words>[, <postcode> <Town>]": a number-led street after "at" ("lives at
  // 448 Feil Meadows", "office is at 759 Giri Divide, 693 850 Ahmedabad"); times ("at 5 PM") excluded
  // and the same shapes after a comma ("ship to Hawa Thioune, 6181 Immeuble …", "Graf, Erlenweg 606") or
  // "address as"; after a comma a number-led one must not start with a year ("…, 2024 Annual Report")
  for (const [anchor, afterComma] of STREET_ANCHORS) {
    for (let q = text.indexOf(anchor, 0); q !== -1 && q < text.length; q = text.indexOf(anchor, q + anchor.length)) {
      const at = q + anchor.length;
      // a street starts with a digit or a capital (or a letter of a caseless script): most commas and
      // "at"s are followed by neither, and cost no regex
      const c0 = text.charCodeAt(at);
      if (c0 < 128 ? !(isAsciiDigit(c0) || isAsciiUpper(c0)) : isJsSpace(c0)) continue;
      AT_STREET_AT.lastIndex = at;
      const m = AT_STREET_AT.exec(text);
      // a time ("at 5 PM") or a postcode's letters ("1017 GC Amsterdam") is no street word
      if (!m || TIME_WORD.test(m[1] ?? m[2]!) || (m[1] !== undefined && /^\p{Lu}{1,3}$/u.test(m[1]))) continue;
      // after a comma, a number-led street needs two words after its number: "<postcode> <Town>" is not one
      if (afterComma && m[1] !== undefined && (/^(?:19|20)\d\d\s/.test(m[0]) || !/^\S+\s\S+\s\S/.test(m[0]))) continue;
      push("STREET_ADDRESS", at, at + m[0].length, 0.7);
    }
  }
  // a location inside a (multi-line) street address belongs to the address
  const res = dedupe(out);
  const streets = res.filter((f) => f.type === "STREET_ADDRESS");
  return res.filter((f) => f.type !== "LOCATION" || !streets.some((a) => a.start <= f.start && f.end <= a.end));
}

function dedupe(fs: Finding[]): Finding[] {
  fs.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const f of fs) {
    const prev = out[out.length - 1];
    if (prev && prev.type === f.type && f.start < prev.end) {
      if (f.end > prev.end) prev.end = f.end;
      prev.score = Math.max(prev.score, f.score);
      continue;
    }
    out.push(f);
  }
  return out;
}

/** Persons, locations and street addresses. `_shared` is accepted for a uniform detector signature. */
const TITLE_ONLY = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|sr|sra|srta|mevr|dhr|herr|frau|mme|mlle|sig|dott|ing|hr|fr)\.?$/i;

export function detectNames(text: string, _shared?: TextContext): Finding[] {
  const cands = scanCandidates(text);
  const locs = detectLocations(text, cands);
  const strong = locs.filter((l) => l.score >= 0.7).sort((a, b) => a.start - b.start);
  // a title alone ("Sr", "Mevr", "Dr" before the name found beside it) is not a person
  const persons = detectPersons(text, cands).filter((p) => (!occupied(strong, p.start, p.end) || p.score > 0.8) && !(p.end - p.start <= 6 && TITLE_ONLY.test(text.slice(p.start, p.end))));
  return [...persons, ...locs];
}
