// Candidate regions from the text itself for a national-format phone number (no "+", no country code):
// a country named shortly before it ("Our Malawi office: 0991 23 76 22", '{"country": "Tonga", "phone":
// "771 2661"}'). Country names come from the runtime's own CLDR data (Intl.DisplayNames) in the
// languages the detectors read, for every region libphonenumber knows; no package and no list kept here.
// Idea after libphonenumber's PhoneNumberMatcher, which is given the caller's default region: here the
// text supplies it.

import { type CountryCode, getCountries } from 'libphonenumber-js/max';

const LANGS = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'];
/** How far before the number a country name is looked for. */
const WINDOW = 96;

let byName: Map<string, CountryCode> | undefined;
/** The first words of the names (lower case): a run is sliced and looked up only when it starts with one. */
let firstWords: Set<string> | undefined;

function names(): Map<string, CountryCode> {
  if (byName) return byName;
  const m = new Map<string, CountryCode>();
  for (const lang of LANGS) {
    const dn = new Intl.DisplayNames([lang], { type: 'region' });
    for (const code of getCountries()) {
      const name = dn.of(code);
      if (name && name !== code) m.set(name.toLowerCase(), code);
    }
  }
  for (const [alias, code] of [
    ['usa', 'US'],
    ['uk', 'GB'],
    ['england', 'GB'],
    ['scotland', 'GB'],
    ['wales', 'GB'],
    ['czech republic', 'CZ'],
    ['holland', 'NL'],
  ] as const)
    m.set(alias, code);
  byName = m;
  firstWords = new Set([...m.keys()].map((k) => k.split(/[\s-]/)[0]!));
  return m;
}

/** The words of a window before a number, as [start, end) pairs into the text (reused from call to call). */
const wordAt = new Int32Array(2 * WINDOW);
/** Per word of wordAt: 1 if its first part (before a '-') begins a country's name, 0 if not, -1 not read yet. */
const firstAt = new Int8Array(WINDOW);

/** Capitalised runs of 1-4 words in the window before `start` that name a country, nearest first (at most 2 regions). */
export function countryRegionsBefore(text: string, start: number): CountryCode[] {
  const from = Math.max(0, start - WINDOW);
  const m = names();
  // the words, /\p{Lu}[\p{L}'’.-]*/gu's matches, read by char codes in an ASCII window (most windows)
  let n = 0;
  let inWord = false;
  for (let i = from; i < start; i++) {
    const c = text.charCodeAt(i);
    const letter = ((c | 32) - 97) >>> 0 < 26;
    if (inWord) {
      if (letter || c === 39 || c === 0x2019 || c === 46 || c === 45) continue;
      wordAt[2 * n - 1] = i;
      inWord = false;
    }
    if (c >= 128 && c !== 0x2019) return countryRegionsByRegex(text, from, start, m);
    if (letter && c < 97) {
      wordAt[2 * n] = i;
      firstAt[n++] = -1;
      inWord = true;
    }
  }
  if (inWord) wordAt[2 * n - 1] = start;
  const out: CountryCode[] = [];
  for (let i = n - 1; i >= 0 && out.length < 2; i--) {
    // the longest name ending at word i (up to 4 words, joined by what stands between them in the text)
    for (let k = Math.max(0, i - 3); k <= i; k++) {
      if (firstAt[k] === -1) {
        const a = wordAt[2 * k]!;
        const e = wordAt[2 * k + 1]!;
        let dash = a;
        while (dash < e && text.charCodeAt(dash) !== 45) dash++;
        firstAt[k] = firstWords!.has(text.slice(a, dash).toLowerCase()) ? 1 : 0;
      }
      if (firstAt[k] === 0) continue;
      const code = m.get(text.slice(wordAt[2 * k]!, wordAt[2 * i + 1]!).toLowerCase());
      if (code && !out.includes(code)) {
        out.push(code);
        i = k;
        break;
      }
    }
  }
  return out;
}

