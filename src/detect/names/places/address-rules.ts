// The street-address and place rules (regexes over bounded windows), the street-type and cue lists they share
// with the candidate scan, and the address block's continuation lines.

import * as chars from '../../text/chars.ts';
import * as namesSticky from '../sticky.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { isAsciiDigit, isAsciiLetter, isJsSpace: isSpace, LF } = chars;
const { sticky } = namesSticky;

const STREET_SUFFIX =
  'street|st\\.?|road|rd\\.?|avenue|ave\\.?|drive|dr\\.?|lane|ln\\.?|court|ct\\.?|boulevard|blvd\\.?|way|place|pl\\.?|terrace|crescent|close|highway|hwy|parkway|pkwy|square|sq\\.?|trail|circle|row|walk|mews|grove|gardens|hill|view|path|loop|alley|plaza';
const EN_STREET_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])\\d{1,6}[A-Za-z]?(?:\\s\\d{1,5})?\\s(?:[\\p{Lu}][\\p{L}'’.-]{0,24}\\s){1,4}(?:${STREET_SUFFIX})(?![\\p{L}])(?:,?\\s(?:apt\\.?|suite|unit|ste\\.?|#)\\s?\\w{1,6})?`,
  'giu',
);
const CONT_STREET_RE =
  /(?<![\p{L}\p{N}])(?:(?:rue|rua|via|calle|avenida|av\.|chemin|boulevard|piazza|plaza|carrer|viale|corso|praça|ulica|ul\.|strada)\s(?:[\p{L}'’.-]{1,24}\s){0,4}[\p{L}'’.-]{1,24},?\s\d{1,5}[a-z]?)(?![\p{L}\p{N}])/giu;
const SUFFIX_NUM_RE =
  /(?<=\p{Ll})(?:straße|strasse|str\.|gasse|weg|platz|allee|ring|damm|ufer|vej|gade|vägen|gatan|veien|vegen|laan|straat|utca|út|tie|katu|tee|iela|gatve|cesta|ulice)\s\d{1,5}[a-z]?(?![\p{L}\p{N}])/giu;
const MIL_RE =
  /(?<![\p{L}\p{N}])(?:PSC|Unit|CMR)\s\d{3,5},?\s(?:Box)\s\d{3,5}(?:\s{1,3}(?:APO|FPO|DPO)\s(?:AA|AE|AP)\s\d{5})?/giu;
const ZIP_CITY_RE =
  /(?<=,\s{0,2})(\d{3}\s\d{3}|\d{3}\s?\d{2}(?:-\d{4})?|\d{4,5}(?:-\d{3,4})?|[A-Z]{1,2}-\d{4,5}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})[ \t]([\p{Lu}][\p{L}'’.-]{1,30}(?:[ \t][\p{Lu}\d][\p{L}'’.-]{0,30}){0,3})(?=\s*[,.;)\n"'—–]|[ \t]+-[ \t]|[ \t]+[\w.-]{1,40}=|$)/gu;
/**
 * Keys of the fields that hold a place (`"city": "Lyon"`, `Ort: Olmos`, `origin=Luzino`): the address keys, the
 * place keys of the seven languages, and keys of the places a trip or shipment goes between ("origin",
 * "destination", "departure", "Abfahrt", "llegada"…) and of administrative places ("county", "Gemeinde",
 * "provincia"). The keys after LOCATION_KEYS_OLD are "weak": their value must look like a name (see
 * names/places/fields.ts).
 */
const PLACE_KEY_ALTERNATION =
  'street|address|address_?line_?1|address_?1|addr|line_?1|city|country|town|state|region|location|geo|wohnort|geburtsort|standort|stadt|ort|ville|pays|lieu|localit[ée]|ciudad|localidad|pa[ií]s|lugar|cidade|localidade|paese|localit[àa]|comune|luogo|woonplaats|plaats|stad|land|hometown|birthplace|' +
  'country_?name|city_?name|based_?in|origin|destination|departure|arrival|pick_?up|drop_?off|drop-off|where|residence|place_of_birth|birth_?place|province|county|district|municipality|' +
  'herkunft|ziel|zielort|reiseziel|abfahrt|ankunft|abfahrtsort|abholort|bundesland|kanton|landkreis|gemeinde|heimatort|d[ée]part|arriv[ée]e|provenance|r[ée]gion|d[ée]partement|origen|destino|salida|llegada|provincia|municipio|origine|destinazione|partenza|arrivo|regione|origem|partida|chegada|munic[ií]pio|regi[ãa]o|herkomst|bestemming|vertrek|aankomst|provincie|gemeente|' +
  // the site of something: a facility, a venue, a meeting point, an office (FACILITY_KEYS)
  'facility|site|venue|hub|depot|station|airport|office|branch|warehouse|campus|terminal|meeting_?point|headquarters|hq|ship_?from|ship_?to|ship-from|ship-to|place|abflug|stops|cities|towns|destinations|locations|places|waypoints|offices|sites|venues|countries|regions|from|to|von|nach|desde|hasta|naar|locality|place_?name|location_?name|settlement|stop|layover|stopover|pickup point|meeting point|residenza|residencia|resid[êe]ncia|wohnsitz|domicile|domicilio|sitz der gesellschaft|si[èe]ge social|sede legale|sede sociale|sede operativa|vestigingsplaats|naturalidade|haltestelle|fermata|parada|halte|treffpunkt|flughafen|bahnhof|filiale|niederlassung|veranstaltungsort|sitz|firmensitz|hauptsitz|si[èe]ge|agence|gare|a[ée]roport|entrep[ôo]t|succursale|sede|sucursal|oficina|aeropuerto|estaci[óo]n|ufficio|aeroporto|stazione|ritrovo|filial|escrit[óo]rio|esta[çc][ãa]o|vestiging|kantoor|luchthaven|trefpunt|ontmoetingspunt';
const KEY_VALUE_RE = new RegExp(
  `["']?(${PLACE_KEY_ALTERNATION})["']?\\s*[:=]\\s*["']?([^"'\\n,]{2,80}?)["']?(?=\\s*[,})\\];\\n]|$|[ \\t]+[\\w.-]{1,40}=)`,
  'giu',
);
/** KEY_VALUE_RE up to its `:` or `=` (names/places/key-value.ts). */
export const KEY_PREFIX_AT = new RegExp(`["']?(${PLACE_KEY_ALTERNATION})["']?\\s*[:=]`, 'iuy');
/** Prepositions after which an unknown capitalised name may be a place (see names/places/cues.ts for the guards). */
export const OPEN_PLACE_CUES = [
  'from',
  'in',
  'to',
  'near',
  'between',
  'towards',
  'toward',
  'out of',
  'outside',
  'downtown',
  'tra',
  'fra',
  'tussen',
  'aus',
  'nach',
  'von',
  'bei',
  'zwischen',
  'richtung',
  'de',
  'en',
  'desde',
  'da',
  'em',
  'para',
  'naar',
  'van',
  'uit',
  'vanuit',
  'richting',
  'te',
  'entre',
  'vers',
  'depuis',
  'hacia',
  'verso',
  'presso',
  'até',
  'per',
  'à',
  'a',
];
// (the literal prefilter keys a cue by its last two code units: a one-letter cue is listed with the space before it)
/** Lower-case words inside a place name: "Santa Cruz de la Sierra", "Hart im Zillertal", "Stratford upon Avon". */
const PLACE_CONNECTORS = 'de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al';
const PLACE_CUE_RE = new RegExp(
  `(?:(?<![\\p{L}\\p{M}])(?:from|in|at|to|near|In|From|Near|between|[Vv]isit(?:ed|ing)?|[Ww]eather for|[Ff]orecast for|[Cc]onditions for|[Aa]lert for|[Ww]arning for|[Aa]dvisory for|[Ww]etter für|[Mm]étéo pour|[Cc]lima para|[Tt]iempo para|[Mm]eteo per|[Pp]revisão para|[Ww]eer voor|out of|outside|downtown|tra|fra|tussen|[Hh]otels for|[Ff]lights for|[Dd]irections for|flew to|moved to|live in|lives in|living in|born in|university of|city of|originally from|towards|toward|aus|nach|von|bei|zwischen|[Rr]ichtung|de|en|desde|da|em|para|naar|van|uit|vanuit|richting|te|entre|vers|depuis|hacia|verso|presso|até|per)\\s|[ \\t][àa]\\s)` +
    `([\\p{Lu}][\\p{L}'’.-]{1,30}(?:\\s(?:(?:${PLACE_CONNECTORS})[ \\t]){0,2}(?:[\\p{Lu}][\\p{L}'’.-]{1,30}|\\([\\p{Lu}][\\p{L}]{1,20}\\))){0,3})`,
  'gu',
);

export const STREET_WORDS = new Set(
  (
    'street st str road rd avenue ave drive dr lane ln court ct boulevard blvd way place pl terrace crescent close highway hwy parkway pkwy square sq trail circle row walk mews grove gardens ' +
    'rue rua rúa via calle avenida av chemin piazza plaza carrer viale corso praça ulica ul strada utca út straße strasse gasse weg platz allee vej gade vägen gatan veien vegen laan straat tie katu'
  ).split(' '),
);
/** Number-led street line without a street-type suffix: "5850 Jana Nerudy 894", "51709 Spinatsch 94" (bounded, words end at a space; not a time's minutes, "08:15 Gondar\n09:40"). */
const NUM_LED_RE =
  /(?<![\p{L}\p{N}:])\d{1,6}(?:\s\d{1,5})?\s((?:[\p{L}][\p{L}'’.-]{0,24}\s){1,4})\d{1,5}[a-zA-Z]?\.?(?![\p{L}\p{N}])/gu;
/** Number-led street whose type word comes first: "5112 39 Rue Ibn El-Jazzar", "12 Calle Mayor". */
const NUM_PREFIX_STREET_RE =
  /(?<![\p{L}\p{N}])\d{1,6}(?:\s\d{1,5})?\s(?:rue|rua|rúa|via|calle|avenida|av\.|avenue|chemin|boulevard|piazza|plaza|carrer|viale|corso|praça|ulica|ul\.|strada|place|allée|quai)\s[\p{L}'’.-]{1,24}(?:[ \t][\p{L}'’.-]{1,24}){0,4}/giu;
/** "<street> <no>, <postcode> <City>": the street before a postcode-city pair. */
const STREET_BEFORE_ZIP_RE =
  /(?<=(?:^|[,;:(\n"])[ \t]{0,3})[\p{Lu}][\p{L}'’.-]{1,30}(?:\s[\p{L}'’.-]{1,30}){0,3}\s\d{1,5}[a-zA-Z]?(?=,\s{1,2}(?:\d{3}\s?\d{2}|\d{4,5}|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\s[\p{Lu}])/gu;
/** After an address cue: "Vivo en Reyes Católicos 75", "address: Parkring 7", a label "Dirección de envío: Calle Mayor 7". */
const ADDRESS_CUE_RE =
  /(?i:address|adresse|adres|dirección|direccion|indirizzo|endereço|anschrift|vivo en|wohne in|live at|lives at|located at|moved to)(?:\s+is|[ \t][^:\n]{1,24}?[ \t]?:)?\s*:?\s*([\p{Lu}][\p{L}'’.-]{1,30}(?:\s[\p{L}'’.-]{1,30}){0,3}\s\d{1,5}[a-zA-Z]?)(?![\p{L}\p{N}])/gu;
/**
 * A street after " at ": number-led (the number, 1-4 capitalised words) or word-led (a capitalised word, up
 * to 3 more that are not function words, then the number: "Pērses iela 90"); a town after it is a LOCATION
 * of its own (the shared corpus's convention). Letters of caseless scripts count as capitals. Bounded.
 */
export const AT_STREET_AT =
  /(?:\d{1,6}[A-Za-z]?\s([\p{Lu}\p{Lo}][\p{L}\p{M}'’-]{1,30})(?:[ ](?:[\p{Lu}\p{Lo}][\p{L}\p{M}'’-]{1,30}|\d{1,5}[a-zA-Z]?)){0,4}|([\p{Lu}\p{Lo}][\p{L}\p{M}'’-]{1,30})(?:\s{1,2}(?!(?:for|in|on|with|since|about|from|to|at|by|of|the|and|or|than|over|under|after|before|around|until|every|each|per|is|was|were|are|has|had|have)\s)[\p{L}\p{M}][\p{L}\p{M}'’-]{0,30}){0,3}\s{1,2}(?:no\.?\s)?\d{1,5}[a-zA-Z]?(?:\/\d{1,4})?)(?![\p{L}\p{N}])/uy;
export const STREET_ANCHORS: ReadonlyArray<readonly [string, boolean]> = [
  [' at ', false],
  [', ', true],
  ['address as ', false],
  ['address is ', false],
  ['Adresse: ', false],
];
export const TIME_WORD =
  /^(?:[AaPp]\.?[Mm]\.?|Uhr|Minutes?|Hours?|Days?|Weeks?|Months?|Years?|Percent|Degrees?|Celsius|Fahrenheit|January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|UTC|GMT|CET|EST|PST)$/;

/** Places after cues that name a place whatever the word (any script, capitalised or upper case). */
const STRONG_PLACE_RE =
  /(?i:originally from|born in|flew to|moved to|lives? in|living in|university of|city of|i am in|i'm in|based in|travel(?:l)?ing to|trip to|vivo en|wohne in|j'habite à|grew up (?:in|near)|habite à|vit à|wohnt in|vive en|abita a|mora em|woont in|cresciut[oa] a|vivo a|abito a|nat[oa] a|sedi a|sede a|uffici a|nací en|nasci em|moro em|vivo em|vado a|andiamo a|torno a|arrivo a|arriviamo a|volo a|voy a|vamos a|viajo a|viajamos a|llegamos a|vuelo a|vou a|viajei a|cheguei a|pars pour|part pour|partons pour|vol pour|train pour|départ pour)\s((?:[\p{Lu}][\p{L}∆'’.-]{1,30})(?:\s(?:[\p{Lu}][\p{L}∆'’.-]{1,30}|(?:de|la|del|di|du|le|am|an|der|upon)(?![\p{L}])))*)/gu;
/** A line that can continue an address block: a unit, a town (optionally with a postcode), ", XX", a postcode. */
const ADDRESS_LINE_RE =
  /^[ \t]*(?:(?:apt|apartment|suite|unit|ste|box|floor|fl|room|bldg|building)\.?\s*#?\s*\w{1,6}|,?\s*[\p{Lu}][\p{L}∆'’.-]*(?:\s(?:[\p{Lu}(][\p{L}∆'’.()-]*|de|la|du|di|am|an|der|upon|on))*(?:\s\d{3,6})?|,\s*[\p{Lu}]{2,3}|\d{4,6}|[\p{Lu}]{1,2}\d[\p{Lu}\d]?\s?\d[\p{Lu}]{2})[ \t]*\.?[ \t]*$/u;
/**
 * One token of a line that can end an address after its street: a word, a
 * number, a unit with its number ("Apt.#4B"), or a unit number ("#4B", "12A").
 * Checked token by token: a single regex over the whole line, with words that
 * may follow each other without a space, backtracked exponentially on lines
 * that do not match.
 */
const REST_TOKEN_RE =
  /^(?:[\p{L}][\p{L}∆'’.-]*|\d{1,6}|#?\w{1,6}|(?:apt|apartment|suite|unit|ste|box|floor)\.?#?\w{1,6}|\.)$/iu;

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
export function extendBlock(text: string, s: number, e: number): number {
  // the rest of the line (looked at up to its 61st character: a longer one is an address only if blank)
  const n = text.length;
  let le = e;
  while (le < n && le - e <= 60 && text.charCodeAt(le) !== LF) le++;
  let end = e;
  if (le - e <= 60) {
    const rest = text.slice(e, le);
    if (restOfLineIsAddress(rest)) end = le;
    else if (rest.trim().length > 0) return e; // the line goes on with other text: a single-line address
  } else {
    for (le = e; le < n && text.charCodeAt(le) !== LF; le++) if (!isSpace(text.charCodeAt(le))) return e;
  }
  let lines = 0;
  let pos = le;
  while (lines < 4 && pos < text.length && text[pos] === '\n') {
    let ne = text.indexOf('\n', pos + 1);
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
export const COUNTRY_RE = /(?<![\p{L}])[\p{Lu}][\p{Ll}]{2,20}(?:[^\S\n\r][\p{Lu}][\p{Ll}]{2,20}){0,2}(?![\p{L}])/gu;

/** Is the code unit an ASCII space, tab or line break (each one \s)? */
function isAsciiBlank(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** NUM_PREFIX_STREET_RE's type words' first letters (its /iu matches an ASCII letter by its lower case only). */
const TYPE_WORD_FIRSTS = new Set([...'rvcabpusq'].map((c) => c.charCodeAt(0)));

/**
 * Where the word after the house number at p is read in ASCII, may EN_STREET_RE (`types`: false) or
 * NUM_PREFIX_STREET_RE (`types`: true) match at p? False only where it cannot: "12 Main 12 Main …" costs a
 * regex call per number otherwise. EN_STREET_RE needs a second word or a street type, starting with a letter,
 * after the first word's space; NUM_PREFIX_STREET_RE a type word right after the number. Anything not read here
 * (a non-ASCII unit, a second number, a long word) is left to the regex.
 */
export function streetMayFollow(text: string, p: number, types: boolean): boolean {
  const n = text.length;
  let q = p;
  while (q < n && isAsciiDigit(text.charCodeAt(q))) q++;
  if (q === p || q - p > 6) return true;
  if (!types && q < n && isAsciiLetter(text.charCodeAt(q))) q++; // "12A Main St"
  if (!(q < n && isAsciiBlank(text.charCodeAt(q)))) return true;
  const w = ++q;
  if (types) return !(w < n && isAsciiLetter(text.charCodeAt(w)) && !TYPE_WORD_FIRSTS.has(text.charCodeAt(w) | 32));
  for (let c = text.charCodeAt(q); q < n && (isAsciiLetter(c) || c === 39 || c === 45 || c === 46);)
    c = text.charCodeAt(++q);
  if (q === w || q - w > 25 || !(q < n && isAsciiBlank(text.charCodeAt(q)))) return true;
  return !(q + 1 < n && isAsciiDigit(text.charCodeAt(q + 1)));
}

export const EN_STREET_AT = sticky(EN_STREET_RE);
export const CONT_STREET_AT = sticky(CONT_STREET_RE);
export const SUFFIX_NUM_AT = sticky(SUFFIX_NUM_RE);
export const MIL_AT = sticky(MIL_RE);
export const ZIP_CITY_AT = sticky(ZIP_CITY_RE);
export const KEY_VALUE_AT = sticky(KEY_VALUE_RE);
export const PLACE_CUE_AT = sticky(PLACE_CUE_RE);
export const NUM_LED_AT = sticky(NUM_LED_RE);
export const NUM_PREFIX_STREET_AT = sticky(NUM_PREFIX_STREET_RE);
export const STREET_BEFORE_ZIP_AT = sticky(STREET_BEFORE_ZIP_RE);
export const ADDRESS_CUE_AT = sticky(ADDRESS_CUE_RE);
export const STRONG_PLACE_AT = sticky(STRONG_PLACE_RE);

/** SUFFIX_NUM_RE's street types. */
export const NUM_SUFFIXES = [
  'straße',
  'strasse',
  'str.',
  'gasse',
  'weg',
  'platz',
  'allee',
  'ring',
  'damm',
  'ufer',
  'vej',
  'gade',
  'vägen',
  'gatan',
  'veien',
  'vegen',
  'laan',
  'straat',
  'utca',
  'út',
  'tie',
  'katu',
  'tee',
  'iela',
  'gatve',
  'cesta',
  'ulice',
];
export const PLACE_CUES = [
  'at',
  'visit',
  'visited',
  'visiting',
  'weather for',
  'forecast for',
  'conditions for',
  'alert for',
  'warning for',
  'advisory for',
  'wetter für',
  'météo pour',
  'clima para',
  'tiempo para',
  'meteo per',
  'previsão para',
  'weer voor',
  'hotels for',
  'flights for',
  'directions for',
  'flew to',
  'moved to',
  'live in',
  'lives in',
  'living in',
  'born in',
  'university of',
  'city of',
  'originally from',
  ...OPEN_PLACE_CUES.map((w) => (w.length === 1 ? ' ' + w : w)),
];
export const STRONG_PLACE_CUES = [
  'originally from',
  'born in',
  'flew to',
  'moved to',
  'live in',
  'lives in',
  'living in',
  'university of',
  'city of',
  'i am in',
  "i'm in",
  'based in',
  'traveling to',
  'travelling to',
  'trip to',
  'vivo en',
  'wohne in',
  "j'habite à",
  'grew up in',
  'grew up near',
  'habite à',
  'vit à',
  'wohnt in',
  'vive en',
  'abita a',
  'mora em',
  'woont in',
  'cresciuto a',
  'cresciuta a',
  'vivo a',
  'abito a',
  'nato a',
  'nata a',
  'sedi a',
  'sede a',
  'uffici a',
  'nací en',
  'nasci em',
  'moro em',
  'vivo em',
  'vado a',
  'andiamo a',
  'torno a',
  'arrivo a',
  'arriviamo a',
  'volo a',
  'voy a',
  'vamos a',
  'viajo a',
  'viajamos a',
  'llegamos a',
  'vuelo a',
  'vou a',
  'viajei a',
  'cheguei a',
  'pars pour',
  'part pour',
  'partons pour',
  'vol pour',
  'train pour',
  'départ pour',
];
/** KEY_VALUE_RE's keys, spelled out: the address and place keys, then the weak ones (their value must look like a name). */
const LOCATION_KEYS_OLD = [
  'street',
  'address',
  'address1',
  'address_1',
  'addr',
  'line1',
  'line_1',
  'address_line_1',
  'address_line1',
  'addressline_1',
  'addressline1',
  'city',
  'country',
  'town',
  'state',
  'region',
  'location',
  // the same labels in the languages the detectors read (a key that ends another word, "Report:", "Finland:", is none: see keyValuesAt)
  'geo',
  'wohnort',
  'geburtsort',
  'standort',
  'stadt',
  'ort',
  'ville',
  'pays',
  'lieu',
  'localité',
  'localite',
  'ciudad',
  'localidad',
  'país',
  'pais',
  'lugar',
  'cidade',
  'localidade',
  'paese',
  'località',
  'localita',
  'comune',
  'luogo',
  'woonplaats',
  'plaats',
  'stad',
  'land',
  'hometown',
  'birthplace',
];
/** Keys of the site of something (a facility, a venue, a meeting point, an office) in the seven languages: weak, and words of their own. */
const FACILITY_KEYS = [
  'facility',
  'site',
  'venue',
  'hub',
  'depot',
  'station',
  'airport',
  'office',
  'branch',
  'warehouse',
  'campus',
  'terminal',
  'meeting_point',
  'meetingpoint',
  'headquarters',
  'hq',
  'ship_from',
  'shipfrom',
  'ship-from',
  'ship_to',
  'shipto',
  'ship-to',
  'place',
  'abflug',
  'stops',
  'cities',
  'towns',
  'destinations',
  'locations',
  'places',
  'waypoints',
  'offices',
  'sites',
  'venues',
  'countries',
  'regions',
  // a route's ends: read only when the text has both (names/places/locations.ts)
  'from',
  'to',
  'von',
  'nach',
  'desde',
  'hasta',
  'naar',
  'locality',
  'place_name',
  'placename',
  'location_name',
  'locationname',
  'settlement',
  'stop',
  'layover',
  'stopover',
  'pickup point',
  'meeting point',
  'residenza',
  'residencia',
  'residência',
  'residencia',
  'wohnsitz',
  'domicile',
  'domicilio',
  'sitz der gesellschaft',
  'siège social',
  'siege social',
  'sede legale',
  'sede sociale',
  'sede operativa',
  'vestigingsplaats',
  'naturalidade',
  'haltestelle',
  'fermata',
  'parada',
  'halte',
  'treffpunkt',
  'flughafen',
  'bahnhof',
  'filiale',
  'niederlassung',
  'veranstaltungsort',
  'sitz',
  'firmensitz',
  'hauptsitz',
  'siège',
  'siege',
  'agence',
  'gare',
  'aéroport',
  'aeroport',
  'entrepôt',
  'entrepot',
  'succursale',
  'sede',
  'sucursal',
  'oficina',
  'aeropuerto',
  'estación',
  'estacion',
  'ufficio',
  'aeroporto',
  'stazione',
  'ritrovo',
  'filial',
  'escritório',
  'escritorio',
  'estação',
  'estacao',
  'vestiging',
  'kantoor',
  'luchthaven',
  'trefpunt',
  'ontmoetingspunt',
];
export const WEAK_PLACE_KEYS = new Set([
  'country_name',
  'countryname',
  'city_name',
  'cityname',
  'based_in',
  'basedin',
  'origin',
  'destination',
  'departure',
  'arrival',
  'pickup',
  'pick_up',
  'dropoff',
  'drop_off',
  'drop-off',
  'where',
  'residence',
  'place_of_birth',
  'birth_place',
  'birthplace',
  'province',
  'county',
  'district',
  'municipality',
  'herkunft',
  'ziel',
  'zielort',
  'reiseziel',
  'abfahrt',
  'ankunft',
  'abfahrtsort',
  'abholort',
  'bundesland',
  'kanton',
  'landkreis',
  'gemeinde',
  'heimatort',
  'départ',
  'depart',
  'arrivée',
  'arrivee',
  'provenance',
  'région',
  'département',
  'departement',
  'origen',
  'destino',
  'salida',
  'llegada',
  'provincia',
  'municipio',
  'origine',
  'destinazione',
  'partenza',
  'arrivo',
  'regione',
  'origem',
  'partida',
  'chegada',
  'município',
  'municipio',
  'região',
  'regiao',
  'herkomst',
  'bestemming',
  'vertrek',
  'aankomst',
  'provincie',
  'gemeente',
  ...FACILITY_KEYS,
]);
WEAK_PLACE_KEYS.delete('birthplace');
export const LOCATION_KEYS = [...LOCATION_KEYS_OLD, ...WEAK_PLACE_KEYS];
/** Keys that are a word's ending too: a key only as a word of their own. */
export const WHOLE_WORD_KEYS = new Set([
  'ort',
  'land',
  'stad',
  'lieu',
  'pays',
  'geo',
  'town',
  'state',
  'plaats',
  'lugar',
  'origin',
  'arrival',
  'where',
  'ziel',
  'district',
  'county',
  'region',
  'salida',
  'partida',
  'arrivo',
  'destino',
  'origen',
  'origem',
  'herkunft',
  'residence',
  ...FACILITY_KEYS,
]);

export const isDigitAt = (s: string, i: number) => {
  return isAsciiDigit(s.charCodeAt(i));
};
export const isAsciiLetterAt = (s: string, i: number) => {
  return isAsciiLetter(s.charCodeAt(i));
};

/**
 * Do the 48 characters before `end` end with a digit, at most 40 characters other than "," and
 * newline, a comma and at most two spaces or tabs (/\d[^,\n]{0,40},[ \t]{0,2}$/, without its
 * backtracking over the window)?
 */
export function postcodeTownBefore(text: string, end: number): boolean {
  const from = Math.max(0, end - 48);
  let c = end - 1;
  while (c >= from && end - 1 - c < 2 && (text[c] === ' ' || text[c] === '\t')) c--;
  if (c < from || text[c] !== ',') return false;
  for (let d = c - 1; d >= from && c - 1 - d <= 40; d--) {
    if (isDigitAt(text, d)) return true;
    if (text[d] === ',' || text[d] === '\n') return false;
  }
  return false;
}
