// Street addresses by their grammar, whatever the locale: a house number next to a street-type word
// ("4224 Schuppe Hollow", "6 Impasse de la Paix", "Kocatepe Caddesi 39", "Астраханская аллея, 416",
// "ул. Целинная, 912", "Suntažu gatve 483", "Arrabal Isabela, 29", "Ronda Micaela s/n"), a Chinese or
// Japanese street number ("齐巷2368号", "8丁目2番7号"), or a number-bearing line followed by a postcode and
// a town ("Čavojského 3\n12 371 Aveley", "Kresánkova 2, 831 04 Bratislava"). The town after a street's
// postcode is a LOCATION of its own ("…, LV-2905 Bolderaja", "…, Y68 VB9Y Bandon", "…, 7198-379 Vila do
// Conde").
//
// Bounded: the anchors are the text's digit runs of at most 5 digits that stand alone (not part of a
// date, a decimal, a phone number or an id) and "s/n"; at each one at most 6 words are read on either side
// (each at most 32 code units) and one line after it. So O(n · window).

import * as chars from '../../text/chars.ts';
import * as namesLexicon from '../lexicon.ts';
import * as namesAddressRules from './address-rules.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { isAsciiDigit } = chars;
const { COMMON_WORDS, norm } = namesLexicon;
const { TIME_WORD } = namesAddressRules;

/** Street types that come before the street's name (or after the number): "Rue …", "Calle …", "ул. …", "6 Impasse …". */
const TYPE_FIRST = new Set(
  // fr
  (
    'rue avenue av boulevard bd bld chemin impasse passage allée allee quai place voie route cours square cité cite villa hameau sentier résidence residence immeuble porte parvis promenade rond-point esplanade faubourg montée ' +
    // es
    'calle c avenida avda paseo plaza carrera carretera camino ronda senda vía via travesía travesia glorieta pasaje callejón callejon cuesta arrabal conjunto colonia lugar puente parque jardines poblado bloque urbanización urbanizacion bulevar privada priv prolongación prolongacion circuito cerrada andador retorno ' +
    // pt
    'rua travessa estrada largo praça praca alameda beco marginal acesso rodovia viela urbanização ladeira ' +
    // it
    'viale piazza piazzale corso contrada borgo vicolo strada rotonda lungomare ' +
    // ca, ro, pl, cz/sk, hr/sr/sl, hu
    'carrer passeig strada str bulevardul bd-ul calea aleea splaiul ul ulica al aleja pl plac os osiedle bulw droga rondo szosa skwer wybrzeże náměstí nám třída ulice námestie trg cesta ' +
    // ru, uk, bg, mk, be
    'улица ул проспект пр-т пр просп переулок пер площадь пл бульвар б-р шоссе ш аллея ал проезд пр-д набережная наб тупик туп вулиця вул провулок пров площа майдан узвіз булевард ulitsa ' +
    // tr, el, he, ar, fa
    'jalan jl jln gang gg dk psr jr ქუჩა გამზირი ხეივანი შესახვევი փողոց պողոտա նրբանցք incrocio ' +
    'cadde caddesi sokak sokağı bulvarı cad sk οδός οδ λεωφόρος λεωφ πλατεία רחוב רח׳ שדרות שד׳ סמטת משעול דרך כיכר شارع طريق سبيل درب رصيف ممر خیابان کوچه بلوار میدان بزرگراه بن'
  ).split(' '),
);

