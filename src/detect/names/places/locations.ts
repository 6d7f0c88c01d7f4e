// LOCATION and STREET_ADDRESS: each address and place rule at its candidate starts (names/candidates.ts),
// streets extended over the address block's lines, country names anywhere, streets after " at " and commas.

import * as chars from '../../text/chars.ts';
import * as namesAddressRules from './address-rules.ts';
import * as namesCandidates from '../candidates.ts';
import * as namesDatelines from './datelines.ts';
import * as namesKeyValue from './key-value.ts';
import * as namesStreetGrammar from './street-grammar.ts';
import * as namesTableColumns from './table-columns.ts';
import * as namesPlaceCues from './cues.ts';
import * as namesPlaceFields from './fields.ts';
import * as namesPlaceAsides from './asides.ts';
import * as namesPlaceHeads from './heads.ts';
import * as namesPlaceLists from './lists.ts';
import * as namesCountryNames from './country-names.ts';
import * as namesPostcodeLines from './postcode-lines.ts';
import * as namesTimetables from './timetables.ts';
import * as namesLexicon from '../lexicon.ts';
import * as namesSpans from '../spans.ts';
import * as namesSticky from '../sticky.ts';
import * as namesWordShape from '../word-shape.ts';
import type { Finding } from '../../types.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { isAsciiDigit, isAsciiUpper, isJsSpace } = chars;
const {
  ADDRESS_CUE_AT,
  AT_STREET_AT,
  CONT_STREET_AT,
  COUNTRY_RE,
  EN_STREET_AT,
  extendBlock,
  MIL_AT,
  NUM_LED_AT,
  NUM_PREFIX_STREET_AT,
  PLACE_CUE_AT,
  postcodeTownBefore,
  STREET_ANCHORS,
  STREET_BEFORE_ZIP_AT,
  STREET_WORDS,
  streetMayFollow,
  STRONG_PLACE_AT,
  SUFFIX_NUM_AT,
  TIME_WORD,
  ZIP_CITY_AT,
} = namesAddressRules;
const { scanCandidates } = namesCandidates;
const { datelineAt, newDatelineCursor } = namesDatelines;
const { keyValuesAt } = namesKeyValue;
const { postcodeTownAfter, streetsByGrammar } = namesStreetGrammar;
const { markupPlaces, tableColumns } = namesTableColumns;
const {
  nameLooksLikePlace,
  placeOutranksPerson,
  townBeforeCountry,
  hasPlaceWord,
  itineraryStepAt,
  labelledPlaces,
  listContinuations,
  openPlace,
  placesBeforeNouns,
  mayHavePlaceNoun,
  routeStartBefore,
} = namesPlaceCues;
const { placeFieldValue } = namesPlaceFields;
const { headAt, headScore, leadingHead, placeAfterHead } = namesPlaceHeads;
const { placesInStructure } = namesPlaceLists;
const { placesBeforeBased, placesInHashtags, placesInParentheses } = namesPlaceAsides;
const { countryThrough } = namesCountryNames;
const { postcodeLineAt } = namesPostcodeLines;
const { timetableLineAt, timetablePlaces } = namesTimetables;
const { COMMON_WORDS, loadDicts, norm } = namesLexicon;
const { dedupe } = namesSpans;
const { execAt } = namesSticky;
const { hasLowerCase, isSpaceCommaOrDot, startsUpper } = namesWordShape;

/** A name read by a cue ends at a full stop and a space: "in Foster City. Heading …" (not after "St.", "Mt.", "Ft.", an initial). */
function beforeSentenceEnd(v: string): string {
  for (let p = v.indexOf('.'); p > 0 && p + 1 < v.length; p = v.indexOf('.', p + 1)) {
    if (!isJsSpace(v.charCodeAt(p + 1))) continue;
    let s = p;
    while (s > 0 && !isJsSpace(v.charCodeAt(s - 1))) s--;
    if (p - s <= 1 || /^(?:St|Ste|Mt|Ft|Pt|Sta|Sto|Gral|Cd|Bd)$/.test(v.slice(s, p))) continue;
    return v.slice(0, p);
  }
  return v;
}

