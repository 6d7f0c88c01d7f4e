// Person names, locations and street addresses. Offline only: dictionaries shipped in npm packages
// (@faker-js/faker locale data: first names, last names, cities, countries, street suffixes, for
// ~70 locales; @cspell/dict-people-names) combined with context cues (labels such as "Name:",
// honorifics, JSON keys, "ship to …, <zip> <city>") and shape rules. All scans are bounded.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { allLocales } from "@faker-js/faker";
import type { TextContext } from "./context.ts";
import type { Finding } from "./types.ts";

interface Dicts {
  first: Set<string>;
  last: Set<string>;
  places: Set<string>;
  countries: Set<string>;
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
  dicts = { first, last, places, countries };
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
/** Prefilter (folded text): an honorific or the first words of a cue, after a non-letter. */
const CUE_WORD_PRE = new RegExp(
  `(?:^|[^a-z])((?:${HONORIFIC_WORDS})[.\\s]|my name|name|called|call me|i am|i'm|this is|signed|regards|sincerely|dear|hi|hello|contact|holder|customer|patient|employee|candidate|applicant|soy|me llamo|mi nombre es|ich bin|ich heiße|mein name ist|je m'appelle|je suis|change it to|accounts with|kid|son|daughter|wife|husband|says|commenter|author|speaker|from the desk of|attn|c/o|last|first|full|sur|given|family|ship|send|deliver|mail|forward|address|write|schicken|senden|liefern|envoyer|envoyez|enviar|envíe|envie|spedire)`,
  "g",
);
/** The keys of KEY_CUE_WORDS, spelled out. */
const CUE_KEYS = [
  "full_name", "fullname", "name", "first_name", "firstname", "last_name", "lastname", "surname", "contact", "card_holder", "cardholder", "holder",
  "customer_name", "customername", "recipient", "sender", "owner", "patient", "employee",
  "user_name_full", "username_full", "user_namefull", "usernamefull", "display_name", "displayname",
];
/**
 * Prefilter (folded text): a `:`, `=`, `|` or `,` after a key of the person cues or of KEY_VALUE_RE
 * (the keys' last words), an optional quote and spaces.
 */
const KEY_ANCHOR_PRE = /[:=|,](?<=(?:name|contact|holder|recipient|sender|owner|patient|employee|full|street|address|line_?1|city|country|town|state|region|location)["']?\s*[:=|,])/g;

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

/** JavaScript's \s. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Collects the matches of a prefilter regex (global) as positions; the scan goes on one past each match start. */
function prefilterHits(re: RegExp, s: string, at: (m: RegExpExecArray) => void): void {
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    at(m);
    re.lastIndex = m.index + 1;
  }
}

/**
 * Starts of the literals (lower-case, from a list) that end at `end` in the folded text, each also
 * one further back when a quote precedes it (rules whose key may be quoted).
 */
function literalsEndingAt(lo: string, end: number, literals: readonly string[], quoted: boolean, out: number[]): void {
  for (const w of literals) {
    const s = end - w.length;
    if (s < 0 || !lo.startsWith(w, s)) continue;
    out.push(s);
    if (quoted && s > 0 && (lo[s - 1] === '"' || lo[s - 1] === "'")) out.push(s - 1);
  }
}

/** Where a key ends before the `:`/`=`/… at q: before the spaces and an optional quote. */
function keyEndBefore(lo: string, q: number): number {
  let e = q;
  while (e > 0 && isSpace(lo.charCodeAt(e - 1))) e--;
  if (e > 0 && (lo[e - 1] === '"' || lo[e - 1] === "'")) e--;
  return e;
}

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
  return out;
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
    const lower = t[0] === t[0]!.toLowerCase() && t[0] !== t[0]!.toUpperCase();
    if (lower && !allowLower && !PARTICLES.has(t)) break;
    if (lower && PARTICLES.has(t) === false && !allowLower) break;
    toks.push({ start: i, end: i + t.length, text: t });
    i += t.length;
    if (text[i] === "." && t.length === 1) i++;
    // single space (or two) between tokens, no newline
    let j = i;
    while (j < text.length && j - i < 2 && text[j] === " ") j++;
    if (j === i) break;
    i = j;
  }
  // drop trailing particles / common words
  while (toks.length > 0) {
    const last = toks[toks.length - 1]!;
    if (PARTICLES.has(last.text.toLowerCase()) || (COMMON_WORDS.has(last.text.toLowerCase()) && !(keepCommon && toks.length === 1 && /^\p{Lu}/u.test(last.text)))) toks.pop();
    else break;
  }
  return toks;
}

