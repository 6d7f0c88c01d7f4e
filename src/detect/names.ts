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

export function detectPersons(text: string): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  // (a) cue-triggered names: one pass over cue words, then read the name tokens after each cue
  CUE_SCAN_RE.lastIndex = 0;
  let lastEnd = -1;
  for (let m = CUE_SCAN_RE.exec(text); m; m = CUE_SCAN_RE.exec(text)) {
    const pos = m.index + m[0].length;
    if (pos <= lastEnd) continue;
    const keyCtx = m[1] !== undefined;
    const strong = m[3] !== undefined && STRONG_CUE.test(m[3]);
    // "call me Mrs. May": the honorific after a cue is part of the cue
    const honAfter = /^(?:mrs|mr|ms|miss|mx|dr|prof|sir|herr|frau|mme|mlle)(?:\.\s*|\s+)/iu.exec(text.slice(pos, pos + 8));
    const hon = m[2] !== undefined || honAfter !== null;
    const toks = readNameTokens(text, pos + (honAfter ? honAfter[0].length : 0), 4, keyCtx, hon);
    if (toks.length === 0) continue;
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
  }
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
  CAP_SEQ_RE.lastIndex = 0;
  for (let m = CAP_SEQ_RE.exec(text); m; m = CAP_SEQ_RE.exec(text)) {
    const s = m.index;
    const e = s + m[0].length;
    if (occupied(cueSpans, s, e)) continue;
    const parts = m[0].split(/\s+/);
    const firstW = norm(parts[0]!);
    const lastW = norm(parts[parts.length - 1]!.replace(/\.$/, ""));
    if (COMMON_WORDS.has(firstW) || COMMON_WORDS.has(lastW)) continue;
    const firstOk = d.first.has(firstW);
    const lastOk = d.last.has(lastW) || d.first.has(lastW);
    if (d.countries.has(norm(m[0])) || d.places.has(norm(m[0]))) continue;
    if (firstOk && lastOk) out.push({ type: "PERSON", start: s, end: e, score: 0.75 });
    else if (firstOk && parts.length >= 2 && parts[parts.length - 1]!.length > 2) out.push({ type: "PERSON", start: s, end: e, score: 0.55 });
  }
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

