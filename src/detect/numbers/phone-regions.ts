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

/** Capitalised runs of 1-4 words in the window before `start` that name a country, nearest first (at most 2 regions). */
export function countryRegionsBefore(text: string, start: number): CountryCode[] {
  const from = Math.max(0, start - WINDOW);
  const window = text.slice(from, start);
  const out: CountryCode[] = [];
  const m = names();
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
