// The place of a dateline or a letter's heading: the capitalised name that opens a line before a comma and a
// date ("Mexicali, 12 de marzo de 2024", "Escholzmatt, le 12 mars 2024", "Maassluis, 12 maart 2024",
// "Bonn, den 3. Mai", "Kotor, 12.03.2024") or before a news agency's name and a dash ("Sunch’ŏn (Reuters) -"),
// and the same name after a place preposition that opens a signing formula ("Fait à Milton, le 3 juin 2024",
// "Dado en Lima, a 3 de mayo"). The date (day and a month's name in the seven languages, or a numeric
// date) says what the name is, so a town that is also a first name is read as well; a first and a last
// name together stay a person's ("Anna Berg, 12 March 2024").
//
// Bounded: per line, one look for its first comma (or an agency's parenthesis) in its first 64 code units, a
// sticky regex there, then at most 8 words of at most 31 code units read back from it.

import * as namesCharClasses from '../char-classes.ts';
import * as namesLexicon from '../lexicon.ts';
import * as namesPlaceCues from './cues.ts';
// Bound once (README.md, "Imports"): a named import is re-read and checked at every use in a loop.
const { letterAt, upperAt } = namesCharClasses;
const { COMMON_WORDS, loadDicts, norm } = namesLexicon;
const { hasPlaceWord, nameLooksLikePlace } = namesPlaceCues;

/** Month names (and their usual abbreviations) in en, de, fr, es, it, pt, nl. */
const MONTHS = new Set(
  (
    'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec ' +
    'januar jänner februar märz mai juni juli oktober dezember mär okt dez ' +
    'janvier février mars avril juin juillet août septembre octobre novembre décembre janv févr avr juil sept déc ' +
    'enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre ene abr ago dic ' +
    'gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre gen mag giu lug ott ' +
    'janeiro fevereiro março maio junho julho setembro outubro novembro dezembro fev out ' +
    'januari februari maart mei augustus oktober'
  ).split(' '),
);

/**
 * After a comma: an optional article ("le", "den", "am", "the", "el", "il", "a", "op"), a day and a month's
 * name ("12 de marzo", "3. Mai", "12th March"), a month and a day ("March 12"), or a numeric date.
 */
const DATE_AFTER_COMMA_AT =
  /,[ \t]{1,2}(?:(?:le|den|am|the|on|el|il|a|op|em|aos)[ \t]{1,2})?(?:\d{1,2}(?:\.|º|°|er|st|nd|rd|th)?[ \t]{1,2}(?:de[ \t]{1,2})?(\p{L}{3,10})|(\p{L}{3,10})\.?[ \t]{1,2}\d{1,2}(?!\d)|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}-\d\d-\d\d)/uy;

/** " (Reuters) -": a news agency's name in parentheses, then a dash. */
const AGENCY_DASH_AT = /[ \t]\(([\p{Lu}][\p{L}.]{1,11})\)[ \t]{0,2}[-–—]/uy;

/** Place prepositions that open a signing formula before the name: "Fait à", "Dado en", "Gegeben zu". */
const SIGNING_PREPOSITIONS = new Set(['à', 'a', 'in', 'en', 'em', 'at', 'zu', 'te']);

const CONNECTORS = new Set([
  'de',
  'la',
  'del',
  'di',
  'du',
  'le',
  'les',
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
  'en',
  'y',
  'i',
  'bei',
  'ob',
]);

/** The next comma and "(" at or after a line's start, each found by indexOf once for all lines of a text (O(n)); reset per text. */
export interface DatelineCursor {
  comma: number;
  paren: number;
}

export function newDatelineCursor(): DatelineCursor {
  return { comma: -2, paren: -2 };
}

/**
 * The place of a dateline or letter heading on the line [ls, le), pushed to `out` as [start, end). Only a line
 * that opens with a capital (or a bullet, a quote) is read, up to its first comma or " (" in 64 code units.
 */