/** Keys of a route's ends (names/places/address-rules.ts has them among the weak place keys). */
const ROUTE_KEYS = new Set(['from', 'to', 'von', 'nach', 'desde', 'hasta', 'naar']);
const ROUTE_FROM_KEY = /(?:^|[\s{,;("'])["']?(?:from|von|desde|van)["']?[ \t]*[:=]/i;
const ROUTE_TO_KEY = /(?:^|[\s{,;("'])["']?(?:to|nach|hasta|naar)["']?[ \t]*[:=]/i;
function routeKeysBoth(text: string): boolean {
  return ROUTE_FROM_KEY.test(text) && ROUTE_TO_KEY.test(text);
}

/**
 * The anchors, the comma last, each with the two characters it is searched by (`pivot`, `k` characters
 * in): V8 looks for a pattern shorter than 7 characters by its first, and a space (" at ") stops that search
 * at every word; a longer pattern ("address as ") it reads far slower than a rare pair ("dd") on this text.
 */
const ANCHOR_PIVOTS: Record<string, number> = { ' at ': 1, 'address as ': 1, 'address is ': 1 };
const STREET_ANCHORS_COMMA_LAST = [...STREET_ANCHORS]
  .sort((a, b) => Number(a[1]) - Number(b[1]))
  .map(([anchor, afterComma]) => {
    const k = ANCHOR_PIVOTS[anchor];
    return k === undefined
      ? { anchor, afterComma, k: 0, pivot: anchor }
      : { anchor, afterComma, k, pivot: anchor.slice(k, k + 2) };
  });

/**
 * Country names of the dictionaries that are everyday words too: Norwegian's short "Man" for the Isle of
 * Man opens Swedish, Danish, Norwegian and German sentences ("Man kan …": one can), and is an English noun;
 * across the held-out corpora it was never a place alone.
 */
const NOT_A_COUNTRY_ALONE = new Set(['man']);

export function detectLocations(text: string, cands = scanCandidates(text)): Finding[] {
  const d = loadDicts();
  const out: Finding[] = [];
  const push = (type: string, s: number, e: number, score: number) => {
    while (
      e > s &&
      isSpaceCommaOrDot(text.charCodeAt(e - 1)) &&
      !(type === 'STREET_ADDRESS' && text[e - 1] === '.' && /(?:St|Str|Ave|Rd|Dr|Blvd)\.$/.test(text.slice(s, e)))
    )
      e--;
    if (e > s) out.push({ type, start: s, end: e, score });
  };
  execAt(SUFFIX_NUM_AT, text, cands.suffix, (m) => {
    let ws = m.index;
    while (ws > 0 && m.index - ws < 30 && /[\p{L}'’-]/u.test(text[ws - 1]!)) ws--;
    if (ws === m.index || !/\p{Lu}/u.test(text[ws]!) || (ws > 0 && /[\p{L}\p{N}]/u.test(text[ws - 1]!))) return;
    push('STREET_ADDRESS', ws, extendBlock(text, ws, m.index + m[0].length), 0.8);
  });
  if (cands.hasDigit) {
    const numStarts = cands.numberLed;
    const contStarts = cands.contMil;
    const street = (m: RegExpExecArray) =>
      push('STREET_ADDRESS', m.index, extendBlock(text, m.index, m.index + m[0].length), 0.8);
    // (the numbers neither rule can start at, skipped without a regex call: "12 Main 12 Main …")
    execAt(
      EN_STREET_AT,
      text,
      numStarts.filter((p) => streetMayFollow(text, p, false)),
      street,
    );
    execAt(CONT_STREET_AT, text, contStarts, street);
    execAt(MIL_AT, text, contStarts, street);
    execAt(
      NUM_PREFIX_STREET_AT,
      text,
      numStarts.filter((p) => streetMayFollow(text, p, true)),
      street,
    );
    execAt(NUM_LED_AT, text, numStarts, (m) => {
      const words = m[1]!.trim().split(/\s+/);
      const lows = words.map(norm);
      const streety = lows.some((w) => STREET_WORDS.has(w.endsWith('.') ? w.slice(0, -1) : w));
      if (!streety && !(startsUpper(words[0]!) && !COMMON_WORDS.has(lows[0]!))) return;
      if (lows.every((w) => COMMON_WORDS.has(w)) || !words.some(hasLowerCase)) return;
      // "<street> <no>, 382 41 Kaplice 1": a postcode and town after a street, not a street
      if (postcodeTownBefore(text, m.index)) return;
      push('STREET_ADDRESS', m.index, extendBlock(text, m.index, m.index + m[0].length), streety ? 0.8 : 0.7);
    });
    execAt(STREET_BEFORE_ZIP_AT, text, cands.beforeZip, (m) =>
      push('STREET_ADDRESS', m.index, m.index + m[0].length, 0.75),
    );
    execAt(ADDRESS_CUE_AT, text, cands.addressCue, (m) => {
      const v = m[1]!;
      const vs = m.index + m[0].length - v.length;
      if (COMMON_WORDS.has(norm(v.split(' ')[0]!))) return;
      push('STREET_ADDRESS', vs, vs + v.length, 0.75);
    });
  }
  // streets by their grammar (a house number beside a street type, a postcode line after it; "s/n" stands for the number)
  if (cands.hasDigit || text.includes('s/n') || text.includes('S/N')) {
    const known = new Map<number, number>();
    for (const f of out) if (f.type === 'STREET_ADDRESS') known.set(f.start, Math.max(f.end, known.get(f.start) ?? 0));
    streetsByGrammar(text, push, known);
  }
  // the cells of a table's place and street columns ("name,city\nKim,Olmos")
  markupPlaces(text, (s, e) => push('LOCATION', s, e, 0.7));
  tableColumns(text, (type, s, e) => push(type, s, e, type === 'LOCATION' ? 0.7 : 0.75));
  // the town after a single-line street address: "29 Wattle St, King William's Town"
  for (const f of [...out]) {
    if (f.type !== 'STREET_ADDRESS') continue;
    const m =
      /^,[ \t]{1,2}([\p{Lu}][\p{L}'’.-]*(?:[ \t](?:[\p{Lu}][\p{L}'’.-]*|de|la|del|di|du|le|am|an|der|upon|on)){0,4})(?=[ \t]*(?:[,.;\n]|$))/u.exec(
        text.slice(f.end, f.end + 80),
      );
    if (m) push('LOCATION', f.end + m[0].length - m[1]!.length, f.end + m[0].length, 0.7);
  }
  execAt(STRONG_PLACE_AT, text, cands.strongPlace, (m) => {
    const v = beforeSentenceEnd(m[1]!);
    const vs = m.index + m[0].length - m[1]!.length;
    if (d.first.has(norm(v.split(' ')[0]!)) && v.includes(' ') && !d.places.has(norm(v)) && !hasPlaceWord(v)) return; // "moved to Anna Berg" is a person (not "sedi a Santa Rita")
    push('LOCATION', vs, vs + v.length, 0.7);
  });
  keyValuesAt(
    text,
    cands.locationKey,
    cands.countries === undefined,
    (k, vs, ve) => {
      const key = k.toLowerCase();
      const val = text.slice(vs, ve);
      if (/^(?:n\/a|none|null|unknown|redacted.*|-|\s*)$/i.test(val) || /REDACTED/i.test(val)) return;
      if (key.startsWith('street') || key.startsWith('addr') || key.startsWith('line')) {
        // "5438 Cremin Haven, Y68 VB9Y Bandon": the town after the street's postcode is a place of its own
        const comma = val.indexOf(',');
        const town = comma > 0 ? postcodeTownAfter(text, vs + comma) : undefined;
        if (town && town[1] <= vs + val.length) {
          push('STREET_ADDRESS', vs, vs + comma, 0.8);
          push('LOCATION', town[0], town[1], 0.7);
        } else push('STREET_ADDRESS', vs, vs + val.length, 0.8);
      } else {
        const place = placeFieldValue(text, k, vs, ve);
        // a route's ends ("from": "Turpan", "to": "Plön"; from=… to=…): places when the text has both keys, the key is a
        // field's (lower case: a mail header's "From: Sales" is a label) and the value reads as a place's name
        if (
          place &&
          ROUTE_KEYS.has(key) &&
          !(k.charCodeAt(0) >= 97 && routeKeysBoth(text) && nameLooksLikePlace(text.slice(place[0], place[1])))
        )
          return;
        // "Treffpunkt: Hauptbahnhof Schnifis": the town after the station's noun
        if (place) push('LOCATION', place[0] + leadingHead(text.slice(place[0], place[1])), place[1], 0.75);
      }
    },
    (k, sepEnd) => {
      const key = k.toLowerCase();
      if (!(key.startsWith('street') || key.startsWith('addr') || key.startsWith('line') || ROUTE_KEYS.has(key)))
        placesInStructure(text, sepEnd, (s, e) => push('LOCATION', s, e, 0.75));
    },
  );
  execAt(ZIP_CITY_AT, text, cands.zip, (m) => {
    const city = m[2]!;
    const cs = m.index + m[0].length - city.length;
    push('LOCATION', cs, cs + city.length, 0.7);
  });
  execAt(PLACE_CUE_AT, text, cands.place, (m) => {
    const v = beforeSentenceEnd(m[1]!);
    const vs = m.index + m[0].length - m[1]!.length;
    const n = norm(v);
    const cue = m[0].slice(0, m[0].length - m[1]!.length);
    if (d.countries.has(n) || d.places.has(n)) push('LOCATION', vs, vs + v.length, 0.75);
    else if (/university of $/i.test(cue)) push('LOCATION', vs, vs + v.length, 0.6);
    // below a person's usual score, so that a name after "to" stays a PERSON where the person rules see one
    else if (openPlace(text, cue, m.index, v, vs + v.length))
      push('LOCATION', vs, vs + v.length, hasPlaceWord(v) || placeOutranksPerson(cue, v) ? 0.7 : 0.55);
  });
  // a place after the noun of what is there: "Hauptbahnhof Schnifis", "la città di Chivasso", "aeropuerto de Santa Rita"
  const heads = cands.placeHeads;
  for (let k = 0; k < heads.length && k < 128; k += 2) {
    const sp = heads[k]!;
    const len = heads[k + 1]!;
    const head = text.slice(sp - len, sp).toLowerCase();
    if (!headAt(text, head, sp)) continue;
    const place = placeAfterHead(text, sp);
    if (place)
      push('LOCATION', place[0], place[0] + beforeSentenceEnd(text.slice(place[0], place[1])).length, headScore(head));
  }
  // places said in passing: "our warehouses (Creutzwald, Vyborg)", "a Nenagh-based startup"
  const asides = [...placesInParentheses(text), ...placesBeforeBased(text), ...placesInHashtags(text)];
  for (let k = 0; k < asides.length; k += 2) push('LOCATION', asides[k]!, asides[k + 1]!, 0.6);
  // country names anywhere (bounded word sequences); countries are few and distinctive
  const countryStarts: number[] = [];
  const country = (v: string, at: number) => {
    // longest prefix (of at most 3 words) that is a country; single words without allocating a split
    if (v.indexOf(' ') < 0) {
      const n = norm(v);
      if (!d.countries.has(n)) return;
      if (NOT_A_COUNTRY_ALONE.has(n)) {
        // only in the island's full name: "Isle of Man", never the word alone
        const isle = at >= 8 && text.slice(at - 8, at).toLowerCase() === 'isle of ' ? at - 8 : -1;
        if (isle >= 0) {
          push('LOCATION', isle, at + v.length, 0.7);
          countryStarts.push(isle);
        }
        return;
      }
      push('LOCATION', at, at + v.length, 0.7);
      countryStarts.push(at);
      return;
    }
    // the longest country that starts at one of its (at most 3) words: "Our Malawi office", "Our Czech Republic office"
    const words = v.split(' ');
    let off = 0;
    for (let a = 0; a < words.length; a++) {
      // a later start only after frequent words ("Our Malawi office"; not "Vibrant Man", "Michael Jordan")
      if (a > 0 && !COMMON_WORDS.has(norm(words[a - 1]!))) break;
      for (let k = words.length; k > a; k--) {
        const cand = words.slice(a, k).join(' ');
        if (d.countries.has(norm(cand)) && !NOT_A_COUNTRY_ALONE.has(norm(cand))) {
          push('LOCATION', at + off, at + off + cand.length, 0.7);
          countryStarts.push(at + off);
          return;
        }
      }
      off += words[a]!.length + 1;
    }
  };
  const matches = cands.countries;
  if (matches) for (let k = 0; k < matches.length; k += 2) country(text.slice(matches[k], matches[k + 1]), matches[k]!);
  else {
    COUNTRY_RE.lastIndex = 0;
    for (let m = COUNTRY_RE.exec(text); m; m = COUNTRY_RE.exec(text)) country(m[0], m.index);
  }
  // the town before ", <Country>": "Berezanskaya, Russia — 14 March", "(Kotor, Montenegro)" (a person found there wins)
  let locEnds: Set<number> | undefined;
  for (const c of countryStarts) {
    // (a town found already, "4530 Foinikaria, Cyprus", is not read again)
    let p = c;
    while (p > 0 && text.charCodeAt(p - 1) === 32 && c - p < 2) p--;
    if (p === 0 || (text.charCodeAt(p - 1) !== 44 && text.charCodeAt(p - 1) !== 183 && text.charCodeAt(p - 1) !== 124))
      continue;
    if (!locEnds) {
      locEnds = new Set<number>();
      for (const f of out) if (f.type === 'LOCATION') locEnds.add(f.end);
    }
    if (locEnds.has(p - 1)) continue;
    const town = townBeforeCountry(text, c);
    if (town) push('LOCATION', town[0], town[1], 0.55);
  }
  // "… at <number> <Capitalised words>[, <postcode> <Town>]": a number-led street after "at" ("lives at
  // 448 Feil Meadows", "office is at 759 Giri Divide, 693 850 Ahmedabad"); times ("at 5 PM") excluded
  // and the same shapes after a comma ("ship to Hawa Thioune, 6181 Immeuble …", "Graf, Erlenweg 606") or
  // "address as"; after a comma a number-led one must not start with a year ("…, 2024 Annual Report")
  // after a street and its comma come a postcode and a town ("5378 Koepp Heights, 61973 North Las Vegas"), not a second street
  const streetEnds = new Set<number>();
  for (const f of out) if (f.type === 'STREET_ADDRESS') streetEnds.add(f.end);
  // (the comma anchor last, so that it knows the streets the other anchors found)
  for (const { anchor, afterComma, k, pivot } of STREET_ANCHORS_COMMA_LAST) {
    for (let z = text.indexOf(pivot, k); z !== -1; z = text.indexOf(pivot, z + 1)) {
      const q = z - k;
      if (pivot !== anchor && !text.startsWith(anchor, q)) continue;
      // the next occurrence starts at or after this one's end (as indexOf(anchor, q + anchor.length) finds it)
      z = q + anchor.length + k - 1;
      if (afterComma && streetEnds.has(q)) continue;
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
      push('STREET_ADDRESS', at, at + m[0].length, 0.7);
      streetEnds.add(at + m[0].length);
    }
  }
  // a place before a place noun: "Roseau branch", "our Lyon office" (only in a text that has one of the
  // nouns: eight indexOf passes over every text cost ~10 % of detectPii on the bench's mixed text)
  if (mayHavePlaceNoun(text)) {
    const beforeNouns = placesBeforeNouns(text);
    for (let k = 0; k < beforeNouns.length; k += 2) push('LOCATION', beforeNouns[k]!, beforeNouns[k + 1]!, 0.55);
  }
  // the place of a dateline or a letter's heading: "Mexicali, 12 de marzo de 2024", "Fait à Milton, le 3 juin", "Sunch’ŏn (Reuters) -"
  // (one pass over the lines for the rules that read a line's start: datelines, itinerary steps, postcode lines)
  const datelines: number[] = [];
  const steps: number[] = [];
  const postcodeTowns: number[] = [];
  const postcodeLines: number[] = [];
  const timed: number[] = [];
  const cursor = newDatelineCursor();
  for (
    let ls = 0, lines = 0;
    ls <= text.length && lines < 4096 && datelines.length + steps.length + postcodeTowns.length < 384;
    lines++
  ) {
    let le = text.indexOf('\n', ls);
    if (le < 0) le = text.length;
    datelineAt(text, ls, le, cursor, datelines);
    itineraryStepAt(text, ls, steps);
    if (cands.hasDigit) timetableLineAt(text, ls, timed);
    if (le === text.length) break;
    if (cands.hasDigit) postcodeLineAt(text, le, postcodeTowns, postcodeLines);
    ls = le + 1;
  }
  for (let k = 0; k < datelines.length; k += 2) push('LOCATION', datelines[k]!, datelines[k + 1]!, 0.6);
  // the first place of a labelled list: "Unsere Standorte: Amuntai, …"
  const listed = labelledPlaces(text, cands.labelColons);
  const labelledEnds = new Set<number>();
  for (let k = 0; k < listed.length; k += 2) {
    push('LOCATION', listed[k]!, listed[k + 1]!, 0.6);
    labelledEnds.add(listed[k + 1]!);
  }
  // the first place of an itinerary's step: "Day 2 – Totowa", "Tag 3: Selters"
  for (let k = 0; k < steps.length; k += 2) {
    push('LOCATION', steps[k]!, steps[k + 1]!, 0.6);
    labelledEnds.add(steps[k + 1]!);
  }
  // the stops of a timetable: "Departures\n08:15 Cheongju-si\n09:40 Gondar"
  const stops = timetablePlaces(text, timed);
  for (let k = 0; k < stops.length; k += 2) push('LOCATION', stops[k]!, stops[k + 1]!, 0.6);
  // the first stop of a route before a place found: "Ticket: Serra Talhada to Mianwali", "Route Sitangkai → Juliaca → …"
  for (const f of [...out]) {
    if (f.type !== 'LOCATION') continue;
    const first = routeStartBefore(text, f.start);
    if (first) {
      push('LOCATION', first[0], first[1], 0.55);
      labelledEnds.add(first[1]);
    }
  }
  // a country whose name has a connector, read from a place found at its first word: "Bosnia and Herzegovina",
  // "Isle of Man", "República de Corea" (not two places of a list)
  for (const f of [...out]) {
    if (f.type !== 'LOCATION') continue;
    const e = countryThrough(text, f.start);
    if (e > f.end) push('LOCATION', f.start, e, 0.75);
  }
  // the places that continue a list after a place: "offices in Kozhikode, Alegria and Saldaña" (after a
  // place-list label, first names too: the label says what the list holds)
  for (const f of [...out]) {
    if (f.type !== 'LOCATION') continue;
    const more = listContinuations(text, f.end, labelledEnds.has(f.end));
    for (let k = 0; k < more.length; k += 2)
      push('LOCATION', more[k]!, more[k + 1]!, hasPlaceWord(text.slice(more[k]!, more[k + 1]!)) ? 0.7 : 0.55);
  }
  // the town of an address block's postcode line ("Flurstr. 97c\n0610 Viktring") is a place of its own: the street ends above it
  if (postcodeLines.length > 0) {
    for (let k = 0; k < postcodeLines.length; k++) {
      const ls = postcodeLines[k]!;
      const townEnd = postcodeTowns[2 * k + 1]!;
      for (const f of out) {
        if (f.type !== 'STREET_ADDRESS' || f.end <= ls) continue;
        // (a "street" read on the postcode line itself, "0610 Viktring", is the town's line)
        if (f.start >= ls && f.start < townEnd) f.end = f.start;
        if (f.start >= ls) continue;
        let e = ls - 1;
        while (e > f.start && /[\s,.]/.test(text[e - 1]!)) e--;
        f.end = e;
      }
      push('LOCATION', postcodeTowns[2 * k]!, townEnd, 0.7);
    }
    for (let k = out.length - 1; k >= 0; k--) if (out[k]!.end <= out[k]!.start) out.splice(k, 1);
  }
  // a location inside a (multi-line) street address belongs to the address
  const res = dedupe(out);
  const streets = res.filter((f) => f.type === 'STREET_ADDRESS');
  return res.filter((f) => f.type !== 'LOCATION' || !streets.some((a) => a.start <= f.start && f.end <= a.end));
}
