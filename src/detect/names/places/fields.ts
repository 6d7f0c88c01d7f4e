// The value of a field that holds a place (`"city": "Lyon"`, `Abfahrt: Olmos 08:15`, `origin=Luzino`): what
// of it is a place. The field's key says so (names/places/address-rules.ts, PLACE_KEY_ALTERNATION), whatever the
// town; the value says when it is none: a path, a URL, an id ("eu-west-1"), a time, "TBD", "Online". A weak
// key ("origin", "where", "Abfahrt", "llegada") holds other things as often ("origin": "https://…",
// "Departure: delayed"), so its value must read as a name: capitalised words, no digits, up to a
// parenthesis, a dash or a number after it ("Salitrillos (45 min by car)", "Olmos 08:15").
//
// Bounded: a value is at most 80 characters (names/places/key-value.ts), read once.

import * as namesAddressRules from './address-rules.ts';
import * as namesCharClasses from '../char-classes.ts';
import * as namesLexicon from '../lexicon.ts';
import * as namesPlaceCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { TIME_WORD, WEAK_PLACE_KEYS } = namesAddressRules;
const { letterAt, upperAt } = namesCharClasses;
const { COMMON_WORDS, norm } = namesLexicon;
const { followedByLocator } = namesPlaceCues;

/** Values of a place field that name no place. */
const NOT_PLACE_VALUES = new Set(
  (
    'n/a na none null nil unknown undefined tbd tba tbc pending various any anywhere everywhere worldwide global international remote online virtual hybrid home other others all total ' +
    'today tomorrow tonight yesterday now soon later asap delayed cancelled canceled same yes no true false default local localhost'
  ).split(' '),
);

/**
 * The place in the value [vs, ve) of the field `key` (or of a table's cell under a header of that name,
 * `afterKey` false), as [start, end), or undefined. Keys of streets are not read here (the caller's).
 */
export function placeFieldValue(
  text: string,
  key: string,
  vs: number,
  ve: number,
  afterKey = true,
): [number, number] | undefined {
  const weak = WEAK_PLACE_KEYS.has(key.toLowerCase());
  // a value starts with a letter: "/var/log/…", "#3", "(none)" are no places
  if (!letterAt(text, vs)) return undefined;
  // a weak key's value is on the key's line ("Province:\nPostal Code: …" is an empty field), and no value ends
  // in a colon (the next label)
  if (text.charCodeAt(ve - 1) === 58) return undefined;
  if (weak && afterKey)
    for (let p = vs - 1; p >= 0 && vs - p <= 8; p--) {
      const c = text.charCodeAt(p);
      if (c === 10 || c === 13) return undefined;
      if (c !== 32 && c !== 9 && c !== 34 && c !== 39) break;
    }
  let e = ve;
  if (weak) {
    // a capitalised name (a caseless script's letter counts), up to a parenthesis, a dash or a number after it
    if (!upperAt(text, vs)) return undefined;
    for (let p = vs + 1; p < ve; p++) {
      const c = text.charCodeAt(p);
      if (
        c === 40 ||
        c === 91 ||
        c === 124 ||
        c === 8211 ||
        c === 8212 ||
        c === 8594 ||
        (c === 45 && text.charCodeAt(p - 1) === 32) ||
        (c >= 48 && c <= 57 && text.charCodeAt(p - 1) === 32)
      ) {
        e = p;
        break;
      }
      // a digit inside a word, an "@" or a "/" or "." between letters: an id, an address, a path, a host
      if ((c >= 48 && c <= 57) || c === 64 || c === 47 || c === 92 || (c === 46 && p + 1 < ve && letterAt(text, p + 1)))
        return undefined;
    }
    while (e > vs && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9 || text.charCodeAt(e - 1) === 44))
      e--;
    // "Office: Room 4B", "site: Building C": a locator inside a site
    if (e - vs < 2 || followedByLocator(text, e)) return undefined;
  }
  const v = text.slice(vs, e);
  const lower = v.toLowerCase();
  if (NOT_PLACE_VALUES.has(lower) || /REDACTED/i.test(v) || TIME_WORD.test(v)) return undefined;
  // "eu-west-1", "us-east1": no capital and a digit
  if (v === lower && /\d/.test(v)) return undefined;
  if (weak && COMMON_WORDS.has(norm(v.split(' ')[0]!)) && !v.includes(' ')) return undefined;
  return [vs, e];
}