export function datelineAt(text: string, ls: number, le: number, cur: DatelineCursor, out: number[]): void {
  let a = ls;
  while (a < le && a - ls < 6 && !letterAt(text, a)) a++;
  if (a >= le || !upperAt(text, a)) return;
  const stop = Math.min(le, a + 64);
  if (cur.comma !== -1 && cur.comma < a) cur.comma = text.indexOf(',', a);
  // (a one-character needle: indexOf(" (") reads the text several times slower)
  if (cur.paren !== -1 && cur.paren < a) cur.paren = text.indexOf('(', a);
  const c = cur.comma >= 0 && cur.comma < stop ? cur.comma : -1;
  const paren = cur.paren;
  const p =
    paren > a && paren < stop && (text.charCodeAt(paren - 1) === 32 || text.charCodeAt(paren - 1) === 9)
      ? paren - 1
      : -1;
  if (c >= 0 && (p < 0 || c < p)) {
    if (!mayStartDate(text, c)) return;
    DATE_AFTER_COMMA_AT.lastIndex = c;
    const m = DATE_AFTER_COMMA_AT.exec(text);
    const month = m ? (m[1] ?? m[2]) : undefined;
    if (m && (month === undefined || MONTHS.has(norm(month)))) readBack(text, c, out);
  } else if (p >= 0) {
    AGENCY_DASH_AT.lastIndex = p;
    if (AGENCY_DASH_AT.test(text)) readBack(text, p, out);
  }
}

/** Words that may follow a dateline's comma: the articles before a day, and the months (a day-first date starts with a digit). */
const AFTER_COMMA_WORDS = new Set(['le', 'den', 'am', 'the', 'on', 'el', 'il', 'a', 'op', 'em', 'aos', ...MONTHS]);

/** May a date follow the comma at c (a digit, or an article or a month's name, after one or two spaces)? Most commas of prose fail at the first letter. */
function mayStartDate(text: string, c: number): boolean {
  let a = c + 1;
  while (a < text.length && a - c <= 2 && (text.charCodeAt(a) === 32 || text.charCodeAt(a) === 9)) a++;
  if (a === c + 1 || a >= text.length) return false;
  const u = text.charCodeAt(a);
  if (u >= 48 && u <= 57) return true;
  let e = a;
  while (e < text.length && e - a <= 10 && letterAt(text, e)) e++;
  return e - a >= 1 && e - a <= 10 && AFTER_COMMA_WORDS.has(text.slice(a, e).toLowerCase());
}

/** The name (1-5 capitalised words, connectors between) that ends at `end` and opens its line or follows a signing preposition. */
function readBack(text: string, end: number, out: number[]): void {
  let s = end;
  let words = 0;
  let opened = false;
  for (let k = 0; k < 8; k++) {
    let ws = s;
    while (
      ws > 0 &&
      s - ws <= 31 &&
      (letterAt(text, ws - 1) ||
        text[ws - 1] === '-' ||
        text[ws - 1] === "'" ||
        text[ws - 1] === '’' ||
        text[ws - 1] === '.')
    )
      ws--;
    if (ws === s || s - ws > 31) return;
    const w = text.slice(ws, s);
    const before = ws === 0 ? '\n' : text[ws - 1]!;
    if (upperAt(text, ws)) words++;
    else if (words > 0 && SIGNING_PREPOSITIONS.has(w)) {
      // "Fait à Milton": the preposition is not part of the name
      opened = true;
      break;
    } else if (!(words > 0 && CONNECTORS.has(w))) return;
    s = ws;
    if (before === '\n' || before === '\r') {
      opened = true;
      break;
    }
    if (words >= 5 || (before !== ' ' && before !== '\t')) {
      // a heading's name may follow spaces, a bullet or a quote at the line's start
      opened = lineStartBefore(text, ws);
      break;
    }
    s--;
    while (s > 0 && (text[s - 1] === ' ' || text[s - 1] === '\t') && ws - s < 3) s--;
    if (s === 0) {
      opened = true;
      s = ws;
      break;
    }
  }
  if (!opened || words === 0) return;
  while (s < end && !upperAt(text, s)) s++;
  const v = text.slice(s, end);
  const parts = v.split(' ');
  if (v.length < 2 || !nameLooksLikePlace(v, true)) return;
  // a heading of frequent words is no place: "Weekly Report, 12 March 2024"
  if (parts.length > 1 && parts.some((w) => COMMON_WORDS.has(norm(w))) && !hasPlaceWord(v)) return;
  // "Anna Berg, 12 March 2024": a first and a last name are a person's
  const d = loadDicts();
  if (
    parts.length >= 2 &&
    d.first.has(norm(parts[0]!)) &&
    d.last.has(norm(parts[parts.length - 1]!)) &&
    !d.places.has(norm(v))
  )
    return;
  out.push(s, end);
}

/** Does the line of `p` hold only spaces, a bullet or a quote before it? */
function lineStartBefore(text: string, p: number): boolean {
  for (let q = p - 1; q >= 0 && p - q <= 4; q--) {
    const c = text[q]!;
    if (c === '\n' || c === '\r') return true;
    if (c !== ' ' && c !== '\t' && c !== '-' && c !== '*' && c !== '•' && c !== '"' && c !== '“' && c !== '>')
      return false;
    if (q === 0) return true;
  }
  return p === 0;
}
