// Places that no dictionary knows: a capitalised name after a place preposition ("flights from Olmos",
// "Der Zug von Traian nach Beit Jann", "Oficina de Goubétto") and the names that continue a list of places
// ("offices in Kozhikode, Alegria and Saldaña"). Towns are an open set (GeoNames lists 135,000 of more than
// 1,000 inhabitants; a dictionary holds a few thousand), so the cue decides, and the guards below keep out
// what follows those prepositions as often: months and weekdays, languages, people's first names,
// acronyms, frequent words, and name particles ("Jan de Vries", "Ludwig van Beethoven").

import * as namesAddressRules from './address-rules.ts';
import * as namesCharClasses from '../char-classes.ts';
import * as namesLexicon from '../lexicon.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { OPEN_PLACE_CUES, TIME_WORD } = namesAddressRules;
const { letterAt, upperAt } = namesCharClasses;
const { COMMON_WORDS, loadDicts, norm, PARTICLES } = namesLexicon;

/** "visiting Olmos", "Weather for Olmos": read like the place prepositions (a first name after them stays a person). */
const VISIT_CUES = new Set([
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
]);

/** Cues that are also name particles: after a capitalised word they are part of a name. */
const PARTICLE_CUES = new Set(['de', 'da', 'van', 'von', 'en']);

/** Words that follow "in"/"from"/"to" capitalised and are no place. */
const NOT_PLACES = new Set(
  (
    'english german french spanish italian portuguese dutch chinese japanese russian arabic hindi korean polish turkish swedish greek hebrew latin ' +
    'deutsch englisch französisch spanisch anglais allemand français espagnol inglés alemán francés español inglese tedesco italiano inglês alemão português engels duits nederlands ' +
    'q1 q2 q3 q4 h1 h2 fy mr mrs ms dr prof sir madam herr frau ' +
    'python java javascript typescript excel word powerpoint slack jira github gitlab google microsoft amazon apple docker kubernetes linux windows android ios chrome firefox ' +
    'production staging development main master section chapter appendix table figure step page version release part phase stage level order'
  ).split(' '),
);

/** Is `v` (the capitalised words after a cue ending at `cueStart`) read as a place? */
export function openPlace(text: string, cue: string, cueStart: number, v: string, end: number): boolean {
  const c = norm(cue.trim());
  if (!OPEN_PLACE_CUES.includes(c) && !VISIT_CUES.has(c)) return false;
  // "Jan de Vries", "Ludwig van Beethoven", "Leonardo da Vinci": a particle after a capitalised word
  if (PARTICLE_CUES.has(c) && nameBefore(text, cueStart)) return false;
  // a cue at the end of a line reads the next line's first word, which no place is ("van de Noort\nEmployment")
  if (v.includes('\n')) return false;
  // a capitalised "In", "From", "Near" opens a sentence: "In Matachí, the mayor …" (not "In Progress", "From Scratch")
  if (
    (c === 'in' || c === 'from' || c === 'near') &&
    isUpperAscii(cue.trim().charCodeAt(0)) &&
    text.charCodeAt(end) !== 44
  )
    return false;
  // "Vivo en Ronda Micaela s/n", "en Carretera Joaquín Berríos, 2": a street, not a town
  if (STREET_NUMBER_AFTER.test(text.slice(end, end + 8))) return false;
  // "from Warehouse B to Dock 7", "in Room 4B": a locator inside a site
  if (followedByLocator(text, end)) return false;
  // "a" and "per" are place prepositions of Italian, Spanish and Portuguese only ("vado a Torino", "llegada a
  // Tibú", "treno per Milano", "Meteo a Bassano: sole"): not of an English "a Google engineer" or "per Section 3"
  if ((c === 'a' || c === 'per') && !romanceNear(text, cueStart) && englishNear(text, cueStart)) return false;
  if (nameLooksLikePlace(v)) return true;
  // after a locative preposition ("in", "en", "em", "im"), people are rarely the object: a town that is also a first
  // name ("in Milton", "en Pilar de la Horadada") is read, but not a first and a last name ("in Anna Berg's team")
  return LOCATIVE_CUES.has(c) && nameLooksLikePlace(v, true) && !personLike(v);
}