function isNameLike(t: string, d: Dicts): boolean {
  const w = norm(t.replace(/\.$/, ""));
  return d.first.has(w) || d.last.has(w);
}

const CAP_SEQ_RE = /(?<![\p{L}\p{N}_@.])[\p{Lu}][\p{Ll}'’-]{1,24}(?:\s{1,2}(?:[\p{Lu}]\.?|[\p{Lu}][\p{Ll}'’-]{1,24}|van|de|der|von|bin|da|di|del|la|le|dos)){1,3}(?![\p{L}\p{N}_@])/gu;
const CAP_SEQ_AT = sticky(CAP_SEQ_RE);
/**
 * Prefilter (original text): CAP_SEQ_RE's first word and what follows it, with any non-ASCII character
 * as a letter, but of the astral planes only those whose lead surrogate (d801 … d83a) has cased
 * letters (not emoji or tag characters, which would each start a 24-character probe).
 */
const CAP_SEQ_PRE =
  /[A-Z\u0080-\ud7ff\ue000-\uffff\ud801\ud803\ud806\ud81b\ud835\ud837\ud83a](?<![A-Za-z0-9_@.].)[a-z'\u0080-\ud7ff\ue000-\uffff\ud801\ud803\ud806\ud81b\ud835\ud837\ud83a\udc00-\udfff-]{1,24}\s{1,2}(?:[A-Z\u0080-\ud7ff\ue000-\uffff\ud801\ud803\ud806\ud81b\ud835\ud837\ud83a]|van|de|der|von|bin|da|di|del|la|le|dos)/g;

/** Candidate starts of CUE_SCAN_RE: cue words and honorifics at word starts, keys before their `:`/`=`/`|`/`,`. */
function cueStarts(lo: string): number[] {
  const starts: number[] = [];
  prefilterHits(CUE_WORD_PRE, lo, (m) => starts.push(m.index + m[0].length - m[1]!.length));
  prefilterHits(KEY_ANCHOR_PRE, lo, (m) => literalsEndingAt(lo, keyEndBefore(lo, m.index), CUE_KEYS, true, starts));
  return starts.sort(ascending);
}

export function detectPersons(text: string, lo = foldedCopy(text)): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  // (a) cue-triggered names: one pass over cue words, then read the name tokens after each cue
  let lastEnd = -1;
  execAt(CUE_SCAN_AT, text, cueStarts(lo), (m) => {
    const pos = m.index + m[0].length;
    if (pos <= lastEnd) return;
    const keyCtx = m[1] !== undefined;
    const strong = m[3] !== undefined && STRONG_CUE.test(m[3]);
    // "call me Mrs. May": the honorific after a cue is part of the cue
    const honAfter = /^(?:mrs|mr|ms|miss|mx|dr|prof|sir|herr|frau|mme|mlle)(?:\.\s*|\s+)/iu.exec(text.slice(pos, pos + 8));
    const hon = m[2] !== undefined || honAfter !== null;
    const toks = readNameTokens(text, pos + (honAfter ? honAfter[0].length : 0), 4, keyCtx, hon);
    if (toks.length === 0) return;
    const s = toks[0]!.start;
    const e = toks[toks.length - 1]!.end;
    const known = toks.filter((t) => isNameLike(t.text, d)).length;
    const allCaps = toks.every((t) => /^[\p{Lu}.]+$/u.test(t.text));
    const capitalised = /^\p{Lu}/u.test(toks[0]!.text);
    let score: number;
    if (keyCtx) score = toks.length >= 2 ? 0.85 : known > 0 ? 0.75 : 0.55;
    else if (hon) score = capitalised ? 0.85 : 0;
    else if (allCaps && toks.length < 2) score = 0;
    else if (known > 0) score = toks.length >= 2 || known === toks.length ? 0.8 : 0.5;
    else if (strong && capitalised) score = 0.6;
    else score = toks.length >= 2 && !allCaps && capitalised ? 0.55 : 0;
    if (allCaps && !keyCtx && !hon && known < toks.length) score = 0;
    if (toks.some((t) => COMMON_WORDS.has(t.text.toLowerCase())) && !hon && !keyCtx) score -= 0.3;
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
  const capStarts: number[] = [];
  prefilterHits(CAP_SEQ_PRE, text, (m) => capStarts.push(m.index));
  execAt(CAP_SEQ_AT, text, capStarts, (m) => {
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
const ZIP_CITY_RE = /(?<=,\s{0,2})(\d{3}\s?\d{2}|\d{4,5})\s([\p{Lu}][\p{L}'’.-]{1,30}(?:\s[\p{Lu}\d][\p{L}'’.-]{0,30}){0,3})(?=\s*[,.\n]|$)/gu;
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
  /(?:address|adresse|dirección|direccion|indirizzo|endereço|anschrift|vivo en|wohne in|live at|lives at|located at|moved to)(?:\s+is)?\s*:?\s*([\p{Lu}][\p{L}'’.-]{1,30}(?:\s[\p{L}'’.-]{1,30}){0,3}\s\d{1,5}[a-zA-Z]?)(?![\p{L}\p{N}])/giu;
/** Places after cues that name a place whatever the word (any script, capitalised or upper case). */
const STRONG_PLACE_RE =
  /(?:originally from|born in|flew to|moved to|lives? in|living in|university of|city of|i am in|i'm in|based in|travel(?:l)?ing to|trip to|vivo en|wohne in|j'habite à)\s((?:[\p{Lu}][\p{L}∆'’.-]{1,30})(?:\s(?:[\p{Lu}][\p{L}∆'’.-]{1,30}|de|la|del|di|du|le|am|an|der|upon))*)/giu;
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
  let le = text.indexOf("\n", e);
  if (le < 0) le = text.length;
  let end = e;
  const rest = text.slice(e, le);
  if (rest.length <= 60 && restOfLineIsAddress(rest)) end = le;
  else if (rest.trim().length > 0) return e; // the line goes on with other text: a single-line address
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

const EN_STREET_AT = sticky(EN_STREET_RE);
const CONT_STREET_AT = sticky(CONT_STREET_RE);
const SUFFIX_NUM_AT = sticky(SUFFIX_NUM_RE);
const MIL_AT = sticky(MIL_RE);
const ZIP_CITY_AT = sticky(ZIP_CITY_RE);
const KEY_VALUE_AT = sticky(KEY_VALUE_RE);
const PLACE_CUE_AT = sticky(PLACE_CUE_RE);
const NUM_LED_AT = sticky(NUM_LED_RE);
const NUM_PREFIX_STREET_AT = sticky(NUM_PREFIX_STREET_RE);
const STREET_BEFORE_ZIP_AT = sticky(STREET_BEFORE_ZIP_RE);
const ADDRESS_CUE_AT = sticky(ADDRESS_CUE_RE);
const STRONG_PLACE_AT = sticky(STRONG_PLACE_RE);

/** SUFFIX_NUM_RE's street types. */
const NUM_SUFFIXES = ["straße", "strasse", "str.", "gasse", "weg", "platz", "allee", "ring", "damm", "ufer", "vej", "gade", "vägen", "gatan", "veien", "vegen", "laan", "straat", "utca", "út", "tie", "katu", "tee", "iela", "gatve", "cesta", "ulice"];
/** Prefilter (folded text): the space and digit after one of them. */
const SUFFIX_NUM_PRE = new RegExp(`\\s\\d(?<=(?:${NUM_SUFFIXES.map((w) => w.replace(".", "\\.")).join("|")})\\s\\d)`, "g");
/** Prefilter (original text): a space and a letter after a number (and an optional letter), where a number-led street goes on. */
const NUM_WORD_PRE = /\s[A-Za-z\u0080-\uffff](?<=\d[A-Za-z\u017f\u212a]?\s[^])/g;
/** Prefilter (folded text): the street type of CONT_STREET_RE or the unit of MIL_RE, after a non-letter, and a space. */
const CONT_MIL_PRE = /(?:^|[^a-z0-9])((?:rue|rua|via|calle|avenida|av\.|chemin|boulevard|piazza|plaza|carrer|viale|corso|praça|ulica|ul\.|strada|psc|unit|cmr)\s)/g;
/** Prefilter (original text): a comma and at most two spaces before a postcode (ZIP_CITY_RE, STREET_BEFORE_ZIP_RE). */
const ZIP_PRE = /,\s{0,2}[\dA-Z]/g;
/** Prefilter (folded text): ADDRESS_CUE_RE's cues. */
const ADDRESS_CUE_PRE = /address|adresse|dirección|direccion|indirizzo|endereço|anschrift|vivo en|wohne in|live at|lives at|located at|moved to/g;
/** Prefilter (folded text): the space between a place cue's last word and a letter. */
const PLACE_ANCHOR_PRE = /\s[a-z\u0080-\uffff](?<=(?:from|in|at|to|near|visit|visited|visiting|of|en|à)\s[^])/g;
const PLACE_CUES = ["from", "in", "at", "to", "near", "visit", "visited", "visiting", "flew to", "moved to", "live in", "lives in", "living in", "born in", "university of", "city of", "originally from"];
const STRONG_PLACE_CUES = ["originally from", "born in", "flew to", "moved to", "live in", "lives in", "living in", "university of", "city of", "i am in", "i'm in", "based in", "traveling to", "travelling to", "trip to", "vivo en", "wohne in", "j'habite à"];
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

/** Starts of number-led streets (EN_STREET_RE, NUM_LED_RE, NUM_PREFIX_STREET_RE): the number before the first word, or the first of two numbers. */
function numberLedStarts(text: string): number[] {
  const out: number[] = [];
  prefilterHits(NUM_WORD_PRE, text, (m) => {
    let r = m.index - 1;
    if (!isDigitAt(text, r)) r--; // the letter after the house number: "12A Main St"
    while (r > 0 && isDigitAt(text, r - 1)) r--;
    out.push(r);
    // "12 34 Main": the optional second number
    let k = r - 1;
    if (k < 1 || !isSpace(text.charCodeAt(k))) return;
    k--;
    if (!isDigitAt(text, k) && (isAsciiLetterAt(text, k) || text[k] === "\u017f" || text[k] === "\u212a")) k--;
    if (k < 0 || !isDigitAt(text, k)) return;
    while (k > 0 && isDigitAt(text, k - 1)) k--;
    out.push(k);
  });
  return out.sort(ascending);
}

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

/** ASCII characters that STREET_BEFORE_ZIP_RE's street words and the spaces between them may hold. */
function streetWordChar(c: number): boolean {
  return c >= 0x80 || isSpace(c) || c === 39 || c === 45 || c === 46 || ((c | 32) >= 97 && (c | 32) <= 122);
}

/**
 * Starts of STREET_BEFORE_ZIP_RE before the comma at `comma` ("Hauptstr. 5, 80331 München"): capital
 * letters (or non-ASCII) after a delimiter, a space or a tab, in the street words before the number.
 */
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
    if ((c >= 65 && c <= 90) || c >= 0x80) {
      const b = p === 0 ? -1 : text.charCodeAt(p - 1);
      // ^, [,;:(\n"] or [ \t] before it
      if (b === -1 || b === 44 || b === 59 || b === 58 || b === 40 || b === 10 || b === 34 || b === 32 || b === 9) out.push(p);
    }
  }
}