export function detectLocations(text: string): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  const push = (type: string, s: number, e: number, score: number) => {
    while (e > s && /[\s,.]/.test(text[e - 1]!) && !(type === "STREET_ADDRESS" && text[e - 1] === "." && /(?:St|Str|Ave|Rd|Dr|Blvd)\.$/.test(text.slice(s, e)))) e--;
    if (e > s) out.push({ type, start: s, end: e, score });
  };
  SUFFIX_NUM_RE.lastIndex = 0;
  for (let m = SUFFIX_NUM_RE.exec(text); m; m = SUFFIX_NUM_RE.exec(text)) {
    let ws = m.index;
    while (ws > 0 && m.index - ws < 30 && /[\p{L}'’-]/u.test(text[ws - 1]!)) ws--;
    if (ws === m.index || !/\p{Lu}/u.test(text[ws]!) || (ws > 0 && /[\p{L}\p{N}]/u.test(text[ws - 1]!))) continue;
    push("STREET_ADDRESS", ws, extendBlock(text, ws, m.index + m[0].length), 0.8);
  }
  const hasDigit = /\d/.test(text);
  if (hasDigit) {
    for (const re of [EN_STREET_RE, CONT_STREET_RE, MIL_RE, NUM_PREFIX_STREET_RE]) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) push("STREET_ADDRESS", m.index, extendBlock(text, m.index, m.index + m[0].length), 0.8);
    }
    NUM_LED_RE.lastIndex = 0;
    for (let m = NUM_LED_RE.exec(text); m; m = NUM_LED_RE.exec(text)) {
      const words = m[1]!.trim().split(/\s+/);
      const streety = words.some((w) => STREET_WORDS.has(norm(w.replace(/\.$/, ""))));
      if (!streety && !(/^\p{Lu}/u.test(words[0]!) && !COMMON_WORDS.has(norm(words[0]!)))) continue;
      if (words.every((w) => COMMON_WORDS.has(norm(w))) || !words.some((w) => /\p{Ll}/u.test(w))) continue;
      // "<street> <no>, 382 41 Kaplice 1": a postcode and town after a street, not a street
      if (/\d[^,\n]{0,40},[ \t]{0,2}$/.test(text.slice(Math.max(0, m.index - 48), m.index))) continue;
      push("STREET_ADDRESS", m.index, extendBlock(text, m.index, m.index + m[0].length), streety ? 0.8 : 0.7);
    }
    STREET_BEFORE_ZIP_RE.lastIndex = 0;
    for (let m = STREET_BEFORE_ZIP_RE.exec(text); m; m = STREET_BEFORE_ZIP_RE.exec(text)) push("STREET_ADDRESS", m.index, m.index + m[0].length, 0.75);
    ADDRESS_CUE_RE.lastIndex = 0;
    for (let m = ADDRESS_CUE_RE.exec(text); m; m = ADDRESS_CUE_RE.exec(text)) {
      const v = m[1]!;
      const vs = m.index + m[0].length - v.length;
      if (COMMON_WORDS.has(norm(v.split(" ")[0]!))) continue;
      push("STREET_ADDRESS", vs, vs + v.length, 0.75);
    }
  }
  // the town after a single-line street address: "29 Wattle St, King William's Town"
  for (const f of [...out]) {
    if (f.type !== "STREET_ADDRESS") continue;
    const m = /^,[ \t]{1,2}([\p{Lu}][\p{L}'’.-]*(?:[ \t](?:[\p{Lu}][\p{L}'’.-]*|de|la|del|di|du|le|am|an|der|upon|on)){0,4})(?=[ \t]*(?:[,.;\n]|$))/u.exec(text.slice(f.end, f.end + 80));
    if (m) push("LOCATION", f.end + m[0].length - m[1]!.length, f.end + m[0].length, 0.7);
  }
  STRONG_PLACE_RE.lastIndex = 0;
  for (let m = STRONG_PLACE_RE.exec(text); m; m = STRONG_PLACE_RE.exec(text)) {
    const v = m[1]!;
    const vs = m.index + m[0].length - v.length;
    if (d.first.has(norm(v.split(" ")[0]!)) && v.includes(" ") && !d.places.has(norm(v))) continue; // "moved to Anna Berg" is a person
    push("LOCATION", vs, vs + v.length, 0.7);
  }
  KEY_VALUE_RE.lastIndex = 0;
  for (let m = KEY_VALUE_RE.exec(text); m; m = KEY_VALUE_RE.exec(text)) {
    const key = m[1]!.toLowerCase();
    const val = m[2]!;
    const vs = m.index + m[0].lastIndexOf(val);
    if (/^(?:n\/a|none|null|unknown|redacted.*|-|\s*)$/i.test(val) || /REDACTED/i.test(val)) continue;
    if (key.startsWith("street") || key.startsWith("address")) push("STREET_ADDRESS", vs, vs + val.length, 0.8);
    else if (/[\p{L}]/u.test(val)) push("LOCATION", vs, vs + val.length, 0.75);
  }
  ZIP_CITY_RE.lastIndex = 0;
  for (let m = ZIP_CITY_RE.exec(text); m; m = ZIP_CITY_RE.exec(text)) {
    const city = m[2]!;
    const cs = m.index + m[0].length - city.length;
    push("LOCATION", cs, cs + city.length, 0.7);
  }
  PLACE_CUE_RE.lastIndex = 0;
  for (let m = PLACE_CUE_RE.exec(text); m; m = PLACE_CUE_RE.exec(text)) {
    const v = m[1]!;
    const vs = m.index + m[0].length - v.length;
    const n = norm(v);
    if (d.countries.has(n) || d.places.has(n)) push("LOCATION", vs, vs + v.length, 0.75);
    else if (/university of $/i.test(m[0].slice(0, m[0].length - v.length))) push("LOCATION", vs, vs + v.length, 0.6);
  }
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
  const locs = detectLocations(text);
  const strong = locs.filter((l) => l.score >= 0.7).sort((a, b) => a.start - b.start);
  const persons = detectPersons(text).filter((p) => !occupied(strong, p.start, p.end) || p.score > 0.8);
  return [...persons, ...locs];
}