/**
 * After a locative preposition ("wohne jetzt in Novi Petrivtsi", "nach Neiva"), a name that is not a first and a last
 * name is a place rather than a person the dictionaries half-know: it outranks a person read there from the name alone.
 */
export function placeOutranksPerson(cue: string, v: string): boolean {
  return LOCATIVE_CUES.has(norm(cue.trim())) && !personLike(v);
}

/** Prepositions after which people are rarely the object: "in", "en", "em", "im"; German "nach" and "aus" (of places, "to"/"from"). */
const LOCATIVE_CUES = new Set(['in', 'en', 'em', 'im', 'nach', 'aus', 'te']);

const isUpperAscii = (c: number) => c >= 65 && c <= 90;

/** A single capital or a short number after a name: "Warehouse B", "Dock 7", "Room 4B", "Gate 12" (not a time, "Wittlich 07:42"). */
const LOCATOR_AFTER = /^[ \t](?:\p{Lu}|\d{1,3}\p{Lu}?)(?![\p{L}\p{N}:])/u;
export function followedByLocator(text: string, end: number): boolean {
  return LOCATOR_AFTER.test(text.slice(end, end + 6));
}

/**
 * Function words of Italian, Spanish and Portuguese (none of them an English word, a name particle or a French
 * one): one of them in the 64 characters before a cue or the 48 after says the sentence is in one of those
 * languages.
 */
const ROMANCE_WORD =
  /(?<![\p{L}])(?:il|gli|nel|nella|nei|dell[ao]|alle|alla|sono|siamo|abbiamo|ho|hai|è|che|poi|dove|anche|el|los|las|y|que|para|nos|vamos|voy|luego|desde|donde|está|están|también|também|não|uma|os|em|ao|às|depois|onde|vou|e)(?![\p{L}.])/u;
/** English function words: one of them near an "a" says it is the article. */
const ENGLISH_WORD =
  /(?<![\p{L}])(?:the|and|is|are|was|were|of|to|for|with|this|that|it|you|we|my|be|have|has|had|on|at|by|an|as|asked|got|need|from|into|our|your|their|his|her)(?![\p{L}])/iu;
function englishNear(text: string, cueStart: number): boolean {
  return (
    ENGLISH_WORD.test(text.slice(Math.max(0, cueStart - 64), cueStart)) ||
    ENGLISH_WORD.test(text.slice(cueStart + 2, cueStart + 50))
  );
}

/** (case-sensitive: "El Paso", "Los Angeles" and "Las Vegas" are names in English text) */
function romanceNear(text: string, cueStart: number): boolean {
  return (
    ROMANCE_WORD.test(text.slice(Math.max(0, cueStart - 64), cueStart)) ||
    ROMANCE_WORD.test(text.slice(cueStart + 2, cueStart + 50))
  );
}