export function detectLocations(text: string, lo = foldedCopy(text)): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  const push = (type: string, s: number, e: number, score: number) => {
    while (e > s && /[\s,.]/.test(text[e - 1]!) && !(type === "STREET_ADDRESS" && text[e - 1] === "." && /(?:St|Str|Ave|Rd|Dr|Blvd)\.$/.test(text.slice(s, e)))) e--;
    if (e > s) out.push({ type, start: s, end: e, score });
  };
  const suffixStarts: number[] = [];
  prefilterHits(SUFFIX_NUM_PRE, lo, (m) => literalsEndingAt(lo, m.index, NUM_SUFFIXES, false, suffixStarts));
  execAt(SUFFIX_NUM_AT, text, suffixStarts.sort(ascending), (m) => {
    let ws = m.index;
    while (ws > 0 && m.index - ws < 30 && /[\p{L}'’-]/u.test(text[ws - 1]!)) ws--;
    if (ws === m.index || !/\p{Lu}/u.test(text[ws]!) || (ws > 0 && /[\p{L}\p{N}]/u.test(text[ws - 1]!))) return;
    push("STREET_ADDRESS", ws, extendBlock(text, ws, m.index + m[0].length), 0.8);
  });
  const hasDigit = /\d/.test(text);
  if (hasDigit) {
    const numStarts = numberLedStarts(text);
    const contStarts: number[] = [];
    prefilterHits(CONT_MIL_PRE, lo, (m) => contStarts.push(m.index + m[0].length - m[1]!.length));
    const street = (m: RegExpExecArray) => push("STREET_ADDRESS", m.index, extendBlock(text, m.index, m.index + m[0].length), 0.8);
    execAt(EN_STREET_AT, text, numStarts, street);
    execAt(CONT_STREET_AT, text, contStarts, street);
    execAt(MIL_AT, text, contStarts, street);
    execAt(NUM_PREFIX_STREET_AT, text, numStarts, street);
    execAt(NUM_LED_AT, text, numStarts, (m) => {
      const words = m[1]!.trim().split(/\s+/);
      const streety = words.some((w) => STREET_WORDS.has(norm(w.replace(/\.$/, ""))));
      if (!streety && !(/^\p{Lu}/u.test(words[0]!) && !COMMON_WORDS.has(norm(words[0]!)))) return;
      if (words.every((w) => COMMON_WORDS.has(norm(w))) || !words.some((w) => /\p{Ll}/u.test(w))) return;
      // "<street> <no>, 382 41 Kaplice 1": a postcode and town after a street, not a street
      if (postcodeTownBefore(text, m.index)) return;
      push("STREET_ADDRESS", m.index, extendBlock(text, m.index, m.index + m[0].length), streety ? 0.8 : 0.7);
    });
    const beforeZipStarts: number[] = [];
    prefilterHits(ZIP_PRE, text, (m) => {
      if (m[0].length > 2) streetBeforeZipStarts(text, m.index, beforeZipStarts);
    });
    execAt(STREET_BEFORE_ZIP_AT, text, beforeZipStarts.sort(ascending), (m) => push("STREET_ADDRESS", m.index, m.index + m[0].length, 0.75));
    const cueStarts: number[] = [];
    prefilterHits(ADDRESS_CUE_PRE, lo, (m) => cueStarts.push(m.index));
    execAt(ADDRESS_CUE_AT, text, cueStarts, (m) => {
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
  const strongStarts: number[] = [];
  const placeStarts: number[] = [];
  prefilterHits(PLACE_ANCHOR_PRE, lo, (m) => {
    literalsEndingAt(lo, m.index, STRONG_PLACE_CUES, false, strongStarts);
    literalsEndingAt(lo, m.index, PLACE_CUES, false, placeStarts);
  });
  execAt(STRONG_PLACE_AT, text, strongStarts.sort(ascending), (m) => {
    const v = m[1]!;
    const vs = m.index + m[0].length - v.length;
    if (d.first.has(norm(v.split(" ")[0]!)) && v.includes(" ") && !d.places.has(norm(v))) return; // "moved to Anna Berg" is a person
    push("LOCATION", vs, vs + v.length, 0.7);
  });
  const keyStarts: number[] = [];
  prefilterHits(KEY_ANCHOR_PRE, lo, (m) => {
    if (m[0] === ":" || m[0] === "=") literalsEndingAt(lo, keyEndBefore(lo, m.index), LOCATION_KEYS, true, keyStarts);
  });
  execAt(KEY_VALUE_AT, text, keyStarts.sort(ascending), (m) => {
    const key = m[1]!.toLowerCase();
    const val = m[2]!;
    const vs = m.index + m[0].lastIndexOf(val);
    if (/^(?:n\/a|none|null|unknown|redacted.*|-|\s*)$/i.test(val) || /REDACTED/i.test(val)) return;
    if (key.startsWith("street") || key.startsWith("address")) push("STREET_ADDRESS", vs, vs + val.length, 0.8);
    else if (/[\p{L}]/u.test(val)) push("LOCATION", vs, vs + val.length, 0.75);
  });
  const zipStarts: number[] = [];
  prefilterHits(ZIP_PRE, text, (m) => {
    const z = m.index + m[0].length - 1;
    if (isDigitAt(text, z)) zipStarts.push(z);
  });
  execAt(ZIP_CITY_AT, text, zipStarts, (m) => {
    const city = m[2]!;
    const cs = m.index + m[0].length - city.length;
    push("LOCATION", cs, cs + city.length, 0.7);
  });
  execAt(PLACE_CUE_AT, text, placeStarts.sort(ascending), (m) => {
    const v = m[1]!;
    const vs = m.index + m[0].length - v.length;
    const n = norm(v);
    if (d.countries.has(n) || d.places.has(n)) push("LOCATION", vs, vs + v.length, 0.75);
    else if (/university of $/i.test(m[0].slice(0, m[0].length - v.length))) push("LOCATION", vs, vs + v.length, 0.6);
  });
  // country names anywhere (bounded word sequences); countries are few and distinctive
  const COUNTRY_RE = /(?<![\p{L}])[\p{Lu}][\p{Ll}]{2,20}(?:\s[\p{Lu}][\p{Ll}]{2,20}){0,2}(?![\p{L}])/gu;
  COUNTRY_RE.lastIndex = 0;
  for (let m = COUNTRY_RE.exec(text); m; m = COUNTRY_RE.exec(text)) {
    // longest prefix (of at most 3 words) that is a country; single words without allocating a split
    const v = m[0];
    const sp1 = v.indexOf(" ");
    if (sp1 < 0) {
      if (d.countries.has(norm(v))) push("LOCATION", m.index, m.index + v.length, 0.7);
      continue;
    }
    const words = v.split(" ");
    for (let k = words.length; k >= 1; k--) {
      const cand = words.slice(0, k).join(" ");
      if (d.countries.has(norm(cand))) {
        push("LOCATION", m.index, m.index + cand.length, 0.7);
        break;
      }
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
export function detectNames(text: string, _shared?: TextContext): Finding[] {
  const lo = foldedCopy(text);
  const locs = detectLocations(text, lo);
  const strong = locs.filter((l) => l.score >= 0.7).sort((a, b) => a.start - b.start);
  const persons = detectPersons(text, lo).filter((p) => !occupied(strong, p.start, p.end) || p.score > 0.8);
  return [...persons, ...locs];
}
