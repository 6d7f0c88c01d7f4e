// The dictionaries of the name detectors, loaded once from npm packages: first and last names, places and
// countries of every Faker locale, cspell's people names; minus the frequent words that are also names.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { allLocales } from '@faker-js/faker';
import { getCountries } from 'libphonenumber-js/max';

export interface Dicts {
  first: Set<string>;
  last: Set<string>;
  places: Set<string>;
  countries: Set<string>;
  /** See countryAt. */
  countryFirsts: Uint8Array;
}

let dicts: Dicts | undefined;

export function norm(s: string): string {
  return s.toLowerCase();
}

export function loadDicts(): Dicts {
  if (dicts) return dicts;
  const first = new Set<string>();
  const last = new Set<string>();
  const places = new Set<string>();
  const countries = new Set<string>();
  const addAll = (set: Set<string>, v: unknown) => {
    if (Array.isArray(v)) for (const x of v) if (typeof x === 'string' && !x.includes('{')) set.add(norm(x));
  };
  for (const loc of Object.values(allLocales) as Record<string, Record<string, unknown> | undefined>[]) {
    const person = loc['person'];
    if (person) {
      for (const k of ['first_name', 'last_name', 'middle_name']) {
        const v = person[k];
        const target = k === 'last_name' ? last : first;
        if (Array.isArray(v)) addAll(target, v);
        else if (v && typeof v === 'object') for (const arr of Object.values(v)) addAll(target, arr);
      }
    }
    const location = loc['location'];
    if (location) {
      addAll(places, location['city_name']);
      addAll(places, location['state']);
      addAll(countries, location['country']);
    }
  }
  try {
    const req = createRequire(import.meta.url);
    const dir = req.resolve('@cspell/dict-people-names/cspell-ext.json').replace(/cspell-ext\.json$/, '');
    for (const line of readFileSync(dir + 'dict/people-names.txt', 'utf8').split('\n')) {
      const w = line.trim();
      if (w && !w.startsWith('#')) last.add(norm(w));
    }
  } catch {
    // optional dictionary
  }
  for (const c of EXTRA_COUNTRIES) countries.add(c);
  // the countries in the languages the detectors read, from the runtime's CLDR data (a closed set: Faker's
  // lists miss "Jordanie", "Hungría", "Lettonia", …)
  for (const lang of ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl']) {
    const dn = new Intl.DisplayNames([lang], { type: 'region' });
    for (const code of getCountries()) {
      const name = dn.of(code);
      if (name && name !== code && !name.includes('(')) countries.add(norm(name));
    }
  }
  for (const w of COMMON_WORDS) {
    first.delete(w);
    last.delete(w);
  }
  dicts = { first, last, places, countries, countryFirsts: countryFirstSlots(countries) };
  return dicts;
}

const EXTRA_COUNTRIES = [
  'usa',
  'uk',
  'england',
  'scotland',
  'wales',
  'czech republic',
  'south africa',
  'cyprus (greek)',
  'united states',
  'united kingdom',
];

/** Frequent words that are also names in some dictionary; never a name on their own. */
export const COMMON_WORDS = new Set(
  (
    'the a an and or but if of to in on at by for with from as is are was were be been am i you he she it we they me him her us them my your his its our their this that these those ' +
    'what which who whom whose when where why how all any both each few more most other some such no nor not only own same so than too very can will just should now new one two ' +
    'may june april august march will mark grace hope joy faith summer winter autumn spring dawn rose lily ivy pearl ruby amber crystal daisy violet iris holly heather sky star ' +
    'bill bob rob pat sue art jack frank sandy rich earl duke king prince princess major miles page park gray grey green brown black white young long short small little hill wood ' +
    'stone field lane street road north south east west day night love angel baby honey sunny happy lucky christian christmas easter august sunday monday tuesday wednesday thursday ' +
    'friday saturday january february july september october november december please thanks hello hi dear regards best kind team customer client user admin support service ' +
    'account card bank money order number phone email address name date time status info data note notes help call contact new old good great nice happy well done very yes ok ' +
    'tool result results error message file path id type value key field table row column page web site home office work job title company inc ltd llc gmbh corp group ' +
    'unit box apt suite floor building house city state country zip code postal post mail first last middle full given family ' +
    // institutions and documents: capitalised in titles, never a person ("Social Security", "Marine Park Authority Annual Report")
    'social security authority annual report department ministry council committee board agency university school hospital museum station'
  ).split(/\s+/),
);

export const PARTICLES = new Set([
  'van',
  'de',
  'der',
  'den',
  'von',
  'bin',
  'binti',
  'da',
  'di',
  'du',
  'del',
  'della',
  'la',
  'le',
  'dos',
  'das',
  'ter',
  'ten',
  'al',
  'el',
  'y',
  'zu',
  'mac',
  'st.',
]);
/** A slot in Dicts.countryFirsts for a word's hash (see countryAt). */
export function wordHashSlot(h: number): number {
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