/** A first name and a last name ("Anna Berg"), or a name with a possessive after it, is a person's. */
function personLike(v: string): boolean {
  const words = v.split(' ');
  const d = loadDicts();
  if (
    words.length >= 2 &&
    d.first.has(norm(words[0]!)) &&
    d.last.has(norm(words[words.length - 1]!)) &&
    !d.places.has(norm(v))
  )
    return true;
  return /['’]s$/.test(v);
}

const STREET_NUMBER_AFTER = /^(?:,?[ \t]{1,2}\d|[ \t]s\/n)/;

const COMPANY_WORDS = new Set([
  'inc',
  'llc',
  'ltd',
  'gmbh',
  'corp',
  'co',
  'ag',
  'sa',
  'bv',
  'nv',
  'plc',
  'srl',
  'sarl',
  'spa',
  'ab',
  'as',
  'oy',
  'kg',
  'group',
  'holdings',
  'labs',
  'systems',
  'solutions',
  'technologies',
]);

/** Words that make a sequence of capitalised words a place even when it starts like a person's name ("Port Lincoln", "Allison Park"). */
const PLACE_WORDS = new Set(
  (
    'north south east west northern southern upper lower new old great little port lake mount mountain saint st san santa santo sao são city town village beach park hill hills heights valley ' +
    'springs falls bay island isle fort bad sankt nord süd ost norte sur este oeste villa vila ciudad cidade ville rio río ' +
    // the articles that open place names of Spanish, French, Italian and Arabic transliteration ("El Capulín", "Le Havre", "Al Kharj", "At Tūbī")
    'el los las la le les il al ad ar as at an ash az'
  ).split(' '),
);

export function nameLooksLikePlace(value: string, listed = false): boolean {
  // (a word may end in a dot, "St."; the sentence's full stop is not part of the name)
  const v = value.replace(/\.+$/, '');
  const words = v.split(' ');
  const first = words[0]!;
  const f = norm(first);
  // a frequent first word only as part of a longer place name ("North Bend", "Great Falls", "New Ulm", "Rose Hill")
  if (
    (COMMON_WORDS.has(f) && !(words.length > 1 && words.some((w) => PLACE_WORDS.has(norm(w))))) ||
    NOT_PLACES.has(f) ||
    TIME_WORD.test(first)
  )
    return false;
  // an acronym ("in PDF", "to HR"): upper-case words of a place are rare and the country list has them
  if (first.length > 1 && first === first.toUpperCase()) return false;
  // a company ("Test LLC", "Acme GmbH")
  if (words.length > 1 && COMPANY_WORDS.has(norm(words[words.length - 1]!).replace(/\.$/, ''))) return false;
  const d = loadDicts();
  if (d.places.has(norm(v))) return true;
  // a known first name is a person ("to Anna", "from Maria Lopez"), unless a word says place ("Port Lincoln")
  // or a place-list label names what the list holds ("Nos bureaux : Ludvika, …")
  if (!listed && d.first.has(f) && !words.some((w) => PLACE_WORDS.has(norm(w)))) return false;
  return true;
}

/** Does a word of `v` say place ("Lake Sebu", "Santa Cruz", "Port Lincoln")? Then the place outranks a person read there. */
export function hasPlaceWord(v: string): boolean {
  for (const w of v.split(' ')) if (PLACE_WORDS.has(norm(w))) return true;
  return false;
}

/** Is the word before the cue a person's name ("Jan" in "Jan de Vries"; not "Oficina" in "Oficina de Lima")? */
function nameBefore(text: string, cueStart: number): boolean {
  let i = cueStart - 1;
  if (i < 0 || (text[i] !== ' ' && text[i] !== '\t')) return false;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  let s = i;
  while (s > 0 && cueStart - s < 40 && letterAt(text, s - 1)) s--;
  if (s === i) return false;
  const w = norm(text.slice(s, i));
  // "van de Noort", "de la Cruz": a particle before the particle
  if (PARTICLES.has(w)) return true;
  if (!upperAt(text, s)) return false;
  const d = loadDicts();
  return d.first.has(w) || d.last.has(w);
}

/** ", <Place>", " and <Place>" or " to <Place>" ("da Gwangju a Severn", "von Traian nach Beit Jann") right after a place: sticky, bounded. */
const LIST_NEXT_AT =
  /(?:[,;][ \t]{1,2}|[ \t]{1,2}(?:and|und|et|y|e|en|og|och|i|oder|or|ou|o|to|nach|bis|à|a|hasta|para|naar|tot|→|->|=>|–|—|·)[ \t]{1,2})((?:[\p{Lu}][\p{L}'’-]{1,30})(?:[ \t](?:(?:de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al)[ \t])?[\p{Lu}][\p{L}'’-]{1,30}){0,4})(?![\p{L}\p{N}])/uy;

const LABEL_COLON_AT = /^[ \t]?:/;
const ROUTE_CONNECTOR = /^[ \t]{1,2}(?:to|nach|bis|à|a|hasta|para|naar|tot|→|->|=>)[ \t]/u;

/** The places that continue a list after a place ending at `end`: [start, end) pairs (at most 8). */
export function listContinuations(text: string, end: number, listed = false): number[] {
  const out: number[] = [];
  for (let k = 0; k < 8; k++) {
    LIST_NEXT_AT.lastIndex = end;
    const m = LIST_NEXT_AT.exec(text);
    if (!m) break;
    const v = m[1]!;
    // (once the list holds two places, a name that is also a first name is its third: "Milas, Mariestad and Marco"; and
    // a route's "to", "nach", "→" after a place says the next is one: "from Greenlawn to Santiago")
    if (
      !nameLooksLikePlace(v, listed || k > 0 || ROUTE_CONNECTOR.test(m[0])) ||
      followedByLocator(text, end + m[0].length)
    )
      break;
    // "Abflug: Chumayel, Ankunft: Salem", "Ship-from: Uzda; Ship-to: …": the next label, not a place
    if (LABEL_COLON_AT.test(text.slice(end + m[0].length, end + m[0].length + 3))) break;
    const s = end + m[0].length - v.length;
    out.push(s, s + v.length);
    end = s + v.length;
  }
  return out;
}

/** Labels of a list of places ("Unsere Standorte: Amuntai, Yasynuvata und Gesves", "Nos bureaux : …"). */
const PLACE_LIST_LABELS = new Set(
  (
    'offices locations sites branches cities towns destinations stops venues hometown birthplace destination venue ' +
    // a route's first stop: "Reiseroute: Ornavasso – Lanxi", "Itinerary: …"
    'route itinerary reiseroute trajet itinéraire ruta itinerario percorso roteiro rota reisroute ' +
    // a trip's label: "Trip: Seaside Park → Fontem", "Reise: …", "Voyage : …"
    'trip journey reise fahrt voyage viaje viaggio viagem reis ' +
    'standorte filialen büros städte niederlassungen bureaux agences villes sedi uffici città filiali oficinas sucursales ciudades sedes escritórios cidades filiais kantoren vestigingen steden locaties ' +
    // a single place after the label's last word: "Place of birth:", "Lieu de naissance :", "Lugar de nacimiento:", "Luogo di nascita:", "Residence:"
    'birth naissance nacimiento nascita nascimento geboorteplaats residence résidence residencia residenza residência wohnsitz domicile domicilio'
  ).split(' '),
);

const LABELLED_PLACE_AT =
  /[ \t]{0,2}((?:[\p{Lu}][\p{L}'’-]{1,30})(?:[ \t](?:(?:de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al)[ \t])?[\p{Lu}][\p{L}'’-]{1,30}){0,4})(?![\p{L}\p{N}])/uy;

/**
 * The first place after a place-list label and its colon, as [start, end) pairs (the list goes on through
 * listContinuations). A colon is looked at only when a letter (or a letter and a space) is before it and a
 * capital after it (the candidate scan marks those), so JSON's `":` costs nothing here.
 */
export function labelledPlaces(text: string, colons: readonly number[]): number[] {
  const out: number[] = [];
  // the candidate scan's colons after a letter and before a possible capital (a superset of the labels')
  for (const c of colons) {
    if (out.length >= 64) break;
    let e = c;
    if (text[e - 1] === ' ') e--;
    if (e === 0 || !letterAt(text, e - 1)) continue;
    let a = c + 1;
    while (a < text.length && a - c <= 3 && (text[a] === ' ' || text[a] === '\t')) a++;
    if (a >= text.length || !upperAt(text, a)) continue;
    let s = e;
    while (s > 0 && e - s <= 16 && letterAt(text, s - 1)) s--;
    if (!PLACE_LIST_LABELS.has(text.slice(s, e).toLowerCase())) continue;
    LABELLED_PLACE_AT.lastIndex = c + 1;
    const m = LABELLED_PLACE_AT.exec(text);
    if (!m || !nameLooksLikePlace(m[1]!, true)) continue;
    const vs = c + 1 + m[0].length - m[1]!.length;
    out.push(vs, vs + m[1]!.length);
  }
  return out;
}

/** Nouns that a place name comes before in English: "the Roseau branch", "our Lyon office", "Tacoma warehouse". */
const PLACE_NOUNS_AFTER = [
  ' branch',
  ' office',
  ' headquarters',
  ' campus',
  ' warehouse',
  ' plant',
  ' factory',
  ' airport',
  ' forecast',
  ' Airport',
];
/** Nouns of a proper name ("Celle Airport"): the name before them is a place even as a sentence's first word. */
const PROPER_NOUNS_AFTER = new Set([' Airport']);

/** One pass for all the nouns: a space and one of their first letters, then the rest compared in place. */
const PLACE_NOUN_RE = / (?:branch|office|headquarters|campus|warehouse|plant|factory|airport|forecast|Airport)/;
export function mayHavePlaceNoun(text: string): boolean {
  return PLACE_NOUN_RE.test(text);
}

/** The capitalised name (1-3 words) right before a place noun, as [start, end) pairs (at most 64). */
export function placesBeforeNouns(text: string): number[] {
  const out: number[] = [];
  for (const noun of PLACE_NOUNS_AFTER) {
    for (let p = text.indexOf(noun); p > 0 && out.length < 64; p = text.indexOf(noun, p + noun.length)) {
      const after = p + noun.length;
      if (after < text.length && letterAt(text, after)) continue;
      // up to three capitalised words end at p, each read back by char codes (bounded: 3 x 31)
      let s = p;
      for (let w = 0; w < 3; w++) {
        const ws = capitalisedWordBefore(text, w === 0 ? p : s - 1);
        if (ws < 0 || (w > 0 && text[s - 1] !== ' ')) break;
        s = ws;
      }
      if (s === p) continue;
      // an article or possessive before the name is no part of it: "The Vicam office", "Our Lyon branch"
      const art = /^(?:The|Our|Their|Your|My|His|Her|Its|This|That) /.exec(text.slice(s, p));
      if (art) s += art[0].length;
      if (s === p) continue;
      const v = text.slice(s, p);
      // a sentence's first word is capitalised whatever it is: "Sales office hours" is no place; at the start of a
      // line, a name before the noun and a colon or comma is a heading ("Jordbro branch: open 9-5", "Atar branch, tel. …")
      const lineStart =
        !PROPER_NOUNS_AFTER.has(noun) && (s === 0 || /[.!?\n]\s*$/.test(text.slice(Math.max(0, s - 3), s)));
      // a label whose value is a name ("Nearest airport: Salitrillos"): its first word qualifies the noun, the value is the place
      if (lineStart && LABEL_VALUE_AFTER.test(text.slice(after, after + 4))) continue;
      if (
        !art &&
        lineStart &&
        !(
          /^[:,]/.test(text.slice(after, after + 1)) &&
          (s === 0 || /\n\s*$/.test(text.slice(Math.max(0, s - 3), s))) &&
          !v.split(' ').some((w) => UNIT_WORDS.has(norm(w)))
        )
      )
        continue;
      if (
        !nameLooksLikePlace(v) ||
        COMMON_WORDS.has(norm(v.split(' ').pop()!)) ||
        UNIT_WORDS.has(norm(v.split(' ').pop()!))
      )
        continue;
      out.push(s, p);
    }
  }
  return out;
}

const LABEL_VALUE_AFTER = /^:[ \t]{0,2}\p{Lu}/u;

/** Words of an organisation's units that head a line before "office"/"branch" as a town does ("Sales office:", "Head office,"). */
const UNIT_WORDS = new Set(
  (
    'sales marketing support engineering finance legal hr it admin administration head main central regional branch home post back front field corporate local district county state federal international national global european asia americas emea apac registered satellite virtual remote service customer press research development operations accounting billing ' +
    // and what is forecast that is no place ("Revenue forecast:", "Weather forecast:"), what a station serves ("Police station")
    'police fire gas petrol power train bus radio space docking charging filling base work ' +
    'weather revenue budget demand traffic cost costs price prices profit market cash earnings growth inventory capacity usage load'
  ).split(' '),
);

/** The start of the capitalised word (2-31 letters) that ends at p, or -1. */
function capitalisedWordBefore(text: string, p: number): number {
  let s = p;
  while (s > 0 && p - s <= 31 && letterAt(text, s - 1)) s--;
  if (p - s < 2 || p - s > 31 || (s > 0 && letterAt(text, s - 1)) || !upperAt(text, s)) return -1;
  return s;
}

/**
 * The town before ", <Country>" ("Berezanskaya, Russia", "The supplier (Kotor, Montenegro)"): 1-3 capitalised
 * words (hyphens inside, connectors between) ending at the comma before the country at `countryStart`, as
 * [start, end), or undefined. Read back by char codes (bounded: 3 x 31, two connectors).
 */
export function townBeforeCountry(text: string, countryStart: number): [number, number] | undefined {
  let p = countryStart;
  while (p > 0 && (text[p - 1] === ' ' || text[p - 1] === '\t') && countryStart - p < 2) p--;
  if (p === countryStart || p === 0) return undefined;
  let end = p - 1;
  // (a signature's or a heading's middle dot or bar between them: "Acme Ltd · Stowe · Canada", "Stowe | Canada")
  if ((text[end] === '·' || text[end] === '|') && end > 1 && text[end - 1] === ' ') end--;
  else if (text[end] !== ',') return undefined;
  let s = end;
  let words = 0;
  let connectors = 0;
  for (;;) {
    let ws = s;
    while (
      ws > 0 &&
      s - ws <= 31 &&
      (letterAt(text, ws - 1) || text[ws - 1] === '-' || text[ws - 1] === "'" || text[ws - 1] === '’')
    )
      ws--;
    if (ws === s || s - ws > 31) break;
    const w = text.slice(ws, s);
    if (upperAt(text, ws)) {
      words++;
      s = ws;
    } else if (words > 0 && connectors < 2 && TOWN_CONNECTORS.has(w)) {
      connectors++;
      s = ws;
    } else break;
    if (words >= 3 || s === 0 || text[s - 1] !== ' ') break;
    s--;
  }
  while (s < end && text[s] === ' ') s++;
  // (a connector read last is not part of the name)
  let v = text.slice(s, end);
  const first = v.split(' ')[0]!;
  if (TOWN_CONNECTORS.has(first)) {
    s += first.length + 1;
    v = text.slice(s, end);
  }
  if (words === 0 || v.length < 2 || !nameLooksLikePlace(v)) return undefined;
  return [s, end];
}

const TOWN_CONNECTORS = new Set([
  'de',
  'la',
  'del',
  'di',
  'du',
  'le',
  'am',
  'an',
  'der',
  'im',
  'do',
  'da',
  'dos',
  'das',
  'des',
  'sur',
  'on',
  'upon',
  'el',
  'al',
  'bei',
  'ob',
  'nad',
  'na',
]);

/** A line that opens an itinerary's step: "Day 1 – ", "Tag 2: ", "Jour 3 : ", "Día 4 - ", "Stop 2. ". */
const ITINERARY_STEP_AT =
  /[ \t]{0,4}(?:[-*•][ \t]{1,2})?(?:(?:Day|Tag|Jour|D[íi]a|Giorno|Dag|Stage|[ÉE]tape|Etapa|Tappa|Etappe|Stop|Leg)[ \t]{1,2}\d{1,2}[ \t]{0,2}(?:[:.–—-]|->|→)|(?:Route|Itinerary|Reiseroute|Trajet|Itinéraire|Ruta|Itinerario|Percorso|Roteiro|Rota|Reisroute)(?=[ \t]{1,2}[\p{Lu}][^\n]{1,60}?(?:→|->|=>|–|—)))[ \t]{1,3}/uy;

const STEP_FIRSTS = new Set([...'DTJGSÉELRIP-*•'].map((c) => c.charCodeAt(0)));

const STEP_PLACE_AT =
  /((?:[\p{Lu}][\p{L}\p{M}'’-]{1,30})(?:[ \t](?:(?:de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al)[ \t]){0,2}[\p{Lu}][\p{L}\p{M}'’-]{1,30}){0,4})(?![\p{L}\p{N}])/uy;

/** The first place of the itinerary step ("Day 2 – Totowa") that the line at `ls` may open: pushed to `out` as [start, end). */
export function itineraryStepAt(text: string, ls: number, out: number[]): void {
  // (a step's line starts with one of the step words' capitals, or a bullet)
  let a = ls;
  while (a < text.length && a - ls < 4 && (text.charCodeAt(a) === 32 || text.charCodeAt(a) === 9)) a++;
  if (a >= text.length || !STEP_FIRSTS.has(text.charCodeAt(a))) return;
  ITINERARY_STEP_AT.lastIndex = ls;
  const m = ITINERARY_STEP_AT.exec(text);
  if (!m) return;
  const vs = m.index + m[0].length;
  STEP_PLACE_AT.lastIndex = vs;
  const p = STEP_PLACE_AT.exec(text);
  if (p && nameLooksLikePlace(p[1]!, true)) out.push(vs, vs + p[1]!.length);
}

/** " to ", an arrow or a dash between two places of a route: "Serra Talhada to Mianwali", "Sitangkai → Juliaca". */
const ROUTE_SEPARATOR_BEFORE = /(?:[ \t](to|nach|à|a|naar|para)|[ \t]?(?:→|->|=>)|[ \t](?:–|—))[ \t]{1,2}$/u;

/**
 * The place before a route's separator that ends at `placeStart` (a place found), when the name opens its line
 * or follows a label's colon ("Ticket: Serra Talhada to Mianwali", "Route Sitangkai → Juliaca"): [start, end) or undefined.
 */
export function routeStartBefore(text: string, placeStart: number): [number, number] | undefined {
  // (a space before the place, and before it the last character of a separator: "to", "nach", "à", "a", "naar", "para", an arrow, a dash)
  if (placeStart < 3) return undefined;
  const sp = text.charCodeAt(placeStart - 1);
  if (sp !== 32 && sp !== 9) return undefined;
  const last = text.charCodeAt(placeStart - 2);
  if (!(
    last === 111 ||
    last === 104 ||
    last === 224 ||
    last === 97 ||
    last === 62 ||
    last === 8594 ||
    last === 8211 ||
    last === 8212 ||
    last === 32
  ))
    return undefined;
  const sep = ROUTE_SEPARATOR_BEFORE.exec(text.slice(Math.max(0, placeStart - 6), placeStart));
  if (!sep) return undefined;
  const end = placeStart - sep[0].length;
  let s = end;
  let words = 0;
  for (;;) {
    let ws = s;
    while (
      ws > 0 &&
      s - ws <= 31 &&
      (letterAt(text, ws - 1) || text[ws - 1] === '-' || text[ws - 1] === "'" || text[ws - 1] === '’')
    )
      ws--;
    if (ws === s || s - ws > 31) return undefined;
    const w = text.slice(ws, s);
    if (upperAt(text, ws)) words++;
    else if (!(words > 0 && ROUTE_CONNECTORS.has(w))) return undefined;
    s = ws;
    const b = ws === 0 ? '\n' : text[ws - 1]!;
    // (after a word of a sentence, "Go to Privacy", "Fait à Milton", only an arrow or a dash joins a route)
    if ((b === '\n' && sep[1] === undefined) || ((b === ' ' || b === '\t') && ws >= 2 && text[ws - 2] === ':')) break;
    if (words >= 4 || b !== ' ') return undefined;
    // "Route Sitangkai → …": a route's label word before the first stop
    if (sep[1] === undefined && ws >= 2 && ROUTE_LABEL_BEFORE.test(text.slice(Math.max(0, ws - 13), ws))) break;
    s = ws - 1;
  }
  const v = text.slice(s, end);
  if (!nameLooksLikePlace(v, true)) return undefined;
  return [s, end];
}

const ROUTE_CONNECTORS = new Set([
  'de',
  'la',
  'del',
  'di',
  'du',
  'le',
  'am',
  'an',
  'der',
  'im',
  'do',
  'da',
  'dos',
  'das',
  'des',
  'sur',
  'on',
  'upon',
  'el',
  'al',
]);
/** A route's label word opening the line before its first stop (no colon): "Route Sitangkai → Juliaca". */
const ROUTE_LABEL_BEFORE =
  /(?:^|\n)[ \t]{0,4}(?:Route|Itinerary|Reiseroute|Trajet|Itinéraire|Ruta|Itinerario|Percorso|Roteiro|Rota|Reisroute)[ \t]$/u;