/** English street suffixes (the US Postal Service's and their abbreviations, British and Commonwealth ones): after a house number. */
const EN_LAST =
  'street st road rd avenue ave av drive dr lane ln court ct boulevard blvd way place pl terrace ter crescent cres close highway hwy parkway pkwy square sq trail trl circle cir row walk mews grove gardens gdns hill hills view path loop alley aly plaza alley bypass byp canyon cyn cape causeway cswy center ctr centre club clb common commons corner corners course crest crossing xing crossroad crossroads curve dale dam divide estate estates expressway expy extension ext extensions falls ferry field fields flat flats ford fords forest forge forges fork forks fort freeway fwy garden gateway gtwy glen glens green greens harbor harbour haven heights hts hollow holw inlet island islands isle junction jct key keys knoll knolls lake lakes landing light lights loaf lock locks lodge manor manors meadow meadows mill mills mission motorway mount mountain mountains neck orchard oval overpass park parks pass passage pike pine pines plain plains point points port ports prairie radial ramp ranch rapid rapids rest ridge ridges river run shoal shoals shore shores skyway spring springs spur spurs station stravenue stream summit throughway trace track trafficway tunnel turnpike underpass union unions valley vista via viaduct village ville well wells wynd rise croft link brae gate broadway esplanade parade quay';
/** Street types that come after the street's name in other languages: "Kocatepe Caddesi", "Suntažu gatve", "Kersnikova ulica". */
const OTHER_LAST = new Set(
  // de, nl, scandinavian, fi, et, lv, lt, hu, cz/sk, pl, sl/hr/sr, ro
  (
    'straße strasse str gasse weg platz allee ring damm ufer chaussee steig pfad markt straat laan weg plein gracht kade singel dreef hof steeg plantsoen park ' +
    'gate gata gatan vei veien veg vegen vägen väg gränd gränden vej gade allé plads stræde torv torg bakken bakke stien ' +
    'katu tie kuja polku raitti rinne kaari ranta väylä aukio puistikko tori tänav maantee iela gatve bulvāris laukums dambis prospekts gāte šoseja gatvė prospektas ' +
    'főút lakótelep sétány rakpart ქუჩა გამზირი ხეივანი შესახვევი փողոց պողոտա նրբանցք ' +
    'utca út tér körút u sor köz ulice třída náměstí nábřeží ulica cesta nabrežje trg put sokak sokağı caddesi cad bulvarı yolu ' +
    // ru, uk, uz, az, kk
    'улица ул проспект пр-т переулок пер площадь пл бульвар шоссе аллея проезд набережная тупик вулиця вул провулок площа майдан узвіз ' +
    "ko'chasi ko‘chasi koʻchasi daxasi qirg'oqi xiyoboni bulvari shoh mavzesi tor küçəsi küç prospekti sahəsi döngəsi dalanı " +
    // ja/zh/ko are read apart (CJK_STREET)
    'calle avenida'
  ).split(' '),
);
const EN_SET = new Set(EN_LAST.split(' '));
/** Street types that come after the street's name: "Schuppe Hollow", "Kocatepe Caddesi". */
const TYPE_LAST = new Set([...EN_SET, ...OTHER_LAST]);

/** English suffixes that are as often other words ("3 Data Points", "2 Primary Keys"): after a house number of 3 digits or more only. */
const AMBIGUOUS_LAST = new Set(
  'point points key keys light lights field fields union unions lock locks station center centre course rest pass run track trace common commons corner corners forge forges fork forks link mission well wells club view path loop port ports spring springs river village row walk place way rise gate'.split(
    ' ',
  ),
);
/** Types after a name that are English too ("Main Street 5"); the rest of TYPE_LAST follows a house number only. */
const EN_TRAILING = new Set('street road avenue lane boulevard highway'.split(' '));

/** Words ending in one of these are street names of their own: "Dorfstrasse 5", "149 Dorfstrasse", "Erich-Ollenhauer-Str. 8". */
const GLUED = [
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
  'gracht',
  'plein',
  'kade',
  'katu',
  'tie',
  'kuja',
  'polku',
  'raitti',
  'rinne',
  'kaari',
  'ranta',
  'väylä',
  'utca',
  'iela',
  'gatve',
];

/** Lower-case words inside a street's name: "Passage de la Pompe", "Cesta na Brdo", "Quai des Lombards". */
const CONNECTORS = new Set(
  "de la del di du le les des d' l' da do dos das am an der den im in na nad pod van von y e et i sur of the el al a à o".split(
    ' ',
  ),
);

