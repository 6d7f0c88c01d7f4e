// Persons, places and streets in the columns of a table whose header names them: CSV, TSV, semicolon- and
// pipe-separated rows ("name,city,amount\nKim,Olmos,12.50", "| Kunde | Stadt |\n| Kim | Olmos |"). The
// header says what a cell holds, so a name or a town no dictionary knows is found as well as a known one.
// A person's column is headed by a key of the same vocabulary as a person's field (CUE_KEYS).
//
// Bounded: one regex test says whether the text has a header cell of these names at all; then every line
// after a header is split once (at most 64 columns read), so O(n).

import * as namesAddressRules from './address-rules.ts';
import * as namesPlaceCues from './cues.ts';
import * as namesPlaceFields from './fields.ts';
import * as personRules from '../person-rules.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { WEAK_PLACE_KEYS } = namesAddressRules;
const { nameLooksLikePlace } = namesPlaceCues;
const { placeFieldValue } = namesPlaceFields;
const { CUE_KEYS } = personRules;

/** Header cells of a person's column: the keys of a person's field. */
const PERSON_HEADERS = new Set(CUE_KEYS);
const PERSON_HEADER_HINT = new RegExp(
  `(?:^|[,;\\t|])[ \\t]*["']?(?:${[...PERSON_HEADERS].sort((a, b) => b.length - a.length).join('|')})["']?[ \\t]*(?=[,;\\t|]|\\r?$)`,
  'imu',
);
/** A person's name in a cell: one to four capitalised words (initials, hyphens, apostrophes), no digit or "@". */
const PERSON_CELL =
  /^[\p{Lu}\p{Lt}][\p{L}'’.-]*(?: (?:[\p{Lu}\p{Lt}][\p{L}'’.-]*|van|de|der|von|da|di|del|la|le|dos|bin)){0,3}$/u;

/** Header cells of a place column, and of a street column. */
const PLACE_HEADERS = new Set(
  'city town country location region state province county place hometown birthplace destination geo stadt ort wohnort standort land ville pays lieu ciudad localidad país pais cidade localidade paese città citta comune località plaats woonplaats stad'.split(
    ' ',
  ),
);
/** Header cells of columns that hold places as often as other things ("origin", "office", "Abfahrt"): a cell must read as a name (names/places/fields.ts). */
const WEAK_PLACE_HEADERS = new Set([
  ...WEAK_PLACE_KEYS,
  'stops',
  'arrêt',
  'arret',
  'halt',
  'office',
  'branch',
  'site',
  'hub',
  'depot',
  'warehouse',
  'base',
  'niederlassung',
  'filiale',
  'bureau',
  'agence',
  'oficina',
  'sucursal',
  'sede',
  'ufficio',
  'escritório',
  'kantoor',
  'vestiging',
]);
/**
 * Header cells of a route's ends ("date,from,to,km", "von;nach", "desde|hasta"): places when the header has both ends,
 * and a cell reads as a place's name (a mail log's "from,to" holds addresses and people).
 */
const ROUTE_FROM_HEADERS = new Set(['from', 'von', 'de', 'desde', 'da', 'van']);
const ROUTE_TO_HEADERS = new Set(['to', 'nach', 'à', 'a', 'hasta', 'para', 'naar', 'bis']);
const STREET_HEADERS = new Set(
  'address street address1 address_1 address_line_1 address_line1 addressline1 street_address line1 adresse straße strasse anschrift dirección direccion calle indirizzo via endereço endereco rua adres straat'.split(
    ' ',
  ),
);

