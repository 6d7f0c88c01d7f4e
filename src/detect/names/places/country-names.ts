// Country names with a lower-case connector inside ("Bosnia and Herzegovina", "Isle of Man", "Sao Tome and
// Principe", "República de Corea", "Bosnien und Herzegowina"): the country scan (names/countries.ts) reads
// runs of capitalised words, and a place cue or a list reads "Bosnia" and "Herzegovina" as two places. Read
// from a place found at the name's first word, the longest run of up to seven words that the country list
// holds is one place.

import * as namesLexicon from '../lexicon.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { loadDicts, norm } = namesLexicon;

const CONNECTORS = new Set([
  'and',
  'of',
  'the',
  'und',
  'et',
  'y',
  'e',
  'da',
  'de',
  'del',
  'do',
  'dos',
  'das',
  'des',
  'du',
  'la',
  'le',
  'van',
  'het',
  'en',
  'di',
  'dei',
  '&',
]);

const WORD_AT = /[\p{L}&][\p{L}\p{M}'’.-]{0,30}/uy;

/** The first words of the country names that have a connector ("bosnia", "isle", "república"), built once. */
let firsts: Set<string> | undefined;
function connectorCountryFirsts(): Set<string> {
  if (firsts) return firsts;
  firsts = new Set<string>();
  for (const name of loadDicts().countries) {
    const words = name.split(' ');
    if (words.some((w) => CONNECTORS.has(w))) firsts.add(words[0]!);
  }
  return firsts;
}

/** The end of the longest country name with a connector that starts at s, or -1. Bounded: seven words. */
export function countryThrough(text: string, s: number): number {
  // (most places found are no such country's first word: one short slice says so)
  let e0 = s;
  while (e0 < text.length && e0 - s < 32 && text.charCodeAt(e0) !== 32) e0++;
  if (text.charCodeAt(e0) !== 32 || !connectorCountryFirsts().has(norm(text.slice(s, e0)))) return -1;
  const d = loadDicts();
  let p = s;
  let best = -1;
  let connectors = 0;
  for (let w = 0; w < 7; w++) {
    WORD_AT.lastIndex = p;
    const m = WORD_AT.exec(text);
    if (!m) break;
    const word = m[0];
    const e = p + word.length;
    if (CONNECTORS.has(word)) connectors++;
    else if (!/^\p{Lu}/u.test(word)) break;
    else if (connectors > 0 && d.countries.has(norm(text.slice(s, e)))) best = e;
    if (w === 0 && connectors > 0) break;
    if (text.charCodeAt(e) !== 32) break;
    p = e + 1;
  }
  return best;
}