/** countryRegionsBefore of a window with letters beyond ASCII, by the regex. */
function countryRegionsByRegex(text: string, from: number, start: number, m: Map<string, CountryCode>): CountryCode[] {
  const window = text.slice(from, start);
  const out: CountryCode[] = [];
  const words = [...window.matchAll(/\p{Lu}[\p{L}'’.-]*/gu)];
  for (let i = words.length - 1; i >= 0 && out.length < 2; i--) {
    // the longest name ending at word i (up to 4 words, joined by what stands between them in the text)
    for (let k = Math.max(0, i - 3); k <= i; k++) {
      if (!firstWords!.has(words[k]![0].toLowerCase().split('-')[0]!)) continue;
      const a = words[k]!.index;
      const b = words[i]!.index + words[i]![0].length;
      const code = m.get(window.slice(a, b).toLowerCase());
      if (code && !out.includes(code)) {
        out.push(code);
        i = k;
        break;
      }
    }
  }
  return out;
}

/**
 * Regions the language of a phone label points at ("tlf." Norway and Denmark, "Tél." France, Belgium and
 * Switzerland): a national-format number after such a label is tried there when no default region
 * validates it. At most four regions per word, so a candidate costs a bounded number of libphonenumber
 * calls; the label is found in the CUE_WINDOW chars before the number.
 */
const CUE_REGIONS: ReadonlyArray<readonly [string, readonly CountryCode[]]> = [
  ['tlf', ['NO', 'DK']],
  ['tfn', ['SE']],
  ['puh', ['FI']],
  ['natel', ['CH']],
  ['gsm', ['BE', 'NL']],
  ['handy', ['DE', 'AT', 'CH']],
  ['durchwahl', ['DE', 'AT', 'CH']],
  ['festnetz', ['DE', 'AT', 'CH']],
  ['mobil', ['DE', 'AT', 'NO', 'SE']],
  ['telefon', ['DE', 'AT', 'CH', 'SE']],
  ['rufnummer', ['DE', 'AT', 'CH']],
  ['tél', ['FR', 'BE', 'CH', 'LU']],
  ['portable', ['FR', 'BE', 'CH']],
  ['numéro', ['FR', 'BE', 'CH']],
  ['telefoon', ['NL', 'BE']],
  ['mobiel', ['NL', 'BE']],
  ['bel ', ['NL', 'BE']],
  ['teléfono', ['ES', 'MX', 'AR', 'CO']],
  ['móvil', ['ES']],
  ['movil', ['ES']],
  ['telefono', ['IT', 'CH']],
  ['cellulare', ['IT', 'CH']],
  ['chiam', ['IT']],
  ['telemóvel', ['PT']],
  ['celular', ['BR', 'MX', 'AR', 'CO']],
  ['telefone', ['BR', 'PT']],
  ['telefonu', ['PL', 'CZ']],
  ['telefonní', ['CZ']],
  ['numer ', ['PL']],
  ['numeru', ['PL']],
  ['číslo', ['CZ', 'SK']],
  ['cislo', ['CZ', 'SK']],
  ['broj', ['HR', 'RS', 'BA', 'ME']],
  ['telefonszám', ['HU']],
  ['numara', ['TR']],
  ['număr', ['RO', 'MD']],
  ['ligue', ['BR', 'PT']],
];
const CUE_WINDOW = 40;

export function cueRegionsBefore(text: string, start: number): CountryCode[] {
  const window = text.slice(Math.max(0, start - CUE_WINDOW), start).toLowerCase();
  const out: CountryCode[] = [];
  for (const [word, regions] of CUE_REGIONS) {
    if (!window.includes(word)) continue;
    for (const r of regions) if (!out.includes(r)) out.push(r);
    if (out.length >= 4) break;
  }
  return out.slice(0, 4);
}

/**
 * Regions of the script of the words around a national-format number: the language a text is written in
 * says where its numbers are dialled ("Καλέστε με στο 691 234 1435", "電話番号は090-1234-4643です").
 * The first letter within SCRIPT_WINDOW chars before the number, else after it, decides; Latin script
 * says nothing (its languages are told by their phone words, cueRegionsBefore). At most four regions.
 */
const SCRIPT_WINDOW = 32;
export function scriptRegionsNear(text: string, start: number, end: number): readonly CountryCode[] {
  for (let i = start - 1; i >= Math.max(0, start - SCRIPT_WINDOW); i--) {
    const r = regionsOfScript(text.charCodeAt(i));
    if (r) return r;
  }
  for (let i = end; i < Math.min(text.length, end + SCRIPT_WINDOW); i++) {
    const r = regionsOfScript(text.charCodeAt(i));
    if (r) return r;
  }
  return [];
}

function regionsOfScript(c: number): readonly CountryCode[] | undefined {
  if (c < 0x370) return undefined;
  if (c <= 0x3ff) return ['GR', 'CY'];
  if (c <= 0x4ff) return ['RU', 'UA', 'BY', 'BG'];
  if (c >= 0x530 && c <= 0x58f) return ['AM'];
  if (c >= 0x590 && c <= 0x5ff) return ['IL'];
  if (c >= 0x600 && c <= 0x6ff) return ['SA', 'AE', 'EG', 'MA'];
  if (c >= 0x900 && c <= 0x97f) return ['IN'];
  if (c >= 0xe00 && c <= 0xe7f) return ['TH'];
  if (c >= 0x10a0 && c <= 0x10ff) return ['GE'];
  if ((c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f) || (c >= 0xac00 && c <= 0xd7af)) return ['KR'];
  if (c >= 0x3040 && c <= 0x30ff) return ['JP'];
  if ((c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff)) return ['CN', 'TW', 'HK', 'JP'];
  return undefined;
}