const HEADER_HINT =
  /(?:^|[,;\t|])[ \t]*["']?(?:stops?|halt|haltestelle|arr[êe]t|parada|fermata|halte|to|nach|à|a|hasta|para|naar|bis|facility|venue|station|airport|campus|terminal|treffpunkt|flughafen|bahnhof|gare|a[ée]roport|aeropuerto|estaci[óo]n|aeroporto|stazione|esta[çc][ãa]o|luchthaven|origin|destination|departure|arrival|office|branch|site|hub|depot|warehouse|base|country_?name|city_?name|county|district|province|herkunft|ziel|abfahrt|ankunft|niederlassung|filiale|d[ée]part|arriv[ée]e|bureau|agence|origen|destino|salida|llegada|oficina|sucursal|sede|origine|destinazione|partenza|arrivo|ufficio|origem|partida|chegada|escrit[óo]rio|herkomst|bestemming|vertrek|aankomst|kantoor|vestiging|city|town|country|location|region|state|province|county|place|hometown|birthplace|destination|geo|stadt|ort|wohnort|standort|land|ville|pays|lieu|ciudad|localidad|pa[ií]s|cidade|localidade|paese|citt[àa]|comune|località|plaats|woonplaats|stad|address|street|adresse|stra(?:ß|ss)e|anschrift|direcci[óo]n|calle|indirizzo|via|endere[çc]o|rua|adres|straat)["']?[ \t]*(?=[,;\t|]|\r?$)/imu;

const NOT_VALUE =
  /^(?:n\/a|na|none|null|unknown|-+|\?|redacted.*|true|false|total|subtotal|sum|all|other|others|average|mean)$/i;

function cells(line: string, sep: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = 0;
  for (let i = 0; i <= line.length && out.length < 64; i++) {
    if (i === line.length || line[i] === sep) {
      let a = s;
      let b = i;
      while (a < b && (line[a] === ' ' || line[a] === '\t' || line[a] === '"' || line[a] === "'")) a++;
      while (
        b > a &&
        (line[b - 1] === ' ' ||
          line[b - 1] === '\t' ||
          line[b - 1] === '"' ||
          line[b - 1] === "'" ||
          line[b - 1] === '\r')
      )
        b--;
      out.push([a, b]);
      s = i + 1;
    }
  }
  return out;
}

/** The separator of a header line: the one of tab, "|", ";", "," it has most of (at least one). */
function separatorOf(line: string): string | undefined {
  let best: string | undefined;
  let n = 0;
  for (const sep of ['\t', '|', ';', ',']) {
    let k = 0;
    for (let i = 0; i < line.length; i++) if (line[i] === sep) k++;
    if (k > n) {
      n = k;
      best = sep;
    }
  }
  return best;
}

/** Starts of the lines that may head a table: the first, and those after a blank line or a code fence (at most 64). */
function headerLines(text: string): number[] {
  const out = [0];
  for (let p = text.indexOf('\n\n'); p >= 0 && out.length < 64; p = text.indexOf('\n\n', p + 2)) out.push(p + 2);
  for (let p = text.indexOf('```'); p >= 0 && out.length < 96; p = text.indexOf('```', p + 3)) {
    const nl = text.indexOf('\n', p);
    if (nl < 0) break;
    out.push(nl + 1);
    p = nl - 2;
  }
  return out.sort((a, b) => a - b);
}

/** Table cells under a person, place or street header: `each(type, start, end)`. */
export function tableColumns(text: string, each: (type: string, s: number, e: number) => void): void {
  if (text.indexOf('\n') < 0) return;
  let found = 0;
  let done = 0; // rows before this were read as part of a table
  // a table's header is the text's first line, or a line after a blank line or a code fence: only those
  // lines are tested (a regex on every line cost more than the rest of the rule)
  for (const at of headerLines(text)) {
    if (at < done || found >= 512) continue;
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const header = text.slice(at, end);
    if (header.length > 400 || !(HEADER_HINT.test(header) || PERSON_HEADER_HINT.test(header))) continue;
    const sep = separatorOf(header);
    if (!sep) continue;
    const hs = cells(header, sep);
    const cols = new Map<number, string>();
    const names = hs.map(([a, b]) => header.slice(a, b).toLowerCase());
    const route = names.some((h) => ROUTE_FROM_HEADERS.has(h)) && names.some((h) => ROUTE_TO_HEADERS.has(h));
    hs.forEach(([a, b], k) => {
      const h = header.slice(a, b).toLowerCase();
      if (route && (ROUTE_FROM_HEADERS.has(h) || ROUTE_TO_HEADERS.has(h))) cols.set(k, 'ROUTE');
      else if (PLACE_HEADERS.has(h)) cols.set(k, 'LOCATION');
      else if (WEAK_PLACE_HEADERS.has(h)) cols.set(k, 'WEAK');
      else if (STREET_HEADERS.has(h)) cols.set(k, 'STREET_ADDRESS');
      else if (PERSON_HEADERS.has(h.replace(/ /g, '_'))) cols.set(k, 'PERSON');
    });
    if (cols.size === 0 || hs.length < 2) continue;
    // the rows: while they have the header's number of cells (a Markdown rule line is skipped)
    let pos = end + 1;
    while (pos < text.length && found < 512) {
      let le = text.indexOf('\n', pos);
      if (le < 0) le = text.length;
      const line = text.slice(pos, le);
      const cs = cells(line, sep);
      if (cs.length !== hs.length || line.trim() === '') break;
      if (!/^[\s|:-]+$/.test(line)) {
        for (const [k, type] of cols) {
          const [a, b] = cs[k]!;
          const v = line.slice(a, b);
          if (
            b - a < 2 ||
            b - a > 80 ||
            NOT_VALUE.test(v) ||
            !/\p{L}/u.test(v) ||
            (type !== 'STREET_ADDRESS' && !/^[\p{Lu}\p{Lt}\p{Lo}]/u.test(v))
          )
            continue;
          if (type === 'PERSON') {
            if (PERSON_CELL.test(v)) each('PERSON', pos + a, pos + b);
          } else if (type === 'WEAK' || type === 'ROUTE') {
            const place = placeFieldValue(text, 'origin', pos + a, pos + b, false);
            if (place && (type === 'WEAK' || nameLooksLikePlace(text.slice(place[0], place[1]))))
              each('LOCATION', place[0], place[1]);
          } else each(type, pos + a, pos + b);
          found++;
        }
      }
      pos = le + 1;
    }
    done = pos;
  }
}

/** A place in a markup element named for it: "<city>Olmos</city>", '<span class="city">Olmos</span>'. */
const MARKUP_PLACE_RE =
  /<(city|town|country|locality|location|place|venue|site|region|state|hometown|birthplace|stadt|ort|ville|pays|ciudad|localidad|cidade|citt[aà]|plaats|woonplaats|origin|destination|departure|arrival|county|district|province|municipality|country_?name|city_?name)>([^<>\n]{2,80})<\/\1>|<[a-z][a-z0-9]{0,10} [^<>\n]{0,80}?(?:class|itemprop|name|data-field)="(?:[\w-]{0,30} )?(?:city|town|country|locality|address-locality|addresslocality|country-name|region)(?: [\w-]{0,30})?"[^<>\n]{0,80}>([^<>\n]{2,80})</giu;

/** An element of a place with its name in an attribute: '<stop name="Obing" time="10:00"/>', '<city id="3" name="Lyon">'. */
const MARKUP_NAME_ATTR_RE =
  /<(?:stop|station|airport|place|city|town|venue|location|locality|destination|origin)(?:[ \t][\w-]{1,20}="[^"<>\n]{0,40}"){0,3}[ \t](?:name|title|label)="([^"<>\n]{2,80})"/giu;

/** Places in markup elements named for them: `each(start, end)` (a text without "<" costs one indexOf). */
export function markupPlaces(text: string, each: (s: number, e: number) => void): void {
  if (text.indexOf('<') < 0) return;
  MARKUP_NAME_ATTR_RE.lastIndex = 0;
  for (let m = MARKUP_NAME_ATTR_RE.exec(text), k = 0; m && k < 256; m = MARKUP_NAME_ATTR_RE.exec(text), k++) {
    const v = m[1]!;
    if (!/^[\p{Lu}\p{Lt}\p{Lo}]/u.test(v) || NOT_VALUE.test(v)) continue;
    const s = m.index + m[0].length - 1 - v.length;
    each(s, s + v.length);
  }
  MARKUP_PLACE_RE.lastIndex = 0;
  let found = 0;
  for (let m = MARKUP_PLACE_RE.exec(text); m && found < 256; m = MARKUP_PLACE_RE.exec(text)) {
    const v = m[2] ?? m[3]!;
    const a =
      m.index +
      m[0].lastIndexOf(v + (m[2] !== undefined ? '<' : ''), m[0].length - (m[2] !== undefined ? m[1]!.length + 3 : 0));
    const t = v.trim();
    if (!/^[\p{Lu}\p{Lt}\p{Lo}]/u.test(t) || NOT_VALUE.test(t)) continue;
    const s = a + v.indexOf(t);
    each(s, s + t.length);
    found++;
  }
}