const MAX_WORDS = 6;
const MAX_WORD = 32;

const isLetterCode = (u: number) =>
  (u >= 65 && u <= 90) ||
  (u >= 97 && u <= 122) ||
  (u >= 0xc0 &&
    u !== 0xd7 &&
    u !== 0xf7 &&
    !(u >= 0x2000 && u <= 0x206f) &&
    !(u >= 0x3000 && u <= 0x303f) &&
    u !== 0xff0c);
const isWordCode = (u: number) =>
  isLetterCode(u) || u === 39 || u === 0x2019 || u === 0x2bc || u === 0x2018 || u === 45 || u === 46 || u === 0x5f3;
/** A word starts with a letter and has no run of punctuation ("Maria-----BEGIN" is none). */
const WORD_SHAPE_RE = /^\p{L}(?!.*[-.'’]{2})/u;
const UPPER_RE = /^[\p{Lu}\p{Lt}]/u;
const CASELESS_RE = /^\p{Lo}/u;
const HAS_LOWER_RE = /\p{Ll}/u;

interface Word {
  s: number;
  e: number;
  w: string;
}

/** The word (letters, apostrophes, hyphens, dots) that ends at e (exclusive), or undefined. */
function wordBefore(text: string, e: number): Word | undefined {
  let s = e;
  while (s > 0 && e - s < MAX_WORD && isWordCode(text.charCodeAt(s - 1))) s--;
  if (s === e || (s > 0 && isWordCode(text.charCodeAt(s - 1)))) return undefined;
  const w = text.slice(s, e);
  if (!WORD_SHAPE_RE.test(w)) return undefined;
  return { s, e, w };
}

/** The word that starts at s, or undefined. */
function wordAfter(text: string, s: number): Word | undefined {
  let e = s;
  while (e < text.length && e - s < MAX_WORD && isWordCode(text.charCodeAt(e))) e++;
  if (e === s || (e < text.length && isWordCode(text.charCodeAt(e)))) return undefined;
  // a sentence's full stop or a comma is not part of the word (an abbreviation's dot is: "Str.", "ul.")
  let w = text.slice(s, e);
  if (!WORD_SHAPE_RE.test(w)) return undefined;
  while (w.length > 1 && (w.endsWith('.') || w.endsWith('-')) && !typeWord(w) && !glued(w)) {
    w = w.slice(0, -1);
    e--;
  }
  return { s, e, w };
}

function key(w: string): string {
  const k = norm(w);
  return k.endsWith('.') ? k.slice(0, -1) : k;
}
function typeFirst(w: string): boolean {
  return TYPE_FIRST.has(key(w));
}
function typeLast(w: string): boolean {
  return TYPE_LAST.has(key(w));
}
/** A type after a name and before the number ("Kocatepe Caddesi 39"): not the English suffixes (English numbers lead), an abbreviation only with its dot. */
function typeLastTrailing(w: string): boolean {
  const k = key(w);
  if (
    !TYPE_LAST.has(k) ||
    (EN_SET.has(k) && !OTHER_LAST.has(k) && !(EN_TRAILING.has(k) && UPPER_RE.test(w) && HAS_LOWER_RE.test(w)))
  )
    return false;
  return k.length > 2 || w.endsWith('.');
}
function typeFirstTrailing(w: string): boolean {
  const k = key(w);
  return TYPE_FIRST.has(k) && (k.length > 2 || w.endsWith('.'));
}
function typeWord(w: string): boolean {
  return typeFirst(w) || typeLast(w);
}
const GLUED_SET = new Set(GLUED);
const GLUED_LENGTHS = [...new Set(GLUED.map((g) => g.length))];
function glued(w: string): boolean {
  if (!UPPER_RE.test(w)) return false;
  const k = norm(w);
  for (const len of GLUED_LENGTHS) if (k.length >= len + 3 && GLUED_SET.has(k.slice(k.length - len))) return true;
  return false;
}
/** A word of a street's name: capitalised, of a caseless script, or a connector. */
function nameWord(w: string): boolean {
  return UPPER_RE.test(w) || CASELESS_RE.test(w) || /^\d{1,3}\.?$/.test(w);
}
function connector(w: string): boolean {
  return CONNECTORS.has(norm(w));
}

/** Does a house number end at e and what may trail it ("43b", "412 bis", "610/2", "s/n")? Returns the end of the number's span. */
function numberEnd(text: string, e: number): number {
  const n = text.length;
  let q = e;
  const u = text.charCodeAt(q);
  // one letter glued to the number ("43b", "796c"), not the start of a word ("5th", "3rd")
  if (
    q < n &&
    ((u >= 97 && u <= 122) || (u >= 65 && u <= 90)) &&
    !(q + 1 < n && isWordCode(text.charCodeAt(q + 1)) && text.charCodeAt(q + 1) !== 46)
  )
    q++;
  else if (text.startsWith('/', q) && isAsciiDigit(text.charCodeAt(q + 1))) {
    q++;
    while (q < n && q - e < 5 && isAsciiDigit(text.charCodeAt(q))) q++;
  } else if (/^ bis(?![\p{L}])/u.test(text.slice(q, q + 5))) q += 4;
  return q;
}

/** Postcode then town, at p: "12345 Town", "12 371 Aveley", "LV-2905 Bolderaja", "Y68 VB9Y Bandon", "M6A 9Q1 Tuma", "1017 GC Amsterdam". */
const POSTCODE_TOWN_AT =
  /(?:(?:[A-Z]{1,3}-?)?\d{2,6}(?:[- ]\d{2,5})?(?: [A-Z]{2}(?= ))?|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d|[A-Z]\d[\dW] ?[A-Z\d]{4})[ \t]{1,2}((?:[\p{Lu}\p{Lt}][\p{L}\p{M}'’-]{0,30}|\p{Lo}[\p{L}\p{M}'’-]{0,30})(?:[ \t](?:(?:de|la|del|di|du|le|am|an|der|im|do|da|dos|das|des|sur|on|upon|el|al|bei|ob|an der|in)[ \t])?(?:[\p{Lu}\p{Lt}\p{Lo}][\p{L}\p{M}'’-]{0,30}|[IVX]{1,4}\.?)){0,4})(?![\p{L}\p{N}])/uy;

/** A postcode and town right after a street ending at e: ", 12345 Town" or on the next line. Returns [town start, town end] or undefined. */
export function postcodeTownAfter(text: string, e: number): [number, number] | undefined {
  let p = e;
  if (text[p] === ',') p++;
  let spaces = 0;
  while (p < text.length && spaces < 3 && (text[p] === ' ' || text[p] === '\t')) {
    p++;
    spaces++;
  }
  if (p === e) {
    if (text[p] === '\r') p++;
    if (text[p] !== '\n') return undefined;
    p++;
    while (p < text.length && p - e < 6 && (text[p] === ' ' || text[p] === '\t')) p++;
  } else if (text[e] !== ',' && text[p] !== '\n') return undefined;
  POSTCODE_TOWN_AT.lastIndex = p;
  const m = POSTCODE_TOWN_AT.exec(text);
  if (!m) return undefined;
  const town = m[1]!;
  const ts = p + m[0].length - m[1]!.length;
  if (COMMON_WORDS.has(norm(town.split(' ')[0]!)) || TIME_WORD.test(town.split(' ')[0]!)) return undefined;
  return [ts, ts + town.length];
}

/** "<digits>" of a house number: a digit run of 1-5 digits that stands alone. */
function standaloneNumber(text: string, s: number, e: number): boolean {
  if (e - s > 5) return false;
  const b = s > 0 ? text.charCodeAt(s - 1) : 32;
  // not glued to a letter or another number's separator ("v2", "3.5", "10:30", "2024-01", "#4")
  if (
    isLetterCode(b) ||
    b === 46 ||
    b === 58 ||
    b === 45 ||
    b === 47 ||
    b === 35 ||
    b === 43 ||
    b === 36 ||
    b === 0x20ac ||
    b === 95 ||
    b === 61 ||
    b === 64
  ) {
    // a CJK street number: "齐巷2368号"
    if (!(b >= 0x3400 && b <= 0x9fff)) return false;
  }
  const a = e < text.length ? text.charCodeAt(e) : 32;
  if ((a === 46 || a === 58 || a === 45 || a === 44 || a === 47) && isAsciiDigit(text.charCodeAt(e + 1))) return false;
  if (a === 37 || a === 0xb0 || a === 95 || a === 64) return false;
  return true;
}

/** The span [start, end) of a street around the house number [s, e), or undefined. */
function streetAround(text: string, s: number, e: number, sn: boolean): [number, number, number] | undefined {
  const ne = sn ? e : numberEnd(text, e);
  // CJK: "<Han>{1,12}(路|街|巷|道|弄)<number>(号|號)", "<n>丁目<n>番<n>号"
  if (!sn) {
    const after = text.charCodeAt(e);
    if (after === 0x53f7 || after === 0x865f) {
      let a = s;
      while (a > 0 && s - a < 16 && isCjkStreetChar(text.charCodeAt(a - 1))) a--;
      // the street's name is the few characters before its type ("请寄到长宁路1187号": 长宁路)
      const seg = text.slice(a, s);
      const ty = Math.max(
        seg.lastIndexOf('路'),
        seg.lastIndexOf('街'),
        seg.lastIndexOf('巷'),
        seg.lastIndexOf('道'),
        seg.lastIndexOf('弄'),
        seg.lastIndexOf('里'),
        seg.lastIndexOf('栋'),
      );
      if (ty >= 0) return [Math.max(a, a + ty - 2), e + 1, 0.8];
    }
    if (after === 0x4e01 && text.startsWith('丁目', e)) {
      const m = /^丁目\d{1,4}番(?:地)?(?:\d{1,4}号?)?/u.exec(text.slice(e, e + 16));
      if (m) return [s, e + m[0].length, 0.8];
    }
  }
  // words before the number (nearest first), over one comma right before it ("Ronda Rosario, 4")
  const before: Word[] = [];
  let p = s;
  while (p > 0 && (text[p - 1] === ' ' || text[p - 1] === '\t')) p--;
  // over one comma ("Ronda Rosario, 4"), unless the number starts a postcode and town ("… Street, 4530 Foinikaria")
  let comma = false;
  if (p > 0 && text[p - 1] === ',' && p < s) {
    p--;
    comma = true;
  }
  if (p < s) {
    // a house-number word before the number ("Dk. Ade no 47", "Hauptstr. Nr. 5") is read over
    const marker = wordBefore(text, p);
    if (
      marker &&
      /^(?:no|nr|nº|n°|num|número|numero|nummer)\.?$/i.test(marker.w) &&
      marker.s > 0 &&
      text[marker.s - 1] === ' '
    )
      p = marker.s - 1;
    for (let k = 0; k < MAX_WORDS; k++) {
      const w = wordBefore(text, p);
      if (!w) break;
      before.push(w);
      if (w.s === 0 || text[w.s - 1] !== ' ') break;
      p = w.s - 1;
    }
  }
  const year = e - s === 4 && /^(?:19|20)/.test(text.slice(s, s + 2));
  // number-trailing: a street type among the words before ("Kocatepe Caddesi 39", "улица Кирпичная, 824", "Calle Mayor 7"),
  // not after a number-led street ("62 Mavrokordatou Street, 4530 Foinikaria": that number is a postcode)
  const trailing = !(comma && /^[ \t]{1,2}[\p{Lu}\p{Lt}\p{Lo}]/u.test(text.slice(ne, ne + 3)));
  for (let j = 0; trailing && j < before.length; j++) {
    const w = before[j]!;
    if (glued(w.w) && j === 0)
      return numberBefore(text, startBack(before, 0)) ? undefined : [startBack(before, 0), ne, 0.8];
    if (typeFirstTrailing(w.w) && j > 0 && namesBetween(before, j))
      return numberBefore(text, w.s) ? undefined : [w.s, ne, 0.8];
    if (
      typeLastTrailing(w.w) &&
      !year &&
      j < before.length - 1 &&
      namesBetween(before, j) &&
      nameWord(before[j + 1]!.w) &&
      !connector(before[j + 1]!.w)
    ) {
      const a = startBack(before, j + 1);
      return numberBefore(text, a) ? undefined : [a, ne, 0.75];
    }
    if (!nameWord(w.w) && !connector(w.w) && !typeWord(w.w)) break;
  }
  if (sn) return undefined;
  // number-led: "4224 Schuppe Hollow", "6 Impasse de la Paix", "149 Dorfstrasse"
  const after: Word[] = [];
  p = ne;
  for (let k = 0; k < MAX_WORDS; k++) {
    if (text[p] !== ' ') break;
    const w = wordAfter(text, p + 1);
    if (!w) break;
    after.push(w);
    p = w.e;
  }
  if (
    (after.length > 0 && !TIME_WORD.test(after[0]!.w) && !COMMON_WORDS.has(norm(after[0]!.w))) ||
    (after.length > 1 && typeWord(after[0]!.w))
  ) {
    const first = after[0];
    if (first && glued(first.w)) return [s, first.e, 0.8];
    if (first && typeFirst(first.w) && UPPER_RE.test(first.w) && after.length > 1) {
      let k = 1;
      let last = -1;
      while (k < after.length && (nameWord(after[k]!.w) || (connector(after[k]!.w) && k + 1 < after.length))) {
        if (!connector(after[k]!.w)) last = k;
        k++;
      }
      if (last >= 1) return [s, after[last]!.e, 0.8];
    }
    for (let k = 1; k < after.length; k++) {
      const w = after[k]!;
      if (
        typeLast(w.w) &&
        UPPER_RE.test(w.w) &&
        HAS_LOWER_RE.test(w.w) &&
        (!AMBIGUOUS_LAST.has(key(w.w)) || (e - s >= 3 && k <= 2))
      )
        return [s, w.e, 0.8];
      if (!nameWord(w.w)) break;
    }
  }
  // a line with a house number followed by a postcode and a town ("Čavojského 3\n12 371 Aveley", "Kresánkova 2, 831 04 Bratislava")
  if (postcodeTownAfter(text, ne) !== undefined) {
    if (
      before.length > 0 &&
      nameWord(before[0]!.w) &&
      !COMMON_WORDS.has(norm(before[0]!.w)) &&
      before[0]!.w.length >= 3 &&
      (HAS_LOWER_RE.test(before[0]!.w) || CASELESS_RE.test(before[0]!.w)) &&
      text.slice(before[0]!.e, s).indexOf('\n') < 0
    ) {
      let j = 0;
      while (
        j + 1 < before.length &&
        (nameWord(before[j + 1]!.w) || connector(before[j + 1]!.w)) &&
        text.slice(before[j + 1]!.e, before[j]!.s).indexOf('\n') < 0
      )
        j++;
      while (j > 0 && connector(before[j]!.w)) j--;
      return [before[j]!.s, ne, 0.7];
    }
    // a line that starts with the number: "67418 حمزہ آباد\n63332 Lexington"
    if (after.length > 0 && (s === 0 || text[s - 1] === '\n') && after.every((w) => nameWord(w.w) || connector(w.w)))
      return [s, after[after.length - 1]!.e, 0.7];
  }
  return undefined;
}

/** Does a number-led street's number stand right before `a` ("62 Mavrokordatou Street")? */
function numberBefore(text: string, a: number): boolean {
  let q = a - 1;
  if (q < 0 || text[q] !== ' ') return false;
  q--;
  if (q >= 0 && /[A-Za-z]/.test(text[q]!) && q > 0 && isAsciiDigit(text.charCodeAt(q - 1))) q--;
  return q >= 0 && isAsciiDigit(text.charCodeAt(q));
}

function isCjkStreetChar(u: number): boolean {
  return u >= 0x3400 && u <= 0x9fff;
}

/** Are the words between the number and the type at j (before[0..j-1]) names or connectors, at least one a name? */
function namesBetween(before: readonly Word[], j: number): boolean {
  let name = j === 0;
  for (let k = 0; k < j; k++) {
    const w = before[k]!.w;
    if (connector(w)) continue;
    if (!nameWord(w) && !(typeWord(w) && k > 0)) return false;
    if (!COMMON_WORDS.has(norm(w)) || UPPER_RE.test(w)) name = true;
  }
  return name;
}

/** The start of a street whose name's last word is before[j]: back over up to 3 more capitalised words or connectors. */
function startBack(before: readonly Word[], j: number): number {
  let k = j;
  while (
    k + 1 < before.length &&
    k - j < 3 &&
    (nameWord(before[k + 1]!.w) || connector(before[k + 1]!.w)) &&
    !COMMON_WORDS.has(norm(before[k + 1]!.w))
  )
    k++;
  while (k > j && connector(before[k]!.w)) k--;
  return before[k]!.s;
}

const UNIT_AFTER_AT =
  /\.?,?[ \t]{1,2}(?:esc|escalera|puerta|piso|planta|apto|apt|apartment|suite|ste|unit|flat|stiege|top|tür|whg|étage|bât|appartement|appartamento|interno|int|scala|andar|sala|bloco|lote|dpto|depto|local|etage|room|floor|fl)\.?[ \t]?#?(?:\d{1,5}[A-Za-z]?|[A-Za-z]\d{0,3})(?![\p{L}\p{N}])/iuy;

/**
 * Can a street's words touch the number [s, e)? A letter after one space (or after a glued letter and a
 * space: "43b Main"), a letter before one space or ", ", a CJK character before it, or a line start before
 * it (a number-led line). Most numbers of logs and JSON have none and cost nothing more.
 */
const isAsciiUpperOrDigit = (u: number) => (u >= 65 && u <= 90) || (u >= 48 && u <= 57);

function wordTouches(text: string, s: number, e: number): boolean {
  const n = text.length;
  let q = e;
  if (q < n && isLetterCode(text.charCodeAt(q))) q++;
  // (a word after the number that starts with two capitals or a capital and a digit, "00 DE89", is an id's part)
  if (
    q + 1 < n &&
    text.charCodeAt(q) === 32 &&
    isLetterCode(text.charCodeAt(q + 1)) &&
    !(isAsciiUpperOrDigit(text.charCodeAt(q + 1)) && isAsciiUpperOrDigit(text.charCodeAt(q + 2)))
  )
    return true;
  if (q < n && (text.charCodeAt(q) === 0x53f7 || text.charCodeAt(q) === 0x865f || text.charCodeAt(q) === 0x4e01))
    return true;
  if (s === 0) return false;
  let p = s - 1;
  const b = text.charCodeAt(p);
  if (b >= 0x3400 && b <= 0x9fff) return true;
  if (b === 10) return false;
  if (b !== 32 && b !== 9) return false;
  if (p > 0 && text.charCodeAt(p - 1) === 44) p--;
  return p > 0 && (isLetterCode(text.charCodeAt(p - 1)) || text.charCodeAt(p - 1) === 46);
}

/** House numbers read per text at most ("12 Main 12 Main …" costs a bounded time; a real text has far fewer). */
const MAX_TRIED = 512;

/**
 * Digits a street's words may touch (wordTouches, natively): after a letter (or an abbreviation's dot) and a
 * space or ", ", after a CJK character, at a line's start, or in a run followed by a space and a letter (or a
 * CJK number sign). Most digits of logs and JSON match none and cost no JavaScript.
 */
const DIGIT_RE =
  /[0-9](?:(?<=(?:[\p{L}\p{M}.][ \t]|[\p{L}\p{M}.],[ \t]|[\u3400-\u9fff]|^)[0-9])|(?=[0-9]{0,5}[A-Za-z]?[ \t]\p{L}|[0-9]{0,5}[号號丁]))/gmu;

/** Streets by their grammar (type words, CJK numbers, a postcode line after the number) and the towns after their postcodes; `known`: starts of the streets found already. */
export function streetsByGrammar(
  text: string,
  push: (type: string, s: number, e: number, score: number) => void,
  known?: ReadonlyMap<number, number>,
): void {
  const n = text.length;
  let found = 0;
  let tried = 0;
  /** Ends of the streets so far. */
  const ends = new Set<number>();
  const at = (s: number, e: number, sn: boolean): number => {
    // a street another rule found from this number ("62 Mavrokordatou Street"): only the town after its postcode
    const ke = known?.get(s);
    if (ke !== undefined) {
      const town = postcodeTownAfter(text, ke);
      if (town) push('LOCATION', town[0], town[1], 0.7);
      ends.add(ke);
      return Math.max(e, ke);
    }
    // the postcode after a street's comma ("… Street, 4530 Foinikaria") starts no street
    if (s >= 2 && text.charCodeAt(s - 1) === 32 && text.charCodeAt(s - 2) === 44 && ends.has(s - 2)) return e;
    if ((!sn && !wordTouches(text, s, e)) || ++tried > MAX_TRIED) return e;
    const r = streetAround(text, s, e, sn);
    if (!r) return e;
    const [a, b0, score] = r;
    // the unit after a street belongs to it: "Torrente Caridad 0 Esc. 898", "… s/n. Puerta 613", "… 5, Apt. 4B"
    UNIT_AFTER_AT.lastIndex = b0;
    const unit = UNIT_AFTER_AT.exec(text);
    const b = unit ? b0 + unit[0].length : b0;
    push('STREET_ADDRESS', a, b, score);
    ends.add(b);
    found++;
    const town = postcodeTownAfter(text, b);
    if (town) push('LOCATION', town[0], town[1], 0.7);
    return Math.max(e, b);
  };
  // the house numbers: digit runs found by a native scan (most of a text has no digit), then "s/n"
  DIGIT_RE.lastIndex = 0;
  while (found < 256 && tried <= MAX_TRIED && DIGIT_RE.test(text)) {
    let s = DIGIT_RE.lastIndex - 1;
    while (s > 0 && isAsciiDigit(text.charCodeAt(s - 1))) s--;
    let e = s + 1;
    while (e < n && isAsciiDigit(text.charCodeAt(e))) e++;
    DIGIT_RE.lastIndex = standaloneNumber(text, s, e) ? at(s, e, false) : e;
  }
  // "s/n" (sin número) after a street's name: looked for at its "/n" (two native scans; most texts have none)
  for (const slashN of ['/n', '/N']) {
    for (let j = text.indexOf(slashN); j > 0 && found < 256; j = text.indexOf(slashN, j + 2)) {
      const i = j - 1;
      if ((text.charCodeAt(i) | 32) !== 115) continue;
      if (
        (i === 0 || text[i - 1] === ' ') &&
        (!isWordCode(text.charCodeAt(i + 3)) ||
          (text.charCodeAt(i + 3) === 46 && !isLetterCode(text.charCodeAt(i + 4))))
      )
        at(i, i + 3, true);
    }
  }
}
